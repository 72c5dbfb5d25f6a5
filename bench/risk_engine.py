"""Speed of the Risk rules engine alone: full seeded games played by the Risk bot (random
legal moves, an equal settlement from round 4), every legal-move list built each turn, and a
look at where the time goes: the share spent in the dice (SHA-256 draws) and in copying the
state for each move (a move's events are decided on a private copy).

Each game: ``setup`` + ``begin``, then until nobody may act: ``current_players``,
``legal_moves`` of the acting player, the bot's move (``domain.bots.choose_move``), ``apply``
with the game's own :class:`RandomStream` and ``evolve`` of every event.

Figures are also given as ratios to the fixed calibration workload timed in the same run
(bench/calibration.py), because machines differ.

    .venv/bin/python bench/risk_engine.py [--games 100] [--repeat 3] [--players 3 6]
"""

from __future__ import annotations

import argparse
import random
import time

from calibration import calibration  # bench/calibration.py, the shared baseline

from domain.bots import choose_move
from domain.randomness import RandomStream
from domain.risk import RISK


def play(players: int, seed: int) -> tuple[int, int, int]:
    """One game; the moves made, the legal moves listed and the events recorded."""
    rules = RISK
    state = rules.setup(players, {})
    secret = f"bench-{seed}"
    for event in rules.begin(state, RandomStream(secret, 0)):
        state = rules.evolve(state, event)
    bot = random.Random(seed)
    moves = listed = events = 0
    while acting := rules.current_players(state):
        player = bot.choice(acting)
        listed += len(rules.legal_moves(state, player))
        move = choose_move(rules, state, player, bot)
        for event in rules.apply(state, player, move, RandomStream(secret, state.random_position)):
            state = rules.evolve(state, event)
            events += 1
        moves += 1
    assert rules.outcome(state) is not None
    return moves, listed, events


def main() -> None:
    """Run the benchmark and print ms per game, per move, and the ratio to the calibration."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per line")
    parser.add_argument("--repeat", type=int, default=3, help="runs; the best one counts")
    parser.add_argument("--players", type=int, nargs="*", default=[3, 6], help="player counts")
    args = parser.parse_args()
    print(f"{args.games} seeded bot games per line, best of {args.repeat} runs;")
    print("calibration = a fixed pure-Python loop timed in the same runs (ratio = game / it)")
    for players in args.players:
        best_game = best_calib = float("inf")
        moves = listed = events = 0
        for _ in range(args.repeat):
            started = time.perf_counter()
            calibration()
            best_calib = min(best_calib, time.perf_counter() - started)
            started = time.perf_counter()
            moves = listed = events = 0
            for seed in range(args.games):
                made, seen, recorded = play(players, seed)
                moves, listed, events = moves + made, listed + seen, events + recorded
            best_game = min(best_game, (time.perf_counter() - started) / args.games)
        per_move = best_game / (moves / args.games)
        print(
            f"{players} players: {best_game * 1000:7.2f} ms/game, {per_move * 1e6:6.1f} us/move "
            f"({moves / args.games:5.1f} moves, {events / args.games:5.1f} events, "
            f"{listed / moves:5.1f} legal moves listed per move)   "
            f"calibration {best_calib * 1000:6.2f} ms   ratio {best_game / best_calib:6.3f}"
        )


if __name__ == "__main__":
    main()
