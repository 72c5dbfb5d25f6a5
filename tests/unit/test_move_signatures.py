"""The one definition of what a player signs and the one check of a signature
(domain/move_signatures.py; docs/api.md, "Signed moves"), against a key made here."""

from __future__ import annotations

import base64
import json

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from domain.chain import canonical_json
from domain.move_signatures import (
    SignatureError,
    check_move_signature,
    decode_b64url,
    public_key_of,
    signed_move_message,
)

GAME = "0b7c6a52-5d4e-4b8e-9a5e-3f1d2c4b5a69"
MOVE = {"type": "take", "source": 2, "colour": "R", "line": 2}


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def keypair() -> tuple[Ed25519PrivateKey, str]:
    private = Ed25519PrivateKey.generate()
    public = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return private, b64url(public)


def test_the_signed_message_is_the_canonical_json_of_game_version_and_move() -> None:
    message = signed_move_message(GAME, 4, MOVE)
    assert message == (
        b'{"game":"0b7c6a52-5d4e-4b8e-9a5e-3f1d2c4b5a69",'
        b'"move":{"colour":"R","line":2,"source":2,"type":"take"},"version":4}'
    )
    assert message == canonical_json({"move": MOVE, "version": 4, "game": GAME})
    assert json.loads(message) == {"game": GAME, "version": 4, "move": MOVE}


def test_canonical_json_escapes_every_non_ascii_character() -> None:
    assert canonical_json({"name": "Zoë 🎲", "n": [1, True, None]}) == (
        b'{"n":[1,true,null],"name":"Zo\\u00eb \\ud83c\\udfb2"}'
    )


def test_a_signature_by_the_seat_key_over_that_message_passes() -> None:
    private, public = keypair()
    signature = b64url(private.sign(signed_move_message(GAME, 4, MOVE)))
    assert len(signature) == 86 and len(public) == 43
    check_move_signature(public, signature, game_id=GAME, version=4, move=MOVE)


@pytest.mark.parametrize(
    "change",
    [
        {"version": 5},
        {"game_id": "0b7c6a52-5d4e-4b8e-9a5e-3f1d2c4b5a6a"},
        {"move": {**MOVE, "line": 3}},
    ],
)
def test_a_signature_of_another_version_game_or_move_is_refused(change: dict[str, object]) -> None:
    private, public = keypair()
    signature = b64url(private.sign(signed_move_message(GAME, 4, MOVE)))
    asked: dict[str, object] = {"game_id": GAME, "version": 4, "move": MOVE, **change}
    with pytest.raises(SignatureError) as refused:
        check_move_signature(public, signature, **asked)  # type: ignore[arg-type]
    assert refused.value.code == "bad-signature"
    assert signed_move_message(str(asked["game_id"]), asked["version"], asked["move"]).decode() in (  # type: ignore[arg-type]
        refused.value.message
    )


def test_another_key_a_malformed_or_a_missing_signature_is_refused() -> None:
    private, public = keypair()
    other, _ = keypair()
    message = signed_move_message(GAME, 4, MOVE)
    good = b64url(private.sign(message))
    for signature in (b64url(other.sign(message)), good + "=", good[:-1], "!" * 86, good[::-1]):
        with pytest.raises(SignatureError) as refused:
            check_move_signature(public, signature, game_id=GAME, version=4, move=MOVE)
        assert refused.value.code == "bad-signature"
    with pytest.raises(SignatureError) as missing:
        check_move_signature(public, None, game_id=GAME, version=4, move=MOVE)
    assert missing.value.code == "signature-required"
    assert message.decode() in missing.value.message


def test_a_seat_without_a_key_sends_no_signature() -> None:
    check_move_signature(None, None, game_id=GAME, version=4, move=MOVE)
    with pytest.raises(SignatureError) as refused:
        check_move_signature(None, "AAAA", game_id=GAME, version=4, move=MOVE)
    assert refused.value.code == "unexpected-signature"


@pytest.mark.parametrize(
    "text",
    ["", "A" * 42, "A" * 44, "A" * 42 + "B=", "A" * 42 + "+", "A" * 42 + "B", 12, None],
)
def test_a_public_key_is_32_bytes_of_canonical_unpadded_base64url(text: object) -> None:
    """``"A" * 42 + "B"`` decodes to 32 bytes but is not the canonical spelling of them (its
    last character carries bits past the 256th): one spelling per key."""
    with pytest.raises(SignatureError) as refused:
        public_key_of(text)
    assert refused.value.code == "bad-public-key"
    _, public = keypair()
    assert public_key_of(public) == decode_b64url(public, 32)
    assert decode_b64url("A" * 43, 32) == bytes(32)
