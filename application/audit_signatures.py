"""Players' signatures in a game record checked again (issue 14, part 5; docs/audit.md,
"Player signatures"): a ``SeatJoined`` may register the player's Ed25519 public key, and then
every ``MoveMade`` of that seat must carry the player's signature over
``{"game", "version": the MoveMade's version - 1, "move": the recorded move}``, checked by the
very function the game checks a move with when it is made
(:func:`domain.move_signatures.check_move_signature`). The one exception: the moves the
service's bot makes for a resigned seat (:mod:`domain.lobby`) are the service's, never signed.
A signature on a move of a seat without a key is a discrepancy too: the service refuses such a
move (``unexpected-signature``). The referee that follows the record
(:class:`application.audit_rules.Referee`) is seen through :class:`SignatureReferee`."""

from __future__ import annotations

from typing import Any, Protocol

from application.audit_format import Discrepancy, show
from domain.ed25519_keys import key_refusal
from domain.errors import GameError
from domain.move_signatures import (
    PUBLIC_KEY_BYTES,
    check_move_signature,
    decode_b64url,
    public_key_of,
)


class SignatureReferee(Protocol):
    """What the signature checks need of the referee that follows a record."""

    record: dict[str, Any]
    resigned: list[int]
    keys: list[str | None]
    """Each seat's registered public key (``None``: none), as its last ``SeatJoined`` says."""
    signed: int
    """How many signatures were checked."""


def seat_joined(referee: SignatureReferee, item: dict[str, Any], seat: int) -> None:
    """A seat taken: its ``public_key``, when recorded, must be an Ed25519 public key the
    service accepts (not of small order, canonical: :mod:`domain.ed25519_keys`); it is
    the seat's key from here on (a seat left and taken again has the key of its new
    ``SeatJoined``, or none)."""
    key = item["data"].get("public_key")
    if key is not None:
        try:
            public_key_of(key)
        except GameError:
            raw = decode_b64url(key, PUBLIC_KEY_BYTES)
            why = (
                "unpadded base64url of 32 bytes"
                if raw is None
                else f"the service refuses it: {key_refusal(raw)}"
            )
            raise Discrepancy(
                f"data.public_key {show(key)} is not an Ed25519 public key ({why})",
                item["version"],
                item["type"],
            ) from None
    referee.keys[seat] = key


def move_made(referee: SignatureReferee, item: dict[str, Any], seat: int) -> None:
    """A move, already read as the rules write it: a seat with a key signed it over the
    version before this event; a resigned seat's bot move and a seat without a key carry no
    signature."""
    data = item["data"]
    version = item["version"]
    signature = data.get("signature")
    if seat in referee.resigned:
        if signature is not None:
            raise Discrepancy(
                f"data.signature is recorded on the bot's move for resigned seat {seat}: the "
                "service makes those moves itself, unsigned",
                version,
                "MoveMade",
            )
        return
    key = referee.keys[seat]
    game_id = str(referee.record["game"]["id"])
    try:
        check_move_signature(
            key, signature, game_id=game_id, version=version - 1, move=data["move"]
        )
    except GameError as error:
        raise Discrepancy(_why(error.code, seat, game_id, version), version, "MoveMade") from None
    if key is not None:
        referee.signed += 1


def _why(code: str, seat: int, game_id: str, version: int) -> str:
    """The discrepancy of a refused signature, in the verifier's words."""
    if code == "signature-required":
        return (
            f"data.signature is missing: seat {seat} registered a public key, so each of its "
            "moves must carry the player's signature"
        )
    if code == "unexpected-signature":
        return f"data.signature is recorded, but seat {seat} registered no public key"
    return (
        f"data.signature does not verify under seat {seat}'s public key: it is not the "
        f"player's signature of data.move decided on version {version - 1} of game {game_id}"
    )
