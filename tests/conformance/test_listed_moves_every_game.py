"""Every listed move is a move the game reads and accepts, for every registered game and
option set (docs/architecture.md, "One protocol for every game"; docs/api.md: a client may
send a move as JSON or as notation). Random games are played; at every state, for every seat
that may act and every move ``m`` that ``legal_moves`` lists:

* ``parse_move(move_to_json(m)) == m``, the JSON form surviving a trip through text;
* ``parse_notation(notation(m)) == m``;
* ``apply`` accepts ``m`` (on a copy of the state, which it leaves unchanged).

A game joins by registering; its option sets come from the random-play plan
(``test_random_play.PLANS``), each played at every player count it allows.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from domain.bots import choose_move
from domain.protocol import Rules
from domain.randomness import RandomStream
from domain.registry import games
from tests.conformance.test_random_play import DEFAULT_PLAN, PLANS

GAMES_PER_CASE = 1
"""Seeded games per option set and player count (every state of each is checked)."""
LONG_RUNS = {"carcassonne": 3}
"""More games for a game whose listing changes over long games (Carcassonne's auctions at
2-6 seats with the expansion): its expansion option sets get this many per player count."""


def cases(name: str) -> list[tuple[dict[str, Any], range]]:
    """Every option set of the plan with the player counts it is played at."""
    rules = games()[name]
    plan = PLANS.get(name, DEFAULT_PLAN)
    counts = range(rules.min_players, rules.max_players + 1)
    return [(options, counts) for options in plan.options] + [
        (extra.options, extra.players) for extra in plan.extra
    ]


def check_every_listed_move(rules: Rules[Any, Any], state: Any, seed: int) -> int:
    """The three checks for every listed move of every acting seat; the moves checked."""
    checked = 0
    trial = rules.copy_state(state)
    for player in rules.current_players(state):
        for move in rules.legal_moves(state, player):
            data = json.loads(json.dumps(rules.move_to_json(move)))
            assert rules.parse_move(data) == move, (seed, move, data)
            text = rules.notation(move)
            assert rules.parse_notation(text) == move, (seed, move, text)
            stream = RandomStream(f"listed-{seed}", state.random_position)
            assert rules.apply(trial, player, move, stream), (seed, move)
            checked += 1
    assert trial == state, f"game {seed}: apply changed the state"
    return checked


def play_checking(rules: Rules[Any, Any], players: int, options: dict[str, Any], seed: int) -> int:
    """One seeded random game, every state checked; the moves checked."""
    state = rules.setup(players, rules.normalise_options(options))
    stream = RandomStream(f"listed-{seed}", state.random_position)
    for event in rules.begin(state, stream):
        state = rules.evolve(state, event)
    bot = random.Random(seed)
    checked = 0
    for _ in range(PLANS.get(rules.name, DEFAULT_PLAN).max_moves):
        acting = rules.current_players(state)
        if not acting:
            assert rules.outcome(state) is not None
            return checked
        checked += check_every_listed_move(rules, state, seed)
        player = bot.choice(acting)
        move = choose_move(rules, state, player, bot)
        stream = RandomStream(f"listed-{seed}", state.random_position)
        for event in rules.apply(state, player, move, stream):
            state = rules.evolve(state, event)
    raise AssertionError(f"game {seed} did not end")


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(games()))
def test_every_listed_move_round_trips_and_is_accepted(name: str) -> None:
    rules = games()[name]
    checked = 0
    for options, counts in cases(name):
        many = LONG_RUNS.get(name, GAMES_PER_CASE) if "expansions" in options else GAMES_PER_CASE
        for players in counts:
            for seed in range(many):
                checked += play_checking(rules, players, options, 100 * players + seed)
    assert checked > 0
