"""One random-play conformance run for every registered game (docs/architecture.md, in the spirit of
OpenSpiel): a game joins it by registering, and must keep its conservation laws after every
event, always offer the player to act a legal move, never offer moves to anyone else, and end.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from domain.bots import choose_move
from domain.protocol import Event, Rules
from domain.randomness import RandomStream
from domain.registry import games


@dataclass(frozen=True)
class Extra:
    """More games with options that carry their own player counts (e.g. an expansion
    that allows more players than the base game), and whether scores may end below 0."""

    games: int
    options: dict[str, Any]
    players: range
    negative_scores: bool = False


@dataclass(frozen=True)
class Plan:
    """How hard to exercise a game: how many games, with which options (played at the
    game's player counts), and extra runs with their own player counts."""

    games: int
    options: list[dict[str, Any]] = field(default_factory=lambda: [{}])
    max_moves: int = 5_000
    extra: tuple[Extra, ...] = ()


PLANS: dict[str, Plan] = {
    "azul": Plan(games=1_000, options=[{"wall": "colored"}, {"wall": "gray"}]),
    "carcassonne": Plan(
        games=1_000,
        options=[
            {},
            {"farmers": "per-city", "small-city-points": 2},
            {"farmers": "per-field-once"},
        ],
        extra=(
            # Bridges, Castles & Bazaars at 2-6 players; auctions may leave scores below 0
            Extra(
                160,
                {"expansions": ["bridges-castles-bazaars"], "farmers": "per-city"},
                range(2, 7),
                negative_scores=True,
            ),
            Extra(
                40,
                {"expansions": ["bridges-castles-bazaars"], "bazaar": "no-auction"},
                range(2, 7),
            ),
        ),
    ),
    "risk": Plan(
        games=150,
        options=[{}, {"placement_step": 5, "buy_from_round": 2, "starting_units": 10}],
        max_moves=30_000,  # classic games end only by conquest
        extra=(Extra(60, {"ruleset": "classic"}, range(2, 7)),),
    ),
}
DEFAULT_PLAN = Plan(games=200)


def play_one(
    rules: Rules[Any, Any],
    players: int,
    options: dict[str, Any],
    seed: int,
    *,
    negative_scores: bool = False,
    log: list[Event] | None = None,
) -> int:
    """Play one seeded random game, checking after every event; the number of moves. Every
    event is appended to ``log`` when one is given."""
    log = [] if log is None else log
    state = rules.setup(players, rules.normalise_options(options))
    stream = RandomStream(f"conformance-{seed}", state.random_position)
    for event in rules.begin(state, stream):
        log.append(event)
        state = rules.evolve(state, event)
        assert rules.check_invariants(state) == [], (seed, event)
    bot = random.Random(seed)
    for moves in range(PLANS.get(rules.name, DEFAULT_PLAN).max_moves):
        acting = rules.current_players(state)
        if not acting:
            assert rules.outcome(state) is not None, f"game {seed} stopped without an outcome"
            if not negative_scores:
                assert min(rules.outcome(state).scores) >= 0  # type: ignore[union-attr]
            return moves
        for idle in set(range(players)) - set(acting):
            assert rules.legal_moves(state, idle) == [], f"seat {idle} may move out of turn"
        player = bot.choice(acting)
        legal = rules.legal_moves(state, player)
        assert legal, f"game {seed}: seat {player} must act but has no legal move"
        stream = RandomStream(f"conformance-{seed}", state.random_position)
        move = choose_move(rules, state, player, bot)
        assert move in legal, f"game {seed}: the bot chose {move!r}, not a legal move"
        for event in rules.apply(state, player, move, stream):
            log.append(event)
            state = rules.evolve(state, event)
            problems = rules.check_invariants(state)
            assert problems == [], (seed, event.type, problems)
    raise AssertionError(f"game {seed} did not end")


@pytest.mark.parametrize("name", sorted(games()))
def test_random_play(name: str) -> None:
    rules = games()[name]
    plan = PLANS.get(name, DEFAULT_PLAN)
    counts = range(rules.min_players, rules.max_players + 1)
    ended = 0
    for seed in range(plan.games):
        players = counts[seed % len(counts)]
        options = plan.options[(seed // len(counts)) % len(plan.options)]
        assert play_one(rules, players, options, seed) > 0
        ended += 1
    assert ended == plan.games
    for extra in plan.extra:
        for seed in range(extra.games):
            players = extra.players[seed % len(extra.players)]
            moves = play_one(
                rules, players, extra.options, seed, negative_scores=extra.negative_scores
            )
            assert moves > 0


@pytest.mark.parametrize("name", sorted(games()))
def test_replay_reproduces_every_game_without_randomness(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Replaying a finished game's events with ``evolve`` alone — the random stream patched
    to refuse — gives exactly the state that playing it gave, for every option set."""
    rules = games()[name]
    plan = PLANS.get(name, DEFAULT_PLAN)
    cases = [(options, range(rules.min_players, rules.max_players + 1)) for options in plan.options]
    cases += [(extra.options, extra.players) for extra in plan.extra]
    games_played: list[tuple[int, dict[str, Any], list[Event], Any]] = []
    for options, counts in cases:
        for players in counts:
            log: list[Event] = []
            play_one(rules, players, options, players, negative_scores=True, log=log)
            games_played.append((players, options, log, _final(rules, players, options, log)))

    def refuse(self: RandomStream) -> int:
        raise AssertionError("evolve drew a random number")

    monkeypatch.setattr(RandomStream, "number", refuse)
    for players, options, log, live in games_played:
        replayed = _final(rules, players, options, log)
        assert replayed == live
        assert replayed.random_position == live.random_position > 0
        assert rules.outcome(replayed) == rules.outcome(live) is not None


def _final(rules: Rules[Any, Any], players: int, options: dict[str, Any], log: list[Event]) -> Any:
    state = rules.setup(players, rules.normalise_options(options))
    for event in log:
        state = rules.evolve(state, event)
    return state
