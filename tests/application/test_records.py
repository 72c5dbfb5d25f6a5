"""Game records (issue 3, part 4): exported as the viewer sees the game, imported into a
fresh store (every store) as the same game — same view, events, chain head — and refused
when unverifiable, unfinished or already there."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from application.errors import BadRequest, Conflict, InvalidToken
from application.records import event_log, export_record, import_record
from application.service import GameLedger
from application.verification import verify_record
from infrastructure.config import Settings
from infrastructure.container import Services, build_services
from tests.application.test_verification import (
    ARBITER,
    casual,
    finished,
    first,
    rehash,
    until_moved,
)
from tests.helpers import start_game


@pytest.fixture(scope="module")
def source() -> Iterator[GameLedger]:
    """Where the exported games are played (in memory)."""
    services = build_services(Settings(store="memory", embedded_projections=False))
    yield services.app
    services.close()


@pytest.fixture(scope="module")
def undone_record(source: GameLedger) -> dict[str, Any]:
    """A finished 3-player game in which seat 1 took a turn back with consent."""
    t = casual(source, {"undo": "consent"}, players=3)
    for _ in range(5):
        t.step()
    until_moved(t, 1)
    source.request_undo(t.game_id, t.tokens[1])
    source.answer_undo(t.game_id, t.tokens[0], True)
    source.answer_undo(t.game_id, t.tokens[2], True)
    t.play_out()
    return export_record(source, t.game_id)


def test_a_record_holds_the_game_as_the_log_and_the_view_show_it(source: GameLedger) -> None:
    t = finished(source, 2, "gray", seed="export")
    record = export_record(source, t.game_id)
    view = source.view(t.game_id)
    assert list(record) == [
        "format",
        "format_version",
        "game",
        "seats",
        "seed_sha256",
        "seed",
        "moves",
        "events",
        "chain_head",
        "outcome",
    ]
    assert (record["format"], record["format_version"]) == ("gameledger-record", 1)
    assert record["game"] == {
        "id": str(t.game_id),
        "kind": "azul",
        "rules_version": "azul-1",
        "players": 2,
        "options": {"wall": "gray"},
        "settings": {"undo": "consent", "tournament": False},
        "analysis": None,
        "created_at": view["created_at"],
    }
    assert record["seats"] == [{"seat": 0, "name": "player 0"}, {"seat": 1, "name": "player 1"}]
    assert record["seed"] == "export-2-gray" and record["seed_sha256"] == view["seed_sha256"]
    assert record["events"] == source.event_log(t.game_id, limit=500)["items"]
    assert record["chain_head"] == view["chain_head"] == record["events"][-1]["hash"]
    assert record["outcome"] == view["outcome"] is not None
    made = [item for item in record["events"] if item["type"] == "MoveMade"]
    assert len(record["moves"]) == len(made) == view["moves"]
    assert record["moves"][0] == {
        "turn": 1,
        "version": made[0]["version"],
        "seat": 0,
        "move": made[0]["data"]["move"],
        "notation": made[0]["data"]["notation"],
        "at": made[0]["timestamp"],
        "undone": False,
        "undone_by": None,
    }
    assert export_record(source, t.game_id, page_size=7) == record


def test_an_unfinished_game_keeps_its_seed_secret(source: GameLedger) -> None:
    t = start_game(source, 3, seed="running")
    for _ in range(6):
        t.step()
    record = export_record(source, t.game_id, t.tokens[1])
    assert record["seed"] is None and record["outcome"] is None
    assert "running" not in str(record)
    assert record == export_record(source, t.game_id)  # Azul shows every seat everything
    with pytest.raises(InvalidToken):
        export_record(source, t.game_id, "not a token")


def test_undone_turns_stay_in_the_record_marked(undone_record: dict[str, Any]) -> None:
    undone = first(undone_record, "TurnsUndone")
    moves = undone_record["moves"]
    taken_back = [move for move in moves if move["undone"]]
    assert [move["undone_by"] for move in taken_back] == [undone["version"]]
    (move,) = taken_back
    assert move["version"] == undone["data"]["to_version"] + 1 and move["seat"] == 1
    redone = next(m for m in moves if m["version"] > undone["version"])
    assert redone["turn"] == move["turn"]
    assert len(event_log_moves(undone_record)) == len(moves)


def event_log_moves(record: dict[str, Any]) -> list[dict[str, Any]]:
    return [item for item in record["events"] if item["type"] == "MoveMade"]


@pytest.mark.parametrize("which", ["plain", "undo", "tournament"])
def test_export_then_import_gives_the_same_game(
    services: Services, source: GameLedger, undone_record: dict[str, Any], which: str
) -> None:
    if which == "plain":
        record = export_record(source, finished(source, 4, "colored", seed="import").game_id)
    elif which == "undo":
        record = undone_record
    else:
        t = casual(source, {"tournament": True})
        for _ in range(6):
            t.step()
        source.arbiter_undo(t.game_id, ARBITER, 2, "misplay")
        t.play_out()
        record = export_record(source, t.game_id)
    game_id = import_record(services.app, copy.deepcopy(record))

    app = services.app
    assert str(game_id) == record["game"]["id"]
    assert app.view(game_id) == source.view(game_id)
    assert export_record(app, game_id) == record
    assert verify_record(export_record(app, game_id)).ok
    for version in (1, 4, 57, len(record["events"]) - 1):
        assert app.view(game_id, version=version) == source.view(game_id, version=version)
    stretches = set(range(1, len(record["events"]) // 50 + 1))
    undone = {e["version"] for e in record["events"] if e["type"] == "TurnsUndone"}
    for ledger in (app, source):  # a snapshot in every stretch of 50 events, and after undos
        store = ledger.games.store_of(game_id)
        assert store.snapshots is not None
        snapshots = [s.originator_version for s in store.snapshots.get(game_id)]
        assert {version // 50 for version in snapshots} >= stretches
        assert undone <= set(snapshots)
    services.catch_up()
    rows = {row.game_id: row for row in services.games_list.all_rows()}
    assert rows[str(game_id)].status == "finished"


def test_an_imported_game_is_an_archive(services: Services, source: GameLedger) -> None:
    record = export_record(source, finished(source, 2, seed="archive").game_id)
    game_id = import_record(services.app, record)
    game = services.app.game_at(game_id, len(record["events"]))
    assert game.arbiter_sha256 == "" and game.seed == record["seed"]
    assert all(seat is not None and seat["token_sha256"] == "" for seat in game.seats)
    with pytest.raises(InvalidToken):
        services.app.arbiter_undo(game_id, ARBITER, 1, "no arbiter here")
    with pytest.raises(InvalidToken):
        services.app.request_undo(game_id, "any token")


def test_import_refuses_an_unfinished_record(services: Services, source: GameLedger) -> None:
    t = start_game(source, 2, seed="not yet")
    for _ in range(4):
        t.step()
    record = export_record(source, t.game_id)
    assert verify_record(record).ok
    with pytest.raises(BadRequest) as refused:
        import_record(services.app, record)
    assert refused.value.code == "record-without-seed"
    assert "seed stays secret" in refused.value.message
    assert "not yet" not in refused.value.message


def test_import_refuses_a_record_that_does_not_verify(
    services: Services, source: GameLedger
) -> None:
    record = export_record(source, finished(source, 3, seed="tampered").game_id)
    scored = first(record, "WallTiled")
    scored["data"]["points"] += 1
    with pytest.raises(BadRequest) as refused:
        import_record(services.app, rehash(record))
    assert refused.value.code == "invalid-record"
    assert f"event {scored['version']} (WallTiled): data.points recorded" in refused.value.message


def test_import_refuses_a_game_that_exists(services: Services) -> None:
    app = services.app
    t = finished(app, 2, seed="twice")
    record = export_record(app, t.game_id)
    with pytest.raises(Conflict) as exists:
        import_record(app, record)
    assert exists.value.code == "game-exists"
    assert event_log(app, t.game_id) == record["events"]
