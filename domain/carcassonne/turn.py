"""The events of one turn, worked out without changing the state (shared/rules/carcassonne.md,
"Base game": place the drawn tile, optionally deploy one follower, score what it completed —
after the follower step —, then the next player draws; "The game ends after the turn in
which the last tile is placed"; "Final scoring").

Draw on demand (docs/carcassonne.md, "Draw on demand"): each draw takes ``rng.below(n)``
over the ``n`` tiles left in the stack, listed type by type in catalogue order (A, A, B, B,
B, B, C, D, ...), and records the tile in ``TileDrawn`` with the stream position. A drawn
tile that fits nowhere is discarded (``TileDiscarded``) and the same player draws again.
"""

from __future__ import annotations

from domain.carcassonne.board import Group, analyse
from domain.carcassonne.completion import Completion, completions
from domain.carcassonne.evolve import evolve
from domain.carcassonne.farms import farm_events
from domain.carcassonne.grid import DELTAS, pos_of, xy
from domain.carcassonne.moves import Place
from domain.carcassonne.placement import has_placement
from domain.carcassonne.scoring import (
    completed_value,
    feature_event,
    final_feature_events,
    follower_refs,
    ranking,
    ref,
)
from domain.carcassonne.state import NODE_BITS, CarcassonneState
from domain.carcassonne.tiles import ALL_FITS, ORIENTATIONS, ROLES, TYPE_INDEX, TYPES
from domain.protocol import Event, IllegalMove
from domain.randomness import RandomStream


def draw(stack: list[int], rng: RandomStream) -> int:
    """One tile drawn uniformly from the stack (counts per type; changed in place): the
    ``rng.below(n)``-th of the ``n`` tiles left in catalogue order."""
    index = rng.below(sum(stack))
    for kind, count in enumerate(stack):
        if index < count:
            stack[kind] -= 1
            return kind
        index -= count
    raise AssertionError("unreachable: the index is below the stack size")


def draw_events(
    stack: list[int], frontier: dict[int, int], player: int, rng: RandomStream
) -> list[Event]:
    """``player`` draws until a tile fits somewhere on ``frontier`` (each unplaceable tile
    is discarded) or the stack is empty; ``stack`` is changed in place."""
    events = []
    while any(stack):
        kind = draw(stack, rng)
        letter = TYPES[kind].letter
        events.append(
            Event(
                "TileDrawn",
                {
                    "player": player,
                    "tile": letter,
                    "tiles_left": sum(stack),
                    "random_position": rng.position,
                },
            )
        )
        if has_placement(frontier, kind):
            break
        events.append(Event("TileDiscarded", {"player": player, "tile": letter}))
    return events


def check_place(state: CarcassonneState, player: int, move: Place) -> tuple[int, int, int]:
    """The square, quarter turns and follower segment (-1: none) of a legal placement;
    raises ``IllegalMove`` (codes in docs/carcassonne.md, "Moves")."""
    kind = state.in_hand
    if TYPE_INDEX[move.tile] != kind:
        raise IllegalMove("wrong-tile", f"The tile in hand is {TYPES[kind].letter}.")
    pos = pos_of(move.x, move.y)
    if pos in state.board:
        raise IllegalMove("square-occupied", f"({move.x}, {move.y}) already holds a tile.")
    code = state.frontier.get(pos)
    if code is None:
        raise IllegalMove("not-adjacent", "A tile must touch a placed tile edge to edge.")
    turns = move.rotation // 90
    if turns not in ALL_FITS[kind][code]:
        raise IllegalMove("tile-does-not-fit", "An edge does not match its neighbour's edge.")
    segment = -1
    if move.follower is not None:
        segment = TYPES[kind].segment_index(move.follower)
        if segment < 0:
            raise IllegalMove("no-such-segment", f"Tile {move.tile} has no {move.follower}.")
        if state.supply[player] <= 0:
            raise IllegalMove("no-followers-left", "All your followers are on the board.")
    return pos, turns, segment


def _occupied(state: CarcassonneState, groups: list[Group], segment: int) -> bool:
    for group in groups:
        if segment in group.segments:
            return any(state.features[f].followers for f in group.features)
    return False


def play(state: CarcassonneState, player: int, move: Place, rng: RandomStream) -> list[Event]:
    """The events of ``player`` placing the drawn tile: ``TilePlaced``, maybe
    ``FollowerDeployed``, a ``FeatureScored`` per completed feature with followers, then
    the next draw (or the final scoring and ``GameEnded``). Never changes ``state``."""
    pos, turns, segment = check_place(state, player, move)
    kind = state.in_hand
    orientation = ORIENTATIONS[kind][turns]
    groups = analyse(state, pos, orientation)
    x, y = xy(pos)
    events = [
        Event(
            "TilePlaced",
            {"player": player, "tile": move.tile, "x": x, "y": y, "rotation": move.rotation},
        )
    ]
    if segment >= 0:
        if _occupied(state, groups, segment):
            raise IllegalMove("feature-occupied", "That feature already holds a follower.")
        events.append(
            Event(
                "FollowerDeployed",
                {
                    "player": player,
                    "x": x,
                    "y": y,
                    "segment": move.follower,
                    "role": ROLES[TYPES[kind].segments[segment].kind],
                },
            )
        )
    for done in completions(state, pos, orientation, groups):
        events += _scored(state, done, pos, player, segment)
    frontier = dict(state.frontier)
    del frontier[pos]
    for side in range(4):
        square = pos + DELTAS[side]
        if square not in state.board:
            frontier[square] = frontier.get(square, 0) | orientation.faces[side]
    events += draw_events(list(state.stack), frontier, (player + 1) % state.players, rng)
    if events[-1].type != "TileDrawn":
        events += end_events(state, events, rng.seed)
    return events


def _scored(
    state: CarcassonneState, done: Completion, pos: int, player: int, segment: int
) -> list[Event]:
    """``FeatureScored`` for a completed feature with followers (the one deployed this
    turn included), else nothing."""
    followers = follower_refs(state, done.followers)
    if segment >= 0 and segment in done.segments:
        x, y = xy(pos)
        piece = TYPES[state.in_hand].segments[segment]
        followers.append({"player": player, "x": x, "y": y, "segment": piece.id})
        followers.sort(key=lambda f: (f["x"], f["y"]))
    if not followers:
        return []
    return [
        feature_event(
            "FeatureScored",
            kind=done.kind,
            at=_new_ref(state, done.ref, pos),
            tiles=done.tiles,
            pennants=done.pennants,
            points=completed_value(done.kind, done.tiles, done.pennants, state.small_city),
            followers=followers,
        )
    ]


def _new_ref(state: CarcassonneState, node: int, pos: int) -> dict[str, object]:
    if node >> NODE_BITS < len(state.tiles):
        return ref(state, node)
    x, y = xy(pos)
    return {"x": x, "y": y, "segment": TYPES[state.in_hand].segments[node & 15].id}


def end_events(state: CarcassonneState, turn: list[Event], seed: str) -> list[Event]:
    """The final scoring after the last turn (worked out on a clone with that turn's events
    evolved): ``FinalFeatureScored`` events, ``FarmScored`` events and ``GameEnded`` with
    the final scores, ranks, winners, a breakdown and the revealed seed."""
    work = state.clone()
    for event in turn:
        evolve(work, event)
    during_play = list(work.scores)
    events = final_feature_events(work)
    for event in events:
        evolve(work, event)
    after_features = list(work.scores)
    farms = farm_events(work)
    for event in farms:
        evolve(work, event)
    scores = list(work.scores)
    ranks, winners = ranking(scores)
    breakdown = {
        "play": during_play,
        "features": [a - b for a, b in zip(after_features, during_play, strict=True)],
        "farms": [a - b for a, b in zip(scores, after_features, strict=True)],
    }
    ended = Event(
        "GameEnded",
        {
            "scores": scores,
            "ranks": ranks,
            "winners": winners,
            "breakdown": breakdown,
            "seed": seed,
        },
    )
    return [*events, *farms, ended]
