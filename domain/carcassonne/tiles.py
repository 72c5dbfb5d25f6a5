"""The geometry of the tile types (:mod:`domain.carcassonne.tiletypes`, re-exported here),
built once (docs/carcassonne.md, "Tiles and the catalogue";
"Placing").

A tile has four edges N, E, S, W (0..3) and eight half-edges clockwise from the top-left
corner, NNW, NNE, ENE, ESE, SSE, SSW, WSW, WNW (0..7). Its *segments* are its cities, roads,
fields and monastery, in that order, with the ids of the catalogue (``c0``, ``r1``, ``f2``;
the monastery is ``m0``). Rotating a tile 90° clockwise maps edge ``d`` to ``(d + 1) mod 4``
and half-edge ``i`` to ``(i + 2) mod 8``; segment ids do not change.

The engine speaks of *slots*, 12 bits of one square: bit ``d`` is edge ``d`` (where a road
or city crosses it) and bit ``4 + i`` is half-edge ``i`` (the field beside the edge's
midpoint). Across a shared edge a slot meets the neighbour's slot on the same side of the
midpoint (edge ``d`` meets edge ``d + 2``; NNW meets SSW, NNE meets SSE, ENE meets WNW, ESE
meets WSW). Edge kinds are coded C = 1, R = 2, F = 3; a square's *constraint code* packs,
two bits per side ``d``, the kind its placed neighbour shows there (0 = no neighbour), and
:data:`FITS` lists for every type and code the rotations that match it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from domain.carcassonne.tiletypes import (
    AXES,
    BASE,
    BASE_COUNTS,
    BRIDGE_AXIS,
    CATALOGUE_TYPES,
    CITY,
    EDGE_CODES,
    EDGE_NAMES,
    FIELD,
    HALF_NAMES,
    KIND_NAMES,
    MONASTERY,
    ROAD,
    ROLES,
    ROTATIONS,
    START,
    START_TYPE,
    TYPE_INDEX,
    TYPES,
    VARIANTS,
    Segment,
    TileType,
)

__all__ = [
    "AXES",
    "BASE",
    "BASE_COUNTS",
    "BRIDGE_AXIS",
    "CATALOGUE_TYPES",
    "CITY",
    "EDGE_CODES",
    "EDGE_NAMES",
    "FIELD",
    "HALF_NAMES",
    "KIND_NAMES",
    "MONASTERY",
    "ROAD",
    "ROLES",
    "ROTATIONS",
    "START",
    "START_TYPE",
    "TYPES",
    "TYPE_INDEX",
    "VARIANTS",
    "Segment",
    "TileType",
]
"""The tile types are :mod:`domain.carcassonne.tiletypes`'s, re-exported here with their
geometry."""


def rotate_edge(edge: int, quarter_turns: int) -> int:
    """Edge ``edge`` after turning the tile ``quarter_turns`` x 90° clockwise (N→E→S→W)."""
    return (edge + quarter_turns) % 4


def rotate_half(half: int, quarter_turns: int) -> int:
    """Half-edge ``half`` after turning the tile ``quarter_turns`` x 90° clockwise
    (``i → (i + 2) mod 8`` per quarter turn)."""
    return (half + 2 * quarter_turns) % 8


def facing_half(half: int) -> int:
    """The neighbour's half-edge that ``half`` meets across their shared edge (NNW↔SSW,
    NNE↔SSE, ENE↔WNW, ESE↔WSW)."""
    return ((half // 2 + 2) % 4) * 2 + (1 - half % 2)


@dataclass(frozen=True, slots=True)
class Orientation:
    """A tile type turned ``rotation`` quarter turns clockwise, with everything the engine
    looks up: the edge letters and codes as seen on the table, per segment its slot mask,
    per slot the segment that owns it (-1: none) and the packed constraint ``code`` this
    tile shows to each neighbouring square."""

    type: int
    rotation: int
    edges: str
    kinds: tuple[int, ...]
    slots: tuple[int, ...]
    slot_segment: tuple[int, ...]
    faces: tuple[int, ...]
    """Per side ``d``: the code bits the square on that side gets (``kind << 2·(d+2 mod 4)``)."""
    signature: tuple[tuple[int, int, int], ...]
    """What the turned tile looks like, ids aside (equal for rotations that look alike)."""


def _orientation(tile: TileType, turns: int) -> Orientation:
    edges = "".join(tile.edges[(d - turns) % 4] for d in range(4))
    kinds = tuple(EDGE_CODES[letter] for letter in edges)
    slots = []
    owner = [-1] * 12
    for index, segment in enumerate(tile.segments):
        mask = 0
        for d in range(4):
            if segment.edges >> d & 1:
                mask |= 1 << rotate_edge(d, turns)
        for h in range(8):
            if segment.halves >> h & 1:
                mask |= 1 << (4 + rotate_half(h, turns))
        slots.append(mask)
        for slot in range(12):
            if mask >> slot & 1:
                owner[slot] = index
    faces = tuple(kinds[d] << (2 * ((d + 2) % 4)) for d in range(4))
    signature = tuple(
        sorted(
            (seg.kind, mask, seg.pennants) for seg, mask in zip(tile.segments, slots, strict=True)
        )
    )
    return Orientation(
        tile.index, turns, edges, kinds, tuple(slots), tuple(owner), faces, signature
    )


ORIENTATIONS: Final = tuple(
    tuple(_orientation(tile, turns) for turns in range(4)) for tile in TYPES
)
"""``ORIENTATIONS[type][quarter turns]``."""


def side_slots(side: int) -> tuple[int, int, int]:
    """The slots of one side of a square: its edge and its two half-edges (clockwise)."""
    return (side, 4 + 2 * side, 5 + 2 * side)


def facing_slot(slot: int) -> int:
    """The neighbour's slot that ``slot`` meets across the shared edge."""
    if slot < 4:
        return (slot + 2) % 4
    return 4 + facing_half(slot - 4)


def _neighbour_slots(orientation: Orientation, side: int) -> tuple[tuple[int, int], ...]:
    """For a placed tile lying on ``side`` of an empty square: pairs (slot of the square,
    segment of the placed tile it meets)."""
    pairs = []
    for slot in side_slots(side):
        segment = orientation.slot_segment[facing_slot(slot)]
        if segment >= 0:
            pairs.append((slot, segment))
    return tuple(pairs)


NEIGHBOUR_SLOTS: Final = tuple(
    tuple(tuple(_neighbour_slots(o, side) for side in range(4)) for o in per_type)
    for per_type in ORIENTATIONS
)
"""``NEIGHBOUR_SLOTS[type][turns][side]``: what a placed tile offers the square on whose
``side`` it lies (see :func:`_neighbour_slots`)."""


NEIGHBOUR_BITS: Final = tuple(
    tuple(tuple(tuple((1 << slot, seg) for slot, seg in side) for side in o) for o in per_type)
    for per_type in NEIGHBOUR_SLOTS
)
"""As :data:`NEIGHBOUR_SLOTS` with each slot as its bit (``1 << slot``)."""
SEGMENT_SLOTS: Final = tuple(tuple(o.slots for o in per_type) for per_type in ORIENTATIONS)
"""``SEGMENT_SLOTS[type][turns]``: the slot mask of each segment."""


def fits(orientation: Orientation, code: int) -> bool:
    """Whether the turned tile matches a square's constraint code: every side with a
    neighbour shows the same kind of edge (rules, "Placing")."""
    for d in range(4):
        wanted = code >> (2 * d) & 3
        if wanted and wanted != orientation.kinds[d]:
            return False
    return True


def _fit_table(tile: TileType, distinct: bool) -> tuple[tuple[int, ...], ...]:
    table = []
    for code in range(256):
        found: list[int] = []
        looks: list[tuple[tuple[int, int, int], ...]] = []
        for o in ORIENTATIONS[tile.index]:
            if fits(o, code) and not (distinct and o.signature in looks):
                found.append(o.rotation)
                looks.append(o.signature)
        table.append(tuple(found))
    return tuple(table)


FITS: Final = tuple(_fit_table(tile, True) for tile in TYPES)
"""``FITS[type][code]``: the rotations (quarter turns) that fit a square with that code,
one per distinct look (a symmetric tile's look-alike rotations listed once, the smallest)."""
ALL_FITS: Final = tuple(_fit_table(tile, False) for tile in TYPES)
"""``ALL_FITS[type][code]``: every rotation that fits, look-alikes included."""


def _lookalike(tile: TileType, turns: int) -> tuple[int, tuple[int, ...]]:
    mine = ORIENTATIONS[tile.index][turns]
    first = next(o for o in ORIENTATIONS[tile.index] if o.signature == mine.signature)
    where = {
        (seg.kind, mask, seg.pennants): index
        for index, (seg, mask) in enumerate(zip(tile.segments, first.slots, strict=True))
    }
    return first.rotation, tuple(
        where[(seg.kind, mask, seg.pennants)]
        for seg, mask in zip(tile.segments, mine.slots, strict=True)
    )


LOOKALIKES: Final = tuple(tuple(_lookalike(tile, turns) for turns in range(4)) for tile in TYPES)
"""``LOOKALIKES[type][turns]``: the smallest rotation that looks the same, and for each
segment the index of the segment lying in the same place in that rotation (a symmetric
tile's look-alike placements are one placement, listed and recorded once)."""
