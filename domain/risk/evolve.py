"""How every Risk event changes the state (the protocol's ``evolve``): a table from event
type to the handler in the phase module that owns the event. Replay uses only this."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.protocol import Event
from domain.risk import classic, exchange, invasion, reinforcement, rounds, setup
from domain.risk.state import RiskState

Handler = Callable[[RiskState, dict[str, Any]], None]

HANDLERS: dict[str, Handler] = {
    **setup.HANDLERS,
    **rounds.HANDLERS,
    **invasion.HANDLERS,
    **reinforcement.HANDLERS,
    **exchange.HANDLERS,
    **classic.HANDLERS,
}
EVENT_TYPES: tuple[str, ...] = tuple(HANDLERS)


def evolve(state: RiskState, event: Event) -> RiskState:
    """``state`` changed in place by ``event``; an event that drew random numbers moves the
    state's ``random_position`` on to the position it recorded."""
    HANDLERS[event.type](state, event.data)
    position = event.data.get("random_position")
    if isinstance(position, int):
        state.random_position = position
    return state
