"""The undo policy, in one place (issue 3; issue 11, part 5; docs/audit.md, "Undo"; docs/api.md,
"Ledger settings: undo and tournaments").

The game aggregate (:mod:`domain.game`) decides every undo command with these functions, and
the record verifier (:mod:`application.audit_undo`) decides every recorded undo event again
with the very same functions: there is no second statement of the policy anywhere.

Undo never deletes or rewrites history: it is an event that takes the game back to an
earlier turn boundary. Who may undo is fixed at creation by the game's settings:

* ``undo: none`` — nobody;
* ``undo: consent`` (casual default) — a player asks to take back the last turn(s) of the line
  of play, going back to the start of one of their own turns; every other player accepts or
  refuses; one refusal ends the request;
* ``undo: free`` (solo practice) — a request that takes back only the asker's own turns takes
  effect at once; one that would also take back other seats' turns asks those seats, as
  ``consent`` asks everyone: nobody's turn is taken back without their consent or the arbiter;
* ``tournament: true`` — only the arbiter, with a recorded reason, whatever ``undo`` says.

A player's request counts ``turns`` on the line of play (the last ``turns`` turns, whoever
played them), as the arbiter's ``turn`` and the recorded ``turns`` of ``UndoRequested`` and
``TurnsUndone`` do. Whenever nobody needs to be asked, the undo takes effect at once.

A finished game is never undone: its seed has been revealed, and an undo would let players
play again knowing every draw to come. While a request waits for answers, no move is made
and no other undo is asked for.

The line of play is a list of turns ``[move version, seat]``; a pending request is the dict
``UndoRequested`` records (``seat``, ``to_version``, ``turns``, ``waiting``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from domain.clocks import normalise_control
from domain.errors import GameError, GameNotReady, InvalidOptions

UNDO_MODES = ("none", "consent", "free")

Turns = Sequence[Sequence[int]]
"""The line of play: one ``[move version, seat]`` per turn, in order."""

_Entry = TypeVar("_Entry", bound=Sequence[Any])


class UndoRefused(GameError):
    """An undo that the game's policy does not allow now."""


@dataclass(frozen=True)
class Table:
    """What the policy needs to know of a game to decide an undo: its ledger settings, its
    number of seats, its line of play, whether it has finished, the pending request."""

    settings: Mapping[str, Any]
    players: int
    turns: Turns
    finished: bool
    request: Mapping[str, Any] | None


@dataclass(frozen=True)
class Undo:
    """An undo the policy lets take effect: the data of its ``TurnsUndone``."""

    to_version: int
    turns: int
    by: str
    seat: int
    reason: str

    def data(self) -> dict[str, Any]:
        """The ``TurnsUndone`` event's data."""
        return {
            "to_version": self.to_version,
            "turns": self.turns,
            "by": self.by,
            "seat": self.seat,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Request:
    """A player's undo that waits for the consent of the seats in ``waiting``: the data of
    its ``UndoRequested``."""

    seat: int
    to_version: int
    turns: int
    waiting: tuple[int, ...]

    def data(self) -> dict[str, Any]:
        """The ``UndoRequested`` event's data, which is also the pending request."""
        return {
            "seat": self.seat,
            "to_version": self.to_version,
            "turns": self.turns,
            "waiting": list(self.waiting),
        }


def normalise_settings(settings: dict[str, Any] | None) -> dict[str, Any]:
    """The ledger settings of a new game with defaults: ``undo`` and ``tournament``
    (docs/api.md, "Ledger settings: undo and tournaments"), and ``clock`` only when the game
    has one (:func:`domain.clocks.normalise_control`; docs/api.md, "Clocks")."""
    given = dict(settings or {})
    unknown = set(given) - {"undo", "tournament", "clock"}
    if unknown:
        raise InvalidOptions("invalid-settings", f"Unknown settings: {', '.join(sorted(unknown))}.")
    tournament = given.get("tournament", False)
    if not isinstance(tournament, bool):
        raise InvalidOptions("invalid-settings", "'tournament' must be true or false.")
    undo = given.get("undo", "none" if tournament else "consent")
    if undo not in UNDO_MODES:
        raise InvalidOptions("invalid-settings", f"'undo' must be one of {', '.join(UNDO_MODES)}.")
    clock = normalise_control(given.get("clock"))
    fixed: dict[str, Any] = {"undo": undo, "tournament": tournament}
    if clock is not None:
        fixed["clock"] = dict(clock)
    return fixed


# The three decisions


def request_undo(table: Table, seat: int, count: int) -> Request | Undo:
    """A player's undo of the last ``count`` turns of the line of play (docs/audit.md,
    "Undo"; "What ``turns`` means"; "Who must consent"): refused after the end, while a
    request waits, in a tournament game, under ``undo: none``, or unless the first turn taken
    back is ``seat``'s own; a :class:`Request` to the seats :func:`asked_to_consent` names,
    or, when it names none, an :class:`Undo` by ``player`` that takes effect at once."""
    check_undoable(table)
    players_may_undo(table.settings)
    to_version = last_turns_boundary(table.turns, seat, count)
    waiting = asked_to_consent(table.settings, table.players, table.turns, seat, to_version)
    if not waiting:
        return Undo(to_version=to_version, turns=count, by="player", seat=seat, reason="")
    return Request(seat=seat, to_version=to_version, turns=count, waiting=tuple(waiting))


def answer_undo(request: Mapping[str, Any] | None, seat: int, accept: bool) -> Undo | None:
    """A seat's answer to the pending request (docs/audit.md, "Undo": one refusal ends the
    request; the last acceptance takes the game back at once): refused when no request
    waits or ``seat`` is not asked; the :class:`Undo` by ``consent`` when this is the last
    acceptance, else ``None``. The request after the answer is :func:`after_answer`'s."""
    if request is None:
        raise UndoRefused("no-undo-request", "No undo request is waiting.")
    if seat not in request["waiting"]:
        raise UndoRefused("not-asked", f"Seat {seat} is not asked to answer.")
    if not accept or list(request["waiting"]) != [seat]:
        return None
    return Undo(
        to_version=request["to_version"],
        turns=request["turns"],
        by="consent",
        seat=request["seat"],
        reason="",
    )


def arbiter_undo(table: Table, keep_turns: int, reason: str) -> Undo:
    """The arbiter's undo back to the end of turn ``keep_turns`` of the line of play
    (docs/audit.md, "Undo": any game's arbiter, with a recorded reason, to any turn
    boundary): refused after the end, while a request waits, without a reason, or to a
    turn the line of play does not have."""
    check_undoable(table)
    if not reason.strip():
        raise UndoRefused("reason-required", "An arbiter's undo needs a reason.")
    to_version = turn_boundary(table.turns, keep_turns)
    return Undo(
        to_version=to_version,
        turns=taken_back(table.turns, to_version),
        by="arbiter",
        seat=-1,
        reason=reason.strip(),
    )


# What an undo event does to the line of play


def after_answer(request: Mapping[str, Any], seat: int, accepted: bool) -> dict[str, Any] | None:
    """The pending request after ``seat``'s answer (``UndoAnswered``): the seat no longer
    waited for, or no request at all after a refusal."""
    if not accepted:
        return None
    waiting = [other for other in request["waiting"] if other != seat]
    return {**request, "waiting": waiting}


def kept(entries: Sequence[_Entry], to_version: int) -> list[_Entry]:
    """The entries of the line of play (turns, or the rules' events in effect, each
    starting with its version) that an undo back to ``to_version`` keeps: those at or
    before it (docs/audit.md, "Undo")."""
    return [entry for entry in entries if entry[0] <= to_version]


def taken_back(turns: Turns, to_version: int) -> int:
    """How many turns of the line of play an undo back to ``to_version`` takes back."""
    return sum(1 for turn in turns if turn[0] > to_version)


# The parts of the decisions


def players_may_undo(settings: Mapping[str, Any]) -> None:
    """Refuse a player's request in tournament games and where undo is off."""
    if settings.get("tournament"):
        raise UndoRefused("arbiter-only", "In a tournament game only the arbiter may undo.")
    if settings.get("undo", "none") == "none":
        raise UndoRefused("undo-not-allowed", "Undo is switched off for this game.")


def last_turns_boundary(turns: Turns, seat: int, count: int) -> int:
    """The version to go back to so that the last ``count`` turns of the line of play are
    taken back: the version just before the first of them, which must be one of ``seat``'s
    own turns."""
    if count < 1:
        raise UndoRefused("nothing-to-undo", "Take back at least one turn.")
    if len(turns) < count:
        raise UndoRefused(
            "nothing-to-undo", f"The line of play has {len(turns)} turn(s), fewer than {count}."
        )
    version, mover = turns[-count]
    if mover != seat:
        raise UndoRefused(
            "not-own-turn",
            f"Turn {len(turns) - count + 1} was seat {mover}'s: a player goes back to the "
            "start of one of their own turns.",
        )
    return version - 1


def asked_to_consent(
    settings: Mapping[str, Any], players: int, turns: Turns, seat: int, to_version: int
) -> list[int]:
    """The seats that must accept ``seat``'s undo back to ``to_version`` before it takes
    effect: under ``consent`` every other seat; under ``free`` the other seats with a turn
    among those taken back, in seat order. None: the undo takes effect at once."""
    if settings.get("undo") == "free":
        return sorted({mover for version, mover in turns if version > to_version} - {seat})
    return [other for other in range(players) if other != seat]


def turn_boundary(turns: Turns, keep: int) -> int:
    """The version after turn ``keep`` (0 = before the first move), for the arbiter."""
    if not 0 <= keep < len(turns):
        raise UndoRefused("nothing-to-undo", f"Turns 0 to {len(turns) - 1} can be gone back to.")
    return turns[keep][0] - 1


def check_undoable(table: Table) -> None:
    """No undo after the end (the seed is revealed) nor while a request waits (docs/audit.md,
    "Undo"): the first check of every player's and arbiter's undo."""
    if table.finished:
        raise UndoRefused("game-over", "A finished game is never undone.")
    if table.request is not None:
        raise GameNotReady("undo-pending", "An undo request is already waiting.")
