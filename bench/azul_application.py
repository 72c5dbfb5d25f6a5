"""Full random Azul games through the application layer (issue 2, part 11).

Plays the same seeded games three ways in one run — in the rules engine alone (the baseline),
through the use cases on the in-memory store, and on a SQLite file — and reports ms per game
and the ratio of each to the engine. Every move goes the way a client's does: whose turn,
the legal moves listed, the move submitted with the version seen.

    .venv/bin/python bench/azul_application.py [--games 20] [--players 4]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from application.simulation import simulate
from domain.randomness import RandomStream
from domain.registry import rules_for
from infrastructure.config import Settings
from infrastructure.container import build_services


def engine_game(players: int, seed: int) -> None:
    """One random game in the rules engine alone, legal moves listed every turn."""
    rules = rules_for("azul")
    state = rules.setup(players, rules.normalise_options({}))
    for event in rules.begin(state, RandomStream(f"bench-{seed}", 0)):
        state = rules.evolve(state, event)
    bot = random.Random(seed)
    while acting := rules.current_players(state):
        player = bot.choice(acting)
        move = bot.choice(rules.legal_moves(state, player))
        stream = RandomStream(f"bench-{seed}", state.random_position)
        for event in rules.apply(state, player, move, stream):
            state = rules.evolve(state, event)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()

    started = time.perf_counter()
    for seed in range(args.games):
        engine_game(args.players, seed)
    engine = (time.perf_counter() - started) / args.games

    figures = {"engine alone": engine}
    with tempfile.TemporaryDirectory() as tmp:
        for store in ("memory", "sqlite"):
            settings = Settings(
                store=store, sqlite_path=Path(tmp) / "bench.db", embedded_projections=False
            )
            services = build_services(settings)
            report = simulate(services.app, "azul", games=args.games, players=args.players, seed=1)
            services.close()
            assert report["finished"] == args.games
            figures[f"application, {store}"] = report["seconds"] / args.games

    print(f"{args.games} random {args.players}-player Azul games")
    for name, seconds in figures.items():
        print(f"  {name:<22} {seconds * 1000:8.2f} ms/game   {seconds / engine:7.1f}x engine")


if __name__ == "__main__":
    main()
