"""The Carcassonne tile catalogue as a renderer needs it (docs/api.md, "Rendering data";
issue 13, part 5): every tile type of the base game and of the expansion Bridges, Castles &
Bazaars with its edges, its segments — where each lies, in the engine's own edge and
half-edge vocabulary (docs/carcassonne.md, "Tiles and the catalogue", "Conventions") — and
a follower spot per segment, the bridges it may take, the rotation rule, and the deck of
each option set.

Built from the engine's tile types (:mod:`domain.carcassonne.tiles`), never from a copy, so
it cannot drift: ``tests/unit/test_rendering_tiles.py`` turns every segment by the rule the
document states and compares it with the engine's slots for every rotation.
"""

from __future__ import annotations

from typing import Final, Literal, TypeVar

from typing_extensions import TypedDict

from application.rendering.tile_spots import Point, bridge_spot, spot
from domain.carcassonne.catalogue import CATALOGUE
from domain.carcassonne.expansion import ALL_COUNTS, EXPANSION
from domain.carcassonne.rules import RULES_VERSION
from domain.carcassonne.tiles import (
    BASE,
    BASE_COUNTS,
    CATALOGUE_TYPES,
    CITY,
    FIELD,
    ROAD,
    ROTATIONS,
    TYPES,
    VARIANTS,
    Segment,
    TileType,
)

SegmentKind = Literal["city", "road", "field", "monastery"]
Role = Literal["knight", "thief", "farmer", "monk"]
RoadEnd = Literal["junction", "city", "monastery", "bazaar"]
EdgeName = Literal["N", "E", "S", "W"]
HalfName = Literal["NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW"]
Axis = Literal["NS", "WE"]


class PointJSON(TypedDict):
    """A point of the unit square of the unturned tile (x east, y south, 0..1)."""

    x: float
    y: float


class SegmentJSON(TypedDict):
    """One segment of a tile type: the fields every kind has, zero or empty where they do
    not apply, so every segment has the same shape."""

    id: str
    kind: SegmentKind
    follower: Role
    edges: list[EdgeName]
    half_edges: list[HalfName]
    pennants: int
    castle_base: bool
    adjacent_cities: list[str]
    road_end: RoadEnd | None
    inn: bool
    spot: PointJSON


class BridgeJSON(TypedDict):
    """A bridge the tile type may take: across ``axis`` of the unturned tile, the road
    segment ``b0`` it adds over two field edges (which then show as road edges)."""

    axis: Axis
    edges: str
    segment: SegmentJSON


class TileTypeJSON(TypedDict):
    """A tile type: its letter (the ``tile`` of moves, events and views), set, copies,
    edges N E S W unturned, segments, bridges and pictures without rules effect aside."""

    id: str
    set: str
    count: int
    start: bool
    edges: str
    monastery: bool
    bazaar: bool
    segments: list[SegmentJSON]
    bridges: list[BridgeJSON]


class HalfEdgeJSON(TypedDict):
    """A half-edge: its name, the edge it halves, and its end points, clockwise."""

    name: HalfName
    edge: EdgeName
    start: PointJSON
    end: PointJSON


class RotationJSON(TypedDict):
    """How a turned tile is drawn: degrees clockwise; side ``d`` shows the unturned side
    ``d - turns``; half-edge ``i`` moves to ``i + 2·turns``; a point ``(x, y)`` goes to
    ``(1 - y, x)`` per quarter turn."""

    degrees: list[int]
    direction: Literal["clockwise"]
    edge_step: int
    half_edge_step: int


class DeckJSON(TypedDict):
    """The tiles of a game with these options (the start tile included)."""

    options: dict[str, list[str]]
    sets: list[str]
    tiles: int


class TileCatalogue(TypedDict):
    """The whole document of ``GET /game-types/carcassonne/tiles``."""

    game: Literal["carcassonne"]
    rules_version: str
    edges: list[EdgeName]
    half_edges: list[HalfEdgeJSON]
    rotation: RotationJSON
    decks: list[DeckJSON]
    tiles: list[TileTypeJSON]


EDGES: Final[tuple[EdgeName, ...]] = ("N", "E", "S", "W")
"""The engine's :data:`~domain.carcassonne.tiles.EDGE_NAMES`, typed (the tests check both)."""
HALVES: Final[tuple[HalfName, ...]] = ("NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW")
"""The engine's :data:`~domain.carcassonne.tiles.HALF_NAMES`, typed."""
KINDS: Final[tuple[SegmentKind, ...]] = ("city", "road", "field", "monastery")
"""The engine's :data:`~domain.carcassonne.tiles.KIND_NAMES`, typed."""
FOLLOWERS: Final[tuple[Role, ...]] = ("knight", "thief", "farmer", "monk")
"""The engine's :data:`~domain.carcassonne.tiles.ROLES`, typed."""
AXIS_NAMES: Final[tuple[Axis, ...]] = ("NS", "WE")
"""The engine's :data:`~domain.carcassonne.tiles.AXES`, typed."""
CORNERS: Final = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
"""The corners NW, NE, SE, SW: edge ``d`` runs clockwise from corner ``d`` to ``d + 1``."""
ROAD_ENDS: Final[dict[str, RoadEnd]] = {
    "junction": "junction",
    "monastery": "monastery",
    "bazaar": "bazaar",
}
"""The catalogue's road ends as the document names them (any ``city…`` is ``city``)."""


def _point(point: Point) -> PointJSON:
    return {"x": point[0], "y": point[1]}


Name = TypeVar("Name", EdgeName, HalfName)


def _names(mask: int, names: tuple[Name, ...]) -> list[Name]:
    return [names[bit] for bit in range(len(names)) if mask >> bit & 1]


def _road_end(raw: str | None) -> RoadEnd | None:
    if raw is None:
        return None
    return "city" if raw.startswith("city") else ROAD_ENDS[raw]


def _segment(tile: TileType, segment: Segment, where: Point) -> SegmentJSON:
    """One segment of ``tile`` as the document shows it (``where``: its spot)."""
    raw = CATALOGUE[tile.index] if tile.index < len(CATALOGUE) else {}
    cities = {c["id"]: c for c in raw.get("cities", [])}
    roads = {r["id"]: r for r in raw.get("roads", [])}
    city_ids = [s.id for s in tile.segments if s.kind == CITY]
    return {
        "id": segment.id,
        "kind": KINDS[segment.kind],
        "follower": FOLLOWERS[segment.kind],
        "edges": _names(segment.edges, EDGES),
        "half_edges": _names(segment.halves, HALVES),
        "pennants": segment.pennants,
        "castle_base": bool(cities.get(segment.id, {}).get("castle_base", False)),
        "adjacent_cities": [city_ids[i] for i in segment.cities] if segment.kind == FIELD else [],
        "road_end": _road_end(roads[segment.id]["end"]) if segment.id in roads else None,
        "inn": raw.get("inn_on_road") == segment.id and segment.kind == ROAD,
        "spot": _point(where),
    }


def _bridge(tile: TileType, axis: int) -> BridgeJSON:
    """The bridge across ``axis`` of the unturned ``tile``, from its bridged variant."""
    variant = TYPES[VARIANTS[tile.index][axis]]
    bridge = variant.segments[-1]
    return {
        "axis": AXIS_NAMES[axis],
        "edges": variant.edges,
        "segment": _segment(variant, bridge, bridge_spot(tile, axis)),
    }


def tile_type(tile: TileType) -> TileTypeJSON:
    """A catalogue tile type as the document shows it."""
    raw = CATALOGUE[tile.index]
    return {
        "id": tile.letter,
        "set": tile.set,
        "count": tile.count,
        "start": tile.start,
        "edges": tile.edges,
        "monastery": tile.monastery >= 0,
        "bazaar": bool(raw["bazaar"]),
        "segments": [_segment(tile, s, spot(tile, s)) for s in tile.segments],
        "bridges": [_bridge(tile, a) for a in range(2) if VARIANTS[tile.index][a] >= 0],
    }


def _half_edge(index: int) -> HalfEdgeJSON:
    """Half-edge ``index``: the first or second half, clockwise, of edge ``index // 2``."""
    edge = index // 2
    (ax, ay), (bx, by) = CORNERS[edge], CORNERS[(edge + 1) % 4]
    middle = ((ax + bx) / 2, (ay + by) / 2)
    start, end = ((ax, ay), middle) if index % 2 == 0 else (middle, (bx, by))
    return {
        "name": HALVES[index],
        "edge": EDGES[edge],
        "start": _point(start),
        "end": _point(end),
    }


def tile_catalogue() -> TileCatalogue:
    """The document of ``GET /game-types/carcassonne/tiles`` (module docstring)."""
    return {
        "game": "carcassonne",
        "rules_version": RULES_VERSION,
        "edges": list(EDGES),
        "half_edges": [_half_edge(index) for index in range(8)],
        "rotation": {
            "degrees": list(ROTATIONS),
            "direction": "clockwise",
            "edge_step": 1,
            "half_edge_step": 2,
        },
        "decks": [
            {"options": {}, "sets": [BASE], "tiles": sum(BASE_COUNTS)},
            {
                "options": {"expansions": [EXPANSION]},
                "sets": [BASE, EXPANSION],
                "tiles": sum(ALL_COUNTS),
            },
        ],
        "tiles": [tile_type(tile) for tile in CATALOGUE_TYPES],
    }
