"""The service as operators run it, in real processes (issue 12, parts 2 and 3;
docs/operations.md, "Schema" and "Connections"):

* eight processes started at once on an empty store — schema upgrades, gunicorn servers and
  (on PostgreSQL) projection runners — all start, none fails on DDL, and they work together;
* the documented production setup on PostgreSQL (four gunicorn workers and one
  ``projections run``) holds at most a quarter of the server's connections;
* a command pointed at a server with no connection to spare fails with a clear message
  instead of hanging."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql

from tests.e2e.test_cli import free_port
from tests.e2e.test_gunicorn import GUNICORN, wait_for

BIN = Path(sys.executable).parent


def gunicorn(port: int, workers: int = 1) -> list[str]:
    """The production server as docs/operations.md starts it."""
    return [
        str(GUNICORN),
        "-c",
        "python:api.gunicorn_conf",
        "--workers",
        str(workers),
        "--bind",
        f"127.0.0.1:{port}",
        "api.app:create_app()",
    ]


def gameledger(*args: str) -> list[str]:
    return [str(BIN / "gameledger"), *args]


@contextmanager
def started(
    command: list[str], env: dict[str, str], log: Path
) -> Iterator[subprocess.Popen[bytes]]:
    """``command`` in its own process (stderr kept in ``log``), terminated on leaving."""
    with log.open("wb") as errors:
        process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=errors)
        try:
            yield process
        finally:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


def request(port: int, method: str, path: str, body: Any = None, token: str = "") -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1{path}", data=data, method=method, headers=headers
    )
    with urllib.request.urlopen(req, timeout=10) as answer:
        return json.loads(answer.read())


def eventually(check: Any, timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        try:
            found = check()
            if found:
                return found
        except OSError:
            pass
        if time.monotonic() > deadline:
            return check()
        time.sleep(0.1)


@pytest.fixture
def pg_env(postgres_database: dict[str, str]) -> Iterator[dict[str, str]]:
    """The environment of processes on an empty PostgreSQL schema, dropped afterwards."""
    schema = f"test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(**postgres_database, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    yield {
        **os.environ,
        "GAMELEDGER_STORE": "postgres",
        "GAMELEDGER_POSTGRES_DBNAME": postgres_database["dbname"],
        "GAMELEDGER_POSTGRES_HOST": postgres_database["host"],
        "GAMELEDGER_POSTGRES_PORT": postgres_database["port"],
        "GAMELEDGER_POSTGRES_USER": postgres_database["user"],
        "GAMELEDGER_POSTGRES_PASSWORD": postgres_database["password"],
        "GAMELEDGER_POSTGRES_SCHEMA": schema,
        "GAMELEDGER_POSTGRES_APPLICATION_NAME": f"gameledger-{schema}",
        "GAMELEDGER_PROJECTIONS": "external",
    }
    with psycopg.connect(**postgres_database, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))


def play_a_little(port: int, games: int = 2) -> list[str]:
    """Create games over HTTP, take their seats and make a first move; their ids."""
    ids = []
    for _ in range(games):
        created = request(port, "POST", "/games", {"game": "azul", "players": 2})
        game_id = created["id"]
        tokens = [
            request(port, "POST", f"/games/{game_id}/seats", {"name": f"p{n}"})["token"]
            for n in range(2)
        ]
        view = request(port, "GET", f"/games/{game_id}", token=tokens[0])  # a seat's: exact
        seat = view["current_players"][0]
        moves = request(port, "GET", f"/games/{game_id}/legal-moves", token=tokens[seat])
        request(
            port,
            "POST",
            f"/games/{game_id}/moves",
            {"move": moves["moves"][0]["move"], "expected_version": view["version"]},
            token=tokens[seat],
        )
        ids.append(game_id)
    return ids


def listed(port: int) -> set[str]:
    return {row["id"] for row in request(port, "GET", "/games?limit=100")["items"]}


@pytest.mark.postgres
def test_eight_processes_at_once_on_an_empty_postgres_database(
    pg_env: dict[str, str], tmp_path: Path
) -> None:
    ports = [free_port() for _ in range(3)]
    commands = [
        *(gameledger("db", "upgrade") for _ in range(3)),
        *(gunicorn(port) for port in ports),
        *(gameledger("projections", "run") for _ in range(2)),
    ]
    with ExitStack() as stack:
        processes = [
            stack.enter_context(started(command, pg_env, tmp_path / f"{n}.log"))
            for n, command in enumerate(commands)
        ]
        upgrades, servers, runners = processes[:3], processes[3:6], processes[6:]
        for process in upgrades:
            assert process.wait(timeout=60) == 0, (tmp_path / "0.log").read_text()
        for port in ports:
            wait_for(port)
        ids = play_a_little(ports[0])
        for port in ports:  # every server lists them: a runner followed the log
            assert eventually(lambda port=port: set(ids) <= listed(port)), port
        assert all(process.poll() is None for process in servers + runners)
    for n in range(len(commands)):
        log = (tmp_path / f"{n}.log").read_text()
        assert "Traceback" not in log and "concurrently updated" not in log, log


def test_eight_processes_at_once_on_an_empty_sqlite_store(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = {**os.environ, "GAMELEDGER_DATA_DIR": str(data)}
    ports = [free_port() for _ in range(3)]
    commands = [
        *(gameledger("db", "upgrade") for _ in range(3)),
        *(gunicorn(port) for port in ports),
        *(gameledger("simulate", "azul", "--games", "2", "--seed", str(n)) for n in range(2)),
    ]
    with ExitStack() as stack:
        processes = [
            stack.enter_context(started(command, env, tmp_path / f"{n}.log"))
            for n, command in enumerate(commands)
        ]
        for n in [0, 1, 2, 6, 7]:
            assert processes[n].wait(timeout=120) == 0, (tmp_path / f"{n}.log").read_text()
        for port in ports:
            wait_for(port)
        ids = play_a_little(ports[0], games=1)
        for port in ports:  # embedded followers of every server keep the shared read models
            assert eventually(lambda port=port: set(ids) <= listed(port)), port
        simulated = json.loads(processes[6].stdout.read().decode().splitlines()[-1])  # type: ignore[union-attr]
        assert set(simulated["game_ids"]) <= listed(ports[1])
    for n in range(len(commands)):
        log = (tmp_path / f"{n}.log").read_text()
        assert "Traceback" not in log and "locked" not in log, log


def connections_of(postgres_database: dict[str, str], name: str) -> int:
    with psycopg.connect(**postgres_database, autocommit=True) as conn:
        found = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", (name,)
        ).fetchone()
    assert found is not None
    return int(found[0])


def max_connections(postgres_database: dict[str, str]) -> int:
    with psycopg.connect(**postgres_database, autocommit=True) as conn:
        found = conn.execute("SHOW max_connections").fetchone()
    assert found is not None
    return int(found[0])


@pytest.mark.postgres
def test_the_documented_setup_holds_a_quarter_of_the_connections(
    pg_env: dict[str, str], postgres_database: dict[str, str], tmp_path: Path
) -> None:
    port = free_port()
    name = pg_env["GAMELEDGER_POSTGRES_APPLICATION_NAME"]
    with (
        started(gameledger("db", "upgrade"), pg_env, tmp_path / "upgrade.log") as upgrade,
    ):
        assert upgrade.wait(timeout=60) == 0
    with (
        started(gunicorn(port, workers=4), pg_env, tmp_path / "gunicorn.log"),
        started(gameledger("projections", "run"), pg_env, tmp_path / "runner.log"),
    ):
        wait_for(port)
        ids = play_a_little(port, games=6)  # load: every worker's pool in use
        assert eventually(lambda: set(ids) <= listed(port))
        time.sleep(1)
        held = connections_of(postgres_database, name)
        quarter = max_connections(postgres_database) // 4
        assert 0 < held <= quarter, f"{held} connections held; a quarter is {quarter}"


@pytest.mark.postgres
def test_a_command_on_a_server_with_no_connection_to_spare_fails_clearly(
    pg_env: dict[str, str], postgres_database: dict[str, str], tmp_path: Path
) -> None:
    with started(gameledger("db", "upgrade"), pg_env, tmp_path / "upgrade.log") as upgrade:
        assert upgrade.wait(timeout=60) == 0
    role = f"busy_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(**postgres_database, autocommit=True) as admin:
        admin.execute(
            sql.SQL("CREATE ROLE {} LOGIN CONNECTION LIMIT 1 PASSWORD 'busy'").format(
                sql.Identifier(role)
            )
        )
        admin.execute(
            sql.SQL("GRANT ALL ON SCHEMA {} TO {}").format(
                sql.Identifier(pg_env["GAMELEDGER_POSTGRES_SCHEMA"]), sql.Identifier(role)
            )
        )
        try:
            busy = {**postgres_database, "user": role, "password": "busy"}
            with psycopg.connect(**busy):  # the role's one connection, taken
                env = {
                    **pg_env,
                    "GAMELEDGER_POSTGRES_USER": role,
                    "GAMELEDGER_POSTGRES_PASSWORD": "busy",
                    "GAMELEDGER_POSTGRES_POOL_TIMEOUT": "3",
                }
                done = subprocess.run(
                    gameledger("export", str(uuid.uuid4())),
                    env=env,
                    check=False,
                    capture_output=True,
                    text=True,
                    timeout=60,  # a bound, not a measurement: a hang fails here
                )
        finally:
            admin.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(role)))
            admin.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(role)))
    assert done.returncode == 2, done.stderr
    assert "cannot use PostgreSQL" in done.stderr and "Traceback" not in done.stderr
    assert "too many" in done.stderr  # why (the role's limit), not only that the pool waited
