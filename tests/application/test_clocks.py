"""Clocks as use cases (issue 15, part 5; docs/api.md, "Clocks"): the time of each move measured
and recorded, remaining times as a pure function of the events, flags by a player's claim, by
the scheduler (once) and by a late move, what a flag means with two and with more players, and
undo rewinding the clocks — each record verified."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

import pytest

from application import clocks, lobby
from application.presenters import clock_view
from application.records import event_log, export_record, import_record
from application.service import GameLedger
from application.verification import verify_record
from domain.errors import GameError
from domain.game import Game
from infrastructure import clock_schedule
from infrastructure.container import Services
from tests.fake_time import FakeTime, install
from tests.helpers import Table

FISCHER = {"type": "fischer", "base_seconds": 10, "increment_seconds": 2}


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    return install(monkeypatch)


def timed(app: GameLedger, players: int = 2, **settings: Any) -> Table:
    """A started Azul game with a clock (Fischer 10 s + 2 s unless given)."""
    fixed = {"clock": FISCHER, **settings}
    game_id = app.create_game("azul", players, settings=fixed, seed="clock-seed")
    tokens = [app.join(game_id, f"p{n}", n).token for n in range(players)]
    return Table(app, game_id, tokens)


def move(table: Table) -> int:
    """The first legal move of the first seat to act; that seat."""
    version, seat, chosen = table.mover()
    table.app.play(table.game_id, table.tokens[seat], chosen, version)
    return seat


def logged(app: GameLedger, game_id: UUID, kind: str) -> list[dict[str, Any]]:
    return [e for e in event_log(app, game_id) if e["type"] == kind]


def verified(app: GameLedger, game_id: UUID) -> None:
    report = verify_record(export_record(app, game_id))
    assert report.ok, report.summary
    assert "a clock (every move's time checked against the timestamps" in report.summary


def test_each_move_records_its_time_and_the_view_counts_down(now: FakeTime) -> None:
    table = timed(GameLedger())
    app, game_id = table.app, table.game_id
    view = app.view(game_id)
    first = view["clock"]["flag_seat"]
    started = datetime.fromisoformat(view["clock"]["as_of"])
    assert view["clock"]["seats"][first]["running"]
    assert view["clock"]["flag_at"] == (started + timedelta(seconds=10)).isoformat()
    now.advance(3)
    assert move(table) == first
    made = logged(app, game_id, "MoveMade")[-1]
    assert made["data"]["elapsed_ms"] == 3_000
    view = app.view(game_id)
    seats = view["clock"]["seats"]
    assert seats[first] == {
        "seat": first, "remaining_ms": 9_000, "running": False, "flag_at": None, "flagged": False
    }  # fmt: skip
    other = 1 - first
    assert seats[other]["running"] and seats[other]["remaining_ms"] == 10_000
    as_of = datetime.fromisoformat(view["clock"]["as_of"])
    assert datetime.fromisoformat(seats[other]["flag_at"]) == as_of + timedelta(seconds=10)
    spectator = app.view(game_id)["clock"]
    assert app.view(game_id, table.tokens[other])["clock"] == spectator  # nothing hidden
    verified(app, game_id)


def test_a_game_without_a_clock_records_no_time(now: FakeTime) -> None:
    app = GameLedger()
    game_id = app.create_game("azul", 2, seed="s")
    tokens = [app.join(game_id, f"p{n}", n).token for n in range(2)]
    table = Table(app, game_id, tokens)
    now.advance(3)
    move(table)
    assert "elapsed_ms" not in logged(app, game_id, "MoveMade")[-1]["data"]
    assert app.view(game_id)["clock"] is None
    assert "clock" not in event_log(app, game_id)[0]["data"]["settings"]
    with pytest.raises(GameError) as refused:
        clocks.claim_flag(app, game_id, tokens[0], 0)
    assert refused.value.code == "no-clock"


def test_the_clocks_are_a_pure_function_of_the_events(
    now: FakeTime, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = timed(GameLedger())
    for seconds in (1.5, 2.25, 0.75, 4):
        now.advance(seconds)
        move(table)
    app, game_id = table.app, table.game_id
    shown = app.view(game_id)["clock"]

    def no_clock(*_: Any) -> Any:
        raise AssertionError("replay read a clock")

    monkeypatch.setattr(Game.Event, "create_timestamp", classmethod(no_clock))
    now.advance(1_000)  # whenever the events are replayed, the clocks are the same
    replayed = app.games.at(game_id)
    assert replayed.clock == app.games.at(game_id).clock
    assert clocks.due_of(replayed) is not None
    assert clock_view(replayed) == shown


def test_a_claim_before_the_time_is_refused_and_after_it_ends_a_game_of_two(
    now: FakeTime,
) -> None:
    table = timed(GameLedger())
    app, game_id = table.app, table.game_id
    seat = app.view(game_id)["clock"]["flag_seat"]
    other = 1 - seat
    now.advance(9.9)
    with pytest.raises(GameError) as refused:
        clocks.claim_flag(app, game_id, table.tokens[other], seat)
    assert refused.value.code == "time-remaining"
    assert "ms left" in refused.value.message
    with pytest.raises(GameError) as stopped:
        clocks.claim_flag(app, game_id, table.tokens[seat], other)
    assert stopped.value.code == "clock-stopped"
    now.advance(0.2)
    clocks.claim_flag(app, game_id, table.tokens[other])  # the seat out of time: found
    flag = logged(app, game_id, "SeatFlagged")
    assert [f["data"] for f in flag] == [{"seat": seat, "by": "claim", "claimant": other}]
    view = app.view(game_id)
    assert view["status"] == "finished"
    assert view["outcome"]["winners"] == [other]
    assert view["outcome"]["details"] == {"ended_by": "flag", "resigned": [], "flagged": [seat]}
    assert view["lobby"]["flagged"] == [seat] and view["lobby"]["resigned"] == []
    assert view["seats"][seat]["resigned"] is False
    assert view["clock"]["flag_at"] is None and view["clock"]["seats"][seat]["flagged"]
    with pytest.raises(GameError) as again:
        clocks.claim_flag(app, game_id, table.tokens[other], seat)
    assert again.value.code == "game-over"
    verified(app, game_id)


def test_a_flagged_seat_of_three_is_played_out_by_the_bot_and_ranked_last(
    now: FakeTime,
) -> None:
    table = timed(GameLedger(), players=3)
    app, game_id = table.app, table.game_id
    seat = app.view(game_id)["clock"]["flag_seat"]
    now.advance(10)
    clocks.claim_flag(app, game_id, table.tokens[(seat + 1) % 3], seat)
    view = app.view(game_id)
    assert view["status"] == "active" and view["lobby"]["flagged"] == [seat]
    bots = [e for e in logged(app, game_id, "MoveMade") if e["data"]["seat"] == seat]
    assert bots and all("elapsed_ms" not in e["data"] for e in bots)  # the bot takes no time
    assert not view["clock"]["seats"][seat]["running"]
    with pytest.raises(GameError) as refused:
        lobby.resign(app, game_id, table.tokens[seat])
    assert refused.value.code == "seat-flagged"
    with pytest.raises(GameError) as undo:
        app.request_undo(game_id, table.tokens[(seat + 1) % 3])
    assert undo.value.code == "undo-not-allowed"
    for _ in range(2000):  # the others play on, quickly, to the end
        _, acting = app.whose_turn(game_id)
        if not acting:
            break
        now.advance(0.1)
        table.step()
    outcome = app.view(game_id)["outcome"]
    assert outcome["ranks"][seat] == 3 and outcome["details"]["flagged"] == [seat]
    verified(app, game_id)


def test_the_scheduler_flags_once(now: FakeTime) -> None:
    table = timed(GameLedger())
    app, game_id = table.app, table.game_id
    with app.games.reading(game_id) as game:
        due = clocks.due_of(game)
    assert due is not None and due.version == game.version
    now.advance(5)
    assert not clocks.flag_due(app, due, now.at)  # not yet: nothing recorded
    now.advance(5)
    assert clocks.flag_due(app, due, now.at)
    assert not clocks.flag_due(app, due, now.at)  # the same due again: refused by the version
    with app.games.reading(game_id) as game:
        assert clocks.due_of(game) is None  # the game is over: no clock runs
        later = clocks.Due(game_id, game.version, due.seat, due.flag_at)
    assert not clocks.flag_due(app, later, now.at)  # on the new version: the game refuses
    flags = logged(app, game_id, "SeatFlagged")
    assert [f["data"] for f in flags] == [{"seat": due.seat, "by": "scheduler", "claimant": -1}]
    verified(app, game_id)


def test_a_late_move_flags_its_seat(now: FakeTime) -> None:
    table = timed(GameLedger())
    app, game_id = table.app, table.game_id
    version, seat, chosen = table.mover()
    now.advance(10.5)
    with pytest.raises(GameError) as late:
        app.play(game_id, table.tokens[seat], chosen, version)
    assert late.value.code == "out-of-time"
    assert [f["data"] for f in logged(app, game_id, "SeatFlagged")] == [
        {"seat": seat, "by": "move", "claimant": seat}
    ]
    assert not logged(app, game_id, "MoveMade")
    verified(app, game_id)


def test_an_undo_rewinds_the_clocks_with_the_line_of_play(now: FakeTime) -> None:
    table = timed(GameLedger(), undo="free")
    app, game_id = table.app, table.game_id
    now.advance(3)
    seat = move(table)
    now.advance(4)
    other = move(table)
    assert app.view(game_id)["clock"]["seats"][other]["remaining_ms"] == 8_000
    now.advance(1)
    app.request_undo(game_id, table.tokens[other])  # free: its own turn, at once
    view = app.view(game_id)
    clock = view["clock"]
    assert [s["remaining_ms"] for s in clock["seats"]] == (
        [9_000, 10_000] if seat == 0 else [10_000, 9_000]
    )
    undone = logged(app, game_id, "TurnsUndone")[-1]
    assert clock["flag_seat"] == other
    assert datetime.fromisoformat(clock["flag_at"]) == datetime.fromisoformat(
        undone["timestamp"]
    ) + timedelta(seconds=10)
    now.advance(2)
    move(table)
    assert logged(app, game_id, "MoveMade")[-1]["data"]["elapsed_ms"] == 2_000
    verified(app, game_id)


def test_correspondence_flags_after_the_allowance_of_a_move(now: FakeTime) -> None:
    table = timed(GameLedger(), clock={"type": "correspondence", "per_move": 1, "unit": "hours"})
    app, game_id = table.app, table.game_id
    now.advance(3_000)
    seat = move(table)
    assert app.view(game_id)["clock"]["seats"][seat]["remaining_ms"] == 3_600_000
    now.advance(3_599)
    with pytest.raises(GameError):
        clocks.claim_flag(app, game_id, table.tokens[seat])
    now.advance(1)
    clocks.claim_flag(app, game_id, table.tokens[seat])
    assert app.view(game_id)["outcome"]["winners"] == [seat]
    verified(app, game_id)


def test_an_imported_record_has_the_same_clocks(now: FakeTime) -> None:
    table = timed(GameLedger(), players=3)
    app, game_id = table.app, table.game_id
    now.advance(2)
    move(table)
    seat = app.view(game_id)["clock"]["flag_seat"]
    now.advance(10)
    clocks.claim_flag(app, game_id, table.tokens[(seat + 1) % 3], seat)
    while app.whose_turn(game_id)[1]:
        now.advance(0.5)
        table.step()
    other = GameLedger()
    imported = import_record(other, export_record(app, game_id))
    assert other.view(imported)["clock"] == app.view(game_id)["clock"]
    assert other.view(imported)["outcome"] == app.view(game_id)["outcome"]


def test_the_clocks_survive_snapshots_and_the_read_model_follows_them(
    now: FakeTime, services: Services
) -> None:
    """On every store: past a snapshot the clocks load as they were; the clocks read model
    holds the running game's next flag (the same after a rebuild), and nothing once it has
    ended."""
    table = timed(services.app)
    app, game_id = table.app, table.game_id
    for _ in range(30):  # well past the first snapshot (every 50 events)
        now.advance(0.2)
        move(table)
    with app.games.reading(game_id) as game:
        shown = clock_view(game)
        due = clocks.due_of(game)
    loaded = app.games.at(game_id)
    assert clock_view(loaded) == shown
    whole = app.games.at(game_id, whole_line=True)
    assert whole.clock is not None and loaded.clock is not None
    assert whole.clock["remaining_ms"] == loaded.clock["remaining_ms"]
    assert len(whole.clock["marks"]) == 30  # an undo's rewind has every timed move
    services.catch_up()
    assert services.clocks.all_rows() == [due]
    assert services.clocks.due(now.at, 10) == []
    assert due is not None and services.clocks.due(due.flag_at, 10) == [due]
    services.rebuild()  # rebuilt from zero, atomically: the same rows
    assert services.clocks.all_rows() == [due]
    now.advance((due.flag_at - now.at).total_seconds())
    assert clocks.flag_all_due(app, services.clocks.due(now.at, 10), now.at) == 1
    services.catch_up()
    assert services.clocks.all_rows() == []


def test_a_game_waiting_on_an_undo_answer_is_flagged_and_the_flag_ends_the_request(
    now: FakeTime, services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clocks run on while an undo request waits (docs/api.md, "Clocks"), so the game keeps
    its due row and the scheduler flags it in its turn, earliest first; the flag ends the
    request (a later answer has nothing to answer) and the record verifies."""
    app = services.app
    waiting = timed(app, undo="consent")
    mover = move(waiting)
    app.request_undo(waiting.game_id, waiting.tokens[mover])  # the other seat must answer
    now.advance(5)
    running = timed(app)
    now.advance(11)  # the waiting game's seat ran out first, then the running game's
    services.catch_up()
    monkeypatch.setattr(clock_schedule, "BATCH", 1)
    schedule = clock_schedule.ClockSchedule(app, services.clocks, 1, clock=lambda: now.at)
    assert schedule.run_once() == 1
    assert [f["data"]["seat"] for f in logged(app, waiting.game_id, "SeatFlagged")] == [1 - mover]
    assert app.view(waiting.game_id)["undo_request"] is None
    with pytest.raises(GameError) as answer:
        app.answer_undo(waiting.game_id, waiting.tokens[1 - mover], accept=True)
    assert answer.value.code == "no-undo-request"
    services.catch_up()
    assert schedule.run_once() == 1
    assert logged(app, running.game_id, "SeatFlagged")
    verified(app, waiting.game_id)
