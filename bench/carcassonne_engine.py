"""Speed of the Carcassonne rules engine alone: full seeded random games with all 72 tiles,
every legal placement with its follower spots listed every turn (aim: <= 10 ms per
4-player game on one core).

Each game: ``setup`` + ``begin``, then until nobody may act: ``current_players``,
``legal_moves`` of the acting player, a move picked by a local ``random.Random(seed)``,
``apply`` with the game's own :class:`RandomStream` (continued from the state's
``random_position``, as the application does) and ``evolve`` of every event.

Because machines differ, a fixed pure-Python calibration workload is timed in the same run
and every figure is also given as a ratio to it (lower is better). ``--cold`` empties the
engine's memo of move tuples before every game (the figure a process that plays one game
would see); by default it stays warm, as in a server that plays many games. ``--expansion``
plays with Bridges, Castles & Bazaars (84 tiles; auction moves drawn uniformly too).

    .venv/bin/python bench/carcassonne_engine.py [--games 200] [--repeat 3] [--players 4]
        [--expansion]
"""

from __future__ import annotations

import argparse
import random
import time

from calibration import calibration  # bench/calibration.py, the shared baseline

from domain.carcassonne import CARCASSONNE
from domain.carcassonne.moves import clear_memo
from domain.randomness import RandomStream


def play(players: int, seed: int, options: dict[str, object]) -> tuple[int, int]:
    """One random game; returns the number of moves made and of legal moves listed."""
    rules = CARCASSONNE
    state = rules.setup(players, options)
    secret = f"bench-{seed}"
    for event in rules.begin(state, RandomStream(secret, 0)):
        state = rules.evolve(state, event)
    bot = random.Random(seed)
    moves = listed = 0
    while acting := rules.current_players(state):
        player = acting[0] if len(acting) == 1 else bot.choice(acting)
        legal = rules.legal_moves(state, player)
        listed += len(legal)
        move = bot.choice(legal)
        stream = RandomStream(secret, state.random_position)
        for event in rules.apply(state, player, move, stream):
            state = rules.evolve(state, event)
        moves += 1
    assert rules.outcome(state) is not None
    return moves, listed


def run(players: int, games: int, cold: bool, options: dict[str, object]) -> tuple[float, int, int]:
    """Seconds per game over ``games`` seeded games, with the move and listed totals."""
    moves = listed = 0
    started = time.perf_counter()
    for seed in range(games):
        if cold:
            clear_memo()  # every memo of ready-made moves, as a fresh process has them
        made, seen = play(players, seed, options)
        moves += made
        listed += seen
    return (time.perf_counter() - started) / games, moves, listed


def main() -> None:
    """Run the benchmark and print ms per game and the ratio to the calibration."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per line")
    parser.add_argument("--repeat", type=int, default=3, help="runs; the best one counts")
    parser.add_argument("--players", type=int, nargs="*", default=[4], help="player counts")
    parser.add_argument("--cold", action="store_true", help="empty the move memo per game")
    parser.add_argument("--farmers", default="per-field", help="the farmers option")
    parser.add_argument("--expansion", action="store_true", help="Bridges, Castles & Bazaars")
    args = parser.parse_args()

    options: dict[str, object] = {"farmers": args.farmers}
    if args.expansion:
        options["expansions"] = ["bridges-castles-bazaars"]
    memo = "cold" if args.cold else "warm"
    print(f"{args.games} seeded random games per line, best of {args.repeat} runs, {memo} memo;")
    print("calibration = a fixed pure-Python loop timed in the same runs (ratio = game / it)")
    for players in args.players:
        best_game = best_calib = float("inf")
        moves = listed = 0
        for _ in range(args.repeat):
            started = time.perf_counter()
            calibration()
            best_calib = min(best_calib, time.perf_counter() - started)
            seconds, moves, listed = run(players, args.games, args.cold, options)
            best_game = min(best_game, seconds)
        print(
            f"{players} players: {best_game * 1000:6.3f} ms/game "
            f"({moves / args.games:4.1f} turns, {listed / moves:5.1f} legal moves per turn)   "
            f"calibration {best_calib * 1000:6.2f} ms   ratio {best_game / best_calib:6.4f}"
        )


if __name__ == "__main__":
    main()
