"""The service as a third party meets it (issue 14, "How it will be checked"; docs/audit.md,
"Verifying a record's checkpoint"): a real ``gunicorn`` on SQLite or PostgreSQL, reached only
over HTTP, and the ``gameledger`` console script run in a subprocess on files saved from its
answers. The operator's side (``keys rotate``, ``export --tree-size``, the database itself)
runs with the server's own environment, as an operator would."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from tests.e2e.test_cli import free_port
from tests.e2e.test_gunicorn import wait_for
from tests.e2e.test_processes import BIN, gunicorn, started

API = "/api/v1"


class Problem(Exception):
    """A 4xx or 5xx answer: its status and body."""

    def __init__(self, status: int, body: Any) -> None:
        super().__init__(f"{status}: {body}")
        self.status = status
        self.body = body


@dataclass
class Outside:
    """A running service (its port and environment) and a folder of saved files."""

    port: int
    env: dict[str, str]
    folder: Path

    @property
    def url(self) -> str:
        """The service's address, as ``--server`` takes it."""
        return f"http://127.0.0.1:{self.port}"

    def call(self, method: str, path: str, body: Any = None, token: str = "") -> Any:
        """One request to ``/api/v1{path}``; its JSON, or :class:`Problem`."""
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"{self.url}{API}{path}", data=data, method=method, headers=headers
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as error:
            raise Problem(error.code, json.loads(error.read() or b"null")) from None

    def get(self, path: str, token: str = "") -> Any:
        """``GET /api/v1{path}``."""
        return self.call("GET", path, token=token)

    def post(self, path: str, body: Any = None, token: str = "") -> Any:
        """``POST /api/v1{path}``."""
        return self.call("POST", path, {} if body is None else body, token)

    def save(self, name: str, value: Any) -> str:
        """A JSON file in the folder; its path."""
        path = self.folder / name
        path.write_text(json.dumps(value), encoding="utf-8")
        return str(path)

    def fetch(self, name: str, path: str) -> str:
        """An answer saved as a file, as a user keeps it (``curl … > name``); its path."""
        return self.save(name, self.get(path))

    def within(self, folder: Path) -> Outside:
        """The same service, with files saved in ``folder``."""
        return replace(self, folder=folder)

    def gameledger(self, *args: str, operator: bool = False) -> subprocess.CompletedProcess[str]:
        """The console script; a third party's runs see no store (an empty data directory),
        the operator's (``operator=True``) the service's own environment."""
        [done] = self.gameledger_all(args, operator=operator)
        return done

    def gameledger_all(
        self, *commands: Sequence[str], operator: bool = False
    ) -> list[subprocess.CompletedProcess[str]]:
        """Several runs of the console script at once (each starts a Python: together they
        take the time of about one per core); their results in order."""
        env = self.env if operator else {**self.env, "GAMELEDGER_DATA_DIR": str(self.folder)}
        if not operator:
            env = {k: v for k, v in env.items() if not k.startswith("GAMELEDGER_POSTGRES")}
            env["GAMELEDGER_STORE"] = "sqlite"
        running = [
            (
                [str(BIN / "gameledger"), *args],
                subprocess.Popen(
                    [str(BIN / "gameledger"), *args],
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                    env=env,
                ),
            )
            for args in commands
        ]
        done = []
        for command, process in running:
            out, err = process.communicate(timeout=120)
            done.append(subprocess.CompletedProcess(command, process.returncode, out, err))
        return done

    # games

    def new_game(self, players: int = 2, **extra: Any) -> tuple[str, list[str]]:
        """A game created and every seat taken; its id and the seats' tokens."""
        created = self.post("/games", {"game": "azul", "players": players, **extra})
        game_id = str(created["id"])
        secret = {"secret": created["join_secret"]} if "join_secret" in created else {}
        tokens = [
            self.post(f"/games/{game_id}/seats", {"name": f"p{n}", **secret})["token"]
            for n in range(players)
        ]
        return game_id, tokens

    def one_move(self, game_id: str, tokens: list[str]) -> bool:
        """The first legal move of the first seat to act; ``False`` once the game is over."""
        view = self.get(f"/games/{game_id}")
        if not view["current_players"]:
            assert view["outcome"] is not None
            return False
        seat = view["current_players"][0]
        legal = self.get(f"/games/{game_id}/legal-moves", token=tokens[seat])
        self.post(
            f"/games/{game_id}/moves",
            {"move": legal["moves"][0]["move"], "expected_version": view["version"]},
            tokens[seat],
        )
        return True

    def play_to_the_end(self, game_id: str, tokens: list[str]) -> None:
        """Moves until the game is over."""
        while self.one_move(game_id, tokens):
            pass

    def resigned_game(self, **extra: Any) -> str:
        """A game of two whose first seat resigns at once (over: its seed revealed); its id."""
        game_id, tokens = self.new_game(**extra)
        version = self.get(f"/games/{game_id}", token=tokens[0])["version"]
        self.post(f"/games/{game_id}/resign", {"expected_version": version}, tokens[0])
        return game_id

    def ended_entry(self, game_id: str) -> dict[str, Any]:
        """The game's ``ended`` checkpoint once the service has logged it."""
        for _ in range(200):
            items = self.get(f"/games/{game_id}/checkpoints")["items"]
            ended = [item for item in items if item["checkpoint"]["ended"]]
            if ended:
                return dict(ended[-1])
            time.sleep(0.05)
        raise AssertionError(f"the end of {game_id} was not logged")

    def record(self, game_id: str, tree_size: int | None = None) -> dict[str, Any]:
        """``GET /games/{id}/record`` (proved against the head of ``tree_size``)."""
        query = "" if tree_size is None else f"?tree_size={tree_size}"
        found: dict[str, Any] = self.get(f"/games/{game_id}/record{query}")
        return found


@contextmanager
def postgres_env(database: dict[str, str]) -> Iterator[dict[str, str]]:
    """The environment of processes on an empty PostgreSQL schema of ``database``, dropped
    afterwards (``tests/e2e/test_processes.pg_env``, at any fixture scope)."""
    schema = f"test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(**database, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    try:
        yield {
            **os.environ,
            "GAMELEDGER_STORE": "postgres",
            "GAMELEDGER_POSTGRES_DBNAME": database["dbname"],
            "GAMELEDGER_POSTGRES_HOST": database["host"],
            "GAMELEDGER_POSTGRES_PORT": database["port"],
            "GAMELEDGER_POSTGRES_USER": database["user"],
            "GAMELEDGER_POSTGRES_PASSWORD": database["password"],
            "GAMELEDGER_POSTGRES_SCHEMA": schema,
            "GAMELEDGER_POSTGRES_APPLICATION_NAME": f"gameledger-{schema}",
        }
    finally:
        with psycopg.connect(**database, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))


def on_the_log(env: dict[str, str], statements: Sequence[str]) -> None:
    """The operator's SQL run on the log's tables in the service's database (PostgreSQL: its
    schema; SQLite: ``<stem>-tlog.db`` in its data directory)."""
    if env.get("GAMELEDGER_STORE") == "postgres":
        database = {
            "dbname": env["GAMELEDGER_POSTGRES_DBNAME"],
            "host": env["GAMELEDGER_POSTGRES_HOST"],
            "port": env["GAMELEDGER_POSTGRES_PORT"],
            "user": env["GAMELEDGER_POSTGRES_USER"],
            "password": env["GAMELEDGER_POSTGRES_PASSWORD"],
        }
        with psycopg.connect(**database, autocommit=True) as conn:
            schema = sql.Identifier(env["GAMELEDGER_POSTGRES_SCHEMA"])
            conn.execute(sql.SQL("SET search_path TO {}").format(schema))
            for statement in statements:
                conn.execute(statement.encode())
        return
    with sqlite3.connect(Path(env["GAMELEDGER_DATA_DIR"]) / "gameledger-tlog.db") as db:
        for statement in statements:
            db.execute(statement)
    db.close()


def environment(store: str, folder: Path, pg_env: dict[str, str] | None) -> dict[str, str]:
    """A server's environment: its own data directory (its keyring is there), the log
    followed in the server (embedded), running games not checkpointed (``0``: only ends, so
    the log's size is known) unless a test says otherwise."""
    base = dict(os.environ if pg_env is None else pg_env)
    base["GAMELEDGER_DATA_DIR"] = str(folder / "data")
    if store == "sqlite":
        base["GAMELEDGER_STORE"] = "sqlite"
    return {**base, "GAMELEDGER_PROJECTIONS": "embedded", "GAMELEDGER_CHECKPOINT_INTERVAL": "0"}


@contextmanager
def serving(env: dict[str, str], folder: Path, port: int | None = None) -> Iterator[Outside]:
    """gunicorn (one worker, the documented configuration) on ``env``'s store, until the block
    ends; its stderr in ``folder/gunicorn-<n>.log`` (no traceback may be in it)."""
    port = port or free_port()
    log = folder / f"gunicorn-{len(list(folder.glob('gunicorn-*.log')))}.log"
    with started(gunicorn(port), env, log):
        wait_for(port)
        yield Outside(port, env, folder)
    text = log.read_text()
    assert "Traceback" not in text, text
