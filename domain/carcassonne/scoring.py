"""Points: the majority rule, what a feature is worth, and the events that score it
(docs/carcassonne.md, "Scoring a completed feature"; "Final scoring", step 1;
"Highest total wins; ties share the victory").
"""

from __future__ import annotations

from domain.carcassonne.board import surrounded
from domain.carcassonne.events import FINAL_FEATURE_SCORED, FeatureScored, Follower, Segment
from domain.carcassonne.grid import xy
from domain.carcassonne.state import NODE_BITS, CarcassonneState
from domain.carcassonne.tiles import CITY, FIELD, KIND_NAMES, MONASTERY, ROAD, TYPES
from domain.protocol import Event


def majority(owners: list[int]) -> list[int]:
    """The seats with the most followers among ``owners`` (one entry per follower); every
    seat tied for the most is included (rules, "Majority"). Sorted; empty for none."""
    if not owners:
        return []
    counts: dict[int, int] = {}
    for seat in owners:
        counts[seat] = counts.get(seat, 0) + 1
    top = max(counts.values())
    return sorted(seat for seat, n in counts.items() if n == top)


def completed_value(kind: int, tiles: int, pennants: int, small_city: int) -> int:
    """A completed feature's value: road 1 per tile; city 2 per tile + 2 per pennant, the
    tiles of a two-tile city ``small_city`` (4, or 2 with option ``small-city-points``);
    monastery 9 (rules, "Scoring a completed feature"; "Final scoring", 3)."""
    if kind == ROAD:
        return tiles
    if kind == CITY:
        return (small_city if tiles == 2 else 2 * tiles) + 2 * pennants
    return 9


def incomplete_value(kind: int, tiles: int, pennants: int) -> int:
    """An incomplete feature's value at the end: road 1 per tile, city 1 per tile + 1 per
    pennant, monastery 1 + 1 per surrounding tile (``tiles`` = 1 + neighbours) (rules,
    "Final scoring", 1)."""
    if kind == CITY:
        return tiles + pennants
    return tiles


def ref(state: CarcassonneState, node: int) -> Segment:
    """A segment as events and views name it: ``{"x", "y", "segment"}``."""
    pos, kind, _, _ = state.tiles[node >> NODE_BITS]
    x, y = xy(pos)
    return {"x": x, "y": y, "segment": TYPES[kind].segments[node & 15].id}


def follower_refs(state: CarcassonneState, squares: list[int]) -> list[Follower]:
    """The followers on the given squares as ``{"player", "x", "y", "segment"}``, by
    square."""
    out: list[Follower] = []
    for pos in sorted(squares):
        player, segment = state.followers[pos]
        x, y = xy(pos)
        kind = state.tiles[state.board[pos]][1]
        out.append({"player": player, "x": x, "y": y, "segment": TYPES[kind].segments[segment].id})
    return out


def feature_scored(
    *,
    kind: int,
    at: Segment,
    tiles: int,
    pennants: int,
    points: int,
    followers: list[Follower],
) -> FeatureScored:
    """The data of ``FeatureScored`` / ``FinalFeatureScored`` (docs/carcassonne.md,
    "Events"): the feature (kind, a segment of it, its size), its value, who scores it (the
    majority, rules "Majority") and the followers that return."""
    return {
        "feature": KIND_NAMES[kind],
        "at": at,
        "tiles": tiles,
        "pennants": pennants,
        "points": points,
        "scorers": majority([f["player"] for f in followers]),
        "followers": followers,
    }


def final_feature_events(state: CarcassonneState) -> list[Event]:
    """``FinalFeatureScored`` for every incomplete road, city and monastery that holds a
    follower, in the order of their first segment (rules, "Final scoring", 1)."""
    events = []
    found = [
        (min(f.nodes), f)
        for f in state.features.values()
        if f.followers and not f.complete and f.kind != FIELD
    ]
    for first, feature in sorted(found, key=lambda item: item[0]):
        if feature.kind == MONASTERY:
            tiles = 1 + surrounded(state, state.tiles[first >> NODE_BITS][0])
        else:
            tiles = len(feature.tiles)
        events.append(
            FINAL_FEATURE_SCORED(
                feature_scored(
                    kind=feature.kind,
                    at=ref(state, first),
                    tiles=tiles,
                    pennants=feature.pennants,
                    points=incomplete_value(feature.kind, tiles, feature.pennants),
                    followers=follower_refs(state, feature.followers),
                )
            )
        )
    return events


def ranking(scores: list[int]) -> tuple[list[int], list[int]]:
    """Ranks (1-based; equal scores share a place) and winners (every rank-1 seat)."""
    ranks = [1 + sum(1 for other in scores if other > score) for score in scores]
    return ranks, [seat for seat, rank in enumerate(ranks) if rank == 1]
