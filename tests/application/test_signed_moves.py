"""Signed moves through the use cases (issue 14, part 5; docs/api.md, "Signed moves"): a seat
joins with a public key, the game checks each of its moves' signatures, records them, and a
refused move changes nothing; the rematch's claim registers a key of its own; the resigned
seat's bot moves unsigned."""

from __future__ import annotations

import pytest

from application import lobby
from application.records import export_record
from application.service import GameLedger
from application.verification import verify_record
from domain.errors import GameError
from tests.signed import PlayerKey, SignedTable, signed_game


def test_signed_moves_are_recorded_and_the_record_verifies() -> None:
    app = GameLedger()
    table = signed_game(app)
    table.play_out()
    record = export_record(app, table.game_id)
    joined = [e["data"] for e in record["events"] if e["type"] == "SeatJoined"]
    assert [data["public_key"] for data in joined] == [key.public for key in table.keys if key]
    made = [e for e in record["events"] if e["type"] == "MoveMade"]
    assert made and all(len(e["data"]["signature"]) == 86 for e in made)
    report = verify_record(record)
    assert report.ok, report.discrepancy
    assert report.signatures_checked == len(made) == report.moves
    assert f", {len(made)} moves signed by their players (every signature checked)" in (
        report.summary
    )


def test_a_game_without_keys_records_what_it_always_did() -> None:
    app = GameLedger()
    table = signed_game(app, keyed=())
    for _ in range(6):
        table.step()
    record = export_record(app, table.game_id)
    for item in record["events"]:
        assert "public_key" not in item["data"] and "signature" not in item["data"]
    report = verify_record(record)
    assert report.ok and report.signatures_checked == 0 and "signed" not in report.summary


def test_a_keyed_seat_must_sign_and_a_refused_move_changes_nothing() -> None:
    app = GameLedger()
    table = signed_game(app, keyed=(0,))
    version, seat, move = table.mover()
    assert seat == 0
    token = table.tokens[0]
    with pytest.raises(GameError) as missing:
        app.play(table.game_id, token, move, version)
    assert missing.value.code == "signature-required"
    assert f'"version":{version}' in missing.value.message  # the bytes to sign are shown
    other = PlayerKey()
    for bad in (
        other.sign(table.game_id, version, move),  # another key
        table.keys[0].sign(table.game_id, version - 1, move),  # type: ignore[union-attr]
        table.keys[0].sign(table.game_id, version, {**move, "line": 9}),  # type: ignore[union-attr]
        "not-base64url!",
    ):
        with pytest.raises(GameError) as wrong:
            app.play(table.game_id, token, move, version, signature=bad)
        assert wrong.value.code == "bad-signature"
    assert app.view(table.game_id)["version"] == version
    key = table.keys[0]
    assert key is not None
    app.play(table.game_id, token, move, version, signature=key.sign(table.game_id, version, move))
    assert app.view(table.game_id)["version"] > version


def test_a_seat_without_a_key_sends_no_signature() -> None:
    app = GameLedger()
    table = signed_game(app, keyed=(1,))
    version, seat, move = table.mover()
    assert seat == 0
    with pytest.raises(GameError) as unexpected:
        app.play(
            table.game_id,
            table.tokens[0],
            move,
            version,
            signature=PlayerKey().sign(table.game_id, version, move),
        )
    assert unexpected.value.code == "unexpected-signature"


def test_a_move_sent_in_notation_is_signed_in_its_json_form() -> None:
    """The signature covers the move as the rules write it, however it was sent."""
    app = GameLedger()
    table = signed_game(app)
    version, seat, move = table.mover()
    key = table.keys[seat]
    assert key is not None
    listed = app.legal_moves(table.game_id, table.tokens[seat])["moves"][0]
    assert listed["move"] == move
    app.play(
        table.game_id,
        table.tokens[seat],
        None,
        version,
        notation=listed["notation"],
        signature=key.sign(table.game_id, version, move),
    )
    made = export_record(app, table.game_id)["events"][version]
    assert made["type"] == "MoveMade" and made["data"]["move"] == move


def test_a_bad_public_key_is_refused_and_nothing_is_recorded() -> None:
    app = GameLedger()
    game_id = app.create_game("azul", 2, seed="bad-key")
    weak = (
        "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",  # the identity: S = 0 signs anything
        "A" * 43,  # 32 zero bytes: a point of order 4
        "7P_______________________________________38",  # p - 1: order 2
        "7f_______________________________________38",  # y = p: not canonical
    )
    for bad in ("", "A" * 42, "A" * 44, "A" * 42 + "=", "A" * 42 + "B", "ZZZ/" * 11, *weak):
        with pytest.raises(GameError) as wrong:
            app.join(game_id, "p", 0, public_key=bad)
        assert wrong.value.code == "bad-public-key"
    assert app.view(game_id)["version"] == 1


def test_the_bot_plays_a_resigned_signed_seat_unsigned_and_the_record_verifies() -> None:
    """The documented exception: the moves the service makes for a resigned seat."""
    app = GameLedger()
    table = signed_game(app, 3, seed="signed-resign")
    table.step()
    lobby.resign(app, table.game_id, table.tokens[1])
    keys = table.keys
    play_on = SignedTable(app, table.game_id, table.tokens, keys=keys)
    while True:  # the seats left play on, signing; the bot plays seat 1
        _, seats = app.whose_turn(table.game_id)
        if not seats:
            break
        assert 1 not in seats
        play_on.step()
    record = export_record(app, table.game_id)
    bot_moves = [e for e in record["events"] if e["type"] == "MoveMade" and e["data"]["seat"] == 1]
    assert bot_moves and all("signature" not in e["data"] for e in bot_moves)
    report = verify_record(record)
    assert report.ok, report.discrepancy
    assert report.signatures_checked == report.moves - len(bot_moves)


def test_a_rematch_claim_registers_its_own_key_or_none() -> None:
    """Keys are not carried over to a rematch: its claim registers one, or the seat plays
    unsigned (docs/api.md, "Signed moves")."""
    app = GameLedger()
    table = signed_game(app, seed="signed-rematch")
    table.play_out()
    rematch = lobby.rematch(app, table.game_id, table.tokens[0]).game_id
    new_key = PlayerKey()
    with pytest.raises(GameError) as wrong:
        lobby.claim(app, rematch, table.tokens[0], public_key="short")
    assert wrong.value.code == "bad-public-key"
    first = lobby.claim(app, rematch, table.tokens[0], public_key=new_key.public)
    second = lobby.claim(app, rematch, table.tokens[1])
    joined = [e["data"] for e in export_record(app, rematch)["events"] if e["type"] == "SeatJoined"]
    assert joined[0]["public_key"] == new_key.public and "public_key" not in joined[1]
    again = SignedTable(app, rematch, [first.token, second.token], keys=[new_key, None])
    again.play_out()
    report = verify_record(export_record(app, rematch))
    assert report.ok, report.discrepancy
    assert 0 < report.signatures_checked < report.moves


def test_a_seat_left_and_taken_again_has_the_key_of_its_new_join() -> None:
    app = GameLedger()
    game_id = app.create_game("azul", 2, seed="signed-leave")
    first = PlayerKey()
    left = app.join(game_id, "p0", 0, public_key=first.public)
    lobby.leave(app, game_id, left.token)
    tokens = [app.join(game_id, "p0 again", 0).token, app.join(game_id, "p1", 1).token]
    table = SignedTable(app, game_id, tokens, keys=[None, None])
    for _ in range(4):
        table.step()
    report = verify_record(export_record(app, game_id))
    assert report.ok and report.signatures_checked == 0
