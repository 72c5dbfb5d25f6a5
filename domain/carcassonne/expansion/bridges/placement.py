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
from domain.carcassonne.moves import MEMOS, MOVES_LIMIT, SPOTS
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


def _spans_table() -> tuple[tuple[tuple[int, ...], ...], ...]:
    return tuple(
        tuple(
            tuple(axis for axis in (0, 1) if VARIANTS[kind][axis ^ (turns & 1)] >= 0)
            for turns in range(4)
        )
        for kind in range(len(TYPES))
    )


SPANS: Final = _spans_table()
"""``SPANS[type][turns]``: the axes on the table across which a placed tile of that type
and rotation has a bridged variant (none for a variant: one bridge per tile)."""
OWN_BRIDGES: dict[int, dict[int, tuple[tuple[int, int, int], ...]]] = {}
"""Per catalogue type, the memo of :func:`_own_bridges` (constraint codes with none left
out)."""
BRIDGED: dict[int, tuple[Bridged, ...]] = {}
"""The memo of the moves of one placement with a bridge (:func:`_bridged`)."""
MEMOS.append(BRIDGED)
EVERY: Final = tuple((1 << len(SEGMENT_SLOTS[kind][0])) - 1 for kind in range(len(TYPES)))
"""Per type, every segment free (no slot around occupied)."""
HERE: Final = 4
"""Where the bridge lies when it is on the tile itself (0-3: on the neighbour on that
side)."""


def _own_bridges(kind: int) -> dict[int, tuple[tuple[int, int, int], ...]]:
    """For a tile of type ``kind`` with a bridge on itself, per constraint code of a square
    where it fits that way: (quarter turns, axis on the table, bridged variant) for each
    distinct rotation whose variant fits there. Memoised (a pure function of ``kind``)."""
    found = OWN_BRIDGES.get(kind)
    if found is None:
        fitting: dict[int, list[tuple[int, int, int]]] = {}
        for turns in range(4):
            if LOOKALIKES[kind][turns][0] != turns:
                continue
            for axis in (0, 1):
                variant = VARIANTS[kind][axis ^ (turns & 1)]
                if variant < 0:
                    continue
                for code, rotations in enumerate(ALL_FITS[variant]):
                    if turns in rotations:
                        fitting.setdefault(code, []).append((turns, axis, variant))
        found = OWN_BRIDGES[kind] = {code: tuple(made) for code, made in fitting.items()}
    return found


Beside = dict[int, list[tuple[int, int, int, int]]]
"""Per frontier square, the bridges its placed neighbours can take (:func:`_beside`)."""


def _beside(state: CarcassonneState) -> Beside:
    """Per frontier square, every bridge a placed neighbour can take now (it has a variant
    for that axis, and both squares at the bridge's ends are empty): (side of the
    neighbour, its square, the axis, the square's constraint code with the bridge laid), in
    side then axis order.

    Kept in ``state.bridge_memo`` with the number of tiles and bridges on the table: the
    table only changes by adding one or the other, so an equal key means the same table."""
    key = (len(state.tiles), len(state.bridge_log))
    memo = state.bridge_memo
    if memo is not None and memo[0] == key:
        found: Beside = memo[1]
        return found
    board = state.board
    tiles = state.tiles
    out: Beside = {}
    for pos, code in state.frontier.items():
        for side in range(4):
            near = pos + DELTAS[side]
            k = board.get(near)
            if k is None:
                continue
            _, kind, turns, _ = tiles[k]
            for axis in SPANS[kind][turns]:
                if near + DELTAS[axis] in board or near + DELTAS[axis + 2] in board:
                    continue
                seen = code
                if side & 1 == axis:  # the square is at one end of the bridge
                    seen = code & ~(3 << 2 * side) | ROAD_CODE << 2 * side
                out.setdefault(pos, []).append((side, near, axis, seen))
    state.bridge_memo = (key, out)
    return out


def _bridged(
    key: int,
    spots: tuple[str | None, ...],
    letter: str,
    pos: int,
    turns: int,
    *,
    near: int,
    axis: int,
) -> tuple[Bridged, ...]:
    """The moves of one placement with a bridge on ``near`` (``pos`` itself or a neighbour):
    without a follower, then on each of ``spots``; kept in :data:`BRIDGED` under ``key``."""
    x, y = xy(pos)
    bx, by = xy(near)
    rotation, across = ROTATIONS[turns], AXES[axis]
    make = tuple.__new__
    found = tuple([make(Bridged, (letter, x, y, rotation, s, bx, by, across)) for s in spots])
    if len(BRIDGED) >= MOVES_LIMIT:
        BRIDGED.clear()
    BRIDGED[key] = found
    return found


def bridge_placements(state: CarcassonneState, player: int) -> list[Bridged]:
    """Every legal placement with a bridge: on the tile itself (also where only the bridge
    makes it fit) and on each neighbour that can take one (also where only that bridge
    lets the tile's road meet the neighbour's field edge), with the follower spots.
    Listed square by square in frontier order: the bridges on the tile itself (rotation,
    then axis), then those on each neighbour (side N, E, S, W, then axis, then rotation);
    each placement's moves are memoised, as the base game's are."""
    if not state.expansion or state.bridges[player] <= 0:
        return []
    kind = state.in_hand
    letter = TYPES[kind].letter
    deploy = state.supply[player] > 0
    fits = FITS[kind]
    own_of = _own_bridges(kind)
    beside_of = _beside(state)
    memo = BRIDGED
    out: list[Bridged] = []
    for pos, code in state.frontier.items():
        own = own_of.get(code)
        beside = beside_of.get(pos)
        if own is None and beside is None:
            continue
        occupied, shared = square_slots(state, pos, code) if deploy else (0, ())
        head = pos << 6 | kind
        for turns, axis, variant in own or ():
            # the segments free for a follower (all when no slot around is occupied)
            free = (
                (free_segments(variant, turns, occupied, shared) if occupied else EVERY[variant])
                if deploy
                else 0
            )
            key = (((head << 2 | turns) << 3 | HERE) << 1 | axis) << 16 | free
            found = memo.get(key)
            if found is None:
                spots = SPOTS[variant][free]
                found = _bridged(key, spots, letter, pos, turns, near=pos, axis=axis)
            out += found
        for side, near, axis, seen in beside or ():
            for turns in fits[seen]:
                free = (
                    (free_segments(kind, turns, occupied, shared) if occupied else EVERY[kind])
                    if deploy
                    else 0
                )
                key = (((head << 2 | turns) << 3 | side) << 1 | axis) << 16 | free
                found = memo.get(key)
                if found is None:
                    found = _bridged(
                        key, SPOTS[kind][free], letter, pos, turns, near=near, axis=axis
                    )
                out += found
    return out


def placeable(state: CarcassonneState) -> bool:
    """Whether the tile in hand of ``state.current`` can be placed: somewhere as it is, or
    with the expansion with a bridge (rules, "Bridges": a placement may be legal only with
    one). A tile that cannot is discarded (rules, "Placing")."""
    if has_placement(state.frontier, state.in_hand):
        return True
    return state.expansion and bool(bridge_placements(state, state.current))
