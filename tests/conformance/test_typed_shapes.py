"""Every event, move, view and option set of random play follows its JSON Schema
(docs/architecture.md, "Typed events, moves and views"), for every registered game, and so does
every ledger event (``Created``, ``SeatJoined``, ``MoveMade``, the undo protocol's) as the
event log presents it to each viewer (docs/api.md, "The schemas of a game's data").

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

from application.contract import GameContract, game_contract, ledger_event_schemas
from application.presenters import present_event
from domain.bots import choose_move
from domain.game import Game
from domain.lobby import ranked, resigned_outcome
from domain.protocol import Event, GameError, Rules, Viewer
from domain.randomness import RandomStream, commitment
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
        self.outcome_details = jsonschema_rs.validator_for(contract.outcome_details)


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
            outcome = rules.outcome(state)
            assert outcome is not None
            _valid(checks.outcome_details, outcome.details, "outcome details")
            # the same game with seat 0 resigned along the way (docs/api.md, "Lobby"), and
            # a game ended by resignation: both are among the game's outcome details
            seat_0_resigned = ranked(outcome, players, [0]).details
            _valid(checks.outcome_details, seat_0_resigned, "outcome details, a seat resigned")
            by_resignation = resigned_outcome(outcome.scores, players, list(range(players - 1)))
            _valid(checks.outcome_details, by_resignation.details, "outcome by resignation")
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


LEDGER_MOVES = 40
"""Moves of the ledger run: enough for every undo the run asks for, early in the game."""


class Ledger:
    """A game played through the ledger's aggregate, every event it records presented by the
    event log to each seat, a spectator and the arbiter and checked against its schema."""

    def __init__(self, rules: Rules[Any, Any], checks: Validators) -> None:
        self.rules = rules
        self.checks = checks
        self.ledger = {
            name: jsonschema_rs.validator_for(schema)
            for name, schema in ledger_event_schemas().items()
        }
        self.seen: set[str] = set()
        self.undone_by: set[str] = set()
        seed = f"ledger-{rules.name}"
        self.game = Game.create(
            game=rules.name,
            players=rules.min_players,
            options=rules.normalise_options({}),
            settings={"undo": "free", "tournament": False},
            seed=seed,
            seed_sha256=commitment(seed),
            arbiter_sha256="arbiter-digest",
        )
        self.check()

    def check(self) -> None:
        """Present every event recorded since the last check to every viewer; validate it."""
        game = self.game
        for stored in game.collect_events():
            for viewer in _viewers(game.players):
                shown = present_event(game.rules, game.finished, stored, viewer)
                kind = shown["type"]
                validator = self.ledger.get(kind) or self.checks.events[kind]
                _valid(validator, shown["data"], f"{kind} in the log seen by {viewer}")
                self.seen.add(kind)
                if kind == "TurnsUndone":
                    self.undone_by.add(shown["data"]["by"])

    def move(self, bot: random.Random) -> bool:
        """One random move by a seat to act; False once nobody may act."""
        game = self.game
        acting = self.rules.current_players(game.state)
        if not acting:
            return False
        seat = bot.choice(acting)
        game.play(seat, self.rules.move_to_json(choose_move(self.rules, game.state, seat, bot)))
        self.check()
        return True

    def undo(self, *, accept: bool) -> None:
        """The seat of the last turn takes it back (at once: ``undo: free``); then a seat asks
        to take back turns of other seats too, and those asked answer (``accept``)."""
        game = self.game
        game.request_undo(game.line.turns[-1][1])
        self.check()
        for count in range(2, len(game.line.turns) + 1):
            seat = game.line.turns[-count][1]
            if any(other != seat for _, other in game.line.turns[-count:]):
                game.request_undo(seat, count)
                break
        self.check()
        for seat in list(game.undo_request["waiting"]) if game.undo_request else []:
            if game.undo_request is not None:
                game.answer_undo(seat, accept)
        self.check()


@pytest.mark.parametrize("name", sorted(games()))
def test_the_ledger_events_follow_their_schemas(name: str) -> None:
    """A game through the aggregate, with every kind of undo: each ledger event as the event
    log presents it to each viewer (secrets left out, hidden cards hidden) follows its schema,
    and so does each of the game's own events there."""
    rules = games()[name]
    run = Ledger(rules, Validators(game_contract(rules)))
    for index in range(rules.min_players):
        run.game.join(index, f"seat {index}", f"token-digest-{index}")
        run.check()
    bot = random.Random(11)
    for moves in range(PLANS.get(name, DEFAULT_PLAN).max_moves):
        if moves in (LEDGER_MOVES // 2, LEDGER_MOVES):
            run.undo(accept=moves == LEDGER_MOVES)
        if moves == LEDGER_MOVES + 1:
            run.game.arbiter_undo(len(run.game.line.turns) - 1, "a misplayed move")
            run.check()
        if not run.move(bot):
            break
    assert run.rules.outcome(run.game.state) is not None
    lobby = {"SeatLeft", "SeatResigned", "GameAborted", "GameExpired", "RematchCreated"}
    lobby.add("SeatFlagged")  # the clocks': test_clock_shapes.py
    assert set(ledger_event_schemas()) - lobby <= run.seen  # the lobby's: test_lobby_shapes.py
    assert run.undone_by == {"player", "consent", "arbiter"}
