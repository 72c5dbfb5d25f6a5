"""The events of one turn, worked out without changing the state (docs/carcassonne.md,
"Base game": place the drawn tile, optionally deploy one follower, score what it completed —
after the follower step —, then the next player draws; "The game ends after the turn in
which the last tile is placed"; "Final scoring").

Draw on demand (docs/carcassonne.md, "Draw on demand"): each draw takes ``rng.below(n)``
over the ``n`` tiles left in the stack, listed type by type in catalogue order (A, A, B, B,
B, B, C, D, ...), and records the tile in ``TileDrawn`` with the stream position; a
scenario's listed tiles come first and take no number ("Scenario games"). A drawn
tile that fits nowhere is discarded (``TileDiscarded``) and the same player draws again.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.carcassonne.bazaar_turn import bazaar_turns, opening
from domain.carcassonne.board import Group, analyse
from domain.carcassonne.bridges import bridge_placements
from domain.carcassonne.castles import vacated_events
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
from domain.carcassonne.state import NODE_BITS, PLAY, CarcassonneState
from domain.carcassonne.tiles import (
    ALL_FITS,
    AXES,
    BRIDGE_AXIS,
    ORIENTATIONS,
    ROLES,
    TYPE_INDEX,
    TYPES,
)
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
    stack: list[int],
    script: list[int],
    frontier: dict[int, int],
    player: int,
    rng: RandomStream,
    *,
    bridged: Callable[[int], bool] | None = None,
) -> list[Event]:
    """``player`` draws until a tile fits somewhere on ``frontier`` — or, with the
    expansion, can be placed with a bridge (``bridged``) — or the stack is empty; each
    unplaceable tile is discarded; ``stack`` and ``script`` are changed in place. A
    scenario's listed tiles (``script``) are drawn first, in order, without random
    numbers."""
    events = []
    while any(stack):
        if script:
            kind = script.pop(0)
            stack[kind] -= 1
        else:
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
        if has_placement(frontier, kind) or (bridged is not None and bridged(kind)):
            break
        events.append(Event("TileDiscarded", {"player": player, "tile": letter}))
    return events


def check_place(
    state: CarcassonneState, player: int, move: Place, kind: int
) -> tuple[int, int, int]:
    """The square, quarter turns and follower segment (-1: none) of a legal placement of
    the tile in hand as type ``kind`` (itself, or its bridged variant); raises
    ``IllegalMove`` (codes in docs/carcassonne.md, "Moves")."""
    if TYPE_INDEX[move.tile] != state.in_hand:
        raise IllegalMove("wrong-tile", f"The tile in hand is {TYPES[state.in_hand].letter}.")
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


def play(
    state: CarcassonneState, player: int, move: Place, rng: RandomStream, kind: int = -1
) -> list[Event]:
    """The events of ``player`` placing the drawn tile: ``TilePlaced``, maybe
    ``FollowerDeployed``, a ``FeatureScored`` per completed feature with followers, then
    the next draw (or the final scoring and ``GameEnded``). Never changes ``state``.
    ``kind``: the tile's bridged variant when it gets a bridge (``TilePlaced`` then says
    ``"bridge"``: its axis on the table; rules, "Bridges")."""
    kind = state.in_hand if kind < 0 else kind
    pos, turns, segment = check_place(state, player, move, kind)
    orientation = ORIENTATIONS[kind][turns]
    groups = analyse(state, pos, orientation)
    x, y = xy(pos)
    placed = {"player": player, "tile": move.tile, "x": x, "y": y, "rotation": move.rotation}
    if kind != state.in_hand:
        placed["bridge"] = AXES[BRIDGE_AXIS[kind] ^ (turns & 1)]
    events = [Event("TilePlaced", placed)]
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
    if state.expansion:
        from domain.carcassonne.castle_turn import resolve  # noqa: PLC0415 - imports this module

        work = state.clone()
        for event in events:
            evolve(work, event)
        events += resolve(work)
        return events if work.pending is not None else events + next_turn(work, player, rng)
    for done in completions(state, pos, orientation, groups):
        events += _scored(state, done, pos, player, segment, kind=kind)
    frontier = dict(state.frontier)
    del frontier[pos]
    for side in range(4):
        square = pos + DELTAS[side]
        if square not in state.board:
            frontier[square] = frontier.get(square, 0) | orientation.faces[side]
    following = (player + 1) % state.players
    bridged = _with_bridge(state, events, following) if state.expansion else None
    events += draw_events(
        list(state.stack), list(state.script), frontier, following, rng, bridged=bridged
    )
    if events[-1].type != "TileDrawn":
        events += end_events(state, events, rng.seed)
    return events


def next_turn(work: CarcassonneState, player: int, rng: RandomStream) -> list[Event]:
    """After ``player``'s turn, worked out on ``work`` (the table with the turn's events
    evolved): with the expansion the auction a bazaar opens or the next bazaar turn
    (:mod:`domain.carcassonne.bazaar_turn`); else the next seat's draw, or the final
    scoring when the stack is empty (and no bazaar tile is pending)."""
    if work.expansion:
        opened = opening(work, player, rng)
        if opened or work.bazaar is None:
            return opened or _ordinary(work, player, rng)
        return bazaar_turns(work.clone(), rng, _ordinary, _with_bridge)
    return _ordinary(work, player, rng)


def _ordinary(work: CarcassonneState, player: int, rng: RandomStream) -> list[Event]:
    following = (player + 1) % work.players
    bridged = _with_bridge(work, [], following)
    draws = draw_events(
        list(work.stack), list(work.script), work.frontier, following, rng, bridged=bridged
    )
    if not draws or draws[-1].type != "TileDrawn":
        draws += end_events(work, draws, rng.seed)
    return draws


def _with_bridge(state: CarcassonneState, turn: list[Event], player: int) -> Callable[[int], bool]:
    """Whether ``player`` could place a tile of a type with a bridge on the table after
    ``turn`` (rules, "Bridges": a placement may be legal only with one); the table is
    worked out on a clone, and only when a drawn tile fits nowhere as it is."""
    tables: list[CarcassonneState] = []

    def bridged(kind: int) -> bool:
        if not tables:
            tables.append(state.clone())
            for event in turn:
                evolve(tables[0], event)
        work = tables[0]
        work.in_hand, work.current, work.phase = kind, player, PLAY
        return bool(bridge_placements(work, player))

    return bridged


def _scored(
    state: CarcassonneState, done: Completion, pos: int, player: int, segment: int, *, kind: int
) -> list[Event]:
    """``FeatureScored`` for a completed feature with followers (the one deployed this
    turn included), else nothing."""
    followers = follower_refs(state, done.followers)
    if segment >= 0 and segment in done.segments:
        x, y = xy(pos)
        piece = TYPES[kind].segments[segment]
        followers.append({"player": player, "x": x, "y": y, "segment": piece.id})
        followers.sort(key=lambda f: (f["x"], f["y"]))
    if not followers:
        return []
    return [
        feature_event(
            "FeatureScored",
            kind=done.kind,
            at=_new_ref(done.ref, pos, kind)
            if done.ref >> NODE_BITS >= len(state.tiles)
            else ref(state, done.ref),
            tiles=done.tiles,
            pennants=done.pennants,
            points=completed_value(done.kind, done.tiles, done.pennants, state.small_city),
            followers=followers,
        )
    ]


def _new_ref(node: int, pos: int, kind: int) -> dict[str, object]:
    x, y = xy(pos)
    return {"x": x, "y": y, "segment": TYPES[kind].segments[node & 15].id}


def end_events(state: CarcassonneState, turn: list[Event], seed: str) -> list[Event]:
    """The final scoring after the last turn (worked out on a clone with that turn's events
    evolved): ``FinalFeatureScored`` events, ``FarmScored`` events and ``GameEnded`` with
    the final scores, ranks, winners, a breakdown and the revealed seed."""
    work = state.clone()
    for event in turn:
        evolve(work, event)
    during_play = list(work.scores)
    events = final_feature_events(work) + vacated_events(work)
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
