"""``verify`` checks the players' signatures (issue 14, part 5; docs/audit.md, "Player
signatures"): every tampering with a signed move is caught at its event, even when every
link of the chain was recomputed — a forged or changed signature, a dropped one, another move
under a kept signature, a whole game replayed from the seed with another move, a key swapped,
a signature added where none belongs."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from application import lobby
from application.records import export_record
from application.service import GameLedger
from application.verification import verify_record
from tests.application.test_verification import failed_at, first, rehash
from tests.helpers import start_game
from tests.signed import PlayerKey, SignedTable, b64url, signed_game


@pytest.fixture(scope="module")
def signed_record() -> dict[str, Any]:
    """A finished two-player Azul game whose seat 0 signed its moves (seat 1 has no key)."""
    app = GameLedger()
    table = signed_game(app, keyed=(0,), seed="signed-record")
    table.play_out()
    return export_record(app, table.game_id)


@pytest.fixture
def record(signed_record: dict[str, Any]) -> dict[str, Any]:
    """A copy free to alter."""
    return copy.deepcopy(signed_record)


def seat_moves(record: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    return [e for e in record["events"] if e["type"] == "MoveMade" and e["data"]["seat"] == seat]


def test_the_signed_record_verifies(record: dict[str, Any]) -> None:
    report = verify_record(record)
    assert report.ok, report.discrepancy
    assert report.signatures_checked == len(seat_moves(record, 0)) > 0


def test_a_changed_signature_is_caught(record: dict[str, Any]) -> None:
    target = seat_moves(record, 0)[3]
    raw = bytearray(target["data"]["signature"].encode())
    raw[10] = ord("A") if raw[10] != ord("A") else ord("B")
    target["data"]["signature"] = raw.decode()
    message = failed_at(verify_record(rehash(record)), target["version"], "MoveMade")
    assert "data.signature does not verify under seat 0's public key" in message


def test_a_signature_forged_with_another_key_is_caught(record: dict[str, Any]) -> None:
    """The service (or anyone) signing in the player's place: any key but the player's."""
    target = seat_moves(record, 0)[0]
    forger = PlayerKey()
    target["data"]["signature"] = forger.sign(
        record["game"]["id"], target["version"] - 1, target["data"]["move"]
    )
    message = failed_at(verify_record(rehash(record)), target["version"], "MoveMade")
    assert "does not verify" in message and f"decided on version {target['version'] - 1}" in message


def test_a_dropped_signature_is_caught(record: dict[str, Any]) -> None:
    target = seat_moves(record, 0)[2]
    del target["data"]["signature"]
    message = failed_at(verify_record(rehash(record)), target["version"], "MoveMade")
    assert message.endswith(
        "data.signature is missing: seat 0 registered a public key, so each of its moves must "
        "carry the player's signature"
    )


def test_another_move_under_a_kept_signature_is_caught(record: dict[str, Any]) -> None:
    """A player's first move replaced by another legal one, its signature kept: the signature
    is checked before the rules decide the move, and names it."""
    target = seat_moves(record, 0)[0]
    app = GameLedger()  # the same game up to that move, to list its legal moves
    game_id = app.create_game("azul", 2, seed="signed-record")
    tokens = [app.join(game_id, f"p{n}", n).token for n in range(2)]
    legal = app.legal_moves(game_id, tokens[0])["moves"]
    other = next(m for m in legal if m["move"] != target["data"]["move"])
    target["data"]["move"], target["data"]["notation"] = other["move"], other["notation"]
    message = failed_at(verify_record(rehash(record)), target["version"], "MoveMade")
    assert "data.signature does not verify" in message


def test_a_game_replayed_from_the_seed_with_another_move_is_caught(
    record: dict[str, Any],
) -> None:
    """Issue 14's forgery, against a signed game: the seed is public once the game ends, so
    a forger plays another legal game from it — consistent in every rule — and copies the
    player's key and signatures onto it. Without the signatures it verifies (that is the
    forgery); with them, the first move the player did not make is caught."""
    app = GameLedger()
    forged_table = start_game(app, 2, seed="signed-record")
    legal = app.legal_moves(forged_table.game_id, forged_table.tokens[0])["moves"]
    original_first = seat_moves(record, 0)[0]["data"]["move"]
    other = next(m for m in legal if m["move"] != original_first)
    version, acting = app.whose_turn(forged_table.game_id)
    assert acting == [0]
    app.play(forged_table.game_id, forged_table.tokens[0], other["move"], version)
    forged_table.play_out()
    forged = export_record(app, forged_table.game_id)
    forged["game"]["id"] = record["game"]["id"]
    for item in forged["events"]:  # the same game id and times as the real one
        item["timestamp"] = record["events"][0]["timestamp"]
    forged["game"]["created_at"] = record["events"][0]["timestamp"]
    for item in forged["moves"]:
        item["at"] = record["events"][0]["timestamp"]
    forged["seats"] = record["seats"]
    for mine, theirs in zip(
        [e for e in forged["events"] if e["type"] == "SeatJoined"],
        [e for e in record["events"] if e["type"] == "SeatJoined"],
        strict=True,
    ):
        mine["data"] = copy.deepcopy(theirs["data"])
    unsigned = copy.deepcopy(forged)
    for item in seat_moves(unsigned, 0):
        item["data"].pop("signature", None)
    for item in unsigned["events"]:
        item["data"].pop("public_key", None)
    assert verify_record(rehash(unsigned)).ok  # the forgery, where nobody signed
    for mine, theirs in zip(seat_moves(forged, 0), seat_moves(record, 0), strict=False):
        mine["data"]["signature"] = theirs["data"]["signature"]
    target = seat_moves(forged, 0)[0]
    message = failed_at(verify_record(rehash(forged)), target["version"], "MoveMade")
    assert "data.signature does not verify under seat 0's public key" in message


def test_a_swapped_public_key_is_caught(record: dict[str, Any]) -> None:
    """A forger who registers a key of their own in the player's place must re-sign every
    move with it: the first move still signed by the player's key is caught (and the record
    no longer carries the key the player registered: whoever kept it sees the swap)."""
    joined = first(record, "SeatJoined")
    joined["data"]["public_key"] = PlayerKey().public
    target = seat_moves(record, 0)[0]
    message = failed_at(verify_record(rehash(record)), target["version"], "MoveMade")
    assert "data.signature does not verify" in message


def test_a_malformed_public_key_is_caught(record: dict[str, Any]) -> None:
    joined = first(record, "SeatJoined")
    joined["data"]["public_key"] = "not a key"
    message = failed_at(verify_record(rehash(record)), joined["version"], "SeatJoined")
    assert "data.public_key" in message and "not an Ed25519 public key" in message


@pytest.mark.parametrize(
    "weak",
    [
        "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "A" * 43,
        "7f_______________________________________38",
    ],
    ids=["identity", "zeros", "not canonical"],
)
def test_a_record_whose_seat_registered_a_weak_key_is_invalid(
    record: dict[str, Any], weak: str
) -> None:
    """The outside trial: a seat with the identity key and every move "signed" ``AQAA…AA``
    (R = the identity, S = 0), which plain RFC 8032 accepts for any message. The service no
    longer takes such a key; a record that carries one is refused at its SeatJoined."""
    joined = first(record, "SeatJoined")
    joined["data"]["public_key"] = weak
    for move in seat_moves(record, 0):
        move["data"]["signature"] = "AQ" + "A" * 84
    message = failed_at(verify_record(rehash(record)), joined["version"], "SeatJoined")
    assert "data.public_key" in message and "not an Ed25519 public key" in message


def test_a_signature_on_a_seat_without_a_key_is_caught(record: dict[str, Any]) -> None:
    target = seat_moves(record, 1)[0]
    target["data"]["signature"] = b64url(bytes(64))
    message = failed_at(verify_record(rehash(record)), target["version"], "MoveMade")
    assert message.endswith("data.signature is recorded, but seat 1 registered no public key")


def test_a_signature_that_is_not_text_is_caught(record: dict[str, Any]) -> None:
    target = seat_moves(record, 0)[1]
    target["data"]["signature"] = 12
    message = failed_at(verify_record(rehash(record)), target["version"], "MoveMade")
    assert "data.signature does not verify" in message


def test_a_signature_on_a_resigned_seat_bot_move_is_caught() -> None:
    app = GameLedger()
    table = signed_game(app, 3, seed="signed-bot")
    table.step()
    lobby.resign(app, table.game_id, table.tokens[2])
    SignedTable(app, table.game_id, table.tokens, keys=table.keys).play_out()
    record = export_record(app, table.game_id)
    assert verify_record(record).ok
    target = seat_moves(record, 2)[-1]
    target["data"]["signature"] = b64url(bytes(64))
    message = failed_at(verify_record(rehash(record)), target["version"], "MoveMade")
    assert "bot's move for resigned seat 2" in message
