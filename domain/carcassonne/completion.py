"""What a placement completes (docs/carcassonne.md, "Scoring a completed feature": a road
is complete when both ends stop or it loops, a city when its wall is closed, a monastery
when the eight squares around it hold tiles; "Scoring events" for the order).

Two readings, one rule. With the expansion the turn reads what the last placed tile
completed from ``turn.state``, the table after its ``TilePlaced`` (:func:`turn_features`;
docs/architecture.md, "One way to decide a move"). The base game foresees it on the table
before the move (:func:`completions`), because evolving a copy of the table for every
placement made the base game 44-66% slower (docs/carcassonne.md, "Foreseeing
completions"); it asks the handler's own functions
(:func:`~domain.carcassonne.board.open_ends`,
:func:`~domain.carcassonne.board.monastery_complete`), so the rule lives in one place.
"""

from __future__ import annotations

from typing import NamedTuple

from domain.carcassonne.board import Group, monastery_complete, open_ends
from domain.carcassonne.events import FEATURE_SCORED
from domain.carcassonne.grid import AROUND
from domain.carcassonne.scoring import completed_value, feature_scored, follower_refs, ref
from domain.carcassonne.state import NODE_BITS, CarcassonneState
from domain.carcassonne.tiles import CITY, MONASTERY, ROAD, TYPES, Orientation
from domain.events import Event


class Completion(NamedTuple):
    """A feature the new tile completes, as it will be: ``ref`` is its first node,
    ``followers`` the squares of the followers on it (before this turn's deployment)."""

    kind: int
    ref: int
    tiles: int
    pennants: int
    followers: list[int]
    segments: tuple[int, ...]
    """The new tile's segments in it (empty for a neighbouring monastery)."""


def completions(
    state: CarcassonneState, pos: int, orientation: Orientation, groups: list[Group]
) -> list[Completion]:
    """The features that placing the turned tile at ``pos`` completes (read only), in
    scoring order: roads and cities left with no open end
    (:func:`~domain.carcassonne.board.open_ends`), and monasteries — its own or a
    neighbour's — complete (:func:`~domain.carcassonne.board.monastery_complete`). Already
    complete features never grow again."""
    features = state.features
    segments = TYPES[orientation.type].segments
    k = len(state.tiles)
    done: list[Completion] = []
    for group in groups:
        if group.kind not in (ROAD, CITY) or open_ends(features, segments, group):
            continue
        parts = [features[f] for f in group.features]
        squares = {pos}.union(*(p.tiles for p in parts))
        pennants = sum(p.pennants for p in parts) + sum(
            segments[i].pennants for i in group.segments
        )
        nodes = [k << NODE_BITS | i for i in group.segments]
        first = min(nodes + [min(p.nodes) for p in parts])
        followers = [square for p in parts for square in p.followers]
        done.append(
            Completion(group.kind, first, len(squares), pennants, followers, group.segments)
        )
    own = TYPES[orientation.type].monastery
    if own >= 0 and monastery_complete(state, pos):
        done.append(Completion(MONASTERY, k << NODE_BITS | own, 9, 0, [], (own,)))
    monasteries = state.monasteries
    if monasteries:
        for step in AROUND:
            fid = monasteries.get(pos + step)
            if fid is not None and monastery_complete(state, pos + step, pos):
                monastery = features[fid]
                done.append(Completion(MONASTERY, fid, 9, 0, list(monastery.followers), ()))
    return done


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
        if own >= 0 and monastery_complete(state, square):
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
