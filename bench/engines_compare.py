"""The rules engines of two revisions, in one run: is the working tree slower than a base?

A temporary git worktree of the base revision is made, and the same driver — written against
the game protocol only (``setup``, ``begin``, ``current_players``, ``legal_moves``, the game's
bot, ``apply``, ``evolve``), which both revisions share — plays the same seeded random full
games in each checkout, in separate processes, alternating base and head for several rounds so
that both see the same machine. Each case counts its best round. Reported: ms per game in each
revision and the ratio head / base (lower is better), with the calibration workload of
``bench/calibration.py`` timed in every process as a check that the rounds were comparable.

    .venv/bin/python bench/engines_compare.py [--base da2bfe8] [--rounds 3] [--scale 1.0]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

CASES: list[tuple[str, str, int, dict[str, Any], int]] = [
    # (label, game, players, options, games per round)
    ("Azul 2p", "azul", 2, {}, 120),
    ("Azul 4p", "azul", 4, {}, 60),
    ("Azul 4p gray", "azul", 4, {"wall": "gray"}, 60),
    ("Carcassonne 2p", "carcassonne", 2, {}, 30),
    ("Carcassonne 4p", "carcassonne", 4, {}, 30),
    ("Carcassonne+BCB 4p", "carcassonne", 4, {"expansions": ["bridges-castles-bazaars"]}, 12),
    ("Risk Constitution 4p", "risk", 4, {}, 6),
    ("Risk classic 4p", "risk", 4, {"ruleset": "classic"}, 4),
]

ROOT = Path(__file__).resolve().parent.parent


def play(rules: Any, tools: tuple[Any, Any], players: int, options: Any, seed: int) -> int:
    """One seeded random game through the protocol; the number of moves. ``tools`` are the
    checkout's own ``choose_move`` and ``RandomStream``."""
    choose_move, stream_class = tools
    state = rules.setup(players, rules.normalise_options(options))
    secret = f"compare-{seed}"
    for event in rules.begin(state, stream_class(secret, state.random_position)):
        state = rules.evolve(state, event)
    bot = random.Random(seed)
    moves = 0
    while acting := rules.current_players(state):
        player = bot.choice(acting)
        rules.legal_moves(state, player)
        move = choose_move(rules, state, player, bot)
        stream = stream_class(secret, state.random_position)
        for event in rules.apply(state, player, move, stream):
            state = rules.evolve(state, event)
        moves += 1
    return moves


def worker(scale: float) -> None:
    """Time every case in this checkout (the current directory) and print JSON."""
    sys.path.insert(0, os.getcwd())
    sys.path.insert(1, str(Path(__file__).resolve().parent))
    from calibration import calibration  # noqa: PLC0415 - the bench folder's own module

    from domain.bots import choose_move  # noqa: PLC0415 - imported from the checkout measured
    from domain.randomness import RandomStream  # noqa: PLC0415
    from domain.registry import games  # noqa: PLC0415

    timings: dict[str, float] = {}
    start = time.perf_counter()
    calibration()
    timings["calibration"] = time.perf_counter() - start
    for label, name, players, options, count in CASES:
        rules = games()[name]
        total = max(1, round(count * scale))
        start = time.perf_counter()
        for seed in range(total):
            play(rules, (choose_move, RandomStream), players, options, seed)
        timings[label] = (time.perf_counter() - start) / total
    print(json.dumps(timings))


def run_in(checkout: Path, scale: float) -> dict[str, float]:
    """One worker process in ``checkout``."""
    result = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", "--scale", str(scale)],
        cwd=checkout,
        env={**os.environ, "PYTHONPATH": str(checkout)},
        capture_output=True,
        text=True,
        check=True,
    )
    timings: dict[str, float] = json.loads(result.stdout.strip().splitlines()[-1])
    return timings


def main() -> None:
    """Make the base worktree, alternate the workers, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="da2bfe8", help="the base revision")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds")
    parser.add_argument("--scale", type=float, default=1.0, help="games per case x this")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.scale)
        return
    with tempfile.TemporaryDirectory(prefix="gameledger-base-") as scratch:
        base = Path(scratch) / "base"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "--quiet", str(base), args.base],
            cwd=ROOT,
            check=True,
        )
        try:
            best: dict[str, dict[str, float]] = {"base": {}, "head": {}}
            for round_number in range(args.rounds):
                for side, checkout in (("base", base), ("head", ROOT)):
                    for label, value in run_in(checkout, args.scale).items():
                        old = best[side].get(label)
                        best[side][label] = value if old is None else min(old, value)
                print(f"round {round_number + 1} of {args.rounds} done", file=sys.stderr)
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=True
            )
    print(f"base {args.base} against the working tree; best of {args.rounds} alternating rounds")
    print(f"{'case':<24}{'base ms':>10}{'head ms':>10}{'head/base':>11}")
    for label in best["base"]:
        before, after = best["base"][label] * 1000, best["head"][label] * 1000
        print(f"{label:<24}{before:>10.2f}{after:>10.2f}{after / before:>11.2f}")


if __name__ == "__main__":
    main()
