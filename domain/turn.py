"""Deciding a move as a run of events: the one way every game decides (docs/architecture.md,
"One way to decide a move").

A :class:`Turn` starts from the state before the move and collects the events the move
causes. Every event is *emitted* here and nowhere else, and the turn's :attr:`Turn.state` is
the state after every event emitted so far, evolved by the game's own catalogue — the same
code replay runs — so a later step of a move sees what the earlier ones did (a capture
before the elimination it causes, the last tile before the wall tiling).

The scratch state is made only when it is needed: until the first event, :attr:`Turn.state`
is the state the turn began from (read it, never change it), and the copy is taken and
brought up to date the first time :attr:`Turn.state` is read after an event. A move that
emits its events without looking at their consequences therefore copies nothing. Read
``turn.state`` again after each ``emit``; a reference taken before may be stale.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, Protocol

from domain.events import Event, EventCatalogue, State


class Replaying(Protocol[State]):
    """What a turn needs of a game's rules: its catalogue and its copy of a state."""

    @property
    def events(self) -> EventCatalogue[State]:
        """The game's event catalogue."""
        ...

    def copy_state(self, state: State, /) -> State:
        """An independent copy of ``state``."""
        ...


class Turn(Generic[State]):
    """The events one move (or the opening) causes, and the state they lead to."""

    __slots__ = ("_evolved", "_rules", "_scratch", "before", "emit", "events")

    def __init__(self, state: State, rules: Replaying[State]) -> None:
        self.before = state
        """The state before the move (never changed)."""
        self._rules = rules
        self._scratch: State | None = None
        self._evolved = 0
        events: list[Event] = []
        self.events = events
        """Every event emitted so far, in order."""
        self.emit: Callable[[Event], None] = events.append
        """Record an event (made by its :class:`~domain.events.EventKind`) as the next
        consequence of the move. The list's own ``append``: emitting runs no Python code."""

    @property
    def state(self) -> State:
        """The state after every event emitted so far (do not change it: emit instead)."""
        events = self.events
        if not events:
            return self.before
        scratch = self._scratch
        if scratch is None:
            scratch = self._scratch = self._rules.copy_state(self.before)
        evolve = self._rules.events.evolve
        while self._evolved < len(events):
            evolve(scratch, events[self._evolved])
            self._evolved += 1
        return scratch
