"""Routes for moving units in the reinforcement phase (shared/rules/risk.md, "Reinforcement
phase", last paragraph; seed 003, Art. 12): units move to an own adjacent territory, or along
a *corridor* of allied territories -- territories of other players who have each recorded
their consent (``state.passage[ally]`` lists the seats an ally lets through).

The route found is the shortest; among routes of equal length the one first in map order is
taken (breadth-first search visiting neighbours in map order), so it is deterministic.

Consent is given and withdrawn in the exchange session (``PassageGranted``,
``PassageRevoked``; :func:`consent`) and lasts until revoked.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from domain.protocol import IllegalMove
from domain.risk.state import RiskState
from domain.risk.turn import Turn
from domain.risk.worldmap import WORLD_MAP, WorldMap


def _map_order(world: WorldMap) -> dict[str, int]:
    return {t.name: i for i, t in enumerate(world.territories)}


def _open_to(state: RiskState, seat: int, territory: str) -> bool:
    """Whether ``seat``'s units may pass through ``territory``: another player holds it and
    that player has granted ``seat`` passage (seed 003, Art. 12: "the player who consents to
    the movement of troops through their territories")."""
    holder = state.owner.get(territory)
    return holder is not None and holder != seat and seat in state.passage[holder]


def routes_from(
    state: RiskState, seat: int, source: str, world: WorldMap = WORLD_MAP
) -> dict[str, list[str]]:
    """Every own territory ``seat`` can move units to from ``source``, with the route taken
    (``[source, ..., target]``): a border, or a corridor whose inner territories all belong
    to allies who consented (rules, "Reinforcement phase": "along a corridor of an ally's
    territories when that ally consents"). Own territories are ends of a route, never
    inner steps of a corridor."""
    order = _map_order(world)
    previous: dict[str, str] = {source: source}
    queue: deque[str] = deque([source])
    found: dict[str, list[str]] = {}
    while queue:
        here = queue.popleft()
        for there in sorted(world.adjacency[here], key=order.__getitem__):
            if there in previous:
                continue
            if state.owner.get(there) == seat:
                previous[there] = here
                found[there] = _path(previous, there)
            elif _open_to(state, seat, there):
                previous[there] = here
                queue.append(there)
    return found


def route(
    state: RiskState, seat: int, source: str, target: str, world: WorldMap = WORLD_MAP
) -> list[str] | None:
    """The route ``seat``'s units take from ``source`` to ``target`` (both its own), or
    ``None`` when there is neither a border nor a consented corridor (rules, "Reinforcement
    phase")."""
    return routes_from(state, seat, source, world).get(target)


def _path(previous: dict[str, str], end: str) -> list[str]:
    path = [end]
    while previous[path[-1]] != path[-1]:
        path.append(previous[path[-1]])
    return path[::-1]


def consent(turn: Turn, seat: int, to: int, *, granting: bool) -> None:
    """Seed 003, Art. 12: consent to move through one's territories is an explicit, recorded
    act of the ally (given or withdrawn in the exchange session); it lasts until revoked."""
    state = turn.state
    if to == seat or to not in state.active():
        raise IllegalMove("no-such-seat", f"Seat {to} is not another player in the game.")
    granted = to in state.passage[seat]
    if granting and granted:
        raise IllegalMove("already-granted", f"Seat {to} has your passage already.")
    if not granting and not granted:
        raise IllegalMove("not-granted", f"Seat {to} has no passage from you.")
    turn.emit("PassageGranted" if granting else "PassageRevoked", {"seat": seat, "to": to})


def _passage_granted(state: RiskState, data: dict[str, Any]) -> None:
    state.passage[data["seat"]] = sorted({*state.passage[data["seat"]], data["to"]})


def _passage_revoked(state: RiskState, data: dict[str, Any]) -> None:
    state.passage[data["seat"]] = [s for s in state.passage[data["seat"]] if s != data["to"]]


HANDLERS: dict[str, Callable[[RiskState, dict[str, Any]], None]] = {
    "PassageGranted": _passage_granted,
    "PassageRevoked": _passage_revoked,
}
