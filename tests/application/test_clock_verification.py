"""``verify`` re-decides the clocks (issue 15, part 5; docs/audit.md, "Clocks"): a move's
recorded time must agree with the event timestamps within the documented tolerance, come in
time, and be recorded exactly for the players' moves of a game with a clock; a flag is valid
only if the recorded times show the seat's time had run out by the flag's timestamp. Each
forgery is re-hashed, as a forger would, so only the clock checks can catch it."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

import pytest

from application import clocks
from application.records import export_record
from application.service import GameLedger
from application.verification import verify_record
from tests.application.test_clocks import move, timed
from tests.application.test_verification import failed_at, first, rehash
from tests.fake_time import FakeTime, install


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    return install(monkeypatch)


def shifted(item: dict[str, Any], seconds: float) -> None:
    at = datetime.fromisoformat(item["timestamp"]) + timedelta(seconds=seconds)
    item["timestamp"] = at.isoformat()


def played(now: FakeTime) -> dict[str, Any]:
    """A game with a clock: two moves of 3 s and 4 s, then the next seat flagged by a claim
    after its 10 s."""
    table = timed(GameLedger())
    now.advance(3)
    move(table)
    now.advance(4)
    move(table)
    seat = table.app.view(table.game_id)["clock"]["flag_seat"]
    now.advance(10)
    clocks.claim_flag(table.app, table.game_id, table.tokens[1 - seat], seat)
    record = export_record(table.app, table.game_id)
    assert verify_record(record).ok
    return record


def test_a_shortened_time_is_caught(now: FakeTime) -> None:
    record = played(now)
    item = first(record, "MoveMade", last=True)
    assert item["data"]["elapsed_ms"] == 4_000
    item["data"]["elapsed_ms"] = 1_500  # 2.5 s stolen: more than the tolerance
    found = failed_at(verify_record(rehash(record)), item["version"], "MoveMade")
    assert "data.elapsed_ms is 1500, but 4000 ms passed from the turn's start" in found
    assert "more than the 2000 ms the service may take to record it" in found


def test_a_time_within_the_tolerance_passes(now: FakeTime) -> None:
    record = played(now)
    first(record, "MoveMade", last=True)["data"]["elapsed_ms"] = 2_500
    assert verify_record(rehash(record)).ok


def test_a_lengthened_time_is_caught(now: FakeTime) -> None:
    record = played(now)
    item = first(record, "MoveMade")
    item["data"]["elapsed_ms"] = 3_500
    found = failed_at(verify_record(rehash(record)), item["version"], "MoveMade")
    assert "data.elapsed_ms is 3500, more than the 3000 ms from the turn's start" in found


def test_a_premature_flag_is_caught(now: FakeTime) -> None:
    record = played(now)
    flag = first(record, "SeatFlagged")
    shifted(flag, -1.5)  # its 9 s ran out 1 s before the flag: now half a second before
    found = failed_at(verify_record(rehash(record)), flag["version"], "SeatFlagged")
    assert re.search(r"seat \d still had (49\d|500) ms at this event's timestamp", found), found
    assert found.endswith("the flag is premature")


def test_a_move_that_came_too_late_is_caught(now: FakeTime) -> None:
    record = played(now)
    item = first(record, "MoveMade")
    shifted(item, 8)  # 11 s after the start, and recorded so: consistent, but too late
    item["data"]["elapsed_ms"] = 11_000
    found = failed_at(verify_record(rehash(record)), item["version"], "MoveMade")
    assert "had 10000 ms left, and this move took 11000 ms: it came too late" in found


def test_a_missing_or_stray_time_is_caught(now: FakeTime) -> None:
    record = played(now)
    item = first(record, "MoveMade")
    del item["data"]["elapsed_ms"]
    found = failed_at(verify_record(rehash(record)), item["version"], "MoveMade")
    assert "a player's move in a game with a clock records its elapsed_ms" in found
    record = played(now)
    del first(record, "Created")["data"]["settings"]["clock"]
    item = first(record, "MoveMade")
    found = failed_at(verify_record(rehash(record)), item["version"], "MoveMade")
    assert "data.elapsed_ms is recorded, but the game has no clock" in found


def test_a_forged_flag_claimant_is_caught(now: FakeTime) -> None:
    record = played(now)
    flag = first(record, "SeatFlagged")
    flag["data"]["by"] = "scheduler"  # a claimant seat, but by the scheduler
    found = failed_at(verify_record(rehash(record)), flag["version"], "SeatFlagged")
    assert "data.claimant is" in found and "for a flag by scheduler" in found


@pytest.mark.parametrize("by", [["claim"], {"claim": 1}])
def test_a_flag_whose_by_is_not_a_name_is_caught_not_a_crash(now: FakeTime, by: Any) -> None:
    record = played(now)
    flag = first(record, "SeatFlagged")
    flag["data"]["by"] = by  # unhashable: the verifier must say so, not raise
    found = failed_at(verify_record(rehash(record)), flag["version"], "SeatFlagged")
    assert "not scheduler, claim or move" in found


def test_after_a_consented_undo_the_clocks_start_at_the_turns_undone(now: FakeTime) -> None:
    """The verifier follows the game (docs/api.md, "Clocks": after ``TurnsUndone`` the seats
    that may act start at *its* timestamp), not the ``UndoAnswered`` before it: a flag 10 s
    after the answer but less than 10 s after the undo is premature."""
    table = timed(GameLedger(), undo="consent")
    app, game_id = table.app, table.game_id
    now.advance(3)
    mover = move(table)
    app.request_undo(game_id, table.tokens[mover])
    now.advance(1)
    app.answer_undo(game_id, table.tokens[1 - mover], accept=True)
    now.advance(10)
    clocks.claim_flag(app, game_id, table.tokens[1 - mover], mover)
    record = export_record(app, game_id)
    assert verify_record(record).ok
    shifted(first(record, "TurnsUndone"), 1)  # the undo a second after the answer
    flag = first(record, "SeatFlagged")
    found = failed_at(verify_record(rehash(record)), flag["version"], "SeatFlagged")
    assert found.endswith("the flag is premature"), found
