"""The undo events of a game record decided again by the game's undo policy (issue 3, part 5;
issue 10, part 7; issue 11, part 5; docs/audit.md, "Undo").

There is no second statement of the policy here: each recorded undo event is turned back
into the command that made it, and that command is decided by the very functions of
:mod:`domain.undo` the game aggregate calls — :func:`~domain.undo.request_undo` for a
player's ``UndoRequested`` or ``TurnsUndone``, :func:`~domain.undo.answer_undo` for an
``UndoAnswered`` (and the ``TurnsUndone`` its last acceptance causes),
:func:`~domain.undo.arbiter_undo` for the arbiter's ``TurnsUndone``. The recorded data must
then be exactly the data of the event the policy gives; a refusal of the policy is a
discrepancy that quotes it.

What a record says that no command says is checked here, before the policy decides: the
whole-number fields are whole numbers, an answer is true or false, a reason is a string,
``by`` is ``player``, ``consent`` or ``arbiter``, and an undo by consent comes right after
the acceptance that completed its request. The follower of the record (the referee,
:class:`application.audit_rules.Referee`) is seen through :class:`UndoReferee`, so this
module does not import it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from application.audit_format import Discrepancy, first_difference, show
from domain import undo
from domain.errors import GameError

T = TypeVar("T")


class UndoReferee(Protocol):
    """What the undo checks need of the referee that follows a record."""

    events: list[dict[str, Any]]
    request: dict[str, Any] | None

    def data(self, item: dict[str, Any]) -> dict[str, Any]:
        """A ledger event's data, once it has exactly the fields of its type."""
        ...

    def undo_table(self) -> undo.Table:
        """What the undo policy needs to know of the game at this point of the record."""
        ...

    def take_back(self, to_version: int) -> None:
        """An undo: the line of play cut after ``to_version`` and the state replayed."""
        ...


def undo_requested(referee: UndoReferee, index: int) -> int:
    """``UndoRequested``: the player's request of the turns after ``to_version``, decided
    by :func:`domain.undo.request_undo`, must be a request (not an undo that takes effect at
    once) with exactly the recorded data; it then waits for answers."""
    item = referee.events[index]
    data = referee.data(item)
    seat, to_version = _whole(item, "seat"), _whole(item, "to_version")
    table = referee.undo_table()
    count = undo.taken_back(table.turns, to_version)
    decided = _decide(item, lambda: undo.request_undo(table, seat, count))
    if isinstance(decided, undo.Undo):
        raise _at(item, "nobody must consent to this undo, so it takes effect at once")
    _same(item, data, decided.data())
    referee.request = decided.data()
    return index + 1


def undo_answered(referee: UndoReferee, index: int) -> int:
    """``UndoAnswered``: the answer, decided by :func:`domain.undo.answer_undo`; after the
    last acceptance the ``TurnsUndone`` it causes must come next, with exactly the data the
    policy gives."""
    item = referee.events[index]
    data = referee.data(item)
    seat, accepted = _whole(item, "seat"), data["accepted"]
    if not isinstance(accepted, bool):
        raise _at(item, f"data.accepted recorded {show(accepted)}, an answer is true or false")
    request = referee.request
    consented = _decide(item, lambda: undo.answer_undo(request, seat, accepted))
    assert request is not None  # answer_undo refuses an answer to no request
    referee.request = undo.after_answer(request, seat, accepted)
    if consented is None:
        return index + 1
    events = referee.events
    if index + 1 >= len(events) or events[index + 1]["type"] != "TurnsUndone":
        shown = "the record ends" if index + 1 >= len(events) else events[index + 1]["type"]
        raise _at(item, f"every seat accepted, so TurnsUndone comes next, but {shown}")
    undone = events[index + 1]
    _same(undone, referee.data(undone), consented.data())
    referee.take_back(consented.to_version)
    return index + 2


def turns_undone(referee: UndoReferee, index: int) -> int:
    """``TurnsUndone`` not caused by an acceptance: a player's, decided by
    :func:`domain.undo.request_undo` (it must take effect at once: nobody must consent), or
    the arbiter's, decided by :func:`domain.undo.arbiter_undo`; the recorded data must be
    exactly the policy's."""
    item = referee.events[index]
    data = referee.data(item)
    table = referee.undo_table()
    _decide(item, lambda: undo.check_undoable(table))
    by, to_version = data["by"], _whole(item, "to_version")
    count = undo.taken_back(table.turns, to_version)
    decided: undo.Request | undo.Undo
    if by == "consent":
        raise _at(item, "an undo by consent follows the last acceptance of a request")
    if by == "player":
        seat = _whole(item, "seat")
        decided = _decide(item, lambda: undo.request_undo(table, seat, count))
        if isinstance(decided, undo.Request):
            raise _at(
                item,
                f"with undo: {table.settings['undo']} this undo needs the consent of "
                f"seat(s) {list(decided.waiting)} first",
            )
    elif by == "arbiter":
        reason = data["reason"]
        if not isinstance(reason, str):
            raise _at(item, f"data.reason recorded {show(reason)}, a reason is a string")
        keep = len(table.turns) - count
        decided = _decide(item, lambda: undo.arbiter_undo(table, keep, reason))
    else:
        raise _at(item, f"data.by recorded {show(by)}: undo is by player, consent or arbiter")
    _same(item, data, decided.data())
    referee.take_back(decided.to_version)
    return index + 1


def _decide(item: dict[str, Any], decision: Callable[[], T]) -> T:
    """The undo policy's decision, or the discrepancy that quotes its refusal."""
    try:
        return decision()
    except GameError as error:
        raise _at(item, f"the undo policy refuses it: {error.message}") from None


def _whole(item: dict[str, Any], field: str) -> int:
    """A recorded seat or version: a whole number (JSON ``true`` is not ``1``)."""
    value = item["data"][field]
    if type(value) is not int:
        raise _at(item, f"data.{field} recorded {show(value)}, a whole number is needed")
    return value


def _same(item: dict[str, Any], recorded: dict[str, Any], expected: dict[str, Any]) -> None:
    difference = first_difference("data", recorded, expected, "the undo policy gives")
    if difference:
        raise _at(item, difference)


def _at(item: dict[str, Any], message: str) -> Discrepancy:
    return Discrepancy(message, item["version"], item["type"])
