"""Event sourcing properties (docs/architecture.md, "Events are the record"; domain/protocol.py):
replaying the events rebuilds the live state exactly, never draws a random number, and
``apply`` never changes the state it is given; conservation laws hold after every event."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from domain.azul import AZUL, AzulState
from domain.protocol import Event
from domain.randomness import RandomStream
from tests.randomness import NoRandomness

from .helpers import random_game


def json_copy(event: Event) -> Event:
    """The event as stored: its data through JSON and back (tuples would not survive)."""
    return Event(event.type, json.loads(json.dumps(event.data)))


def only_json_primitives(value: Any) -> bool:
    if isinstance(value, dict):
        return all(isinstance(k, str) and only_json_primitives(v) for k, v in value.items())
    if isinstance(value, list):
        return all(only_json_primitives(v) for v in value)
    return value is None or isinstance(value, str | int | float | bool)


@pytest.mark.parametrize(
    ("players", "wall"), [(2, "colored"), (3, "colored"), (4, "gray"), (2, "gray")]
)
def test_replay_equals_live_after_every_move(players: int, wall: str) -> None:
    for seed in range(8):
        replayed = AZUL.setup(players, {"wall": wall})
        log: list[Event] = []
        for live, step in random_game(players, seed, wall):
            for event in step.events:
                assert only_json_primitives(event.data), event
                stored = json_copy(event)
                assert stored.data == event.data
                log.append(stored)
                replayed = AZUL.evolve(replayed, stored)
            assert replayed == live
        # and once from scratch, with the log exactly as stored
        scratch = AZUL.setup(players, {"wall": wall})
        for event in log:
            scratch = AZUL.evolve(scratch, event)
        assert scratch == live
        assert AZUL.outcome(scratch) == AZUL.outcome(live) is not None


def test_only_a_refill_needs_randomness() -> None:
    for state, step in random_game(2, 3):
        if step.move is None:
            continue
        try:
            events = AZUL.apply(step.before, step.player, step.move, NoRandomness())
        except RuntimeError:
            assert step.events[-1].type == "FactoriesFilled"
        else:
            # the same events; only the seed revealed by GameEnded comes from the stream
            for mine, recorded in zip(events, step.events, strict=True):
                if mine.type == "GameEnded":
                    assert mine.data == {**recorded.data, "seed": ""}
                else:
                    assert mine == recorded
            assert all(e.type != "FactoriesFilled" for e in events)
        assert state.random_position >= step.before.random_position


def test_random_position_follows_the_stream() -> None:
    for state, step in random_game(2, 4, secret="position"):
        filled = [e for e in step.events if e.type == "FactoriesFilled"]
        if filled:
            assert state.random_position == filled[-1].data["random_position"]
            stream = RandomStream("position", step.before.random_position)
            if step.move is not None:
                AZUL.apply(step.before, step.player, step.move, stream)
                assert stream.position == state.random_position


def test_apply_never_changes_the_state_it_is_given() -> None:
    for seed in range(4):
        for _state, step in random_game(2 + seed % 3, seed, "gray" if seed % 2 else "colored"):
            if step.move is None:
                continue
            snapshot = step.before.clone()
            AZUL.apply(step.before, step.player, step.move, RandomStream(f"game-{seed}", 0))
            assert step.before == snapshot


def test_copy_state_is_independent() -> None:
    state: AzulState | None = None
    for state, _step in random_game(4, 2):
        copy = AZUL.copy_state(state)
        assert copy == state
        copy.sources[0][0] += 1
        copy.wall[0][0] = 9
        copy.floor[1].append(0)
        assert copy != state
    assert state is not None


@pytest.mark.parametrize("wall", ["colored", "gray"])
def test_random_games_keep_every_invariant(wall: str) -> None:
    games = 0
    for seed in range(150):
        players = 2 + seed % 3
        state = AZUL.setup(players, {"wall": wall})
        secret = f"invariants-{seed}"
        for event in AZUL.begin(state, RandomStream(secret)):
            state = AZUL.evolve(state, event)
        bot = random.Random(seed)
        while acting := AZUL.current_players(state):
            for idle in set(range(players)) - set(acting):
                assert AZUL.legal_moves(state, idle) == []
            player = bot.choice(acting)
            legal = AZUL.legal_moves(state, player)
            assert legal and len(legal) == len(set(legal))
            move = bot.choice(legal)
            for event in AZUL.apply(
                state, player, move, RandomStream(secret, state.random_position)
            ):
                state = AZUL.evolve(state, event)
                assert AZUL.check_invariants(state) == [], (seed, event)
        outcome = AZUL.outcome(state)
        assert outcome is not None and min(outcome.scores) >= 0
        assert sorted(outcome.winners) == [s for s in range(players) if outcome.ranks[s] == 1]
        games += 1
    assert games == 150
