"""PostgreSQL connections of the documented production setup, counted (issue 12, part 2;
docs/operations.md, "Connections"; docs/performance.md, "Connections").

Starts, on a database made for the run, ``gunicorn -c python:api.gunicorn_conf --workers 4``
with ``GAMELEDGER_PROJECTIONS=external`` and one ``gameledger projections run``, as
docs/operations.md shows; counts the connections they hold in ``pg_stat_activity`` (by their
application name) once started and idle, under load (games created, seats taken and moves
made by several clients at once), and idle again after ``GAMELEDGER_POSTGRES_MAX_IDLE``
seconds; and reports each as a share of the server's ``max_connections``, beside what the
formula of docs/operations.md says.

    .venv/bin/python bench/connections.py [--workers 4] [--clients 8] [--seconds 10]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pgdb import connect, exit_on_sigterm, service_env, temporary_database

BIN = Path(sys.executable).parent
NAME = "gameledger-bench-connections"
MAX_IDLE = 5


def held(dbname: str) -> int:
    """Connections the service holds now."""
    with connect(dbname) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", (NAME,)
        ).fetchone()
    return int(row[0]) if row else 0


def max_connections(dbname: str) -> int:
    """The server's ``max_connections``."""
    with connect(dbname) as conn:
        row = conn.execute("SHOW max_connections").fetchone()
    return int(row[0]) if row else 0


def call(port: int, method: str, path: str, body: Any = None, token: str = "") -> Any:
    """One request to the service; its JSON answer."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1{path}", data=data, method=method, headers=headers
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def client(port: int, until: float) -> None:
    """Create games and play their first moves until ``until``."""
    while time.monotonic() < until:
        game_id = call(port, "POST", "/games", {"game": "azul", "players": 2})["id"]
        tokens = [
            call(port, "POST", f"/games/{game_id}/seats", {"name": f"p{n}"})["token"]
            for n in range(2)
        ]
        for _ in range(6):
            view = call(port, "GET", f"/games/{game_id}", token=tokens[0])
            seat = view["current_players"][0]
            moves = call(port, "GET", f"/games/{game_id}/legal-moves", token=tokens[seat])
            body = {"move": moves["moves"][0]["move"], "expected_version": view["version"]}
            call(port, "POST", f"/games/{game_id}/moves", body, token=tokens[seat])


def wait_for(port: int) -> None:
    """Until the service answers its health check."""
    for _ in range(300):
        try:
            call(port, "GET", "/health")
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the service did not start")


def main() -> None:
    """Count the connections idle, under load and idle again; print a table and a JSON line."""
    exit_on_sigterm()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    port = 18000 + os.getpid() % 1000
    with temporary_database("bench_connections") as dbname:
        env = {
            **os.environ,
            **service_env(dbname),
            "GAMELEDGER_PROJECTIONS": "external",
            "GAMELEDGER_POSTGRES_APPLICATION_NAME": NAME,
            "GAMELEDGER_POSTGRES_MAX_IDLE": str(MAX_IDLE),
        }
        subprocess.run([str(BIN / "gameledger"), "db", "upgrade"], env=env, check=True,
                       capture_output=True)  # fmt: skip
        server = subprocess.Popen(
            [str(BIN / "gunicorn"), "-c", "python:api.gunicorn_conf", "--workers",
             str(args.workers), "--bind", f"127.0.0.1:{port}", "api.app:create_app()"],
            env=env, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        runner = subprocess.Popen(
            [str(BIN / "gameledger"), "projections", "run"], env=env, stderr=subprocess.DEVNULL
        )
        try:
            wait_for(port)
            time.sleep(2)
            idle = held(dbname)
            peak = 0
            until = time.monotonic() + args.seconds
            threads = [
                threading.Thread(target=client, args=(port, until)) for _ in range(args.clients)
            ]
            for thread in threads:
                thread.start()
            while any(thread.is_alive() for thread in threads):
                peak = max(peak, held(dbname))
                time.sleep(0.1)
            after_load = held(dbname)
            time.sleep(MAX_IDLE + 3)
            idle_again = held(dbname)
            limit = max_connections(dbname)
        finally:
            for process in (server, runner):
                process.terminate()
                process.wait(timeout=15)
    threads_per_worker = 4
    formula_idle = args.workers * (2 + 1) + (2 + 1)
    formula_most = args.workers * (min(threads_per_worker, 10) + 1) + (10 + 1)
    when = datetime.now(UTC).isoformat(timespec="seconds")
    print(
        f"{args.workers} gunicorn workers x {threads_per_worker} threads + 1 projections run, "
        f"defaults (pool 2 + 8), {args.clients} clients for {args.seconds:g} s; "
        f"max_connections {limit}; {when}\n"
    )
    print("| moment | connections | of max_connections | the formula's bound |")
    print("|---|---|---|---|")
    for moment, count, bound in (
        ("idle, started", idle, formula_idle),
        ("under load (most seen)", peak, formula_most),
        ("just after the load", after_load, formula_most),
        (f"idle again ({MAX_IDLE} s past max_idle)", idle_again, formula_idle),
    ):
        print(f"| {moment} | {count} | **{count / limit:.2f}** | {bound} |")
    summary = {"idle": idle, "peak": peak, "after_load": after_load, "idle_again": idle_again}
    command = " ".join(["bench/connections.py", *sys.argv[1:]])
    record = {"bench": "connections", "date": when, "command": command, "max_connections": limit}
    print(json.dumps({**record, **summary}))


if __name__ == "__main__":
    main()
