"""Every event, move, view and option set of random play follows its JSON Schema
(docs/architecture.md, "Typed events, moves and views"), for every registered game.

The schemas are the ones clients read: generated from each game's one typed definition
(:mod:`application.contract`), closed, and checked here with an independent validator
(``jsonschema_rs``). Moves also round-trip through their JSON form and their notation, and
deciding a move never changes the state it was given (the shared ``Turn`` reads it).
"""

from __future__ import annotations

import random
from typing import Any

import jsonschema_rs
import pytest

from application.contract import GameContract, game_contract
from domain.bots import choose_move
from domain.protocol import Event, GameError, Rules, Viewer
from domain.randomness import RandomStream
from domain.registry import games
from tests.conformance.test_random_play import DEFAULT_PLAN, PLANS

GAMES_PER_CASE = 1
MOVES_CHECKED_PER_TURN = 6


class Validators:
    """One compiled validator per schema of a game."""

    def __init__(self, contract: GameContract) -> None:
        self.events = {
            name: jsonschema_rs.validator_for(schema) for name, schema in contract.events.items()
        }
        self.move = jsonschema_rs.validator_for(contract.move)
        self.view = jsonschema_rs.validator_for(contract.view)
        self.options = jsonschema_rs.validator_for(contract.options)


def _valid(validator: Any, instance: Any, what: str) -> None:
    errors = [
        f"{error.instance_path}: {error.message}" for error in validator.iter_errors(instance)
    ]
    assert not errors, f"{what} breaks its schema: {errors[:3]} in {instance!r:.600}"


def _viewers(players: int) -> list[Viewer]:
    return [Viewer(seat) for seat in range(players)] + [Viewer.spectator(), Viewer(arbiter=True)]


def _check_event(rules: Rules[Any, Any], checks: Validators, event: Event, players: int) -> None:
    validator = checks.events[event.type]
    _valid(validator, event.data, event.type)
    for viewer in _viewers(players):
        _valid(validator, rules.event_view(event, viewer), f"{event.type} seen by {viewer}")


def _check_moves(rules: Rules[Any, Any], checks: Validators, legal: list[Any], bot: Any) -> None:
    sample = (
        legal
        if len(legal) <= MOVES_CHECKED_PER_TURN
        else bot.sample(legal, k=MOVES_CHECKED_PER_TURN)
    )
    for move in sample:
        data = rules.move_to_json(move)
        _valid(checks.move, data, f"move {move!r}")
        assert rules.parse_move(data) == move, f"{move!r} does not round-trip through JSON"
        text = rules.notation(move)
        assert rules.parse_notation(text) == move, f"{move!r} does not round-trip as {text!r}"


def play_checked(
    rules: Rules[Any, Any], checks: Validators, players: int, options: dict[str, Any], seed: int
) -> int:
    """Play one seeded random game, validating everything it shows; the number of events."""
    fixed = rules.normalise_options(options)
    _valid(checks.options, fixed, f"options {options}")
    state = rules.setup(players, fixed)
    stream = RandomStream(f"typed-{seed}", state.random_position)
    log: list[Event] = list(rules.begin(state, stream))
    for event in log:
        _check_event(rules, checks, event, players)
        state = rules.evolve(state, event)
    bot = random.Random(seed)
    plan = PLANS.get(rules.name, DEFAULT_PLAN)
    for _ in range(plan.max_moves):
        acting = rules.current_players(state)
        for viewer in _viewers(players):
            _valid(checks.view, rules.view(state, viewer), f"view for {viewer}")
        if not acting:
            return len(log)
        player = bot.choice(acting)
        _check_moves(rules, checks, rules.legal_moves(state, player), bot)
        move = choose_move(rules, state, player, bot)
        _check_moves(rules, checks, [move], bot)
        stream = RandomStream(f"typed-{seed}", state.random_position)
        before = rules.state_to_json(state)
        decided = rules.apply(state, player, move, stream)
        assert rules.state_to_json(state) == before, f"deciding {move!r} changed the state"
        for event in decided:
            log.append(event)
            _check_event(rules, checks, event, players)
            state = rules.evolve(state, event)
    raise AssertionError(f"game {seed} did not end")


def _cases(rules: Rules[Any, Any]) -> list[tuple[int, dict[str, Any]]]:
    plan = PLANS.get(rules.name, DEFAULT_PLAN)
    cases = [
        (players, options)
        for options in plan.options
        for players in range(rules.min_players, rules.max_players + 1)
    ]
    cases += [(players, extra.options) for extra in plan.extra for players in extra.players]
    return cases


@pytest.mark.parametrize("name", sorted(games()))
def test_random_play_follows_the_schemas(name: str) -> None:
    rules = games()[name]
    checks = Validators(game_contract(rules))
    assert set(checks.events) == set(rules.event_types)
    for players, options in _cases(rules):
        for seed in range(GAMES_PER_CASE):
            assert play_checked(rules, checks, players, options, seed) > 0


@pytest.mark.parametrize("name", sorted(games()))
def test_the_catalogue_names_each_event_by_its_typed_definition(name: str) -> None:
    rules = games()[name]
    catalogue = rules.events
    assert catalogue.types == rules.event_types
    for type_name in catalogue.types:
        assert catalogue.shape(type_name).__name__ == type_name
    state = rules.setup(rules.min_players, rules.normalise_options({}))
    with pytest.raises(GameError) as refused:
        rules.evolve(state, Event("NoSuchThingHappened", {}))
    assert refused.value.code == "unknown-event"


@pytest.mark.parametrize("name", sorted(games()))
def test_schemas_are_closed(name: str) -> None:
    """A field no definition declares fails validation: a view, a move, each event."""
    rules = games()[name]
    contract = game_contract(rules)
    state = rules.setup(rules.min_players, rules.normalise_options({}))
    begun = rules.begin(state, RandomStream("closed", state.random_position))
    for event in begun:
        state = rules.evolve(state, event)
        schema = jsonschema_rs.validator_for(contract.events[event.type])
        assert schema.is_valid(event.data)
        assert not schema.is_valid({**event.data, "undeclared": 1})
    view = rules.view(state, Viewer.spectator())
    assert jsonschema_rs.validator_for(contract.view).is_valid(view)
    assert not jsonschema_rs.validator_for(contract.view).is_valid({**view, "undeclared": 1})
    player = rules.current_players(state)[0]
    move = rules.move_to_json(rules.legal_moves(state, player)[0])
    assert jsonschema_rs.validator_for(contract.move).is_valid(move)
    assert not jsonschema_rs.validator_for(contract.move).is_valid({**move, "undeclared": 1})
