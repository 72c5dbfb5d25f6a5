"""Live-update streams, measured (issue 13, part 2; docs/performance.md, "Streams";
docs/operations.md, "Streams").

Starts, on a PostgreSQL database made for the run, one gunicorn worker with the project's
configuration (``-c python:api.gunicorn_conf``, so ``gthread`` with a thread per stream
place) and ``GAMELEDGER_STREAMS_MAX`` set to ``--most``, then:

1. **Idle streams.** Opens streams of one game in steps (``--steps``), each a real socket
   that has read the stream's first bytes, until the step ``--most`` or the first refusal or
   failure; after each step it reads the worker's resident memory, threads and open files
   (``/proc``) and times ``GET /api/v1/health`` (the median of 20), and reports each beside
   the same figures with no stream open (the run's own baseline).
2. **Delay.** With ``--subscribers`` streams of one game open, a second process (this one,
   its own GameLedger on the same database: another host as far as the server knows) makes
   ``--moves`` moves; for each, the time from the move's ``play()`` returning (its commit
   done) to its last event arriving on each stream: median and p99, and the same as a ratio
   to the median round trip of a ``GET`` of the game's view measured in the same run;
   ``--idle-others`` more streams of another game stay open meanwhile (every save wakes
   every stream of the process).

    .venv/bin/python bench/streams.py [--most 1000] [--steps 100,250,500,1000]
        [--subscribers 20] [--moves 60] [--idle-others 0]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID

from connections import call, wait_for  # bench/connections.py: one request, a health wait
from pgdb import exit_on_sigterm, service_env, service_settings, temporary_database

from infrastructure.container import build_services

BIN = Path(sys.executable).parent
HEARTBEAT = 5
"""Seconds between heartbeats: a stream whose client has gone keeps its place until the next."""


def open_stream(port: int, path: str) -> socket.socket | None:
    """A socket that has asked for a stream and read its first bytes; ``None`` if refused."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(f"GET /api/v1{path} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
    head = sock.recv(65536)
    if not head.startswith(b"HTTP/1.1 200"):
        sock.close()
        return None
    return sock


def worker_figures(pid: int) -> dict[str, float]:
    """The worker's resident memory (MB), threads and open files."""
    status = Path(f"/proc/{pid}/status").read_text().splitlines()
    fields = {line.split(":")[0]: line.split(":")[1].split() for line in status}
    return {
        "rss_mb": int(fields["VmRSS"][0]) / 1024,
        "threads": int(fields["Threads"][0]),
        "fds": len(os.listdir(f"/proc/{pid}/fd")),
    }


def round_trip(port: int, path: str, times: int = 20) -> float:
    """The median seconds of ``times`` GETs of ``path``."""
    spent = []
    for _ in range(times):
        start = time.perf_counter()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1{path}", timeout=30) as a:
            a.read()
        spent.append(time.perf_counter() - start)
    return statistics.median(spent)


def worker_pid(master: int) -> int:
    """The one worker of gunicorn's master ``master``."""
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return int(children[0])


def idle_streams(port: int, pid: int, game_id: str, steps: list[int]) -> list[dict[str, Any]]:
    """Open streams step by step; the figures after each step (the first: none open)."""
    round_trip(port, "/health", 50)  # warm-up: the first requests of a worker are slower
    rows = [{"streams": 0, **worker_figures(pid), "health_s": round_trip(port, "/health")}]
    held: list[socket.socket] = []
    refused = False
    try:
        for step in steps:
            while len(held) < step:
                try:
                    sock = open_stream(port, f"/games/{game_id}/stream?after=1000000")
                except OSError as error:
                    print(f"stream {len(held) + 1} failed: {error}", file=sys.stderr)
                    refused = True
                    break
                if sock is None:
                    refused = True
                    break
                held.append(sock)
            time.sleep(1)
            try:
                health = round_trip(port, "/health")
            except OSError as error:
                print(f"with {len(held)} streams /health failed: {error}", file=sys.stderr)
                break
            rows.append({"streams": len(held), **worker_figures(pid), "health_s": health})
            if refused:
                break
    finally:
        for sock in held:
            sock.close()
    return rows


def read_stream(sock: socket.socket, arrivals: dict[int, float], stop: threading.Event) -> None:
    """Record when each event id arrives."""
    buffer = b""
    sock.settimeout(1)
    while not stop.is_set():
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        except OSError:
            return
        if not chunk:
            return
        now = time.monotonic()
        buffer += chunk
        while b"\n\n" in buffer:
            block, buffer = buffer.split(b"\n\n", 1)
            for line in block.split(b"\n"):
                if line.startswith(b"id: "):
                    arrivals.setdefault(int(line[4:]), now)


def delays(port: int, dbname: str, subscribers: int, moves: int, others: int = 0) -> dict[str, Any]:
    """Moves made by this process on the same database; each one's delay to every stream
    (with ``others`` streams of another game open, idle, meanwhile)."""
    services = build_services(service_settings(dbname))
    services.watcher.start()
    idle: list[socket.socket | None] = []
    try:
        app = services.app
        if others:
            other = app.create_game("azul", 2, {})
            idle = [
                open_stream(port, f"/games/{other}/stream?after=1000000") for _ in range(others)
            ]
            assert all(s is not None for s in idle), "a stream was refused"
        game_id = app.create_game("azul", 4, {})
        tokens = [app.join(game_id, f"p{n}").token for n in range(4)]
        version = app.whose_turn(game_id)[0]
        sockets = [open_stream(port, f"/games/{game_id}/stream?after={version}")]
        sockets += [
            open_stream(port, f"/games/{game_id}/stream?after={version}")
            for _ in range(subscribers - 1)
        ]
        assert all(s is not None for s in sockets), "a stream was refused"
        arrivals: list[dict[int, float]] = [{} for _ in sockets]
        stop = threading.Event()
        readers = [
            threading.Thread(target=read_stream, args=(s, a, stop), daemon=True)
            for s, a in zip(sockets, arrivals, strict=True)
            if s is not None
        ]
        for reader in readers:
            reader.start()
        view_trip = round_trip(port, f"/games/{game_id}")
        committed: list[tuple[int, float]] = []
        bot = random.Random(7)
        for _ in range(moves):
            version, acting = app.whose_turn(game_id)
            if not acting:
                break
            seat = acting[0]
            move = app.bot_move(game_id, tokens[seat], bot)
            done = app.play(game_id, tokens[seat], move, version)
            committed.append((done.version, time.monotonic()))
            time.sleep(0.05)
        time.sleep(2)
        stop.set()
        for sock in sockets:
            if sock is not None:
                sock.close()
        spent = [
            arrived[last] - at for last, at in committed for arrived in arrivals if last in arrived
        ]
        missing = len(committed) * len(sockets) - len(spent)
        spent.sort()
        median = statistics.median(spent)
        p99 = spent[min(len(spent) - 1, int(len(spent) * 0.99))]
        return {
            "subscribers": subscribers,
            "idle_others": others,
            "moves": len(committed),
            "deliveries": len(spent),
            "missing": missing,
            "median_ms": median * 1000,
            "p99_ms": p99 * 1000,
            "view_round_trip_ms": view_trip * 1000,
            "median_ratio": median / view_trip,
            "p99_ratio": p99 / view_trip,
            "game": str(UUID(str(game_id))),
        }
    finally:
        for sock in idle:
            if sock is not None:
                sock.close()
        services.close()


def main() -> None:
    """Run both measurements; print tables and a JSON line."""
    exit_on_sigterm()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--most", type=int, default=1000)
    parser.add_argument("--steps", default="100,250,500,1000")
    parser.add_argument("--subscribers", type=int, default=20)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--idle-others", type=int, default=0)
    args = parser.parse_args()
    steps = [int(s) for s in args.steps.split(",")]
    port = 19000 + os.getpid() % 1000
    with temporary_database("bench_streams") as dbname:
        env = {
            **os.environ,
            **service_env(dbname),
            "GAMELEDGER_PROJECTIONS": "external",
            "GAMELEDGER_STREAMS_MAX": str(args.most),
            "GAMELEDGER_STREAM_HEARTBEAT": str(HEARTBEAT),
        }
        subprocess.run([str(BIN / "gameledger"), "db", "upgrade"], env=env, check=True,
                       capture_output=True)  # fmt: skip
        server = subprocess.Popen(
            [str(BIN / "gunicorn"), "-c", "python:api.gunicorn_conf", "--workers", "1",
             "--bind", f"127.0.0.1:{port}", "api.app:create_app()"],
            env=env, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            wait_for(port)
            pid = worker_pid(server.pid)
            game_id = call(port, "POST", "/games", {"game": "azul", "players": 2})["id"]
            idle = idle_streams(port, pid, game_id, steps)
            time.sleep(2 * HEARTBEAT + 2)  # a client gone is noticed within two heartbeats
            delay = delays(port, dbname, args.subscribers, args.moves, args.idle_others)
        finally:
            server.terminate()
            server.wait(timeout=30)
    when = datetime.now(UTC).isoformat(timespec="seconds")
    base = idle[0]
    print(f"one gunicorn worker (gthread), GAMELEDGER_STREAMS_MAX={args.most}; {when}\n")
    print("| open streams | RSS MB | MB per stream | threads | fds | GET /health | x none open |")
    print("|---|---|---|---|---|---|---|")
    for row in idle:
        per = (row["rss_mb"] - base["rss_mb"]) / row["streams"] if row["streams"] else 0.0
        print(
            f"| {row['streams']} | {row['rss_mb']:.1f} | {per:.3f} | {row['threads']} | "
            f"{row['fds']} | {row['health_s'] * 1000:.2f} ms | "
            f"**{row['health_s'] / base['health_s']:.2f}** |"
        )
    print(
        f"\n{delay['subscribers']} streams ({delay['idle_others']} more of another game, idle), "
        f"{delay['moves']} moves made by another process: "
        f"commit → event on a stream median {delay['median_ms']:.2f} ms "
        f"(**{delay['median_ratio']:.2f}x** a view's round trip of "
        f"{delay['view_round_trip_ms']:.2f} ms), p99 {delay['p99_ms']:.2f} ms "
        f"(**{delay['p99_ratio']:.2f}x**); {delay['missing']} deliveries missing"
    )
    command = " ".join(["bench/streams.py", *sys.argv[1:]])
    print(json.dumps({"bench": "streams", "date": when, "command": command, "idle": idle,
                      "delay": delay}))  # fmt: skip


if __name__ == "__main__":
    main()
