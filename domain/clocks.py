"""Game clocks (issue 15, part 5; docs/api.md, "Clocks"): the time controls fixed at creation
and the clock arithmetic, pure functions of the recorded events — no clock is ever read here.

**Controls** (a game's ``settings.clock``, only when set; none by default):

* ``{"type": "fischer", "base_seconds": B, "increment_seconds": I}`` — each seat starts with
  ``B`` seconds; a move costs the time it took and gives back ``I`` seconds;
* ``{"type": "correspondence", "per_move": N, "unit": "hours" | "days"}`` — each move must be
  made within ``N`` hours (days) of the seat getting the turn; the allowance is whole again
  for every move (nothing is saved up).

**What runs when** (one rule, applied after every event of a game with a clock, by the game
aggregate and by the record verifier alike, :func:`after_event`): a seat's clock runs while
the seat may act — it is among the current players, the game has started and not ended, and
the seat has neither resigned nor been flagged. A seat whose clock was stopped starts at the
timestamp of the event after which it may act: the event that gave it the turn (the last
``SeatJoined`` at the game's start, the last event of the move before, an undo's
``TurnsUndone``), and a seat that moves and may act again starts again at its own
``MoveMade``. Several seats run at once where the rules let several act (Azul's gray-wall
choices). A seat that stops being current without moving is not charged.

**A move's time** is measured by the service when the move arrives (``elapsed_ms``, recorded
in ``MoveMade``; :func:`charge`): the milliseconds since the seat's clock started. The bot's
moves for a resigned or flagged seat take no time and record none.

**Undo** rewinds the clocks with the line of play (:func:`rewind`): the remaining times are
those of the version gone back to, and the seats that may act then start at the
``TurnsUndone``'s timestamp.

**A flag**: a seat whose remaining time has run out (:func:`flag_at` has passed) is flagged
by a ``SeatFlagged`` event; what that means is the lobby's resignation
(:mod:`domain.lobby`: with two players the other seat wins, with more the bot plays the seat
out and it is ranked last). A flag ends an undo request that waits for answers (after a flag
players take no turns back).

**No command is decided while a flag is due** (:func:`due`, :func:`check_none_due`): a
player's command (a move, an undo request or answer, a resignation) that arrives after some
running seat's time has run out is not decided; the flags are recorded instead and the command
is refused (``out-of-time``). The arbiter's undo is an explicit correction and is decided as
it comes: it may give time back (docs/api.md, "Clocks").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any, Literal

from typing_extensions import TypedDict

from domain.errors import GameNotReady, IllegalMove, InvalidOptions, SeatUnavailable

FISCHER_MAX_BASE = 86_400
"""The longest Fischer base, in seconds (a day)."""
FISCHER_MAX_INCREMENT = 3_600
"""The longest Fischer increment, in seconds (an hour)."""
CORRESPONDENCE_MAX_DAYS = 30
"""The longest correspondence allowance per move."""
UNIT_SECONDS = {"hours": 3_600, "days": 86_400}

ELAPSED_TOLERANCE_MS = 2_000
"""How much earlier than its ``MoveMade``'s timestamp a move may have been measured to
arrive (docs/audit.md, "Clocks"): the service measures a move's time when it arrives and
records the event after deciding it, so the recorded ``elapsed_ms`` is at most this much
less than the event's timestamp minus the turn's start (and never more than it)."""


class FischerClock(TypedDict):
    """A Fischer control: ``base_seconds`` each, ``increment_seconds`` given back per move."""

    type: Literal["fischer"]
    base_seconds: int
    increment_seconds: int


class CorrespondenceClock(TypedDict):
    """A correspondence control: each move within ``per_move`` hours or days."""

    type: Literal["correspondence"]
    per_move: int
    unit: Literal["hours", "days"]


Control = FischerClock | CorrespondenceClock


class ClockState(TypedDict):
    """The clocks of a game as its events leave them: each seat's ``remaining_ms`` when its
    clock last stopped (or started), ``since`` (ISO 8601) the start of a running clock
    (``None``: stopped), and ``marks`` — ``[move version, remaining before it...]`` of each
    timed move of the line of play kept, from which an undo rewinds."""

    remaining_ms: list[int]
    since: list[str | None]
    marks: list[list[int]]


def _invalid(detail: str) -> InvalidOptions:
    return InvalidOptions("invalid-clock", f"{detail} (docs/api.md, 'Clocks').")


def _whole(given: Mapping[str, Any], name: str, low: int, high: int) -> int:
    value = given.get(name)
    if type(value) is not int or not low <= value <= high:
        raise _invalid(f"'clock.{name}' must be a whole number from {low} to {high}")
    return value


def normalise_control(given: Any) -> Control | None:
    """The clock control of a new game from its settings' ``clock``: ``None`` (or absent, or
    ``{"type": "none"}``) for no clock; else a Fischer or correspondence control, every
    field checked (``invalid-clock``)."""
    if given is None:
        return None
    if not isinstance(given, Mapping):
        raise _invalid("'clock' must be an object with a 'type'")
    kind = given.get("type")
    if not isinstance(kind, str):  # a list or an object is no name (and not hashable)
        raise _invalid("'clock.type' must be one of none, fischer, correspondence")
    fields = {
        "fischer": {"base_seconds", "increment_seconds"},
        "correspondence": {"per_move", "unit"},
    }
    if kind == "none" and set(given) == {"type"}:
        return None
    if kind not in fields:
        raise _invalid("'clock.type' must be one of none, fischer, correspondence")
    unknown = set(given) - fields[kind] - {"type"}
    if unknown:
        raise _invalid(f"a {kind} clock has no {', '.join(sorted(unknown))}")
    if kind == "fischer":
        return FischerClock(
            type="fischer",
            base_seconds=_whole(given, "base_seconds", 1, FISCHER_MAX_BASE),
            increment_seconds=_whole(given, "increment_seconds", 0, FISCHER_MAX_INCREMENT),
        )
    unit = given.get("unit")
    if unit not in ("hours", "days"):  # a tuple: a list or object given is compared, not hashed
        raise _invalid("'clock.unit' must be hours or days")
    most = CORRESPONDENCE_MAX_DAYS * (24 if unit == "hours" else 1)
    per_move = _whole(given, "per_move", 1, most)
    return CorrespondenceClock(type="correspondence", per_move=per_move, unit=unit)


def allowance_ms(control: Mapping[str, Any]) -> int:
    """A seat's time at the start (Fischer's base), or for every move (correspondence)."""
    if control["type"] == "fischer":
        return int(control["base_seconds"]) * 1000
    return int(control["per_move"]) * UNIT_SECONDS[control["unit"]] * 1000


def start(control: Mapping[str, Any], players: int) -> ClockState:
    """The clocks of a new game: every seat's whole allowance, none running."""
    return ClockState(
        remaining_ms=[allowance_ms(control)] * players, since=[None] * players, marks=[]
    )


def copy(clock: ClockState) -> ClockState:
    """A copy whose lists are its own."""
    return ClockState(
        remaining_ms=list(clock["remaining_ms"]),
        since=list(clock["since"]),
        marks=[list(mark) for mark in clock["marks"]],
    )


def stamp(at: datetime) -> str:
    """How a clock's start is kept: the event's timestamp in ISO 8601."""
    return at.isoformat()


def after_event(clock: ClockState, acting: Iterable[int], at: datetime) -> ClockState:
    """The clocks after an event at ``at`` after which the seats ``acting`` may act: a
    stopped seat that may act starts at ``at``; a running seat that may not is stopped,
    uncharged."""
    may = set(acting)
    since = [
        (started if started is not None else stamp(at)) if seat in may else None
        for seat, started in enumerate(clock["since"])
    ]
    if since == clock["since"]:
        return clock
    return ClockState(remaining_ms=clock["remaining_ms"], since=since, marks=clock["marks"])


def elapsed_ms(since: str, now: datetime) -> int:
    """The whole milliseconds from a clock's start to ``now`` (never below 0: the clocks of
    two processes may differ slightly)."""
    delta = now - datetime.fromisoformat(since)
    return max(0, delta // timedelta(milliseconds=1))


def charge(
    clock: ClockState, control: Mapping[str, Any], seat: int, elapsed: int, version: int
) -> ClockState:
    """The clocks after ``seat``'s move at ``version`` that took ``elapsed`` ms: Fischer
    takes the time and gives the increment back; correspondence gives the whole allowance
    for the next move. The seat's clock stops (it starts again if the seat may still act)."""
    remaining = list(clock["remaining_ms"])
    if control["type"] == "fischer":
        remaining[seat] = remaining[seat] - elapsed + int(control["increment_seconds"]) * 1000
    else:
        remaining[seat] = allowance_ms(control)
    since = list(clock["since"])
    since[seat] = None
    marks = [*clock["marks"], [version, *clock["remaining_ms"]]]
    return ClockState(remaining_ms=remaining, since=since, marks=marks)


def flagged(clock: ClockState, seat: int) -> ClockState:
    """The clocks after ``seat`` was flagged: it has no time left, its clock stopped."""
    remaining = list(clock["remaining_ms"])
    remaining[seat] = 0
    since = list(clock["since"])
    since[seat] = None
    return ClockState(remaining_ms=remaining, since=since, marks=clock["marks"])


def rewind(clock: ClockState, to_version: int) -> ClockState:
    """The clocks after an undo back to ``to_version``: each seat's remaining time as it was
    then (before the first timed move after it), every clock stopped (the ``TurnsUndone``
    starts those that may act). Needs the marks of the whole line of play (the game has
    it: an undo replays the game from its first event)."""
    later = [mark for mark in clock["marks"] if mark[0] > to_version]
    remaining = list(later[0][1:]) if later else list(clock["remaining_ms"])
    return ClockState(
        remaining_ms=remaining,
        since=[None] * len(clock["since"]),
        marks=[mark for mark in clock["marks"] if mark[0] <= to_version],
    )


def trimmed(clock: ClockState) -> ClockState:
    """The clocks as a game that keeps only the end of its line of play keeps them
    (:meth:`domain.line.Line.trimmed`): without the marks, which only an undo reads."""
    return ClockState(remaining_ms=clock["remaining_ms"], since=clock["since"], marks=[])


def flag_at(clock: ClockState, seat: int) -> datetime | None:
    """When a running seat's time runs out (``None``: its clock is stopped)."""
    since = clock["since"][seat]
    if since is None:
        return None
    return datetime.fromisoformat(since) + timedelta(milliseconds=clock["remaining_ms"][seat])


def first_flag(clock: ClockState) -> tuple[int, datetime] | None:
    """The running seat whose time runs out first, and when (``None``: none runs)."""
    found = [(at, seat) for seat in range(len(clock["since"])) if (at := flag_at(clock, seat))]
    if not found:
        return None
    at, seat = min(found)
    return seat, at


def remaining_at(clock: ClockState, seat: int, at: datetime) -> int:
    """A seat's remaining milliseconds at ``at`` (negative once it has run out)."""
    since = clock["since"][seat]
    if since is None:
        return clock["remaining_ms"][seat]
    return clock["remaining_ms"][seat] - (at - datetime.fromisoformat(since)) // timedelta(
        milliseconds=1
    )


def out_of_time(clock: ClockState, seat: int, now: datetime) -> bool:
    """Whether a running seat's time has run out by ``now``."""
    at = flag_at(clock, seat)
    return at is not None and now >= at


def due(clock: ClockState, now: datetime) -> list[int]:
    """The running seats whose time has run out by ``now``, the first to run out first: the
    flags due before any command of a player is decided (docs/api.md, "Clocks")."""
    running = [(at, seat) for seat in range(len(clock["since"])) if (at := flag_at(clock, seat))]
    return [seat for at, seat in sorted(running) if now >= at]


def check_none_due(clock: ClockState | None, now: datetime) -> None:
    """A player's command is decided only while no running seat's time has run out by its
    time ``now`` (``out-of-time`` otherwise: the flags come first; docs/api.md, "Clocks")."""
    found = [] if clock is None else due(clock, now)
    if found:
        raise GameNotReady(
            "out-of-time",
            f"Seat {found[0]}'s time ran out before this command arrived: it is flagged first.",
        )


def check_in_time(clock: ClockState, seat: int, elapsed: int) -> None:
    """A move is accepted only while the seat has time left (``out-of-time`` otherwise)."""
    if elapsed >= clock["remaining_ms"][seat]:
        raise GameNotReady("out-of-time", f"Seat {seat}'s time ran out before the move arrived.")


def check_not_flagged(seat: int, flagged: Iterable[int]) -> None:
    """A flagged seat no longer moves nor resigns: the bot plays it (``seat-flagged``)."""
    if seat in flagged:
        raise GameNotReady("seat-flagged", "This seat's time ran out: the bot plays it.")


def check_flag(
    clock: ClockState | None,
    seat: int,
    now: datetime,
    *,
    players: int,
    started: bool,
    finished: bool,
    gone: Iterable[int],
) -> None:
    """A seat is flagged only in a running game with a clock, once, while it may act and its
    time has run out by ``now`` — also while an undo request waits for answers (the clocks run
    on meanwhile), which the flag ends. Each refusal is a ``GameError`` with its code
    (docs/api.md, "Clocks")."""
    if clock is None:
        raise GameNotReady("no-clock", "This game has no clock.")
    if not 0 <= seat < players:
        raise SeatUnavailable("no-such-seat", f"Seat {seat} does not exist in this game.")
    if not started:
        raise GameNotReady("game-not-started", "Not every seat has been taken yet.")
    if finished:
        raise IllegalMove("game-over", "The game is over.")
    if seat in gone:
        raise GameNotReady("seat-out-of-play", f"Seat {seat} has resigned or been flagged.")
    at = flag_at(clock, seat)
    if at is None:
        raise GameNotReady("clock-stopped", f"Seat {seat} may not act now: its clock is stopped.")
    if now < at:
        left = (at - now) // timedelta(milliseconds=1)
        raise GameNotReady("time-remaining", f"Seat {seat} has {left} ms left.")
