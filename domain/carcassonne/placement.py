"""Every legal placement of the drawn tile, with the follower spots of each
(docs/carcassonne.md, "Placing": touch a placed tile edge to edge, every touching
edge matching, any rotation; "Deploying": one follower from the supply on the tile just
placed, on a segment whose feature — however far it reaches — holds no follower).

Speed matters here (it runs every turn): squares come from the frontier kept by ``evolve``
with their constraint codes, rotations from the prebuilt :data:`~domain.carcassonne.tiles.FITS`
table, and follower spots from 12-bit slot masks. For one square, :func:`square_slots`
marks the slots whose neighbouring feature holds a follower and groups slots that meet the
same feature; a segment is free when no slot of the feature it will join is marked.
"""

from __future__ import annotations

from domain.carcassonne.grid import DELTAS
from domain.carcassonne.moves import MOVES, Place, build_placements
from domain.carcassonne.state import NODE_BITS, CarcassonneState
from domain.carcassonne.tiles import FITS, NEIGHBOUR_BITS, SEGMENT_SLOTS


def square_slots(state: CarcassonneState, pos: int, code: int) -> tuple[int, tuple[int, ...]]:
    """For an empty square with constraint ``code``: the mask of slots that meet a feature
    holding a follower, and (only when that mask is not empty) the masks of slots that meet
    one same feature, for those with two slots or more.

    Cached per square in ``state.slot_cache`` with the stamps of the features met: the
    answer holds while the code (hence the neighbours) and those stamps are unchanged."""
    features = state.features
    cached = state.slot_cache.get(pos)
    if cached is not None and cached[0] == code:
        for fid, when in cached[1]:
            feature = features.get(fid)
            if feature is None or feature.stamp != when:
                break
        else:
            return cached[2], cached[3]
    board = state.board
    placed = state.tiles
    feat = state.feat
    occupied = 0
    seen: dict[int, int] = {}
    for side in range(4):
        if not code >> (side << 1) & 3:
            continue
        k = board[pos + DELTAS[side]]
        _, kind, turns, _ = placed[k]
        base = k << NODE_BITS
        for bit, segment in NEIGHBOUR_BITS[kind][turns][side]:
            fid = feat[base + segment]
            seen[fid] = seen.get(fid, 0) | bit
    for fid, mask in seen.items():
        if features[fid].followers:
            occupied |= mask
    shared = tuple(mask for mask in seen.values() if mask & (mask - 1)) if occupied else ()
    stamps = tuple((fid, features[fid].stamp) for fid in seen)
    state.slot_cache[pos] = (code, stamps, occupied, shared)
    return occupied, shared


_FREE: dict[tuple[int, int, tuple[int, ...]], int] = {}


def free_segments(kind: int, turns: int, occupied: int, shared: tuple[int, ...]) -> int:
    """Bit ``i`` set when segment ``i`` of the turned tile may take a follower: the feature
    it joins — through the slots of every segment of the new tile that meets one same
    feature — touches no occupied slot. Memoised (a pure function of its arguments)."""
    key = (kind << 2 | turns, occupied, shared)
    found = _FREE.get(key)
    if found is None:
        found = _free_segments(SEGMENT_SLOTS[kind][turns], occupied, shared)
        if len(_FREE) > 100_000:
            _FREE.clear()
        _FREE[key] = found
    return found


def _free_segments(slots: tuple[int, ...], occupied: int, shared: tuple[int, ...]) -> int:
    free = 0
    if not shared:
        for index, mask in enumerate(slots):
            if not mask & occupied:
                free |= 1 << index
        return free
    reach = list(slots)
    changed = True
    while changed:
        changed = False
        for index, mask in enumerate(reach):
            grown = mask
            for common in shared:
                if grown & common:
                    grown |= common
            for other in slots:
                if grown & other:
                    grown |= other
            if grown != mask:
                reach[index] = grown
                changed = True
    for index, mask in enumerate(reach):
        if not mask & occupied:
            free |= 1 << index
    return free


def legal_placements(state: CarcassonneState, player: int) -> list[Place]:
    """Every legal move of ``player`` holding the drawn tile: each fitting square and
    distinct rotation, without a follower and (with followers in supply) with one on each
    free segment. (The memo lookups of :func:`free_segments` and
    :func:`~domain.carcassonne.moves.placements` are inlined: this runs every turn.)"""
    kind = state.in_hand
    fits = FITS[kind]
    out: list[Place] = []
    moves = MOVES
    if state.supply[player] <= 0:
        for pos, code in state.frontier.items():
            for turns in fits[code]:
                key = (pos << 8 | kind << 2 | turns) << 16
                found = moves.get(key)
                out += build_placements(key, kind, pos, turns, 0) if found is None else found
        return out
    every = (1 << len(SEGMENT_SLOTS[kind][0])) - 1
    frees = _FREE
    for pos, code in state.frontier.items():
        rotations = fits[code]
        if not rotations:
            continue
        occupied, shared = square_slots(state, pos, code)
        head = pos << 8 | kind << 2
        for turns in rotations:
            if occupied:
                free = frees.get((kind << 2 | turns, occupied, shared))
                if free is None:
                    free = free_segments(kind, turns, occupied, shared)
            else:
                free = every
            key = ((head | turns) << 16) | free
            found = moves.get(key)
            out += build_placements(key, kind, pos, turns, free) if found is None else found
    return out


def has_placement(frontier: dict[int, int], kind: int) -> bool:
    """Whether a tile of type ``kind`` fits anywhere on the frontier."""
    fits = FITS[kind]
    return any(fits[code] for code in frontier.values())


def has_placement_apart(frontier: dict[int, int], kind: int, square: int) -> bool:
    """Whether a tile of type ``kind`` fits on a square of the frontier other than
    ``square`` and the four beside it: squares that placing a tile on ``square`` leaves as
    they were, so the tile fits there after that placement too."""
    fits = FITS[kind]
    north, east, south, west = DELTAS
    for pos, code in frontier.items():
        if fits[code]:
            step = pos - square
            if step not in (0, north, east, south, west):
                return True
    return False
