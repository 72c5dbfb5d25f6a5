"""No command is decided while a flag is due (issue 15, part 5; docs/api.md, "Clocks"): an
undo request, an answer, a resignation or a move that arrives after a running seat's time ran
out records the flag instead (``by: move`` for the seat's own command, ``by: claim`` with the
commanding seat for another's) and is refused ``out-of-time`` — so no rewind gives expired
time back; the arbiter's undo is an explicit correction and may. Each record verifies; a
record forged to decide a command after the time ran out does not (re-hashed, as a forger
would: only the clock checks can catch it)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

import pytest

from application import lobby
from application.records import export_record
from application.service import GameLedger
from application.verification import verify_record
from domain.errors import GameError
from tests.application.test_clocks import FISCHER, logged, move, timed, verified
from tests.application.test_verification import failed_at, first, rehash
from tests.fake_time import FakeTime, install
from tests.helpers import Table

ARBITER = "the-arbiter-token"


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    return install(monkeypatch)


def refused_late(command: Any, *args: Any, **kwargs: Any) -> str:
    """The detail of a command's ``out-of-time`` refusal."""
    with pytest.raises(GameError) as refused:
        command(*args, **kwargs)
    assert refused.value.code == "out-of-time", refused.value
    return refused.value.message


def flags(table: Table) -> list[dict[str, Any]]:
    return [f["data"] for f in logged(table.app, table.game_id, "SeatFlagged")]


def test_a_free_undo_cannot_give_an_expired_seat_its_time_back(now: FakeTime) -> None:
    """``undo: free``: the mover takes back its own turn at once — but the other seat, whose
    clock runs, has run out: the undo records that flag (a claim by the mover) instead."""
    table = timed(GameLedger(), undo="free")
    app, game_id = table.app, table.game_id
    now.advance(3)
    mover = move(table)
    now.advance(10.5)  # the other seat's 10 s are gone
    found = refused_late(app.request_undo, game_id, table.tokens[mover])
    assert f"Seat(s) {1 - mover} ran out of time" in found
    assert flags(table) == [{"seat": 1 - mover, "by": "claim", "claimant": mover}]
    assert not logged(app, game_id, "TurnsUndone")
    assert app.view(game_id)["outcome"]["winners"] == [mover]
    verified(app, game_id)


def test_an_expired_seat_asking_for_an_undo_is_flagged(now: FakeTime) -> None:
    table = timed(GameLedger(), undo="free")
    app, game_id = table.app, table.game_id
    seat = move(table)
    move(table)
    assert app.view(game_id)["clock"]["flag_seat"] == seat  # its 10 s + 2 s run again
    now.advance(12.5)
    found = refused_late(app.request_undo, game_id, table.tokens[seat], 2)
    assert found.startswith("Your time ran out before this command arrived")
    assert flags(table) == [{"seat": seat, "by": "move", "claimant": seat}]
    assert not logged(app, game_id, "UndoRequested")
    verified(app, game_id)


@pytest.mark.parametrize("accept", [True, False])
def test_an_answer_after_the_time_ran_out_flags_and_ends_the_request(
    now: FakeTime, accept: bool
) -> None:
    """The clocks run on while a request waits: the answer of the seat whose time ran out
    meanwhile flags it instead (an acceptance would have rewound its clock)."""
    table = timed(GameLedger(), undo="consent")
    app, game_id = table.app, table.game_id
    now.advance(3)
    mover = move(table)
    app.request_undo(game_id, table.tokens[mover])
    now.advance(10.5)
    refused_late(app.answer_undo, game_id, table.tokens[1 - mover], accept)
    assert flags(table) == [{"seat": 1 - mover, "by": "move", "claimant": 1 - mover}]
    assert not logged(app, game_id, "UndoAnswered")
    assert not logged(app, game_id, "TurnsUndone")
    view = app.view(game_id)
    assert view["undo_request"] is None
    assert view["outcome"]["details"]["ended_by"] == "flag"
    verified(app, game_id)


def test_a_resignation_while_another_seat_is_out_of_time_flags_it_first(now: FakeTime) -> None:
    table = timed(GameLedger(), players=3)
    app, game_id = table.app, table.game_id
    late = app.view(game_id)["clock"]["flag_seat"]
    resigning = (late + 1) % 3
    now.advance(10.5)
    refused_late(lobby.resign, app, game_id, table.tokens[resigning])
    assert flags(table) == [{"seat": late, "by": "claim", "claimant": resigning}]
    assert not logged(app, game_id, "SeatResigned")
    view = app.view(game_id)
    assert view["outcome"] is None and view["lobby"]["flagged"] == [late]
    lobby.resign(app, game_id, table.tokens[resigning])  # sent again: decided now
    assert logged(app, game_id, "SeatResigned")
    verified(app, game_id)


def test_the_arbiters_undo_is_a_correction_that_may_give_time_back(now: FakeTime) -> None:
    app = GameLedger()
    settings = {"clock": FISCHER, "tournament": True}
    game_id = app.create_game(
        "azul", 2, settings=settings, seed="clock-seed", arbiter_token=ARBITER
    )
    table = Table(app, game_id, [app.join(game_id, f"p{n}", n).token for n in range(2)])
    now.advance(3)
    mover = move(table)
    now.advance(12)  # the other seat ran out 2 s ago; nobody flagged it yet
    app.arbiter_undo(game_id, ARBITER, 0, "the clock was started too early")
    assert not flags(table)
    undone = logged(app, game_id, "TurnsUndone")[-1]
    clock = app.view(game_id)["clock"]
    assert [s["remaining_ms"] for s in clock["seats"]] == [10_000, 10_000]
    assert clock["flag_seat"] == mover
    assert datetime.fromisoformat(clock["flag_at"]) == datetime.fromisoformat(
        undone["timestamp"]
    ) + timedelta(seconds=10)
    verified(app, game_id)


def undone_in_time(now: FakeTime, undo: str) -> dict[str, Any]:
    """A record whose last command, an undo (free: at once; consent: an acceptance), came 5 s
    into the other seat's 10 s."""
    table = timed(GameLedger(), undo=undo)
    app, game_id = table.app, table.game_id
    mover = move(table)
    if undo == "consent":
        app.request_undo(game_id, table.tokens[mover])
        now.advance(5)
        app.answer_undo(game_id, table.tokens[1 - mover], accept=True)
    else:
        now.advance(5)
        app.request_undo(game_id, table.tokens[mover])
    record = export_record(app, game_id)
    assert verify_record(record).ok
    return record


def later(record: dict[str, Any], since: dict[str, Any], seconds: float) -> None:
    """Move ``since`` and every event after it ``seconds`` later."""
    events = record["events"]
    for item in events[events.index(since) :]:
        at = datetime.fromisoformat(item["timestamp"]) + timedelta(seconds=seconds)
        item["timestamp"] = at.isoformat()


@pytest.mark.parametrize(
    ("undo", "decided"), [("free", "TurnsUndone"), ("consent", "UndoAnswered")]
)
def test_an_undo_decided_after_the_time_ran_out_is_caught(
    now: FakeTime, undo: str, decided: str
) -> None:
    record = undone_in_time(now, undo)
    item = first(record, decided)
    later(record, item, 8)  # 13 s into 10 s: 3 s late, more than the 2 s tolerance
    found = failed_at(verify_record(rehash(record)), item["version"], decided)
    assert re.search(r"seat \d's time had run out 3\d\d\d ms before this event", found), found
    assert found.endswith("the command should have been refused and the seat flagged first")


def test_a_command_within_the_tolerance_passes(now: FakeTime) -> None:
    record = undone_in_time(now, "free")
    later(record, first(record, "TurnsUndone"), 6.5)  # 1.5 s late: the service's own delay
    assert verify_record(rehash(record)).ok


def test_a_resignation_decided_after_the_time_ran_out_is_caught(now: FakeTime) -> None:
    table = timed(GameLedger(), players=3)
    app, game_id = table.app, table.game_id
    late = app.view(game_id)["clock"]["flag_seat"]
    now.advance(5)
    lobby.resign(app, game_id, table.tokens[(late + 1) % 3])
    record = export_record(app, game_id)
    assert verify_record(record).ok
    item = first(record, "SeatResigned")
    later(record, item, 8)
    failed_at(verify_record(rehash(record)), item["version"], "SeatResigned")
