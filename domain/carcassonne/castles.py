"""Castles (expansion Bridges, Castles & Bazaars; docs/carcassonne.md, "Castles";
seed 001, "Замки"): which completed city may become a castle, a castle's fief, the
features a tile completes that may trigger a castle, and how the castle events change the
state (``CastleOffered``, ``CastleBuilt``, ``CastleDeclined``, ``FiefOffered``,
``CastleScored``, ``CastleVacated``; docs/carcassonne.md, "Castles").

A castle stays the city feature it was (complete, its follower on it); the state lists it
in ``sites`` (:class:`~domain.carcassonne.state.Castle`).
"""

from __future__ import annotations

from typing import Any, Final

from domain.carcassonne.board import surrounded
from domain.carcassonne.catalogue import CATALOGUE
from domain.carcassonne.grid import AROUND, EAST, SOUTH, pos_of, xy
from domain.carcassonne.scoring import completed_value, follower_refs, ref
from domain.carcassonne.state import NODE_BITS, CarcassonneState, Castle, stamp
from domain.carcassonne.tiles import CITY, KIND_NAMES, MONASTERY, ROAD, TYPES
from domain.protocol import Event

Data = dict[str, Any]

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


def turn_features(state: CarcassonneState) -> list[int]:
    """The roads, cities and monasteries the last placed tile completed, in scoring order
    (docs/carcassonne.md, "Scoring events"): its segments' roads and cities, its own
    monastery, then the monasteries around it clockwise from the north."""
    k = len(state.tiles) - 1
    pos, kind, _, _ = state.tiles[k]
    out: list[int] = []
    for index, segment in enumerate(TYPES[kind].segments):
        if segment.kind in (ROAD, CITY):
            fid = state.feat[k << NODE_BITS | index]
            if fid not in out and state.features[fid].complete:
                out.append(fid)
    for square in (pos, *(pos + step for step in AROUND)):
        j = state.board.get(square)
        own = -1 if j is None else TYPES[state.tiles[j][1]].monastery
        if own >= 0 and surrounded(state, square) == 8:
            assert j is not None
            out.append(state.feat[j << NODE_BITS | own])
    return out


def value_of(state: CarcassonneState, fid: int) -> int:
    """The full value of a completed road, city or monastery."""
    feature = state.features[fid]
    tiles = 9 if feature.kind == MONASTERY else len(feature.tiles)
    return completed_value(feature.kind, tiles, feature.pennants, state.small_city)


def in_fief(state: CarcassonneState, fid: int, fief: tuple[int, ...]) -> bool:
    """Whether a completed feature lies in a fief: a road or city with any tile in it, a
    monastery only when its own tile is (rules, "Castles")."""
    feature = state.features[fid]
    if feature.kind == MONASTERY:
        return state.tiles[feature.nodes[0] >> NODE_BITS][0] in fief
    return any(square in fief for square in feature.tiles)


def site_of(state: CarcassonneState, at: Data) -> int:
    """The index in ``sites`` of the castle named by a segment of its city."""
    k = state.board[pos_of(at["x"], at["y"])]
    node = k << NODE_BITS | TYPES[state.tiles[k][1]].segment_index(at["segment"])
    fid = state.feat[node]
    return next(i for i, site in enumerate(state.sites) if site.fid == fid)


def options_for(state: CarcassonneState, index: int, direct: list[int]) -> list[Data]:
    """What may trigger castle ``index`` now: the completed features of this turn in its
    fief (``direct``: those not turned into castles), then the castles that scored this turn
    with a tile in it (chains); each ``{"feature", "at", "points"}``."""
    fief = state.sites[index].fief
    out = [
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


def squares_json(squares: tuple[int, ...]) -> list[Data]:
    """Squares as ``{"x", "y"}``."""
    return [dict(zip(("x", "y"), xy(s), strict=True)) for s in squares]


def castle_offered(state: CarcassonneState, data: Data) -> None:
    """``CastleOffered``: the city's owner must choose, castle or points."""
    state.pending = {"kind": "castle", "player": data["player"], "at": dict(data["at"])}


def fief_offered(state: CarcassonneState, data: Data) -> None:
    """``FiefOffered``: the castle's owner must choose which feature it scores."""
    state.pending = {
        "kind": "fief",
        "player": data["player"],
        "at": dict(data["castle"]),
        "options": [dict(o, at=dict(o["at"])) for o in data["options"]],
    }


def castle_declined(state: CarcassonneState, data: Data) -> None:
    """``CastleDeclined``: the city is scored as usual (the ``FeatureScored`` after it)."""
    state.pending = None


def castle_built(state: CarcassonneState, data: Data) -> None:
    """``CastleBuilt``: a castle token on the city; its follower stays; no points."""
    at = data["at"]
    k = state.board[pos_of(at["x"], at["y"])]
    fid = state.feat[k << NODE_BITS | TYPES[state.tiles[k][1]].segment_index(at["segment"])]
    feature = state.features[fid]
    a, b = sorted(feature.tiles)
    follower = data["follower"]
    state.sites.append(
        Castle(
            data["player"],
            fid,
            min(feature.nodes),
            (a, b),
            fief_of(a, b),
            state.turn,
            pos_of(follower["x"], follower["y"]),
        )
    )
    state.castles[data["player"]] -= 1
    state.pending = None


def _release(state: CarcassonneState, site: Castle) -> None:
    player, _ = state.followers.pop(site.follower)
    feature = state.features[site.fid]
    feature.followers.remove(site.follower)
    stamp(state, feature)
    state.supply[player] += 1
    site.follower = -1


def castle_scored(state: CarcassonneState, data: Data) -> None:
    """``CastleScored``: the owner gains the points; the follower returns; the token stays."""
    site = state.sites[site_of(state, data["castle"])]
    site.scored, site.points = state.turn, data["points"]
    state.scores[data["player"]] += data["points"]
    _release(state, site)
    if state.pending is not None:
        chosen = data["source"]["at"]
        state.fief_log.append((len(state.tiles), chosen["x"], chosen["y"], chosen["segment"]))
    state.pending = None


def castle_vacated(state: CarcassonneState, data: Data) -> None:
    """``CastleVacated`` (end of the game): an occupied castle scores nothing; its follower
    is removed."""
    _release(state, state.sites[site_of(state, data["castle"])])


def vacated_events(state: CarcassonneState) -> list[Event]:
    """``CastleVacated`` for every occupied castle at the end of the game, in the order
    built (rules, "End of game": no points; the follower is removed)."""
    return [
        Event(
            "CastleVacated",
            {
                "player": site.owner,
                "castle": ref(state, site.node),
                "follower": follower_refs(state, [site.follower])[0],
            },
        )
        for site in state.sites
        if site.follower >= 0
    ]
