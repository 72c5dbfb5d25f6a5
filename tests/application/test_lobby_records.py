"""The lobby's events in game records (issue 13, part 4; docs/audit.md, "Lobby events"): a
record with a leave, a resignation played out by the bot, an abort, an expiry or a rematch
verifies; a tampered resignation, a forged leave, a forged bot move or an early expiry is
caught — by the chain when it is left broken, by the lobby's checks when the forger
recomputes it."""

from __future__ import annotations

import copy
import time
from datetime import UTC, datetime
from typing import Any

from application import lobby
from application.records import export_record, import_record
from application.service import GameLedger
from application.verification import verify_record
from tests.application.test_verification import first, insert, rehash
from tests.helpers import Table, start_game


def resigned_record(players: int = 3) -> dict[str, Any]:
    """A finished Azul game whose seat 0 resigned at once and was played out by the bot."""
    app = GameLedger()
    game_id = app.create_game("azul", players, seed="lobby-records")
    tokens = [app.join(game_id, f"p{n}").token for n in range(players)]
    lobby.resign(app, game_id, tokens[0])
    Table(app, game_id, tokens).play_out()
    return export_record(app, game_id)


def test_records_of_every_lobby_verb_verify() -> None:
    app = GameLedger()
    opened = app.open_game("azul", 3, private=True)
    first_seat = app.join(opened.game_id, "ann", secret=opened.join_secret)
    lobby.leave(app, opened.game_id, first_seat.token)
    app.join(opened.game_id, "bob", secret=opened.join_secret)
    lobby.abort(app, opened.game_id, opened.creator_token)
    expiring = app.create_game("azul", 2)
    time.sleep(1.01)  # the record's GameExpired must come a whole second after Created
    assert lobby.expire_due(app, [expiring], 1, datetime.now(UTC)) == [expiring]
    table = start_game(app)
    table.play_out()
    made = lobby.rematch(app, table.game_id, table.tokens[0])
    lobby.claim(app, made.game_id, table.tokens[0])
    for game_id in (opened.game_id, expiring, table.game_id, made.game_id):
        report = verify_record(export_record(app, game_id))
        assert report.ok, report.summary
    finished = resigned_record()
    report = verify_record(finished)
    assert report.ok, report.summary
    assert finished["outcome"]["ranks"][0] == 3


def test_a_tampered_resignation_is_caught() -> None:
    record = resigned_record()
    broken = copy.deepcopy(record)
    first(broken, "SeatResigned")["data"]["seat"] = 1
    report = verify_record(broken)
    assert not report.ok and report.event_type == "SeatResigned"
    assert report.discrepancy is not None and "hash" in report.discrepancy
    forged = rehash(copy.deepcopy(broken))
    report = verify_record(forged)
    assert not report.ok  # seat 1 resigned: its later moves are not its bot's, seat 0 moved
    assert report.event_type == "MoveMade"


def test_a_removed_resignation_is_caught() -> None:
    record = resigned_record()
    events = record["events"]
    events.remove(first(record, "SeatResigned"))
    report = verify_record(rehash(record))
    assert not report.ok  # without it the outcome ranks seat 0 as its score says
    assert report.discrepancy is not None and "outcome" in report.discrepancy


def test_a_forged_bot_move_is_caught() -> None:
    """Another legal move in place of the bot's first: only the bot's choice, drawn again
    from the revealed seed, tells them apart."""
    record = resigned_record()
    target = next(e for e in record["events"] if e["type"] == "MoveMade")
    assert target["data"]["seat"] == 0
    app = GameLedger()  # the same game up to the bot's first move
    game_id = app.create_game("azul", 3, seed="lobby-records")
    tokens = [app.join(game_id, f"p{n}").token for n in range(3)]
    legal = app.legal_moves(game_id, tokens[0])["moves"]
    other = next(m for m in legal if m["move"] != target["data"]["move"])
    target["data"]["move"], target["data"]["notation"] = other["move"], other["notation"]
    report = verify_record(rehash(record))
    assert not report.ok and report.version == target["version"]
    assert report.discrepancy is not None and "bot" in report.discrepancy


def test_a_forged_leave_is_caught() -> None:
    record = resigned_record()
    insert(record, first(record, "SeatResigned")["version"], "SeatLeft", {"seat": 1})
    report = verify_record(rehash(record))
    assert not report.ok and report.event_type == "SeatLeft"
    assert report.discrepancy is not None and "started" in report.discrepancy


def test_an_early_expiry_is_caught() -> None:
    app = GameLedger()
    game_id = app.create_game("azul", 2)
    record = export_record(app, game_id)
    insert(record, 1, "GameExpired", {"after_seconds": 3600})
    report = verify_record(rehash(record))
    assert not report.ok and report.event_type == "GameExpired"
    assert report.discrepancy is not None and "3600 seconds" in report.discrepancy


def test_an_event_after_an_abort_is_caught() -> None:
    app = GameLedger()
    opened = app.open_game("azul", 2)
    lobby.abort(app, opened.game_id, opened.creator_token)
    record = export_record(app, opened.game_id)
    insert(record, 2, "SeatJoined", {"seat": 0, "name": "late"})
    report = verify_record(rehash(record))
    assert not report.ok and report.event_type == "SeatJoined"
    assert report.discrepancy is not None and "aborted" in report.discrepancy


def test_a_resigned_and_rematched_game_imports_as_itself() -> None:
    app = GameLedger()
    game_id = app.create_game("azul", 3, seed="lobby-import")
    tokens = [app.join(game_id, f"p{n}").token for n in range(3)]
    lobby.resign(app, game_id, tokens[1])
    Table(app, game_id, tokens).play_out()
    lobby.rematch(app, game_id, tokens[0])
    record = export_record(app, game_id)
    other = GameLedger()
    assert import_record(other, record) == game_id
    view = other.view(game_id)
    assert view["outcome"] == record["outcome"] and view["lobby"]["resigned"] == [1]
    assert view["lobby"]["rematch"] == app.view(game_id)["lobby"]["rematch"]
    assert export_record(other, game_id) == record


def test_a_forged_rematch_of_a_running_game_is_caught() -> None:
    table = start_game(GameLedger())
    table.step()
    record = export_record(table.app, table.game_id)
    insert(record, len(record["events"]), "RematchCreated", {"rematch": str(table.game_id)})
    report = verify_record(rehash(record))
    assert not report.ok and report.event_type == "RematchCreated"
    assert report.discrepancy is not None and "not ended" in report.discrepancy


def test_an_abort_by_anyone_but_the_creator_is_caught() -> None:
    app = GameLedger()
    opened = app.open_game("azul", 2)
    lobby.abort(app, opened.game_id, opened.creator_token)
    record = export_record(app, opened.game_id)
    first(record, "GameAborted")["data"]["by"] = "seat 0"
    report = verify_record(rehash(record))
    assert not report.ok and report.event_type == "GameAborted"


def test_a_move_after_an_end_by_resignation_is_caught() -> None:
    app = GameLedger()
    game_id = app.create_game("azul", 2, seed="after-end")
    tokens = [app.join(game_id, f"p{n}").token for n in range(2)]
    legal = app.legal_moves(game_id, tokens[0])["moves"][0]
    lobby.resign(app, game_id, tokens[1])
    record = export_record(app, game_id)
    data = {"seat": 0, "move": legal["move"], "notation": legal["notation"]}
    insert(record, len(record["events"]), "MoveMade", data)
    report = verify_record(rehash(record))
    assert not report.ok and report.event_type == "MoveMade"
    assert report.discrepancy is not None and "resignation" in report.discrepancy
