"""The clocks of a game record decided again (issue 15, part 5; docs/audit.md, "Clocks"): the
verifier follows every clock with the very functions the game aggregate uses
(:mod:`domain.clocks`), from the recorded events alone — their timestamps, the moves'
``elapsed_ms`` and who may act after each event — and checks:

* a player's move in a game with a clock records its ``elapsed_ms``, and no other move does
  (the bot's moves for a resigned or flagged seat take no time, a game without a clock has
  none);
* the recorded time agrees with the event timestamps: it is never more than the time from the
  turn's start (the timestamp of the event that gave the seat the turn) to the ``MoveMade``'s
  timestamp, and at most :data:`domain.clocks.ELAPSED_TOLERANCE_MS` less;
* the move came in time: its ``elapsed_ms`` is less than the seat's remaining time;
* a ``SeatFlagged`` is valid: a running game with a clock, a seat that could act and had not
  resigned nor been flagged, and the seat's time had run out by the flag's timestamp
  (:func:`domain.clocks.check_flag`, the game's own decision), ``by`` and ``claimant``
  consistent; it ends an undo request that waited;
* no player's command was decided while a flag was due (:func:`command_in_time`, by
  :func:`domain.clocks.check_none_due`): the flags come first.

The referee that follows the record (:class:`application.audit_rules.Referee`) is seen
through :class:`ClockReferee`."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Protocol

from application.audit_format import Discrepancy, show
from domain import clocks
from domain.errors import GameError
from domain.protocol import Outcome, Rules

_MS = timedelta(milliseconds=1)


class ClockReferee(Protocol):
    """What the clock checks need of the referee that follows a record."""

    events: list[dict[str, Any]]
    rules: Rules[Any, Any]
    state: Any
    players: int
    settings: dict[str, Any]
    seated: list[bool]
    resigned: list[int]
    flagged: list[int]
    closed: str
    request: dict[str, Any] | None
    clock: clocks.ClockState | None

    def data(self, item: dict[str, Any]) -> dict[str, Any]:
        """A ledger event's data, once it has exactly the fields of its type."""
        ...

    def outcome(self) -> Outcome | None:
        """The outcome as the game would give it at this point."""
        ...


def _at(item: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(item["timestamp"])


def _started(referee: ClockReferee) -> bool:
    return all(referee.seated) and not referee.closed


def acting(referee: ClockReferee) -> list[int]:
    """The seats whose clocks run now, as :meth:`domain.game.Game.clock_acting` says."""
    if not _started(referee) or referee.outcome() is not None:
        return []
    current = referee.rules.current_players(referee.state)
    return [seat for seat in current if seat not in referee.resigned]


def after(referee: ClockReferee, item: dict[str, Any]) -> None:
    """The clocks after a recorded event (:func:`domain.clocks.after_event`)."""
    if referee.clock is not None and "timestamp" in item:
        referee.clock = clocks.after_event(referee.clock, acting(referee), _at(item))


def move_made(referee: ClockReferee, item: dict[str, Any], seat: int) -> None:
    """A move's recorded time, checked against the event timestamps and the seat's remaining
    time, then charged (:func:`domain.clocks.charge`)."""
    data = item["data"]
    where = (item["version"], "MoveMade")
    clock = referee.clock
    if clock is None or seat in referee.resigned:
        if "elapsed_ms" in data:
            why = (
                "the game has no clock"
                if clock is None
                else f"seat {seat}'s moves are the bot's, which take no time"
            )
            raise Discrepancy(f"data.elapsed_ms is recorded, but {why}", *where)
        return
    if "elapsed_ms" not in data:
        raise Discrepancy("a player's move in a game with a clock records its elapsed_ms", *where)
    elapsed = data["elapsed_ms"]
    if type(elapsed) is not int or elapsed < 0:
        raise Discrepancy(f"data.elapsed_ms is {show(elapsed)}, not a number of ms", *where)
    since = clock["since"][seat]
    if since is None:
        raise Discrepancy(f"seat {seat}'s clock was not running", *where)
    between = (_at(item) - datetime.fromisoformat(since)) / _MS
    if elapsed > max(0.0, between) + 1:
        raise Discrepancy(
            f"data.elapsed_ms is {elapsed}, more than the {between:.0f} ms from the turn's "
            f"start ({since}) to this move",
            *where,
        )
    if between - elapsed > clocks.ELAPSED_TOLERANCE_MS:
        raise Discrepancy(
            f"data.elapsed_ms is {elapsed}, but {between:.0f} ms passed from the turn's start "
            f"({since}) to this move: more than the {clocks.ELAPSED_TOLERANCE_MS} ms the "
            "service may take to record it",
            *where,
        )
    left = clock["remaining_ms"][seat]
    if elapsed >= left:
        raise Discrepancy(
            f"seat {seat} had {left} ms left, and this move took {elapsed} ms: it came too "
            "late and should have been refused",
            *where,
        )
    referee.clock = clocks.charge(clock, referee.settings["clock"], seat, elapsed, item["version"])


def seat_flagged(referee: ClockReferee, index: int) -> int:
    """``SeatFlagged``: decided again by :func:`domain.clocks.check_flag` at the flag's
    timestamp; the seat then leaves play as a resigned seat does."""
    item = referee.events[index]
    data = referee.data(item)
    where = (item["version"], item["type"])
    seat, by, claimant = data["seat"], data["by"], data["claimant"]
    if type(seat) is not int or not 0 <= seat < referee.players:
        raise Discrepancy(f"seat {show(seat)} does not exist", *where)
    expected = {"scheduler": [-1], "claim": list(range(referee.players)), "move": [seat]}
    if not isinstance(by, str) or by not in expected:  # a list or object is no name
        raise Discrepancy(f"data.by is {show(by)}, not scheduler, claim or move", *where)
    if claimant not in expected[by] or type(claimant) is not int:
        raise Discrepancy(f"data.claimant is {show(claimant)} for a flag by {by}", *where)
    at = _at(item)
    try:
        clocks.check_flag(
            referee.clock,
            seat,
            at,
            players=referee.players,
            started=_started(referee),
            finished=referee.outcome() is not None,
            gone=referee.resigned,
        )
    except GameError as error:
        if error.code == "time-remaining" and referee.clock is not None:
            left = clocks.remaining_at(referee.clock, seat, at)
            raise Discrepancy(
                f"seat {seat} still had {left} ms at this event's timestamp: the flag is premature",
                *where,
            ) from None
        raise Discrepancy(f"the game refuses this flag: {error.message}", *where) from None
    assert referee.clock is not None
    referee.request = None  # a flag ends an undo request that waited
    referee.resigned = [*referee.resigned, seat]
    referee.flagged = [*referee.flagged, seat]
    referee.clock = clocks.flagged(referee.clock, seat)
    return index + 1


def commanded(item: dict[str, Any]) -> bool:
    """Whether a recorded event is the first of a player's command that the game decides only
    while no flag is due (docs/audit.md, "Clocks"): a move the player sent (it records its
    time), an undo request, an answer, a player's own undo, a resignation. The arbiter's undo
    (an explicit correction), the consent's undo (decided with its answer), the flags, the
    bot's moves and the rules' events are not."""
    kind, data = item["type"], item.get("data")
    if kind in ("UndoRequested", "UndoAnswered", "SeatResigned"):
        return True
    if kind == "TurnsUndone":
        return isinstance(data, dict) and data.get("by") == "player"
    return kind == "MoveMade" and isinstance(data, dict) and "elapsed_ms" in data


def command_in_time(referee: ClockReferee, item: dict[str, Any]) -> None:
    """A player's command (:func:`commanded`) was decided with no flag due: no running seat's
    time had run out by the time it arrived (:func:`domain.clocks.check_none_due`, the game's
    own decision). The record has the event's timestamp, not the arrival, which may come up to
    :data:`domain.clocks.ELAPSED_TOLERANCE_MS` earlier; a move's own seat is checked by its
    recorded time (:func:`move_made`)."""
    clock = referee.clock
    if clock is None or "timestamp" not in item or not commanded(item):
        return
    arrived = _at(item) - clocks.ELAPSED_TOLERANCE_MS * _MS
    if item["type"] == "MoveMade":
        mover = item["data"].get("seat")
        if type(mover) is int and 0 <= mover < referee.players:  # stopped for this check only
            clock = clocks.flagged(clock, mover)
    try:
        clocks.check_none_due(clock, arrived)
    except GameError:
        seat = clocks.due(clock, arrived)[0]
        late = -clocks.remaining_at(clock, seat, _at(item))
        raise Discrepancy(
            f"seat {seat}'s time had run out {late} ms before this event (more than the "
            f"{clocks.ELAPSED_TOLERANCE_MS} ms the service may take to record it): the "
            "command should have been refused and the seat flagged first",
            item["version"],
            item["type"],
        ) from None


def rewind(referee: ClockReferee, to_version: int) -> None:
    """An undo rewinds the clocks with the line of play (:func:`domain.clocks.rewind`)."""
    if referee.clock is not None:
        referee.clock = clocks.rewind(referee.clock, to_version)
