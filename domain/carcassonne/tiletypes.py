"""Tile types, built once from the catalogue (docs/carcassonne.md, "Tiles and the
catalogue"): the catalogue's types with their segments — cities,
roads, fields and monastery, in that order, with the catalogue's ids — and, after them, the
*bridged variants* (rules, "Bridges"): a type with two opposite field edges bridged, one
more road segment ``b0`` over them. :mod:`domain.carcassonne.tiles` turns them and builds
the tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from domain.carcassonne.catalogue import CATALOGUE

EDGE_NAMES: Final = "NESW"
HALF_NAMES: Final = ("NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW")
CITY: Final = 0
ROAD: Final = 1
FIELD: Final = 2
MONASTERY: Final = 3
KIND_NAMES: Final = ("city", "road", "field", "monastery")
ROLES: Final = ("knight", "thief", "farmer", "monk")
"""What a follower is called on each kind of feature (rules, "Deploying")."""
EDGE_CODES: Final = {"C": 1, "R": 2, "F": 3}
BASE: Final = "base"
START_TYPE: Final = "D"
ROTATIONS: Final = (0, 90, 180, 270)


@dataclass(frozen=True, slots=True)
class Segment:
    """One feature piece of a tile type, unrotated: ``edges`` and ``halves`` are bit masks;
    ``ends`` counts the edges a road or city leaves by (its open ends on a lone tile);
    ``cities`` (fields only) are the indices of the city segments of the tile it borders."""

    id: str
    kind: int
    edges: int
    halves: int
    pennants: int
    cities: tuple[int, ...]
    ends: int


@dataclass(frozen=True, slots=True)
class TileType:
    """A tile type of the catalogue: its letter (``A``..``X``, ``BB1``..), how many copies
    the game has, its edges (``"CRFR"``, N E S W) and its segments."""

    index: int
    letter: str
    set: str
    count: int
    edges: str
    segments: tuple[Segment, ...]
    monastery: int
    """The index of the monastery segment, or -1."""
    start: bool

    def segment_index(self, segment_id: str) -> int:
        """The index of the segment called ``segment_id``, or -1."""
        for index, segment in enumerate(self.segments):
            if segment.id == segment_id:
                return index
        return -1


def _mask(names: list[str], alphabet: tuple[str, ...] | str) -> int:
    bits = 0
    for name in names:
        bits |= 1 << list(alphabet).index(name)
    return bits


def _tile_type(index: int, data: dict[str, Any]) -> TileType:
    segments: list[Segment] = []
    city_ids = [city["id"] for city in data["cities"]]
    for city in data["cities"]:
        edges = _mask(city["edges"], EDGE_NAMES)
        segments.append(
            Segment(city["id"], CITY, edges, 0, city["pennants"], (), edges.bit_count())
        )
    for road in data["roads"]:
        edges = _mask(road["edges"], EDGE_NAMES)
        segments.append(Segment(road["id"], ROAD, edges, 0, 0, (), edges.bit_count()))
    for field in data["fields"]:
        cities = tuple(city_ids.index(name) for name in field["adj_cities"])
        segments.append(
            Segment(field["id"], FIELD, 0, _mask(field["halves"], HALF_NAMES), 0, cities, 0)
        )
    monastery = -1
    if data["monastery"]:
        monastery = len(segments)
        segments.append(Segment("m0", MONASTERY, 0, 0, 0, (), 0))
    return TileType(
        index,
        data["type"],
        data["set"],
        data["count"],
        data["edges"],
        tuple(segments),
        monastery,
        data["start"],
    )


CATALOGUE_TYPES: Final = tuple(_tile_type(index, data) for index, data in enumerate(CATALOGUE))
"""Every tile type of the catalogue, in its order (A..X, then BB1..BB11): the canonical
order of draws."""
BRIDGED: Final = "bridged"
"""The ``set`` of a bridged variant (never in a stack)."""
AXES: Final = ("NS", "WE")
"""Bridge axes: across N-S (0) or W-E (1)."""


def _bridged(tile: TileType, axis: int, index: int) -> TileType | None:
    """``tile`` with a bridge across ``axis`` (of the unturned tile), or ``None`` when an
    end would not lie on a field edge (rules, "Bridges": the bridge is one more road
    segment ``b0`` over the two field edges, which become road edges; the fields keep their
    half-edges, so they are not split)."""
    sides = (axis, axis + 2)
    if any(tile.edges[d] != "F" for d in sides):
        return None
    edges = "".join("R" if d in sides else e for d, e in enumerate(tile.edges))
    bridge = Segment("b0", ROAD, 1 << sides[0] | 1 << sides[1], 0, 0, (), 2)
    segments = (*tile.segments, bridge)
    return TileType(index, tile.letter, BRIDGED, 0, edges, segments, tile.monastery, False)


def _variants() -> tuple[tuple[TileType, ...], tuple[tuple[int, int], ...]]:
    made: list[TileType] = []
    table = []
    for tile in CATALOGUE_TYPES:
        pair = []
        for axis in range(2):
            variant = _bridged(tile, axis, len(CATALOGUE_TYPES) + len(made))
            if variant is not None:
                made.append(variant)
            pair.append(-1 if variant is None else variant.index)
        table.append((pair[0], pair[1]))
    return tuple(made), tuple(table)


_MADE, _TABLE = _variants()
TYPES: Final = CATALOGUE_TYPES + _MADE
"""Every tile type by index: the catalogue's, then the bridged variants of those with two
opposite field edges (a tile that receives a bridge becomes its variant)."""
VARIANTS: Final = _TABLE + tuple((-1, -1) for _ in _MADE)
"""``VARIANTS[type][axis]``: the bridged variant of a catalogue type with the bridge
across ``axis`` of the unturned tile (0 N-S, 1 W-E), or -1."""
BRIDGE_AXIS: Final = tuple(-1 for _ in CATALOGUE_TYPES) + tuple(
    next(axis for pair in _TABLE for axis in range(2) if pair[axis] == t.index) for t in _MADE
)
"""``BRIDGE_AXIS[type]``: the axis of a variant's bridge on the unturned tile (-1: none)."""
TYPE_INDEX: Final = {tile.letter: tile.index for tile in CATALOGUE_TYPES}
BASE_COUNTS: Final = tuple(tile.count if tile.set == BASE else 0 for tile in TYPES)
"""Copies per type in the base game (72 tiles, the start tile included)."""
START: Final = TYPE_INDEX[START_TYPE]
