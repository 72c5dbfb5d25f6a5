"""The clock arithmetic (issue 15, part 5; docs/api.md, "Clocks"; domain/clocks.py): the
controls as fixed at creation, Fischer and correspondence charged per move, clocks that run
while a seat may act, undo rewinding them, and when a seat's time runs out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from domain import clocks
from domain.errors import GameError
from domain.undo import normalise_settings

T0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
FISCHER: dict[str, Any] = {"type": "fischer", "base_seconds": 10, "increment_seconds": 2}
DAYS: dict[str, Any] = {"type": "correspondence", "per_move": 2, "unit": "days"}


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


# The controls


def test_the_controls_are_fixed_as_given() -> None:
    assert clocks.normalise_control(None) is None
    assert clocks.normalise_control({"type": "none"}) is None
    assert clocks.normalise_control(FISCHER) == FISCHER
    assert clocks.normalise_control(DAYS) == DAYS
    hours = {"type": "correspondence", "per_move": 720, "unit": "hours"}
    assert clocks.normalise_control(hours) == hours


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ("fischer", "must be an object"),
        ({"base_seconds": 5}, "'clock.type' must be one of"),
        ({"type": "bronstein", "base_seconds": 5}, "'clock.type' must be one of"),
        ({"type": "fischer", "base_seconds": 0, "increment_seconds": 0}, "base_seconds"),
        ({"type": "fischer", "base_seconds": 86_401, "increment_seconds": 0}, "base_seconds"),
        ({"type": "fischer", "base_seconds": True, "increment_seconds": 0}, "base_seconds"),
        ({"type": "fischer", "base_seconds": 60.5, "increment_seconds": 0}, "base_seconds"),
        ({"type": "fischer", "base_seconds": 60}, "increment_seconds"),
        ({"type": "fischer", "base_seconds": 60, "increment_seconds": -1}, "increment_seconds"),
        ({"type": "fischer", "base_seconds": 60, "increment_seconds": 0, "x": 1}, "has no x"),
        ({"type": "correspondence", "per_move": 3}, "'clock.unit' must be hours or days"),
        ({"type": "correspondence", "per_move": 31, "unit": "days"}, "from 1 to 30"),
        ({"type": "correspondence", "per_move": 721, "unit": "hours"}, "from 1 to 720"),
        ({"type": "correspondence", "per_move": 0, "unit": "hours"}, "per_move"),
        ({"type": "none", "base_seconds": 3}, "'clock.type' must be one of"),
        ({"type": ["fischer"]}, "'clock.type' must be one of"),
        ({"type": {"a": 1}}, "'clock.type' must be one of"),
        ({"type": "correspondence", "per_move": 3, "unit": ["days"]}, "'clock.unit' must be"),
        ({"type": "correspondence", "per_move": 3, "unit": {"a": 1}}, "'clock.unit' must be"),
    ],
)
def test_a_bad_control_is_refused_with_its_field(given: Any, says: str) -> None:
    with pytest.raises(GameError) as refused:
        clocks.normalise_control(given)
    assert refused.value.code == "invalid-clock"
    assert says in refused.value.message


def test_the_settings_keep_a_clock_only_when_there_is_one() -> None:
    assert normalise_settings({}) == {"undo": "consent", "tournament": False}
    assert normalise_settings({"clock": None}) == {"undo": "consent", "tournament": False}
    fixed = normalise_settings({"clock": FISCHER})
    assert fixed == {"undo": "consent", "tournament": False, "clock": FISCHER}
    assert normalise_settings(fixed) == fixed  # verify re-normalises a recorded Created


# Fischer


def test_fischer_takes_the_time_and_gives_the_increment_back() -> None:
    clock = clocks.start(FISCHER, 2)
    assert clock["remaining_ms"] == [10_000, 10_000]
    clock = clocks.after_event(clock, [0], at(0))  # the game starts: seat 0 to move
    assert clocks.flag_at(clock, 0) == at(10)
    assert clocks.flag_at(clock, 1) is None
    assert clocks.remaining_at(clock, 0, at(3.5)) == 6_500
    elapsed = clocks.elapsed_ms(clock["since"][0] or "", at(3.0004))
    assert elapsed == 3_000  # whole milliseconds
    clock = clocks.charge(clock, FISCHER, 0, elapsed, version=5)
    clock = clocks.after_event(clock, [1], at(3.001))
    assert clock["remaining_ms"] == [9_000, 10_000]  # 10 s - 3 s + 2 s
    assert clock["since"] == [None, at(3.001).isoformat()]
    assert clock["marks"] == [[5, 10_000, 10_000]]
    assert clocks.first_flag(clock) == (1, at(13.001))


def test_a_seat_runs_out_at_its_flag_time_and_not_before() -> None:
    clock = clocks.after_event(clocks.start(FISCHER, 2), [0], at(0))
    assert not clocks.out_of_time(clock, 0, at(9.999))
    assert clocks.out_of_time(clock, 0, at(10))
    assert not clocks.out_of_time(clock, 1, at(100))  # its clock is stopped
    clocks.check_in_time(clock, 0, 9_999)
    with pytest.raises(GameError) as late:
        clocks.check_in_time(clock, 0, 10_000)
    assert late.value.code == "out-of-time"
    assert clocks.remaining_at(clock, 0, at(12)) == -2_000


def test_several_seats_run_at_once_and_stop_uncharged() -> None:
    clock = clocks.after_event(clocks.start(FISCHER, 3), [0, 2], at(1))
    clock = clocks.after_event(clock, [0, 1, 2], at(4))  # seat 1 joins in; 0 and 2 keep on
    assert clock["since"] == [at(1).isoformat(), at(4).isoformat(), at(1).isoformat()]
    clock = clocks.after_event(clock, [1], at(6))  # 0 and 2 stop without a move
    assert clock["remaining_ms"] == [10_000] * 3
    assert clock["since"] == [None, at(4).isoformat(), None]


# Correspondence


def test_correspondence_gives_the_whole_allowance_for_every_move() -> None:
    clock = clocks.after_event(clocks.start(DAYS, 2), [0], at(0))
    day = 86_400_000
    assert clock["remaining_ms"] == [2 * day, 2 * day]
    assert clocks.flag_at(clock, 0) == at(2 * 86_400)
    clock = clocks.charge(clock, DAYS, 0, day + 5, version=7)
    assert clock["remaining_ms"] == [2 * day, 2 * day]  # nothing saved up, nothing lost
    hours = clocks.start({"type": "correspondence", "per_move": 3, "unit": "hours"}, 1)
    assert hours["remaining_ms"] == [3 * 3_600_000]


# Undo


def test_an_undo_rewinds_to_the_times_of_the_version_gone_back_to() -> None:
    clock = clocks.after_event(clocks.start(FISCHER, 2), [0], at(0))
    clock = clocks.charge(clock, FISCHER, 0, 3_000, version=5)  # [9 000, 10 000]
    clock = clocks.after_event(clock, [1], at(3))
    clock = clocks.charge(clock, FISCHER, 1, 7_000, version=7)  # [9 000, 5 000]
    clock = clocks.after_event(clock, [0], at(10))
    assert clock["remaining_ms"] == [9_000, 5_000]
    back = clocks.rewind(clock, to_version=6)  # seat 1's move taken back
    assert back["remaining_ms"] == [9_000, 10_000]
    assert back["since"] == [None, None]
    assert back["marks"] == [[5, 10_000, 10_000]]
    assert clocks.rewind(clock, to_version=4)["remaining_ms"] == [10_000, 10_000]
    assert clocks.rewind(clock, to_version=8)["remaining_ms"] == [9_000, 5_000]
    assert clocks.trimmed(clock)["marks"] == []


# Flags


def test_a_flag_is_refused_unless_the_time_has_run_out() -> None:
    clock = clocks.after_event(clocks.start(FISCHER, 2), [0], at(0))
    game: dict[str, Any] = {"players": 2, "started": True, "finished": False, "gone": []}
    refusals = [
        (None, 0, at(20), game, "no-clock"),
        (clock, 0, at(9), game, "time-remaining"),
        (clock, 1, at(20), game, "clock-stopped"),
        (clock, 2, at(20), game, "no-such-seat"),
        (clock, 0, at(20), {**game, "started": False}, "game-not-started"),
        (clock, 0, at(20), {**game, "finished": True}, "game-over"),
        (clock, 0, at(20), {**game, "gone": [0]}, "seat-out-of-play"),
    ]
    for state, seat, now, facts, code in refusals:
        with pytest.raises(GameError) as refused:
            clocks.check_flag(state, seat, now, **facts)
        assert refused.value.code == code, code
    clocks.check_flag(clock, 0, at(10), **game)
    flagged = clocks.flagged(clock, 0)
    assert flagged["remaining_ms"][0] == 0 and flagged["since"][0] is None
