"""What a move costs the service in process, against a Flask hello world's POST in the same
run (issue 12, part 5): no socket, no server, no client process — Flask's test client calls
each app directly, so the ratio is the service's own request path (rate limit, arguments,
the command on the cached game, the save and its commit, the answer) against the framework's.

The moves are the recorded Azul 4-player scripts of ``bench/move_scripts.py`` (every request
one legal move with its expected version); the read models' followers are not running (the
moves alone; their cost is the HTTP benchmark's, ``bench/http_compare.py``). Alternating
rounds, medians.

With ``--follow`` the read models' followers run in the process too, as in a worker with the
read models embedded, and the table gives the processor time per move of each thread (the
requests' thread, each follower, the log watcher; psutil's per-thread times, which the
kernel counts in ticks of 10 ms: a few µs per move at most), after each round's followers
have caught up.

With ``--threads N`` the moves come from N threads at once (each with its own games), as a
gunicorn worker's request threads serve them, and the table gives the process's CPU time per
move against one thread's in the same run.

    .venv/bin/python bench/moves_in_process.py [--store sqlite|postgres] [--rounds 5]
        [--follow | --threads 8]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import hello_app
import psutil
from flask import Flask
from gunicorn_servers import NEVER_LIMITED
from move_scripts import PreparedGame, Script, prepare_game, record_scripts
from pgdb import exit_on_sigterm, service_env, temporary_database

from api.app import create_app
from infrastructure.config import Settings
from infrastructure.container import Services, build_services

HEADERS = {"Content-Type": "application/json"}


@contextmanager
def environment(store: str) -> Iterator[dict[str, str]]:
    """The ``GAMELEDGER_*`` variables of a fresh store (a temporary SQLite folder, or a
    temporary PostgreSQL database dropped afterwards)."""
    if store == "postgres":
        with temporary_database("moves") as dbname:
            yield service_env(dbname)
        return
    with tempfile.TemporaryDirectory() as scratch:
        yield {"GAMELEDGER_STORE": "sqlite", "GAMELEDGER_DATA_DIR": scratch}


def play(post: Callable[..., object], games: list[PreparedGame]) -> tuple[float, int]:
    """Every move of ``games``: microseconds per request, and how many."""
    count = 0
    started = time.perf_counter()
    for game in games:
        for step in game.script.steps:
            token = {"Authorization": f"Bearer {game.tokens[step.seat]}"}
            answer: object = post(game.moves_path, data=step.body, headers=HEADERS | token)
            status = getattr(answer, "status_code", 0)
            if status not in (200, 201):
                raise RuntimeError(f"a move was answered {status}")
            count += 1
    return (time.perf_counter() - started) / count * 1e6, count


def thread_seconds() -> dict[str, float]:
    """CPU seconds (user + system) of each of this process's threads so far, by name."""
    names = {thread.native_id: thread.name for thread in threading.enumerate()}
    found: dict[str, float] = {}
    for thread in psutil.Process().threads():
        name = names.get(thread.id, f"thread {thread.id}")
        found[name] = found.get(name, 0.0) + thread.user_time + thread.system_time
    return found


def follow_rounds(store: str, rounds: int, scripts: list[Script]) -> None:
    """Moves with the followers in the process: CPU µs per move of each thread."""
    with environment(store) as env:
        settings = Settings.from_env({**os.environ, **env, **NEVER_LIMITED})
        services = build_services(settings)
        try:
            service = create_app(services, follow=True).test_client()
            spent: dict[str, list[float]] = {}
            for number in range(rounds + 1):  # the first round warms up, not counted
                games = [prepare_game(services.app, script) for script in scripts]
                services.wait(60)
                before = thread_seconds()
                _, count = play(service.post, games)
                services.wait(60)
                after = thread_seconds()
                if number == 0:
                    continue
                for name, seconds in after.items():
                    used = (seconds - before.get(name, 0.0)) / count * 1e6
                    spent.setdefault(name, []).append(used)
        finally:
            services.close()
    medians = {name: statistics.median(values) for name, values in spent.items()}
    print(f"moves in process with the followers, {store}, Azul 4 players, {rounds} rounds")
    print("| thread | CPU µs per move |")
    print("|---|---|")
    for name, used in sorted(medians.items(), key=lambda item: -item[1]):
        if used >= 1:
            print(f"| {name} | {used:,.0f} |")
    print(f"| **all** | **{sum(medians.values()):,.0f}** |")
    print(
        json.dumps({"bench": "moves_in_process", "store": store, "follow": True, "cpu_us": medians})
    )


def run_threads(app: Flask, services: Services, scripts: list[Script], count: int) -> float:
    """Play ``scripts``' games from ``count`` threads at once: process CPU µs per move."""
    games = [prepare_game(services.app, script) for script in scripts]
    shares = [games[n::count] for n in range(count)]
    moves = [0] * count

    def run(n: int) -> None:
        moves[n] = play(app.test_client().post, shares[n])[1]

    started = time.process_time()
    workers = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return (time.process_time() - started) / sum(moves) * 1e6


def threaded_rounds(store: str, rounds: int, scripts: list[Script], threads: int) -> None:
    """Moves from ``threads`` threads at once (each its own games and test client), as a
    gunicorn worker's request threads serve them: the process's CPU µs per move, against
    one thread's in the same run."""
    with environment(store) as env:
        settings = Settings.from_env({**os.environ, **env, **NEVER_LIMITED})
        services = build_services(settings)
        try:
            app = create_app(services, follow=False)
            spent: dict[int, list[float]] = {1: [], threads: []}
            for number in range(rounds + 1):  # the first round warms up, not counted
                for count, values in spent.items():
                    used = run_threads(app, services, scripts, count)
                    if number:
                        values.append(used)
        finally:
            services.close()
    medians = {count: statistics.median(values) for count, values in spent.items()}
    print(f"moves in process from several threads, {store}, Azul 4 players, {rounds} rounds")
    print("| threads | process CPU µs per move |")
    print("|---|---|")
    for count, used in medians.items():
        print(f"| {count} | {used:,.0f} |")
    print(json.dumps({"bench": "moves_in_process", "store": store, "cpu_us": medians}))


def main() -> None:
    """Measure and print the table and a JSON line."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--store", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=4, help="games per round")
    parser.add_argument(
        "--follow", action="store_true", help="the followers in the process: CPU per thread"
    )
    parser.add_argument(
        "--threads", type=int, default=0, help="moves from this many threads at once: CPU"
    )
    args = parser.parse_args()
    exit_on_sigterm()
    scripts = record_scripts(args.games, 4)
    if args.follow:
        follow_rounds(args.store, args.rounds, scripts)
        return
    if args.threads > 1:
        threaded_rounds(args.store, args.rounds, record_scripts(2 * args.threads, 4), args.threads)
        return
    with environment(args.store) as env:
        settings = Settings.from_env({**os.environ, **env, **NEVER_LIMITED})
        services = build_services(settings)
        try:
            service = create_app(services, follow=False).test_client()
            hello = hello_app.create_app().test_client()
            rounds: dict[str, list[float]] = {"hello": [], "service": []}
            for _ in range(args.rounds + 1):  # the first round warms both up, not counted
                games = [prepare_game(services.app, script) for script in scripts]
                rounds["hello"].append(play(hello.post, games)[0])
                rounds["service"].append(play(service.post, games)[0])
        finally:
            services.close()
    hello_us = statistics.median(rounds["hello"][1:])
    service_us = statistics.median(rounds["service"][1:])
    print(f"moves in process, {args.store}, Azul 4 players, {args.rounds} rounds, medians")
    print("| case | µs per request | requests/s ÷ hello |")
    print("|---|---|---|")
    print(f"| hello world POST | {hello_us:,.0f} | 1.00 |")
    print(f"| move | {service_us:,.0f} | **{hello_us / service_us:.2f}x** |")
    report = {
        "bench": "moves_in_process",
        "store": args.store,
        "hello_us": rounds["hello"][1:],
        "service_us": rounds["service"][1:],
        "ratio_median": round(hello_us / service_us, 3),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    sys.exit(main())
