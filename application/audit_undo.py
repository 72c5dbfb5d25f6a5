"""The undo events of a game record checked against the game's undo policy (issue 3,
part 5; :mod:`domain.undo`; docs/audit.md, "Undo"): ``undo: consent`` needs every other
seat's acceptance, ``undo: free`` takes effect at once, a tournament game is undone only by
the arbiter with a reason, ``undo: none`` never, and a finished game never. Every undo goes
back to a turn boundary of the line of play, and the state is replayed up to it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from application.audit_format import Discrepancy, first_difference, show
from domain.undo import UndoRefused, players_may_undo

if TYPE_CHECKING:
    from application.audit_rules import Referee


def undo_requested(referee: Referee, index: int) -> int:
    """``UndoRequested``: a player may ask (not a tournament game, undo not off, not
    ``free``), to go back to the start of one of their own turns; every other seat is asked."""
    item = referee.events[index]
    data = referee.data(item)
    _undoable(referee, item)
    _players_may_undo(referee, item)
    if referee.settings["undo"] == "free":
        raise _at(item, "with undo: free a player's undo takes effect at once, nobody is asked")
    seat = data["seat"]
    _own_boundary(referee, item, seat, data["to_version"])
    expected = {
        "seat": seat,
        "to_version": data["to_version"],
        "turns": _taken_back(referee, data["to_version"]),
        "waiting": [other for other in range(referee.players) if other != seat],
    }
    _same(item, expected)
    referee.request = {**expected, "waiting": list(expected["waiting"])}
    return index + 1


def undo_answered(referee: Referee, index: int) -> int:
    """``UndoAnswered``: a seat still asked accepts or refuses; one refusal ends the request,
    and the last acceptance must be followed at once by the ``TurnsUndone`` it causes."""
    item = referee.events[index]
    data = referee.data(item)
    request = referee.request
    if request is None:
        raise _at(item, "no undo request is waiting for answers")
    seat, accepted = data["seat"], data["accepted"]
    if type(seat) is not int or seat not in request["waiting"]:
        raise _at(item, f"seat {show(seat)} is not asked (waiting: {request['waiting']})")
    if not isinstance(accepted, bool):
        raise _at(item, f"data.accepted recorded {show(accepted)}, an answer is true or false")
    if not accepted:
        referee.request = None
        return index + 1
    request["waiting"].remove(seat)
    if request["waiting"]:
        return index + 1
    events = referee.events
    if index + 1 >= len(events) or events[index + 1]["type"] != "TurnsUndone":
        shown = "the record ends" if index + 1 >= len(events) else events[index + 1]["type"]
        raise _at(item, f"every seat accepted, so TurnsUndone comes next, but {shown}")
    undone = events[index + 1]
    referee.data(undone)
    expected = {
        "to_version": request["to_version"],
        "turns": request["turns"],
        "by": "consent",
        "seat": request["seat"],
        "reason": "",
    }
    _same(undone, expected)
    referee.take_back(request["to_version"])
    return index + 2


def turns_undone(referee: Referee, index: int) -> int:
    """``TurnsUndone`` not caused by an acceptance: a player's own under ``undo: free``, or
    the arbiter's (with a reason, to any turn boundary)."""
    item = referee.events[index]
    data = referee.data(item)
    _undoable(referee, item)
    by, to_version = data["by"], data["to_version"]
    if by == "consent":
        raise _at(item, "an undo by consent follows the last acceptance of a request")
    if by == "player":
        _players_may_undo(referee, item)
        if referee.settings["undo"] != "free":
            raise _at(item, "with undo: consent a player's undo needs every other seat's consent")
        _own_boundary(referee, item, data["seat"], to_version)
        expected = {"seat": data["seat"], "reason": ""}
    elif by == "arbiter":
        reason = data["reason"]
        if not isinstance(reason, str) or not reason.strip():
            raise _at(item, "an arbiter's undo needs a reason")
        if type(to_version) is not int or to_version not in _boundaries(referee):
            raise _at(item, f"data.to_version {show(to_version)} is not a turn boundary")
        expected = {"seat": -1, "reason": reason.strip()}
    else:
        raise _at(item, f"data.by recorded {show(by)}: undo is by player, consent or arbiter")
    expected.update(by=by, to_version=to_version, turns=_taken_back(referee, to_version))
    _same(item, expected)
    referee.take_back(to_version)
    return index + 1


def _undoable(referee: Referee, item: dict[str, Any]) -> None:
    if referee.rules.outcome(referee.state) is not None:
        raise _at(item, "a finished game is never undone (its seed has been revealed)")
    if referee.request is not None:
        raise _at(item, "an undo request is already waiting for answers")


def _players_may_undo(referee: Referee, item: dict[str, Any]) -> None:
    try:
        players_may_undo(referee.settings)
    except UndoRefused as error:
        raise _at(item, error.message) from None


def _boundaries(referee: Referee) -> list[int]:
    """The versions an arbiter may go back to: just before each move of the line of play."""
    return [version - 1 for version, _ in referee.turns]


def _own_boundary(referee: Referee, item: dict[str, Any], seat: Any, to_version: Any) -> None:
    own = [version - 1 for version, mover in referee.turns if mover == seat]
    if type(seat) is not int or type(to_version) is not int or to_version not in own:
        raise _at(
            item,
            f"data.to_version {show(to_version)} is not the start of one of "
            f"seat {show(seat)}'s turns on the line of play",
        )


def _taken_back(referee: Referee, to_version: int) -> int:
    return sum(1 for version, _ in referee.turns if version > to_version)


def _same(item: dict[str, Any], expected: dict[str, Any]) -> None:
    difference = first_difference("data", item["data"], expected, "the undo policy gives")
    if difference:
        raise _at(item, difference)


def _at(item: dict[str, Any], message: str) -> Discrepancy:
    return Discrepancy(message, item["version"], item["type"])
