"""Speed of the Azul rules engine alone: full seeded random games, legal moves listed
every turn (targets: <= 2 ms per 2-player game, <= 5 ms per 4-player game).

Each game: ``setup`` + ``begin``, then until nobody may act: ``current_players``,
``legal_moves`` of the acting player, a move picked by a local ``random.Random(seed)``,
``apply`` with the game's own :class:`RandomStream` (continued from the state's
``random_position``, as the application does) and ``evolve`` of every event.

Because machines differ, a fixed pure-Python calibration workload is timed in the same run
and every figure is also given as a ratio to it (lower is better).

    .venv/bin/python bench/azul_engine.py [--games 300] [--repeat 3] [--gray]
"""

from __future__ import annotations

import argparse
import random
import time

from calibration import calibration  # bench/calibration.py, the shared baseline

from domain.azul import AZUL
from domain.randomness import RandomStream


def play(players: int, seed: int, options: dict[str, str]) -> int:
    """One random game; returns the number of moves made."""
    rules = AZUL
    state = rules.setup(players, options)
    secret = f"bench-{seed}"
    for event in rules.begin(state, RandomStream(secret, 0)):
        state = rules.evolve(state, event)
    bot = random.Random(seed)
    moves = 0
    while acting := rules.current_players(state):
        player = acting[0] if len(acting) == 1 else bot.choice(acting)
        move = bot.choice(rules.legal_moves(state, player))
        stream = RandomStream(secret, state.random_position)
        for event in rules.apply(state, player, move, stream):
            state = rules.evolve(state, event)
        moves += 1
    return moves


def main() -> None:
    """Run the benchmark and print ms per game and the ratio to the calibration."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games per player count")
    parser.add_argument("--repeat", type=int, default=3, help="runs; the best one counts")
    parser.add_argument("--gray", action="store_true", help="also time the gray-wall variant")
    args = parser.parse_args()

    variants = [("colored", {"wall": "colored"})]
    if args.gray:
        variants.append(("gray", {"wall": "gray"}))
    print(f"{args.games} seeded random games per line, best of {args.repeat} runs;")
    print("calibration = a fixed pure-Python loop timed in the same runs (ratio = game / it)")
    for label, options in variants:
        for players in (2, 3, 4):
            best_game = best_calib = float("inf")
            moves = 0
            for _ in range(args.repeat):
                started = time.perf_counter()
                calibration()
                best_calib = min(best_calib, time.perf_counter() - started)
                started = time.perf_counter()
                moves = sum(play(players, seed, options) for seed in range(args.games))
                best_game = min(best_game, (time.perf_counter() - started) / args.games)
            print(
                f"{label:>7} {players} players: {best_game * 1000:6.3f} ms/game "
                f"({moves / args.games:5.1f} moves/game)   calibration "
                f"{best_calib * 1000:6.2f} ms   ratio {best_game / best_calib:6.4f}"
            )


if __name__ == "__main__":
    main()
