"""Event sourcing properties (docs/architecture.md, "Events are the record"; domain/protocol.py):
replaying the events rebuilds the live state exactly, never draws a random number, and
``apply`` never changes the state it is given; conservation laws hold after every event."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from domain.carcassonne import CARCASSONNE, CarcassonneState
from domain.carcassonne.state import state_to_json, writable
from domain.protocol import Event, GameError
from domain.randomness import RandomStream
from tests.randomness import NoRandomness

from .helpers import random_game

OPTIONS = [
    {},
    {"farmers": "per-city", "small-city-points": 2},
    {"farmers": "per-field-once"},
]


def json_copy(event: Event) -> Event:
    """The event as stored: its data through JSON and back."""
    return Event(event.type, json.loads(json.dumps(event.data)))


def only_json_primitives(value: Any) -> bool:
    if isinstance(value, dict):
        return all(isinstance(k, str) and only_json_primitives(v) for k, v in value.items())
    if isinstance(value, list):
        return all(only_json_primitives(v) for v in value)
    return value is None or isinstance(value, str | int | float | bool)


@pytest.mark.parametrize(
    ("players", "options"), [(2, OPTIONS[0]), (3, OPTIONS[1]), (5, OPTIONS[2])]
)
def test_replay_equals_live_after_every_move(players: int, options: dict[str, Any]) -> None:
    for seed in range(3):
        replayed = CARCASSONNE.setup(players, options)
        log: list[Event] = []
        live: CarcassonneState | None = None
        for live, step in random_game(players, seed, options):
            for event in step.events:
                assert event.type in CARCASSONNE.event_types
                assert only_json_primitives(event.data), event
                stored = json_copy(event)
                assert stored.data == event.data
                log.append(stored)
                replayed = CARCASSONNE.evolve(replayed, stored)
            assert replayed == live
        assert live is not None
        scratch = CARCASSONNE.setup(players, options)
        for event in log:
            scratch = CARCASSONNE.evolve(scratch, event)
        assert scratch == live
        assert CARCASSONNE.outcome(scratch) == CARCASSONNE.outcome(live) is not None
        assert log[-1].type == "GameEnded" and log[-1].data["seed"] == f"game-{seed}"


def test_only_a_draw_needs_randomness() -> None:
    for _state, step in random_game(2, 3):
        if step.move is None:
            continue
        try:
            events = CARCASSONNE.apply(step.before, step.player, step.move, NoRandomness())
        except RuntimeError:
            assert any(e.type == "TileDrawn" for e in step.events)
        else:
            assert all(e.type != "TileDrawn" for e in step.events)
            for mine, recorded in zip(events, step.events, strict=True):
                if mine.type == "GameEnded":
                    assert mine.data == {**recorded.data, "seed": ""}
                else:
                    assert mine == recorded


def test_random_position_follows_the_stream() -> None:
    for state, step in random_game(2, 4, secret="position"):
        drawn = [e for e in step.events if e.type == "TileDrawn"]
        if drawn:
            assert state.random_position == drawn[-1].data["random_position"]
            if step.move is not None:
                stream = RandomStream("position", step.before.random_position)
                CARCASSONNE.apply(step.before, step.player, step.move, stream)
                assert stream.position == state.random_position


def test_apply_never_changes_the_state_it_is_given() -> None:
    for seed in range(3):
        for _state, step in random_game(2 + seed, seed, OPTIONS[seed]):
            if step.move is None:
                continue
            snapshot = state_to_json(step.before)  # a clone would share the features
            CARCASSONNE.apply(step.before, step.player, step.move, RandomStream("other", 0))
            assert state_to_json(step.before) == snapshot


def test_copy_state_is_independent() -> None:
    """The copy equals the state, and changing it leaves the state as it was (a feature is
    changed through ``writable``, as handlers do; test_copy_state.py guards every part)."""
    for state, step in random_game(4, 2):
        copy = CARCASSONNE.copy_state(state)
        assert copy == state
        if step.move is None or not state.features:
            continue
        before = state_to_json(state)
        copy.scores[0] += 1
        writable(copy, next(iter(copy.features))).nodes.append(-5)
        copy.frontier[12345] = 1
        assert copy != state
        assert state.scores[0] != copy.scores[0]
        assert state_to_json(state) == before


def test_an_unknown_event_is_refused() -> None:
    with pytest.raises(GameError) as refused:
        CARCASSONNE.evolve(CARCASSONNE.setup(2, {}), Event("TilesTaken", {}))
    assert refused.value.code == "unknown-event"


@pytest.mark.parametrize("options", OPTIONS)
def test_random_games_keep_every_invariant(options: dict[str, Any]) -> None:
    for seed in range(25):
        players = 2 + seed % 4
        state = CARCASSONNE.setup(players, options)
        secret = f"invariants-{seed}"
        for event in CARCASSONNE.begin(state, RandomStream(secret)):
            state = CARCASSONNE.evolve(state, event)
        bot = random.Random(seed)
        while acting := CARCASSONNE.current_players(state):
            for idle in set(range(players)) - set(acting):
                assert CARCASSONNE.legal_moves(state, idle) == []
            player = bot.choice(acting)
            move = bot.choice(CARCASSONNE.legal_moves(state, player))
            stream = RandomStream(secret, state.random_position)
            for event in CARCASSONNE.apply(state, player, move, stream):
                state = CARCASSONNE.evolve(state, event)
                assert CARCASSONNE.check_invariants(state) == [], (seed, event)
        outcome = CARCASSONNE.outcome(state)
        assert outcome is not None and min(outcome.scores) >= 0
        assert sorted(outcome.winners) == [s for s in range(players) if outcome.ranks[s] == 1]
        assert state.turn + len(state.discarded) == 71


def test_the_state_survives_json_for_snapshots() -> None:
    for seed in range(3):
        for state, _step in random_game(2 + seed, seed, OPTIONS[seed]):
            data = json.loads(json.dumps(CARCASSONNE.state_to_json(state)))
            back = CARCASSONNE.state_from_json(data)
            assert back == state
            if CARCASSONNE.current_players(state):
                player = state.current
                assert CARCASSONNE.legal_moves(back, player) == CARCASSONNE.legal_moves(
                    state, player
                )
    assert CARCASSONNE.rules_version == "carcassonne-4"  # random first player, picks placed in turn
