"""Players' signatures on their moves (issue 14, part 5; docs/api.md, "Signed moves";
docs/audit.md, "Player signatures"): the one definition of what a player signs, and the one
check of a signature, used by the game when a move is made (:meth:`domain.game.Game.play`)
and by the record verifier for every recorded move (:mod:`application.audit_signatures`).

A seat may register an Ed25519 public key (RFC 8032) when it is taken; it is recorded in the
``SeatJoined`` event, so it is public and in the hash chain. Every move that seat then sends
carries a signature over :func:`signed_move_message`::

    canonical_json({"game": <game id>, "version": <the version the move was decided on>,
                    "move": <the move's JSON as the rules write it>})

``canonical_json`` is the hash chain's form (:func:`domain.chain.canonical_json`: sorted keys,
no spaces, ASCII with ``\\uXXXX`` escapes). Keys and signatures are unpadded base64url
(RFC 4648 section 5, RFC 8037's form of an Ed25519 key), read strictly: one spelling per
value, so a record holds no two spellings of one signature. A key of small order or not
canonical, and a signature whose R is of small order, are refused
(:mod:`domain.ed25519_keys`, libsodium's rules): under such a key a signature proves nothing.

The moves the service makes for a seat itself — the bot playing out a resigned seat
(:mod:`domain.lobby`) — are not the player's and are never signed.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Mapping
from typing import Any, Final

from domain import ed25519_keys
from domain.chain import canonical_json
from domain.errors import GameError

PUBLIC_KEY_BYTES: Final = 32
SIGNATURE_BYTES: Final = 64
_B64URL = re.compile(r"[A-Za-z0-9_-]*")


class SignatureError(GameError):
    """A public key or a move's signature the service refuses (422): ``bad-public-key``,
    ``signature-required``, ``bad-signature``, ``unexpected-signature``."""


def signed_move_message(game_id: str, version: int, move: Mapping[str, Any]) -> bytes:
    """The bytes a player signs for a move of game ``game_id`` decided on ``version`` (the
    game's version when the move is made: its ``MoveMade`` gets ``version + 1``); ``move`` is
    the move's JSON exactly as the rules write it (as the legal moves list it and the record
    shows it).

    >>> signed_move_message("7e0d", 4, {"type": "take", "source": 2, "colour": "R", "line": 2})
    b'{"game":"7e0d","move":{"colour":"R","line":2,"source":2,"type":"take"},"version":4}'
    """
    return canonical_json({"game": game_id, "version": version, "move": dict(move)})


def decode_b64url(text: object, size: int) -> bytes | None:
    """The ``size`` bytes that ``text`` writes in unpadded base64url, or ``None`` when it is
    anything else (another length, padding, a character outside the alphabet, or a spelling
    that is not the canonical one of its bytes).

    >>> decode_b64url("AAEC", 3)
    b'\\x00\\x01\\x02'
    >>> decode_b64url("AAEC==", 3) is None, decode_b64url("AAED", 3) is None
    (True, False)
    """
    if not isinstance(text, str) or not _B64URL.fullmatch(text):
        return None
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except ValueError:
        return None
    if len(raw) != size or base64.urlsafe_b64encode(raw).rstrip(b"=").decode() != text:
        return None
    return raw


def public_key_of(text: object) -> bytes:
    """The raw 32 bytes of the Ed25519 public key ``text`` writes (unpadded base64url), when
    it is one the service accepts (:func:`domain.ed25519_keys.key_refusal`: canonical, on the
    curve, not of small order); ``bad-public-key`` otherwise. The one check of a player's key:
    at a join, and in ``verify`` for every recorded key."""
    raw = decode_b64url(text, PUBLIC_KEY_BYTES)
    if raw is None:
        raise SignatureError(
            "bad-public-key",
            "public_key must be an Ed25519 public key: its raw 32 bytes in unpadded base64url "
            "(43 characters of A-Z a-z 0-9 - _).",
        )
    refusal = ed25519_keys.key_refusal(raw)
    if refusal is not None:
        raise SignatureError(
            "bad-public-key",
            f"public_key is refused: {refusal}. Send the public key of an Ed25519 key pair "
            "you made (docs/api.md, 'Signed moves').",
        )
    return raw


def check_move_signature(
    public_key: str | None,
    signature: str | None,
    *,
    game_id: str,
    version: int,
    move: Mapping[str, Any],
) -> None:
    """A move of a seat whose registered key is ``public_key`` (``None``: the seat has none)
    with ``signature`` (``None``: unsigned), decided on ``version``: a seat with a key must
    send a signature that verifies over :func:`signed_move_message` (``signature-required``,
    ``bad-signature``), a seat without one sends none (``unexpected-signature``)."""
    if public_key is None:
        if signature is not None:
            raise SignatureError(
                "unexpected-signature",
                "This seat registered no public key when it joined, so its moves are not "
                "signed: send the move without 'signature'.",
            )
        return
    message = signed_move_message(game_id, version, move)
    if signature is None:
        raise SignatureError(
            "signature-required",
            "This seat registered a public key: sign every move (docs/api.md, 'Signed moves'). "
            f"Sign these bytes: {message.decode('ascii')}",
        )
    key = public_key_of(public_key)
    raw = decode_b64url(signature, SIGNATURE_BYTES)
    if raw is None:
        raise SignatureError(
            "bad-signature",
            "signature must be an Ed25519 signature: its 64 bytes in unpadded base64url.",
        )
    if ed25519_keys.has_small_order(raw[:32]):
        raise SignatureError(
            "bad-signature",
            "The signature's R (its first 32 bytes) is a point of small order: such a "
            "signature is refused whatever it signs (docs/api.md, 'Signed moves').",
        )
    if not ed25519_keys.verify(key, raw, message):
        raise SignatureError(
            "bad-signature",
            "The signature does not verify under this seat's public key. The bytes to sign "
            f"are: {message.decode('ascii')}",
        )
