"""Placing a tile: which features its segments join, how they merge, what it completes
(docs/carcassonne.md, "Placing"; "Scoring a completed feature": roads end at both
ends or loop, cities close, monasteries are surrounded; "Two segments of one city on the
same tile count that tile once").

:func:`analyse` only reads the state: ``apply`` uses it to foresee completions and to check
a follower's spot. :func:`place_tile` (run by ``evolve`` for ``TilePlaced``) commits it.
"""

from __future__ import annotations

from typing import NamedTuple

from domain.carcassonne.grid import AROUND, DELTAS, ORIGIN
from domain.carcassonne.state import (
    NO_FEATURE,
    NODE_BITS,
    CarcassonneState,
    Feature,
    empty_state,
    stamp,
    writable,
    writable_feat,
)
from domain.carcassonne.tiles import (
    CITY,
    FIELD,
    NEIGHBOUR_SLOTS,
    ORIENTATIONS,
    ROAD,
    START,
    TYPES,
    Orientation,
    Segment,
)

_NO_NODES = [NO_FEATURE] * (1 << NODE_BITS)


class Group(NamedTuple):
    """Segments of the new tile that end up in one feature: their indices, the features
    already on the table they join, and how many of their edges meet a placed tile."""

    kind: int
    segments: tuple[int, ...]
    features: tuple[int, ...]
    matched: int


def analyse(state: CarcassonneState, pos: int, orientation: Orientation) -> list[Group]:
    """How the turned tile's segments join the features around ``pos`` (which must be a
    legal placement): one :class:`Group` per resulting feature, in segment order. Two
    segments of the new tile fall in one group when they meet the same feature.

    The last answer is kept in ``state.memo`` (features only change when a tile is placed,
    so the number of placed tiles, the square and the orientation are a sound key)."""
    key = (len(state.tiles), pos, orientation)
    memo = state.memo
    if memo is not None and memo[0] == key:
        groups: list[Group] = memo[1]
        return groups
    groups = _analyse(state, pos, orientation)
    state.memo = (key, groups)
    return groups


_SINGLE = tuple((index,) for index in range(1 << NODE_BITS))
_NONE: tuple[int, ...] = ()


def _analyse(state: CarcassonneState, pos: int, orientation: Orientation) -> list[Group]:
    segments = TYPES[orientation.type].segments
    touched: dict[int, list[int]] = {}
    matched: dict[int, int] = {}
    owner: dict[int, int] = {}
    board = state.board
    placed = state.tiles
    feat = state.feat
    slot_segment = orientation.slot_segment
    merged = False
    for side in range(4):
        k = board.get(pos + DELTAS[side])
        if k is None:
            continue
        tile = placed[k]
        base = k << NODE_BITS
        for slot, segment in NEIGHBOUR_SLOTS[tile[1]][tile[2]][side]:
            mine = slot_segment[slot]
            feature = feat[base + segment]
            if slot < 4:
                matched[mine] = matched.get(mine, 0) + 1
            found = touched.get(mine)
            if found is None:
                touched[mine] = [feature]
            elif feature not in found:
                found.append(feature)
            if owner.setdefault(feature, mine) != mine:
                merged = True
    if merged:
        return _merged_groups(segments, touched, matched)
    make = tuple.__new__
    return [
        make(
            Group,
            (
                segment.kind,
                _SINGLE[index],
                tuple(touched[index]) if index in touched else _NONE,
                matched.get(index, 0),
            ),
        )
        for index, segment in enumerate(segments)
    ]


def _merged_groups(
    segments: tuple[Segment, ...], touched: dict[int, list[int]], matched: dict[int, int]
) -> list[Group]:
    """The groups when some feature meets two segments of the new tile: those segments
    (and, in turn, whatever they meet) fall in one group."""
    count = len(segments)
    parent = list(range(count))
    owner: dict[int, int] = {}
    for mine, met in touched.items():
        for feature in met:
            other = owner.setdefault(feature, mine)
            if other != mine:
                _union(parent, other, mine)
    by_root: dict[int, list[int]] = {}
    for index in range(count):
        by_root.setdefault(_find(parent, index), []).append(index)
    groups = []
    for members in by_root.values():
        features: list[int] = []
        for index in members:
            features += [f for f in touched.get(index, ()) if f not in features]
        groups.append(
            Group(
                segments[members[0]].kind,
                tuple(members),
                tuple(features),
                sum(matched.get(index, 0) for index in members),
            )
        )
    return groups


def _find(parent: list[int], index: int) -> int:
    while parent[index] != index:
        index = parent[index]
    return index


def _union(parent: list[int], a: int, b: int) -> None:
    ra, rb = _find(parent, a), _find(parent, b)
    if ra != rb:
        parent[max(ra, rb)] = min(ra, rb)


def surrounded(state: CarcassonneState, pos: int, extra: int = -1) -> int:
    """How many of the eight squares around ``pos`` hold a tile (``extra``: a square to
    count as filled, the tile being placed)."""
    board = state.board
    return sum(1 for step in AROUND if pos + step in board or pos + step == extra)


def open_ends(features: dict[int, Feature], segments: tuple[Segment, ...], group: Group) -> int:
    """The road or city ends the feature a group of the new tile forms leaves open: those of
    the features it joins and of its segments, less two per edge it meets a placed tile on
    (0: complete; docs/carcassonne.md, "Scoring a completed feature"). Read on the table
    before the tile: :func:`place_tile` sets it, and the turn foresees completions with it
    (:mod:`domain.carcassonne.completion`)."""
    ends = sum(features[f].open for f in group.features)
    return ends + sum(segments[i].ends for i in group.segments) - 2 * group.matched


def monastery_complete(state: CarcassonneState, square: int, extra: int = -1) -> bool:
    """Whether the monastery on ``square`` is complete: the eight squares around it hold
    tiles (``extra``: a square counted as filled, the tile being placed; docs/carcassonne.md,
    "Scoring a completed feature"). :func:`place_tile` marks it, the turn foresees it."""
    return surrounded(state, square, extra) == 8


def place_tile(state: CarcassonneState, pos: int, kind: int, turns: int, player: int) -> None:
    """Put a tile on the table (``TilePlaced``; the start tile at setup): create its
    segments' features, merge the features they join (smaller into larger), count the
    matched ends, mark what is complete and update the frontier."""
    orientation = ORIENTATIONS[kind][turns]
    groups = analyse(state, pos, orientation)
    k = len(state.tiles)
    state.tiles.append((pos, kind, turns, player))
    state.deployed.append(-1)
    state.board[pos] = k
    feat = writable_feat(state)
    feat += _NO_NODES
    segments = TYPES[kind].segments
    features = state.features
    for group in groups:
        joined = group.features
        edged = group.kind in (ROAD, CITY)
        ends = open_ends(features, segments, group) if edged else 0
        if len(joined) == 1:
            fid = joined[0]
            feature = writable(state, fid)
        elif joined:
            fid = max(joined, key=lambda f: len(features[f].nodes))
            feature = writable(state, fid)
            for other in joined:
                if other != fid:
                    _merge(state, feature, fid, other)
            stamp(state, feature)
        else:
            fid = k << NODE_BITS | group.segments[0]
            feature = Feature(group.kind, [], set(), 0, 0, [], [], False, owner=state.key)
            features[fid] = feature
        for index in group.segments:
            node = k << NODE_BITS | index
            segment = segments[index]
            feat[node] = fid
            feature.nodes.append(node)
            feature.pennants += segment.pennants
            if segment.cities:
                feature.cities += [k << NODE_BITS | city for city in segment.cities]
        if group.kind != FIELD:
            feature.tiles.add(pos)
        if edged:
            feature.open = ends
            feature.complete = ends == 0
    _mark_monasteries(state, pos, TYPES[kind].monastery)
    _update_frontier(state, pos, orientation)


def _merge(state: CarcassonneState, into: Feature, fid: int, other: int) -> None:
    """Merge feature ``other`` into ``into`` (``fid``; the state's own, :func:`writable`):
    its nodes relabelled in ``state.feat`` (made writable by :func:`place_tile`)."""
    gone = state.features.pop(other)
    feat = state.feat
    for node in gone.nodes:
        feat[node] = fid
    into.nodes += gone.nodes
    into.tiles |= gone.tiles
    into.pennants += gone.pennants
    into.followers += gone.followers
    into.cities += gone.cities


def _mark_monasteries(state: CarcassonneState, pos: int, own: int) -> None:
    monasteries = state.monasteries
    if own >= 0:
        monasteries[pos] = state.feat[(len(state.tiles) - 1) << NODE_BITS | own]
    if not monasteries:
        return
    for square in (pos, *(pos + step for step in AROUND)):
        fid = monasteries.get(square)
        if fid is not None and monastery_complete(state, square):
            writable(state, fid).complete = True
            del monasteries[square]


def _update_frontier(state: CarcassonneState, pos: int, orientation: Orientation) -> None:
    frontier = state.frontier
    board = state.board
    frontier.pop(pos, None)
    state.slot_cache.pop(pos, None)
    for side in range(4):
        square = pos + DELTAS[side]
        if square not in board:
            frontier[square] = frontier.get(square, 0) | orientation.faces[side]


def new_state(players: int, farmers: str, small_city: int) -> CarcassonneState:
    """The table before the first draw: the start tile (one of the four D) at (0,0),
    unrotated; 71 tiles in the stack (rules, "Base game"; catalogue ``start``)."""
    state = empty_state(players, farmers, small_city)
    state.stack[START] -= 1
    place_tile(state, ORIGIN, START, 0, -1)
    return state
