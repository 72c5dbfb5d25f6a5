"""What the application layer costs over the rules engine, on every store, in one run
(issue 12, parts 5 and 10).

The same seeded random Azul games (4 players by default) are played:

* in the **engine** alone (the baseline): ``setup``, ``begin``, then every turn the seats to
  act, the legal moves listed, one drawn, ``apply`` and ``evolve``;
* through the **use cases** (``GameLedger``, no read models), as a client plays: the game
  created with the same secret seed, its seats joined, then every turn ``whose_turn``,
  ``legal_moves`` for the seat, one drawn, ``play`` with the version seen — on the in-memory
  store, a SQLite file and PostgreSQL (a database made for the run and dropped after it).

Beside them, what one durable commit of a 500-byte row costs on each store, measured in the
same run (an INSERT and its COMMIT on a connection of its own; SQLite in WAL mode with the
event store's ``synchronous=FULL``, PostgreSQL with the server's ``synchronous_commit``): a
floor under a move's cost on that store, since a move is saved in one such transaction.

The bot draws from the same ``random.Random`` in the same order on both sides, so both play
the same games move for move (checked: the move counts must agree). Rounds alternate engine,
memory, SQLite, PostgreSQL; each round plays fresh games (new ids, the same seeds). Reported:
ms per game and per move (best round, and the median), and application / engine per store
(best over best).

    .venv/bin/python bench/app_vs_engine.py [--games 20] [--rounds 3] [--players 4]
        [--stores memory,sqlite,postgres]
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pgdb import connect, exit_on_sigterm, service_settings, temporary_database

from application.service import GameLedger
from domain.randomness import RandomStream
from domain.registry import rules_for
from infrastructure.config import Settings
from infrastructure.container import build_services

GAME = "azul"


def seed_of(index: int) -> str:
    """The secret seed of game ``index`` (the same on every side)."""
    return f"app-vs-engine-{index}"


def engine_game(players: int, index: int) -> int:
    """One game in the engine alone; the number of moves."""
    rules = rules_for(GAME)
    seed = seed_of(index)
    state = rules.setup(players, rules.normalise_options({}))
    for event in rules.begin(state, RandomStream(seed, state.random_position)):
        state = rules.evolve(state, event)
    bot = random.Random(index)
    moves = 0
    while acting := rules.current_players(state):
        player = bot.choice(acting)
        move = bot.choice(rules.legal_moves(state, player))
        for event in rules.apply(state, player, move, RandomStream(seed, state.random_position)):
            state = rules.evolve(state, event)
        moves += 1
    return moves


def application_game(app: GameLedger, players: int, index: int) -> int:
    """One game through the use cases, as a client plays it; the number of moves."""
    game_id = app.create_game(GAME, players, seed=seed_of(index))
    tokens = [app.join(game_id, f"p{n}", n).token for n in range(players)]
    bot = random.Random(index)
    moves = 0
    while True:
        version, seats = app.whose_turn(game_id)
        if not seats:
            return moves
        seat = bot.choice(seats)
        move = bot.choice(app.legal_moves(game_id, tokens[seat])["moves"])["move"]
        app.play(game_id, tokens[seat], move, version)
        moves += 1


def timed_round(
    side: str, apps: dict[str, GameLedger], games: int, players: int, engine_repeat: int
) -> tuple[float, int]:
    """Seconds per set of ``games`` games on one side (``engine`` or a store), and the moves
    of the set. The engine, far faster, plays the set ``engine_repeat`` times (the time is
    divided back) so that its round is not too short to time."""
    started = time.perf_counter()
    if side == "engine":
        moves = 0
        for _ in range(engine_repeat):
            moves = sum(engine_game(players, n) for n in range(games))
        return (time.perf_counter() - started) / engine_repeat, moves
    moves = sum(application_game(apps[side], players, n) for n in range(games))
    return time.perf_counter() - started, moves


COMMITS = 300


def commit_cost(store: str, where: Any) -> float:
    """Seconds per durable commit of one 500-byte row on ``store`` (``where``: the SQLite
    folder or the PostgreSQL database of the run)."""
    row = b"x" * 500
    if store == "sqlite":
        conn = sqlite3.connect(str(Path(where) / "commit.db"), isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("CREATE TABLE IF NOT EXISTS commits (id INTEGER PRIMARY KEY, v BLOB)")
        started = time.perf_counter()
        for _ in range(COMMITS):
            conn.execute("BEGIN")
            conn.execute("INSERT INTO commits (v) VALUES (?)", (row,))
            conn.execute("COMMIT")
        spent = time.perf_counter() - started
        conn.close()
        return spent / COMMITS
    with connect(where) as pg:
        pg.execute("CREATE TABLE IF NOT EXISTS commits (id bigserial PRIMARY KEY, v bytea)")
        started = time.perf_counter()
        for _ in range(COMMITS):
            with pg.transaction():
                pg.execute("INSERT INTO commits (v) VALUES (%s)", (row,))
        return (time.perf_counter() - started) / COMMITS


def open_apps(stores: list[str], stack: ExitStack, places: dict[str, Any]) -> dict[str, GameLedger]:
    """A ``GameLedger`` (write side only) on each store, closed with ``stack``."""
    apps: dict[str, GameLedger] = {}
    for store in stores:
        if store == "memory":
            settings = Settings(store="memory", embedded_projections=False)
        elif store == "sqlite":
            scratch = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            places[store] = scratch
            settings = Settings(
                store="sqlite", sqlite_path=scratch / "bench.db", embedded_projections=False
            )
        else:
            places[store] = stack.enter_context(temporary_database("bench_app"))
            settings = service_settings(places[store])
        services = build_services(settings)
        stack.callback(services.close)
        apps[store] = services.app
    return apps


def main() -> None:
    """Alternate the sides for several rounds; print the table and a JSON line."""
    exit_on_sigterm()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per side per round")
    parser.add_argument(
        "--engine-repeat", type=int, default=10, help="engine plays the set N times"
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--stores", default="memory,sqlite,postgres", help="comma-separated")
    args = parser.parse_args()
    stores = [s for s in args.stores.split(",") if s]
    sides = ["engine", *stores]
    seconds: dict[str, list[float]] = {side: [] for side in sides}
    moves: dict[str, int] = {}
    began = time.perf_counter()
    commits: dict[str, list[float]] = {}
    with ExitStack() as stack:
        places: dict[str, Any] = {}
        apps = open_apps(stores, stack, places)
        for side in stores:  # warm: tables made, code paths imported
            application_game(apps[side], args.players, 10_000)
        for round_number in range(args.rounds):
            for side in sides:
                spent, count = timed_round(side, apps, args.games, args.players, args.engine_repeat)
                seconds[side].append(spent)
                moves[side] = count
            for store, where in places.items():
                commits.setdefault(store, []).append(commit_cost(store, where))
            print(f"round {round_number + 1} of {args.rounds} done", file=sys.stderr)
    if len(set(moves.values())) != 1:
        raise SystemExit(f"the sides did not play the same games: moves {moves}")
    total_moves = moves["engine"]
    engine_best = min(seconds["engine"])
    when = datetime.now(UTC).isoformat(timespec="seconds")
    print(
        f"{args.games} seeded random {args.players}-player Azul games per side per round "
        f"({total_moves / args.games:.1f} moves per game), {args.rounds} alternating rounds, "
        f"{when}"
    )
    print()
    print("| side | ms per game (best) | median | µs per move (best) | application / engine |")
    print("|---|---|---|---|---|")
    summary: dict[str, Any] = {}
    for side in sides:
        best, median = min(seconds[side]), statistics.median(seconds[side])
        ratio = best / engine_best
        title = "engine alone" if side == "engine" else f"application, {side}"
        print(
            f"| {title} | {best / args.games * 1000:.2f} | {median / args.games * 1000:.2f} | "
            f"{best / total_moves * 1e6:,.0f} | **{ratio:.1f}x** |"
        )
        summary[side] = {
            "ms_per_game_best": round(best / args.games * 1000, 3),
            "ms_per_game_median": round(median / args.games * 1000, 3),
            "us_per_move_best": round(best / total_moves * 1e6, 2),
            "ratio_to_engine": round(ratio, 2),
            "rounds_s": [round(s, 4) for s in seconds[side]],
        }
    engine_move = engine_best / total_moves
    for store, measured in commits.items():
        best = min(measured)
        print(
            f"| a durable commit alone, {store} | — | — | {best * 1e6:,.0f} | "
            f"**{best / engine_move:.1f}x** (a floor under a move on {store}) |"
        )
        summary[f"commit_{store}"] = {
            "us_best": round(best * 1e6, 1),
            "ratio_to_engine_move": round(best / engine_move, 2),
        }
    print(
        json.dumps(
            {
                "bench": "app_vs_engine",
                "date": when,
                "command": " ".join(["bench/app_vs_engine.py", *sys.argv[1:]]),
                "games": args.games,
                "players": args.players,
                "rounds": args.rounds,
                "moves_per_game": round(total_moves / args.games, 1),
                "sides": summary,
                "seconds": round(time.perf_counter() - began, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
