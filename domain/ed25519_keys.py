"""Which Ed25519 public keys and signatures are accepted (docs/audit.md, "Player signatures",
"Weak keys"; docs/api.md, "Signed moves"): the one rule for a player's key at a join, a key
recorded in a ``SeatJoined``, a key a verifier pins (``gameledger verify --key/--keys``) or a
record carries, and every signature checked under any of them.

RFC 8032 verification, as OpenSSL (hence the ``cryptography`` package) does it, accepts a
public key of **small order**: the identity point ``AQAA…AA`` (y = 1) with the signature
``AQAA…AA`` (R = the identity, S = 0) verifies for *every* message, and 32 zero bytes (a point
of order 4) for one message in four. A "signed" move under such a key proves nothing. So the
service follows libsodium's ``crypto_sign_verify_detached``, which refuses them:

* the encoding must be **canonical**: with y the low 255 bits read little-endian, y < p
  (p = 2^255 - 19); and it must be a point of the curve (RFC 8032, 5.1.3: x^2 =
  (y^2 - 1) / (d y^2 + 1) has a root, and x = 0 has no negative spelling);
* the point must not be of **small order** (one of the eight points P with 8·P = the
  identity): y is then one of 0, 1, p - 1 and the two :data:`SMALL_ORDER_Y` of order 8 —
  whatever the sign bit, as libsodium's blocklist compares them;
* a signature whose R (its first 32 bytes) is a small-order point is refused too (defence in
  depth, as libsodium does: such an R is what every forgery under a weak key uses).

Pure arithmetic on integers (no I/O); the signature itself is checked by ``cryptography``."""

from __future__ import annotations

from typing import Final

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

P: Final = 2**255 - 19
"""The field's prime."""
D: Final = -121665 * pow(121666, P - 2, P) % P
"""The curve's constant d (RFC 8032, 5.1)."""
SQRT_M1: Final = pow(2, (P - 1) // 4, P)
"""A square root of -1 modulo p."""

SMALL_ORDER_Y: Final = frozenset(
    {
        0,
        1,
        P - 1,
        2707385501144840649318225287225658788936804267575313519463743609750303402022,
        55188659117513257062467267217118295137698188065244968500265048394206261417927,
    }
)
"""The y coordinates of the eight points of small order (libsodium's blocklist, reduced):
y = 1 the identity, p - 1 the point of order 2, 0 the two of order 4, and the other two the
four of order 8 (tests/unit/test_ed25519_keys.py checks that 8·P is the identity for each, and
that there are no others)."""

KEY_BYTES: Final = 32
SIGNATURE_BYTES: Final = 64


def _y_and_sign(encoded: bytes) -> tuple[int, int]:
    number = int.from_bytes(encoded, "little")
    return number & ((1 << 255) - 1), number >> 255


def point_x(encoded: bytes) -> int | None:
    """The x coordinate of the point that ``encoded`` (32 bytes) writes, or ``None`` when it
    writes none: a y of at least p, a y with no point, or x = 0 with the sign bit set
    (RFC 8032, 5.1.3)."""
    if len(encoded) != KEY_BYTES:
        return None
    y, sign = _y_and_sign(encoded)
    if y >= P:
        return None
    u = (y * y - 1) % P
    v = (D * y * y + 1) % P
    square = u * pow(v, P - 2, P) % P
    x = pow(square, (P + 3) // 8, P)
    if (x * x - square) % P != 0:
        x = x * SQRT_M1 % P
    if (x * x - square) % P != 0:
        return None
    if x == 0 and sign == 1:
        return None
    return x if x % 2 == sign else P - x


def has_small_order(encoded: bytes) -> bool:
    """Whether ``encoded`` names a point of small order, spelled canonically or not (its y,
    the sign bit ignored, reduced modulo p, is one of :data:`SMALL_ORDER_Y`)."""
    y, _ = _y_and_sign(encoded)
    return y % P in SMALL_ORDER_Y


def key_refusal(raw: bytes) -> str | None:
    """Why the 32 bytes ``raw`` are not an acceptable Ed25519 public key, or ``None`` when
    they are one (module docstring)."""
    if len(raw) != KEY_BYTES:
        return f"it is {len(raw)} bytes, not {KEY_BYTES}"
    y, _ = _y_and_sign(raw)
    if y >= P:
        return "it is not canonical (its y is not below 2^255 - 19)"
    if has_small_order(raw):
        return (
            "it is a point of small order (8*P is the identity), under which a signature "
            "proves nothing"
        )
    if point_x(raw) is None:
        return "it is not a point of the curve"
    return None


def verify(public_raw: bytes, signature: bytes, message: bytes) -> bool:
    """Whether ``signature`` is a valid Ed25519 signature of ``message`` under the acceptable
    key ``public_raw``: ``False`` for a key :func:`key_refusal` refuses, a signature whose R
    is of small order, or one that does not verify (RFC 8032)."""
    if key_refusal(public_raw) is not None or len(signature) != SIGNATURE_BYTES:
        return False
    if has_small_order(signature[:32]):
        return False
    try:
        Ed25519PublicKey.from_public_bytes(public_raw).verify(signature, message)
    except InvalidSignature:
        return False
    return True
