"""The line of play a game keeps in memory (docs/architecture.md, "Events are the record";
docs/audit.md, "Undo"): its turns (``[move version, seat]``) and the rules' events in effect
(``[version, type, data]``), from which an undo rebuilds the state.

A game does not carry its whole line of play forever: the turns live in the turn index and
the events in the store. A line is *complete* when it holds everything since the game was
created (``since == 0``: the game was replayed from its first event); a game taken from a
snapshot, or trimmed after a command (:meth:`Line.trimmed`), holds only what came after
version ``since``, plus what it needs to go on: how many turns came before and which turn is
the current one. So a snapshot, and a game kept in memory, are bounded by the state's size,
not by the game's length. What needs the whole line — an undo, a fork, the version after an
old turn — asks for it (:class:`LineNeeded`), and the application replays the game from its
first event."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.undo import kept


class LineNeeded(Exception):
    """What was asked needs the game's whole line of play, which this copy of the game does not
    hold (it was taken from a snapshot or trimmed): replay the game from its first event."""


@dataclass
class Line:
    """The line of play from version ``since`` on (0: from the creation, complete)."""

    since: int = 0
    moves_before: int = 0
    """Turns of the line of play that started at or before version ``since``."""
    turns: list[list[int]] = field(default_factory=list)
    """``[move version, seat]`` of the turns that started after ``since``."""
    effective: list[list[Any]] = field(default_factory=list)
    """``[version, type, data]`` of the rules' events in effect after ``since`` (with
    ``since == 0``: from the prelude on, at version 1)."""
    current: list[int] | None = None
    """``[move version, seat]`` of the last turn of the line of play, wherever it started."""

    @classmethod
    def begin(cls, prelude: list[list[Any]]) -> Line:
        """The line of a new game: an analysis game's prelude is in effect from version 1."""
        return cls(effective=[[1, type_name, data] for type_name, data in prelude])

    @property
    def complete(self) -> bool:
        """Whether the line holds everything since the creation."""
        return self.since == 0

    @property
    def moves(self) -> int:
        """Turns on the line of play."""
        return self.moves_before + len(self.turns)

    def whole(self) -> Line:
        """This line, which must be complete (else :class:`LineNeeded`)."""
        if not self.complete:
            raise LineNeeded(f"the line of play is kept from version {self.since} only")
        return self

    def move(self, version: int, seat: int) -> None:
        """A turn starts at ``version``."""
        turn = [version, seat]
        self.turns.append(turn)
        self.current = turn

    def played(self, version: int, type_name: str, data: Any) -> None:
        """A rule's event takes effect."""
        self.effective.append([version, type_name, data])

    def cut(self, to_version: int) -> None:
        """An undo back to ``to_version``: the turns and events after it leave the line
        (:func:`domain.undo.kept`); needs the whole line."""
        self.whole()
        self.turns = kept(self.turns, to_version)
        self.effective = kept(self.effective, to_version)
        self.current = self.turns[-1] if self.turns else None

    def version_after_turn(self, turn: int, version: int) -> int:
        """The version of the game just after turn ``turn`` of the line (0: before the first
        move; the game's ``version`` after the last); turns before ``since`` need the whole
        line."""
        if turn == self.moves:
            return version
        index = turn - self.moves_before
        if index < 0:
            raise LineNeeded(f"turn {turn} started before version {self.since}")
        return self.turns[index][0] - 1

    def trimmed(self, version: int) -> Line:
        """The line as a game at ``version`` keeps it from now on: nothing of its past but the
        count of turns and the current turn."""
        return Line(since=version, moves_before=self.moves, current=self.current)

    def copy(self) -> Line:
        """A copy whose lists are its own (their items are never changed, only appended or
        cut)."""
        return Line(
            self.since, self.moves_before, list(self.turns), list(self.effective), self.current
        )

    def to_json(self) -> dict[str, Any]:
        """The line's JSON form (in snapshots)."""
        return {
            "since": self.since,
            "moves_before": self.moves_before,
            "turns": self.turns,
            "effective": self.effective,
            "current": self.current,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Line:
        """The line from its JSON form."""
        return cls(
            since=int(data["since"]),
            moves_before=int(data["moves_before"]),
            turns=[list(turn) for turn in data["turns"]],
            effective=[list(item) for item in data["effective"]],
            current=None if data["current"] is None else list(data["current"]),
        )

    @classmethod
    def from_whole(cls, turns: list[list[int]], effective: list[list[Any]]) -> Line:
        """A complete line from its turns and events (as snapshots before version 2 of the
        snapshot kept them)."""
        return cls(turns=turns, effective=effective, current=turns[-1] if turns else None)
