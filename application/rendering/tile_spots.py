"""Where a client draws a follower on each segment of a Carcassonne tile type (docs/api.md,
"Rendering data"): one point per segment, in the unit square of the **unturned** tile —
``x`` from 0 (west edge) to 1 (east edge), ``y`` from 0 (north edge) to 1 (south edge),
the same orientation as the table's squares (docs/carcassonne.md, "Conventions": ``y`` grows
to the south).

The engine knows only which edges and half-edges a segment touches, not its outline, so the
spots are the project's own drawing decision: a rule per kind of segment (a city towards the
edges it holds, a road along its course, a field at the middle of its half-edges, a
monastery at the centre), a few hand-placed exceptions where two spots of one tile would
meet, and a bridge's spot on its axis where it is farthest from the tile's other spots.
``tests/unit/test_rendering_tiles.py`` checks that every segment of every tile type, bridged
variants included, has a spot inside the tile and at least :data:`MIN_GAP` from the others.
"""

from __future__ import annotations

import math
from typing import Final

from domain.carcassonne.tiles import CITY, FIELD, MONASTERY, Segment, TileType

Point = tuple[float, float]

MIN_GAP: Final = 0.2
"""The least distance between two spots of one tile (a follower drawn at each stays apart)."""
CENTRE: Final = (0.5, 0.5)
DIRECTIONS: Final = ((0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0))
"""From the centre towards edge N, E, S, W."""
HALF_POINTS: Final = (
    (0.25, 0.15),
    (0.75, 0.15),
    (0.85, 0.25),
    (0.85, 0.75),
    (0.75, 0.85),
    (0.25, 0.85),
    (0.15, 0.75),
    (0.15, 0.25),
)
"""Just inside each half-edge NNW, NNE, ENE, ESE, SSE, SSW, WSW, WNW."""
CITY_REACH: Final = {1: 0.35, 2: 0.22, 3: 0.12, 4: 0.0}
"""How far a city's spot lies from the centre towards its edges, by the number of edges (a
cap near its edge, a corner city in its corner, three edges just off the centre)."""
ROAD_REACH: Final = {1: 0.3, 2: 0.146}
"""A dead end halfway along its stub; a bend on its quarter circle (0.146·√2 ≈ 0.21 from
the centre, where an arc between two edge midpoints passes)."""
EXCEPTIONS: Final[dict[tuple[str, str], Point]] = {
    ("A", "f0"): (0.2, 0.25),
    ("B", "f0"): (0.2, 0.25),
    ("D", "r0"): (0.2, 0.5),
    ("F", "c0"): (0.2, 0.5),
    ("G", "c0"): (0.2, 0.5),
    ("D", "f0"): (0.5, 0.36),
    ("L", "f0"): (0.5, 0.36),
    ("O", "f0"): (0.72, 0.38),
    ("P", "f0"): (0.72, 0.38),
    ("U", "r0"): (0.25, 0.5),
    ("BB3", "c0"): (0.2, 0.5),
    ("BB5", "f0"): (0.22, 0.6),
    ("BB7", "c0"): (0.2, 0.5),
    ("BB7", "f0"): (0.8, 0.15),
    ("BB7", "f1"): (0.2, 0.85),
    ("BB8", "r0"): (0.2, 0.5),
    ("BB8", "f0"): (0.8, 0.2),
    ("BB8", "f1"): (0.2, 0.8),
    ("BB9", "f0"): (0.2, 0.25),
    ("BB10", "f0"): (0.25, 0.5),
    ("BB10", "f1"): (0.75, 0.5),
    ("BB11", "f0"): (0.25, 0.5),
    ("BB11", "f1"): (0.75, 0.5),
}
"""Hand-placed spots, by tile letter and segment id, where the rule puts two spots of one
tile too close (a field beside a cap city, a field or road where a monastery or a bazaar
stands, a field inside a bend), or where a bridge's axis crosses them (a city band, the
fields beside it)."""
BRIDGE_STOPS: Final = (0.5, 0.25, 0.75, 0.2, 0.8)
"""Where along its axis a bridge's spot may lie, in order of preference."""


def _edges(mask: int) -> list[int]:
    return [d for d in range(4) if mask >> d & 1]


def _towards(edges: list[int], reach: float) -> Point:
    """The centre moved ``reach`` towards each of ``edges`` (their directions summed)."""
    dx = sum(DIRECTIONS[d][0] for d in edges)
    dy = sum(DIRECTIONS[d][1] for d in edges)
    return (round(0.5 + reach * dx, 3), round(0.5 + reach * dy, 3))


def rule_spot(segment: Segment) -> Point:
    """The spot the rule gives a segment of the unturned tile (module docstring)."""
    if segment.kind == MONASTERY:
        return CENTRE
    if segment.kind == FIELD:
        halves = [h for h in range(8) if segment.halves >> h & 1]
        x = sum(HALF_POINTS[h][0] for h in halves) / len(halves)
        y = sum(HALF_POINTS[h][1] for h in halves) / len(halves)
        return (round(x, 3), round(y, 3))
    edges = _edges(segment.edges)
    if segment.kind == CITY:
        return _towards(edges, CITY_REACH[len(edges)])
    return _towards(edges, ROAD_REACH.get(len(edges), 0.0))


def spot(tile: TileType, segment: Segment) -> Point:
    """Where a follower on ``segment`` of ``tile`` (unturned) is drawn."""
    return EXCEPTIONS.get((tile.letter, segment.id), rule_spot(segment))


def bridge_spot(tile: TileType, axis: int) -> Point:
    """The spot of a bridge across ``axis`` of the unturned ``tile`` (0: N-S, 1: W-E): the
    first of :data:`BRIDGE_STOPS` along the axis that lies farthest from the tile's own
    spots."""
    others = [spot(tile, segment) for segment in tile.segments]

    def gap(point: Point) -> float:
        return min((math.dist(point, other) for other in others), default=1.0)

    stops = [(0.5, t) if axis == 0 else (t, 0.5) for t in BRIDGE_STOPS]
    best = max(gap(point) for point in stops)
    return next(point for point in stops if gap(point) == best)


def rotate_point(point: Point, rotation: int) -> Point:
    """``point`` of the unturned tile on the tile turned ``rotation`` degrees clockwise
    (0, 90, 180, 270): a quarter turn maps ``(x, y)`` to ``(1 - y, x)`` about the centre."""
    x, y = point
    for _ in range(rotation // 90 % 4):
        x, y = round(1 - y, 3), x
    return (x, y)
