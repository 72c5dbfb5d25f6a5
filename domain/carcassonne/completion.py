"""What the last placed tile completed, read from the table after its ``TilePlaced``
(docs/carcassonne.md, "Scoring a completed feature": a road is complete when both ends stop
or it loops, a city when its wall is closed, a monastery when the eight squares around it
hold tiles; "Scoring events" for the order).

Nothing here foresees a placement: the handler of ``TilePlaced``
(:func:`domain.carcassonne.board.place_tile`) marks the features complete, and the turn reads
them from ``turn.state`` (docs/architecture.md, "One way to decide a move"). The base game
and the castles of the expansion (:mod:`domain.carcassonne.expansion.castles.turn`) score
through the same functions.
"""

from __future__ import annotations

from domain.carcassonne.board import surrounded
from domain.carcassonne.events import FEATURE_SCORED
from domain.carcassonne.grid import AROUND
from domain.carcassonne.scoring import completed_value, feature_scored, follower_refs, ref
from domain.carcassonne.state import NODE_BITS, CarcassonneState
from domain.carcassonne.tiles import CITY, MONASTERY, ROAD, TYPES
from domain.events import Event


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
    """The full value of a completed road, city or monastery (rules, "Scoring a completed
    feature")."""
    feature = state.features[fid]
    tiles = 9 if feature.kind == MONASTERY else len(feature.tiles)
    return completed_value(feature.kind, tiles, feature.pennants, state.small_city)


def scored_event(state: CarcassonneState, fid: int) -> Event | None:
    """``FeatureScored`` for the completed feature ``fid`` if it holds followers (rules,
    "Scoring a completed feature"); else nothing."""
    feature = state.features[fid]
    if not feature.followers:
        return None
    return FEATURE_SCORED(
        feature_scored(
            kind=feature.kind,
            at=ref(state, min(feature.nodes)),
            tiles=9 if feature.kind == MONASTERY else len(feature.tiles),
            pennants=feature.pennants,
            points=value_of(state, fid),
            followers=follower_refs(state, feature.followers),
        )
    )
