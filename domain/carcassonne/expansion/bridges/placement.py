"""Where bridges may lie (expansion Bridges, Castles & Bazaars; docs/carcassonne.md, "The
expansion"):
one per turn, on the tile just placed or on an orthogonal neighbour, straight across N-S or
W-E between two field edges of that tile, at most one per tile, no placed tile facing a
bridge end with a non-road edge. A bridge is one more road segment (``b0``) over the
tile's field edges, which become road edges; the fields keep their half-edges, so they are
not split, and a road under the bridge stays a separate road. A tile that receives a bridge
becomes its *bridged variant* (:data:`~domain.carcassonne.tiles.VARIANTS`).

A bridge on a placed neighbour is laid before the tile (``BridgePlaced``), so that the new
tile's road may meet the field edge it bridges; both its ends then face empty squares (a
placed tile facing one shows a field edge, which the rule forbids), so it joins nothing
and completes nothing by itself. A bridge on the tile just placed is part of ``TilePlaced``
(``"bridge"``), and a follower may stand on it.
"""

from __future__ import annotations

from typing import Final

from domain.carcassonne.expansion.bridges.moves import Bridged
from domain.carcassonne.grid import DELTAS, xy
from domain.carcassonne.placement import free_segments, has_placement, square_slots
from domain.carcassonne.state import CarcassonneState
from domain.carcassonne.tiles import (
    ALL_FITS,
    AXES,
    CATALOGUE_TYPES,
    EDGE_CODES,
    FITS,
    LOOKALIKES,
    ROTATIONS,
    SEGMENT_SLOTS,
    TYPES,
    VARIANTS,
)

ROAD_CODE: Final = EDGE_CODES["R"]
"""The constraint code of a road edge (:mod:`domain.carcassonne.tiles`)."""


def variant_on(state: CarcassonneState, pos: int, axis: int) -> int:
    """The bridged variant the tile on ``pos`` becomes with a bridge across ``axis`` of the
    table, or -1 when it cannot take one (already bridged, or not two field edges there)."""
    _, kind, turns, _ = state.tiles[state.board[pos]]
    if kind >= len(CATALOGUE_TYPES):
        return -1
    return VARIANTS[kind][axis ^ (turns & 1)]


def _spots(
    kind: int, turns: int, occupied: int, shared: tuple[int, ...], deploy: bool
) -> list[str | None]:
    if not deploy:
        return [None]
    every = (1 << len(SEGMENT_SLOTS[kind][0])) - 1
    free = free_segments(kind, turns, occupied, shared) if occupied else every
    segments = TYPES[kind].segments
    return [None, *(s.id for i, s in enumerate(segments) if free >> i & 1)]


def bridge_placements(state: CarcassonneState, player: int) -> list[Bridged]:
    """Every legal placement with a bridge: on the tile itself (also where only the bridge
    makes it fit) and on each neighbour that can take one (also where only that bridge
    lets the tile's road meet the neighbour's field edge), with the follower spots."""
    if not state.expansion or state.bridges[player] <= 0:
        return []
    kind = state.in_hand
    letter = TYPES[kind].letter
    deploy = state.supply[player] > 0
    out: list[Bridged] = []
    for pos, code in state.frontier.items():
        occupied, shared = square_slots(state, pos, code) if deploy else (0, ())
        x, y = xy(pos)
        for turns in range(4):
            if LOOKALIKES[kind][turns][0] != turns:
                continue
            for axis in (0, 1):
                variant = VARIANTS[kind][axis ^ (turns & 1)]
                if variant >= 0 and turns in ALL_FITS[variant][code]:
                    for spot in _spots(variant, turns, occupied, shared, deploy):
                        out.append(Bridged(letter, x, y, ROTATIONS[turns], spot, x, y, AXES[axis]))
        for side in range(4):
            near = pos + DELTAS[side]
            if near not in state.board:
                continue
            bx, by = xy(near)
            for axis in (0, 1):
                ends = (near + DELTAS[axis], near + DELTAS[axis + 2])
                if variant_on(state, near, axis) < 0 or any(e in state.board for e in ends):
                    continue
                seen = code
                if pos in ends:
                    seen = code & ~(3 << 2 * side) | ROAD_CODE << 2 * side
                for turns in FITS[kind][seen]:
                    for spot in _spots(kind, turns, occupied, shared, deploy):
                        out.append(
                            Bridged(letter, x, y, ROTATIONS[turns], spot, bx, by, AXES[axis])
                        )
    return out


def placeable(state: CarcassonneState) -> bool:
    """Whether the tile in hand of ``state.current`` can be placed: somewhere as it is, or
    with the expansion with a bridge (rules, "Bridges": a placement may be legal only with
    one). A tile that cannot is discarded (rules, "Placing")."""
    if has_placement(state.frontier, state.in_hand):
        return True
    return state.expansion and bool(bridge_placements(state, state.current))
