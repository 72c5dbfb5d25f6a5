"""Weak Ed25519 keys and signatures refused (domain/ed25519_keys.py; docs/audit.md, "Weak
keys"): the small-order points checked here with a tiny point arithmetic of the curve
(8·P is the identity for each, and there are no others), against libsodium's published
blocklist, and the forgery they allow — the identity key with the signature ``AQAA…AA``
verifies for every message under plain RFC 8032 (OpenSSL) — refused."""

from __future__ import annotations

import base64

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from domain import ed25519_keys
from domain.ed25519_keys import SMALL_ORDER_Y, D, P, has_small_order, key_refusal, point_x, verify
from domain.move_signatures import SignatureError, check_move_signature, public_key_of

Point = tuple[int, int]
IDENTITY: Point = (0, 1)

LIBSODIUM_BLOCKLIST = [
    "0000000000000000000000000000000000000000000000000000000000000000",  # 0 (order 4)
    "0100000000000000000000000000000000000000000000000000000000000000",  # 1 (order 1)
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",  # order 8
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",  # order 8
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # p - 1 (order 2)
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # p (= 0, order 4)
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # p + 1 (= 1, order 1)
]
"""libsodium's ``ge25519_has_small_order`` blocklist (src/libsodium/crypto_core/ed25519/
ref10/ed25519_ref10.c), byte for byte; compared with the sign bit cleared."""

IDENTITY_KEY = "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
ZERO_KEY = "A" * 43
FORGED = base64.urlsafe_b64encode(b"\x01" + bytes(63)).rstrip(b"=").decode()
"""R = the identity, S = 0: valid under the identity key for every message (RFC 8032)."""


def add(a: Point, b: Point) -> Point:
    """Twisted Edwards addition (a = -1), complete on edwards25519."""
    (x1, y1), (x2, y2) = a, b
    t = D * x1 * x2 * y1 * y2 % P
    x3 = (x1 * y2 + x2 * y1) * pow(1 + t, P - 2, P) % P
    y3 = (y1 * y2 + x1 * x2) * pow(1 - t, P - 2, P) % P
    return x3, y3


def times(n: int, point: Point) -> Point:
    result = IDENTITY
    for _ in range(n):
        result = add(result, point)
    return result


def encode(y: int, sign: int = 0) -> bytes:
    return (y | sign << 255).to_bytes(32, "little")


def decoded(raw: bytes) -> Point:
    x = point_x(raw)
    assert x is not None
    return x, int.from_bytes(raw, "little") & ((1 << 255) - 1)


def public_raw(private: Ed25519PrivateKey) -> bytes:
    return private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def test_the_curve_arithmetic_is_the_curves() -> None:
    """Sanity of the test's arithmetic: RFC 8032's base point is on the curve, and the
    decoder finds its x (RFC 8032, 5.1)."""
    y = 4 * pow(5, P - 2, P) % P
    x = 15112221349535400772501151409588531511454012693041857206046113283949847762202
    assert (-x * x + y * y - 1 - D * x * x * y * y) % P == 0
    assert point_x(encode(y)) == x
    assert times(8, (x, y)) != IDENTITY


def test_every_listed_y_is_a_point_of_small_order() -> None:
    for y in SMALL_ORDER_Y:
        for sign in (0, 1):
            raw = encode(y, sign)
            if point_x(raw) is None:  # x = 0 has no negative spelling (y = 1, p - 1)
                assert y in {1, P - 1} and sign == 1
                continue
            assert times(8, decoded(raw)) == IDENTITY
            assert has_small_order(raw) and key_refusal(raw) is not None


def test_there_are_no_other_small_order_points() -> None:
    """The points with 8·P = the identity form a cyclic group of order 8 (the curve's group
    is Z/8 x Z/l): the multiples of one point of order 8 are all of them."""
    order8 = decoded(encode(min(y for y in SMALL_ORDER_Y if y > 1 and y != P - 1)))
    multiples = {times(k, order8) for k in range(8)}
    assert len(multiples) == 8 and times(8, order8) == IDENTITY
    assert {y for _, y in multiples} == SMALL_ORDER_Y


def test_the_list_is_libsodiums() -> None:
    listed = {int.from_bytes(bytes.fromhex(h), "little") & ((1 << 255) - 1) for h in (
        LIBSODIUM_BLOCKLIST
    )}  # fmt: skip
    assert {y % P for y in listed} == SMALL_ORDER_Y
    for spelling in LIBSODIUM_BLOCKLIST:
        raw = bytes.fromhex(spelling)
        assert has_small_order(raw) and key_refusal(raw) is not None
        top = bytes([*raw[:31], raw[31] | 0x80])  # the sign bit set: the same y
        assert has_small_order(top) and key_refusal(top) is not None


def test_openssl_alone_accepts_the_forgery_and_this_module_refuses_it() -> None:
    """Why the rule exists: plain RFC 8032 verification takes the identity key's forgery."""
    identity = base64.urlsafe_b64decode(IDENTITY_KEY + "=")
    forged = base64.urlsafe_b64decode(FORGED + "==")
    for message in (b"any message", b'{"game":"x","move":{},"version":1}'):
        Ed25519PublicKey.from_public_bytes(identity).verify(forged, message)  # no error
        assert not verify(identity, forged, message)


def test_non_canonical_and_off_curve_encodings_are_refused() -> None:
    for y in (P + 2, P + 5, 2**255 - 1):
        assert key_refusal(encode(y)) == "it is not canonical (its y is not below 2^255 - 19)"
    off = next(encode(y) for y in range(2, 100) if point_x(encode(y)) is None)
    assert key_refusal(off) == "it is not a point of the curve"
    assert key_refusal(bytes(31)) == "it is 31 bytes, not 32"


def test_a_real_key_and_signature_pass() -> None:
    private = Ed25519PrivateKey.generate()
    raw = public_raw(private)
    assert key_refusal(raw) is None and not has_small_order(raw)
    signature = private.sign(b"m")
    assert verify(raw, signature, b"m") and not verify(raw, signature, b"n")


def test_a_signature_whose_r_has_small_order_is_refused() -> None:
    """Defence in depth (libsodium does the same): no genuine signature has such an R."""
    private = Ed25519PrivateKey.generate()
    raw = public_raw(private)
    for spelling in LIBSODIUM_BLOCKLIST:
        signature = bytes.fromhex(spelling) + private.sign(b"m")[32:]
        assert not verify(raw, signature, b"m")
    assert ed25519_keys.has_small_order(base64.urlsafe_b64decode(FORGED + "==")[:32])


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@pytest.mark.parametrize(
    "key",
    [IDENTITY_KEY, ZERO_KEY, b64(encode(P - 1)), b64(encode(P)), b64(encode(P + 1)),
     b64(encode(2**255 - 1))],
    ids=["identity", "zeros", "order 2", "p", "p + 1", "y too large"],
)  # fmt: skip
def test_a_player_cannot_register_a_weak_key(key: str) -> None:
    with pytest.raises(SignatureError) as refused:
        public_key_of(key)
    assert refused.value.code == "bad-public-key"


def test_a_weak_keys_forged_move_is_refused() -> None:
    """The outside trial's attack on a seat that registered the identity key: refused when
    the key is checked, and the forged signature refused under any key."""
    with pytest.raises(SignatureError) as refused:
        check_move_signature(IDENTITY_KEY, FORGED, game_id="g", version=4, move={"t": 1})
    assert refused.value.code == "bad-public-key"
    private = Ed25519PrivateKey.generate()
    key = b64(public_raw(private))
    with pytest.raises(SignatureError) as bad:
        check_move_signature(key, FORGED, game_id="g", version=4, move={"t": 1})
    assert bad.value.code == "bad-signature" and "small order" in bad.value.message
