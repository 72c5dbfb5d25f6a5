"""Deciding a move as a run of events (docs/architecture.md, "Events are the record"): a
:class:`Turn` holds a scratch copy of the state and evolves it by every event it emits, so
that later steps of the same move see the consequences of earlier ones (a capture before
the elimination it causes, the last turn before the exchange session)."""

from __future__ import annotations

from typing import Any

from domain.protocol import Event
from domain.risk.state import RiskState, copy_state


class Turn:
    """The events one move (or the opening) causes, evolved onto a private copy."""

    def __init__(self, state: RiskState) -> None:
        self.state = copy_state(state)
        self.events: list[Event] = []

    def emit(self, type_name: str, data: dict[str, Any]) -> None:
        """Record an event and evolve the scratch state by it."""
        from domain.risk.evolve import evolve  # noqa: PLC0415 - evolve imports the phases

        event = Event(type_name, data)
        self.events.append(event)
        evolve(self.state, event)
