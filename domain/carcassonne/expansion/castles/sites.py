"""Castle sites (expansion Bridges, Castles & Bazaars; docs/carcassonne.md, "Castles";
seed 001, "Замки"): which completed city may become a castle, a castle's fief, the
features a tile completes that may trigger a castle, and what may trigger one.

A castle stays the city feature it was (complete, its follower on it); the state lists it
in ``sites`` (:class:`~domain.carcassonne.state.Castle`).
"""

from __future__ import annotations

from typing import Final

from domain.carcassonne.catalogue import CATALOGUE
from domain.carcassonne.completion import value_of
from domain.carcassonne.decisions import FiefOption
from domain.carcassonne.events import Segment, Square
from domain.carcassonne.grid import EAST, SOUTH, pos_of, xy
from domain.carcassonne.scoring import ref
from domain.carcassonne.state import NODE_BITS, CarcassonneState
from domain.carcassonne.tiles import CITY, KIND_NAMES, MONASTERY, TYPES

_BASES = {
    tile["type"]: frozenset(i for i, city in enumerate(tile["cities"]) if city["castle_base"])
    for tile in CATALOGUE
}
CASTLE_BASE: Final = tuple(_BASES[tile.letter] for tile in TYPES)
"""``CASTLE_BASE[type]``: the indices of its semicircular city caps (``castle_base``; city
segments come first, in catalogue order, in every type and bridged variant)."""


def fief_of(a: int, b: int) -> tuple[int, ...]:
    """The fief of a castle on squares ``a`` and ``b``: both, and the two squares beside
    each, perpendicular to the castle's axis (rules, "Fief: 6 tiles")."""
    a, b = min(a, b), max(a, b)
    side = EAST if b - a == SOUTH else SOUTH
    return tuple(sorted({a, b, a + side, a - side, b + side, b - side}))


def owner_if_castle(state: CarcassonneState, fid: int) -> int:
    """The seat that may turn the completed city ``fid`` into a castle, or -1: a city of
    exactly two caps on two tiles, holding one follower, whose owner has a castle token."""
    feature = state.features[fid]
    if not state.expansion or feature.kind != CITY or len(feature.nodes) != 2:
        return -1
    if len(feature.tiles) != 2 or len(feature.followers) != 1:
        return -1
    for node in feature.nodes:
        if node & 15 not in CASTLE_BASE[state.tiles[node >> NODE_BITS][1]]:
            return -1
    owner = state.followers[feature.followers[0]][0]
    return owner if state.castles[owner] > 0 else -1


def in_fief(state: CarcassonneState, fid: int, fief: tuple[int, ...]) -> bool:
    """Whether a completed feature lies in a fief: a road or city with any tile in it, a
    monastery only when its own tile is (rules, "Castles")."""
    feature = state.features[fid]
    if feature.kind == MONASTERY:
        return state.tiles[feature.nodes[0] >> NODE_BITS][0] in fief
    return any(square in fief for square in feature.tiles)


def site_of(state: CarcassonneState, at: Segment) -> int:
    """The index in ``sites`` of the castle named by a segment of its city."""
    k = state.board[pos_of(at["x"], at["y"])]
    node = k << NODE_BITS | TYPES[state.tiles[k][1]].segment_index(at["segment"])
    fid = state.feat[node]
    return next(i for i, site in enumerate(state.sites) if site.fid == fid)


def options_for(state: CarcassonneState, index: int, direct: list[int]) -> list[FiefOption]:
    """What may trigger castle ``index`` now: the completed features of this turn in its
    fief (``direct``: those not turned into castles), then the castles that scored this turn
    with a tile in it (chains); each ``{"feature", "at", "points"}``."""
    fief = state.sites[index].fief
    out: list[FiefOption] = [
        {
            "feature": KIND_NAMES[state.features[f].kind],
            "at": ref(state, min(state.features[f].nodes)),
            "points": value_of(state, f),
        }
        for f in direct
        if in_fief(state, f, fief)
    ]
    for other in state.sites:
        if other.scored == state.turn and any(s in fief for s in other.squares):
            out.append({"feature": "castle", "at": ref(state, other.node), "points": other.points})
    return out


def squares_json(squares: tuple[int, ...]) -> list[Square]:
    """Squares as ``{"x", "y"}``."""
    out: list[Square] = []
    for square in squares:
        x, y = xy(square)
        out.append({"x": x, "y": y})
    return out
