"""Helpers for the Carcassonne rules tests: boards built by placing given tiles through the
engine itself (``apply`` + ``evolve``), the final scoring of such a board, and seeded
random play."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from domain.carcassonne import CARCASSONNE, CarcassonneState, Place
from domain.carcassonne.invariants import history
from domain.carcassonne.recount import recount
from domain.carcassonne.state import PLAY, state_to_json
from domain.carcassonne.tiles import TYPE_INDEX
from domain.carcassonne.turn import end_game
from domain.protocol import Event
from domain.randomness import RandomStream
from domain.turn import Turn

PLACEMENT = ("BridgePlaced", "TilePlaced", "FollowerDeployed", "FeatureScored")


def evolve_apart(state: CarcassonneState, events: list[Event]) -> None:
    """Evolve ``events`` on ``state``, checking on the way that a copy of it evolved by the
    same events leaves it as it was, that it then leaves the copy as it was, and that both
    end equal: the guard of test_copy_state.py (the copy shares the features until a handler
    changes one) at every step of a scripted board."""
    before = state_to_json(state)
    copy = state.clone()
    for event in events:
        CARCASSONNE.evolve(copy, event)
    assert state_to_json(state) == before, "evolving a copy changed the state"
    after = state_to_json(copy)
    for event in events:
        CARCASSONNE.evolve(state, event)
    assert state_to_json(copy) == after, "evolving the state changed its copy"
    assert state == copy


def table(players: int = 2, **options: Any) -> CarcassonneState:
    """A new game: the start tile at (0,0), nothing drawn yet."""
    fixed = {key.replace("_", "-"): value for key, value in options.items()}
    return CARCASSONNE.setup(players, fixed)


def put(state: CarcassonneState, placement: str, player: int = 0) -> list[Event]:
    """``player`` places a tile given in notation (``"E@0,-1r180+c0"``: the tile is taken
    from the stack and handed to the player) through ``apply``; the events of the
    placement are evolved, the next draw is left out. Returns the placement's events
    (TilePlaced, FollowerDeployed, FeatureScored...)."""
    move = CARCASSONNE.parse_notation(placement)
    kind = TYPE_INDEX[move.tile]
    state.stack[kind] -= 1
    state.in_hand, state.current, state.phase = kind, player, PLAY
    legal = CARCASSONNE.legal_moves(state, player)
    try:
        events = CARCASSONNE.apply(state, player, move, RandomStream("scenario", 0))
    except Exception:
        state.stack[kind] += 1
        state.in_hand = -1
        raise
    assert move in legal, f"{move} was applied but not listed as legal"
    placed = [event for event in events if event.type in PLACEMENT]
    evolve_apart(state, placed)
    return placed


def build(state: CarcassonneState, *steps: str | tuple[str, int]) -> list[Event]:
    """:func:`put` for each step, a placement in notation or (placement, player); all the
    events."""
    events: list[Event] = []
    for step in steps:
        events += put(state, step) if isinstance(step, str) else put(state, *step)
    return events


def finish(state: CarcassonneState) -> list[Event]:
    """The final scoring of the board as it stands (as if the stack were empty), evolved;
    checks that the independent recount agrees with the engine."""
    turn = Turn(state, CARCASSONNE)
    end_game(turn, "scenario")
    events = turn.events
    evolve_apart(state, events)
    scores, problems = recount(state.players, state.farmers, state.small_city, history(state))
    assert problems == []
    assert scores == state.scores
    return events


def of_type(events: list[Event], kind: str) -> list[dict[str, Any]]:
    """The data of the events of one type."""
    return [event.data for event in events if event.type == kind]


def scored(events: list[Event], kind: str = "FeatureScored") -> list[tuple[str, int, list[int]]]:
    """``(feature, points, scorers)`` of each scoring event of one type."""
    return [(d["feature"], d["points"], d["scorers"]) for d in of_type(events, kind)]


def awards(events: list[Event]) -> dict[int, int]:
    """Farm points per seat over every ``FarmScored`` event."""
    total: dict[int, int] = {}
    for data in of_type(events, "FarmScored"):
        for award in data["awards"]:
            total[award["player"]] = total.get(award["player"], 0) + award["points"]
    return total


@dataclass
class Step:
    """One move of a random game: the state before it (a clone), who moved, what, and the
    events it caused."""

    before: CarcassonneState
    player: int
    move: Place | None
    events: list[Event]


def random_game(
    players: int, seed: int, options: dict[str, Any] | None = None, secret: str | None = None
) -> Iterator[tuple[CarcassonneState, Step]]:
    """Play one seeded random game; yields ``(live state, step)`` after ``begin`` (a step
    with player -1 and move ``None``) and after every move. The live state is evolved in
    place."""
    secret = secret or f"game-{seed}"
    fixed = options or {}
    state = CARCASSONNE.setup(players, fixed)
    opening = CARCASSONNE.begin(state, RandomStream(secret))
    before = state.clone()
    for event in opening:
        CARCASSONNE.evolve(state, event)
    yield state, Step(before, -1, None, opening)
    bot = random.Random(seed)
    while acting := CARCASSONNE.current_players(state):
        player = bot.choice(acting)
        move = bot.choice(CARCASSONNE.legal_moves(state, player))
        before = state.clone()
        events = CARCASSONNE.apply(state, player, move, RandomStream(secret, state.random_position))
        for event in events:
            CARCASSONNE.evolve(state, event)
        yield state, Step(before, player, move, events)


def spots(state: CarcassonneState, placement: str, player: int = 0) -> set[str | None]:
    """The follower choices listed for one placement (``"K@0,1r270"``) when ``player``
    holds that tile."""
    move = CARCASSONNE.parse_notation(placement)
    saved = (state.in_hand, state.current, state.phase)
    state.in_hand, state.current, state.phase = TYPE_INDEX[move.tile], player, PLAY
    try:
        return {
            m.follower
            for m in CARCASSONNE.legal_moves(state, player)
            if (m.x, m.y, m.rotation) == (move.x, move.y, move.rotation)
        }
    finally:
        state.in_hand, state.current, state.phase = saved


def played_out(players: int, seed: int, options: dict[str, Any] | None = None) -> CarcassonneState:
    """The final state of one seeded random game."""
    last = deque(random_game(players, seed, options), maxlen=1)
    return last[0][0]
