"""What games cost in memory, and a worker's memory while games and moves keep coming
(issue 12, part 4; docs/operations.md, "Memory"; docs/performance.md, "Memory").

1. ``factor``: for games of each kind at several lengths, the bytes a game loaded from the
   store holds (measured with ``tracemalloc``) against the bytes of its state's JSON form —
   the factor the cache's estimate uses (``application.cache.MEMORY_PER_JSON_BYTE``).
2. ``rss``: one gunicorn worker on a SQLite store, its game cache set to ``--cache-mb``; a
   client creates 4-player Azul games and makes moves in random earlier ones, and the worker's
   resident memory (``VmRSS``) is read every ``--every`` games. With the cache bounded the
   memory levels off; ``--cache-mb`` large shows the growth it prevents.

    .venv/bin/python bench/memory.py factor
    .venv/bin/python bench/memory.py rss [--games 1500] [--cache-mb 16] [--every 100]
"""

from __future__ import annotations

import argparse
import gc
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import orjson

from application.cache import MEMORY_PER_JSON_BYTE
from application.service import GameLedger

KINDS: list[tuple[str, int, dict[str, Any]]] = [
    ("azul", 4, {}),
    ("carcassonne", 4, {}),
    ("carcassonne", 4, {"expansions": ["bridges-castles-bazaars"]}),
    ("risk", 4, {}),
]


def loaded_bytes(app: GameLedger, game_id: Any) -> tuple[int, int]:
    """The bytes a game loaded from the store holds (its line trimmed, as the cache keeps
    it), and the bytes of its state's JSON form."""
    gc.collect()
    before = tracemalloc.get_traced_memory()[0]
    game = app.games.at(game_id)
    game.trim_line()
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - before
    state = len(orjson.dumps(game.rules.state_to_json(game.state)))
    del game
    return held, state


def factor(seed: int = 1) -> None:
    """Measured bytes per JSON byte, by kind, at every 40 moves of a random game."""
    print("| game | samples | JSON bytes (last) | bytes held (last) | ratio min / median / max |")
    print("|---|---|---|---|---|")
    worst = 0.0
    for kind, players, options in KINDS:
        app = GameLedger()
        game_id = app.create_game(kind, players, options, seed=f"memory-{seed}")
        tokens = [app.join(game_id, f"p{n}", n).token for n in range(players)]
        bot = random.Random(seed)
        ratios: list[float] = []
        moves = 0
        last = (0, 0)
        tracemalloc.start()
        while True:
            version, acting = app.whose_turn(game_id)
            if not acting:
                break
            seat = bot.choice(acting)
            move = app.bot_move(game_id, tokens[seat], bot)
            app.play(game_id, tokens[seat], move, version)
            moves += 1
            if moves % 40 == 0:
                last = loaded_bytes(app, game_id)
                ratios.append(last[0] / last[1])
        tracemalloc.stop()
        worst = max(worst, *ratios)
        label = f"{kind} {players}p" + (" + expansion" if options else "")
        print(
            f"| {label} | {len(ratios)} | {last[1]:,} | {last[0]:,} | "
            f"{min(ratios):.1f} / {statistics.median(ratios):.1f} / {max(ratios):.1f} |"
        )
    print(f"\nworst ratio {worst:.1f}; the cache estimates {MEMORY_PER_JSON_BYTE} bytes per byte")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def rss_of(pid: int) -> float:
    """Resident memory of a process, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def worker_pid(master: int) -> int:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return int(children[0])


class Client:
    """A keep-alive HTTP client of one server."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method: str, path: str, body: Any = None, token: str = "") -> Any:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body)
        self.conn.request(method, f"/api/v1{path}", body=data, headers=headers)
        answer = self.conn.getresponse()
        payload = answer.read()
        if answer.status >= 300:
            raise RuntimeError(f"{method} {path}: {answer.status} {payload[:200]!r}")
        return json.loads(payload)


def play_one(client: Client, game: tuple[str, list[str]], bot: random.Random) -> None:
    """One legal move in ``game``, if it is still running."""
    game_id, tokens = game
    view = client.call("GET", f"/games/{game_id}")
    if not view["current_players"]:
        return
    seat = bot.choice(view["current_players"])
    moves = client.call("GET", f"/games/{game_id}/legal-moves", token=tokens[seat])["moves"]
    body = {"move": bot.choice(moves)["move"], "expected_version": view["version"]}
    client.call("POST", f"/games/{game_id}/moves", body, token=tokens[seat])


def rss(games: int, cache_mb: float, every: int) -> None:
    """A worker's memory while games and moves keep coming."""
    gunicorn = Path(sys.executable).with_name("gunicorn")
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        env = {
            **os.environ,
            "GAMELEDGER_DATA_DIR": data,
            "GAMELEDGER_GAME_CACHE_MB": str(cache_mb),
        }
        command = [
            str(gunicorn), "-c", "python:api.gunicorn_conf", "--workers", "1",
            "--bind", f"127.0.0.1:{port}", "api.app:create_app()",
        ]  # fmt: skip
        server = subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL)
        try:
            for _ in range(100):
                try:
                    client = Client(port)
                    client.call("GET", "/game-types")
                    break
                except OSError:
                    time.sleep(0.1)
            worker = worker_pid(server.pid)
            bot = random.Random(1)
            made: list[tuple[str, list[str]]] = []
            moves = 0
            print(f"cache {cache_mb} MB; worker {worker}")
            print("| games | moves | worker RSS (MB) |")
            print("|---|---|---|")
            print(f"| 0 | 0 | {rss_of(worker):.1f} |")
            for n in range(1, games + 1):
                game_id = client.call("POST", "/games", {"game": "azul", "players": 4})["id"]
                tokens = [
                    client.call("POST", f"/games/{game_id}/seats", {"name": f"p{k}"})["token"]
                    for k in range(4)
                ]
                made.append((game_id, tokens))
                for _ in range(6):  # moves in games old and new: every game stays in use
                    play_one(client, bot.choice(made), bot)
                    moves += 1
                if n % every == 0:
                    print(f"| {n} | {moves} | {rss_of(worker):.1f} |", flush=True)
        finally:
            server.terminate()
            server.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("factor")
    growth = commands.add_parser("rss")
    growth.add_argument("--games", type=int, default=1500)
    growth.add_argument("--cache-mb", type=float, default=16)
    growth.add_argument("--every", type=int, default=100)
    args = parser.parse_args()
    if args.command == "factor":
        factor()
    else:
        rss(args.games, args.cache_mb, args.every)


if __name__ == "__main__":
    main()
