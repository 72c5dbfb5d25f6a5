"""What a placement completes, foreseen without changing the state (docs/carcassonne.md,
"Scoring a completed feature": a road is complete when both ends stop or it loops, a city
when its wall is closed, a monastery when the eight squares around it hold tiles; "Two
segments of one city on the same tile count that tile once").

``apply`` uses this before any event exists; ``evolve`` marks the same features complete
when it places the tile (:func:`domain.carcassonne.board.place_tile`).
"""

from __future__ import annotations

from typing import NamedTuple

from domain.carcassonne.board import Group, surrounded
from domain.carcassonne.grid import AROUND
from domain.carcassonne.state import NODE_BITS, CarcassonneState
from domain.carcassonne.tiles import CITY, MONASTERY, ROAD, TYPES, Orientation


class Completion(NamedTuple):
    """A feature the new tile completes, as it will be: ``ref`` is its first node,
    ``followers`` the squares of the followers on it (before this turn's deployment)."""

    kind: int
    ref: int
    tiles: int
    pennants: int
    followers: list[int]
    segments: tuple[int, ...]
    """The new tile's segments in it (empty for a neighbouring monastery)."""


def completions(
    state: CarcassonneState, pos: int, orientation: Orientation, groups: list[Group]
) -> list[Completion]:
    """The features that placing the turned tile at ``pos`` completes (read only): roads
    and cities with no open end left, and monasteries — its own or a neighbour's — with all
    eight squares around filled. Already complete features never grow again."""
    features = state.features
    segments = TYPES[orientation.type].segments
    k = len(state.tiles)
    done: list[Completion] = []
    for group in groups:
        if group.kind not in (ROAD, CITY):
            continue
        parts = [features[f] for f in group.features]
        ends = sum(p.open for p in parts) + sum(segments[i].ends for i in group.segments)
        if ends - 2 * group.matched:
            continue
        squares = {pos}.union(*(p.tiles for p in parts))
        pennants = sum(p.pennants for p in parts) + sum(
            segments[i].pennants for i in group.segments
        )
        nodes = [k << NODE_BITS | i for i in group.segments]
        ref = min(nodes + [min(p.nodes) for p in parts])
        followers = [square for p in parts for square in p.followers]
        done.append(Completion(group.kind, ref, len(squares), pennants, followers, group.segments))
    own = TYPES[orientation.type].monastery
    if own >= 0 and surrounded(state, pos) == 8:
        done.append(Completion(MONASTERY, k << NODE_BITS | own, 9, 0, [], (own,)))
    monasteries = state.monasteries
    if monasteries:
        for step in AROUND:
            fid = monasteries.get(pos + step)
            if fid is not None and surrounded(state, pos + step, pos) == 8:
                monastery = features[fid]
                done.append(Completion(MONASTERY, fid, 9, 0, list(monastery.followers), ()))
    return done
