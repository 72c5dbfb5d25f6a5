"""Routes for moving units in the reinforcement phase (docs/risk.md, "Moving units"; seed
003, Art. 12): units move "along neighbouring territories or to territories reached by a
corridor of allied territories (of a player who consents to troops moving through their
territories)". One rule covers both: a route runs from an own territory to another own
territory through any number of territories, each of them either the mover's own or held
by another player who has granted the mover passage (``state.passage[ally]`` lists the seats
an ally lets through). So ``Alaska>Greenland`` through one's own Northwest Territory is a
route exactly as it is through a consenting ally's.

The route found is the shortest; among routes of equal length the one first in map order is
taken (breadth-first search visiting neighbours in map order), so it is deterministic.

Consent is given and withdrawn in the exchange session (``PassageGranted``,
``PassageRevoked``; :func:`consent`) and lasts until revoked.
"""

from __future__ import annotations

from collections import deque

from domain.protocol import IllegalMove
from domain.risk.constitution.events import (
    PASSAGE_GRANTED,
    PASSAGE_REVOKED,
)
from domain.risk.state import RiskState
from domain.risk.worldmap import WORLD_MAP, WorldMap
from domain.turn import Turn


def _map_order(world: WorldMap) -> dict[str, int]:
    return {t.name: i for i, t in enumerate(world.territories)}


def open_to(state: RiskState, seat: int) -> set[str]:
    """The territories ``seat``'s units may pass through: those ``seat`` holds, and those
    of another player who has granted ``seat`` passage (seed 003, Art. 12: "the player who
    consents to the movement of troops through their territories"; docs/risk.md, "Moving
    units")."""
    passage = state.passage
    letting = {s for s in range(len(passage)) if s == seat or seat in passage[s]}
    return {territory for territory, holder in state.owner.items() if holder in letting}


def routes_from(
    state: RiskState, seat: int, source: str, world: WorldMap = WORLD_MAP
) -> dict[str, list[str]]:
    """Every own territory ``seat`` can move units to from ``source``, with the shortest
    route taken (``[source, ..., target]``): a border, or a chain whose inner territories
    are each ``seat``'s own or a consenting ally's (docs/risk.md, "Moving units")."""
    order = _map_order(world)
    passable = open_to(state, seat)
    previous: dict[str, str] = {source: source}
    queue: deque[str] = deque([source])
    found: dict[str, list[str]] = {}
    while queue:
        here = queue.popleft()
        for there in sorted(world.adjacency[here], key=order.__getitem__):
            if there in previous:
                continue
            if there not in passable:
                continue
            previous[there] = here
            queue.append(there)
            if state.owner[there] == seat:
                found[there] = _path(previous, there)
    return found


def reachable(state: RiskState, seat: int, world: WorldMap = WORLD_MAP) -> dict[str, list[str]]:
    """For each of ``seat``'s territories, the other own territories a route joins it to
    (docs/risk.md, "Moving units"), in map order: the own territories of one connected part
    of the territories open to ``seat``. The same targets as :func:`routes_from`, found for
    every source at once and without the routes (the legal-move list needs only these)."""
    passable = open_to(state, seat)
    adjacency = world.adjacency
    part: dict[str, int] = {}
    for start in world.by_name:
        if start in part or start not in passable:
            continue
        label = part[start] = len(part)
        queue = [start]
        while queue:
            for there in adjacency[queue.pop()]:
                if there in passable and there not in part:
                    part[there] = label
                    queue.append(there)
    owner = state.owner
    own = [t for t in world.by_name if owner.get(t) == seat]
    parts: dict[int, list[str]] = {}
    for territory in own:
        parts.setdefault(part[territory], []).append(territory)
    return {a: [b for b in parts[part[a]] if b != a] for a in own}


def route(
    state: RiskState, seat: int, source: str, target: str, world: WorldMap = WORLD_MAP
) -> list[str] | None:
    """The route ``seat``'s units take from ``source`` to ``target`` (both its own), or
    ``None`` when no chain of own and consenting allies' territories joins them
    (docs/risk.md, "Moving units")."""
    return routes_from(state, seat, source, world).get(target)


def _path(previous: dict[str, str], end: str) -> list[str]:
    path = [end]
    while previous[path[-1]] != path[-1]:
        path.append(previous[path[-1]])
    return path[::-1]


def consent(turn: Turn[RiskState], seat: int, to: int, *, granting: bool) -> None:
    """Seed 003, Art. 12 (docs/risk.md, "Moving units"): consent to move through one's
    territories is an explicit, recorded act of the ally (given or withdrawn in the exchange
    session); it lasts until revoked."""
    state = turn.state
    if to == seat or to not in state.active():
        raise IllegalMove("no-such-seat", f"Seat {to} is not another player in the game.")
    granted = to in state.passage[seat]
    if granting and granted:
        raise IllegalMove("already-granted", f"Seat {to} has your passage already.")
    if not granting and not granted:
        raise IllegalMove("not-granted", f"Seat {to} has no passage from you.")
    kind = PASSAGE_GRANTED if granting else PASSAGE_REVOKED
    turn.emit(kind({"seat": seat, "to": to}))
