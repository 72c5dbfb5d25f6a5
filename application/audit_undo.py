"""The undo events of a game record checked against the game's undo policy (issue 3,
part 5; issue 10, part 7; :mod:`domain.undo`; docs/audit.md, "Undo") — the same functions
the game uses to decide them: a player goes back to the start of one of their own turns on
the line of play; the seats :func:`domain.undo.asked_to_consent` names (every other seat
under ``consent``; under ``free`` the other seats whose turns are taken back) must accept
first, and a player's undo takes effect at once only when it names none. A tournament game
is undone only by the arbiter with a reason, ``undo: none`` never, a finished game never.
Every undo goes back to a turn boundary of the line of play, and the state is replayed up
to it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from application.audit_format import Discrepancy, first_difference, show
from domain.undo import UndoRefused, asked_to_consent, players_may_undo

if TYPE_CHECKING:
    from application.audit_rules import Referee


def undo_requested(referee: Referee, index: int) -> int:
    """``UndoRequested``: a player may ask (not a tournament game, undo not off) to go back
    to the start of one of their own turns; the seats that must consent are asked, and
    there must be some (else the undo takes effect at once, with nobody asked)."""
    item = referee.events[index]
    data = referee.data(item)
    _undoable(referee, item)
    _players_may_undo(referee, item)
    seat, to_version = data["seat"], data["to_version"]
    _own_boundary(referee, item, seat, to_version)
    waiting = _asked(referee, seat, to_version)
    if not waiting:
        raise _at(item, "nobody must consent to this undo, so it takes effect at once")
    expected = {
        "seat": seat,
        "to_version": to_version,
        "turns": _taken_back(referee, to_version),
        "waiting": waiting,
    }
    _same(item, expected)
    referee.request = {**expected, "waiting": list(waiting)}
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
    """``TurnsUndone`` not caused by an acceptance: a player's that nobody must consent to
    (under ``undo: free``, only the asker's own turns taken back), or the arbiter's (with a
    reason, to any turn boundary)."""
    item = referee.events[index]
    data = referee.data(item)
    _undoable(referee, item)
    by, to_version = data["by"], data["to_version"]
    if by == "consent":
        raise _at(item, "an undo by consent follows the last acceptance of a request")
    if by == "player":
        _players_may_undo(referee, item)
        _own_boundary(referee, item, data["seat"], to_version)
        waiting = _asked(referee, data["seat"], to_version)
        if waiting:
            raise _at(
                item,
                f"with undo: {referee.settings['undo']} this undo needs the consent of "
                f"seat(s) {waiting} first",
            )
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


def _asked(referee: Referee, seat: int, to_version: int) -> list[int]:
    """The seats that must accept ``seat``'s undo back to ``to_version`` (domain/undo.py)."""
    return asked_to_consent(referee.settings, referee.players, referee.turns, seat, to_version)


def _taken_back(referee: Referee, to_version: int) -> int:
    return sum(1 for version, _ in referee.turns if version > to_version)


def _same(item: dict[str, Any], expected: dict[str, Any]) -> None:
    difference = first_difference("data", item["data"], expected, "the undo policy gives")
    if difference:
        raise _at(item, difference)


def _at(item: dict[str, Any], message: str) -> Discrepancy:
    return Discrepancy(message, item["version"], item["type"])
