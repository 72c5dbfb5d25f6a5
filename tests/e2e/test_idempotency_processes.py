"""Concurrent retries with one ``Idempotency-Key`` against real servers (issue 13, part 3;
docs/api.md, "Idempotency"): two gunicorn processes on one store, SQLite or PostgreSQL, and
many threads sending the same move with the same key at once to both. Exactly one move is
applied; every answer is that move's (200, the same body) or 409 ``idempotency-key-in-use``;
a retry after the storm replays the 200."""

from __future__ import annotations

import json
import os
import threading
import urllib.error
import urllib.request
import uuid
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_cli import free_port
from tests.e2e.test_gunicorn import wait_for
from tests.e2e.test_processes import gameledger, gunicorn, pg_env, request, started

__all__ = ["pg_env"]  # the fixture, shared with test_processes.py

THREADS = 16


def send(port: int, path: str, body: Any, headers: dict[str, str]) -> tuple[int, bytes, str]:
    """One POST; its status, body and ``Idempotent-Replayed`` header."""
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1{path}",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", **headers},
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            return answer.status, answer.read(), answer.headers.get("Idempotent-Replayed", "")
    except urllib.error.HTTPError as error:
        return error.code, error.read(), error.headers.get("Idempotent-Replayed", "")


def storm(env: dict[str, str], tmp_path: Path) -> None:
    ports = [free_port() for _ in range(2)]
    with ExitStack() as stack:
        upgrade = stack.enter_context(started(gameledger("db", "upgrade"), env, tmp_path / "u.log"))
        assert upgrade.wait(timeout=60) == 0, (tmp_path / "u.log").read_text()
        for n, port in enumerate(ports):
            stack.enter_context(started(gunicorn(port, workers=2), env, tmp_path / f"{n}.log"))
        for port in ports:
            wait_for(port)
        game_id = request(ports[0], "POST", "/games", {"game": "azul", "players": 2})["id"]
        tokens = [
            request(ports[0], "POST", f"/games/{game_id}/seats", {"name": f"p{n}"})["token"]
            for n in range(2)
        ]
        view = request(ports[0], "GET", f"/games/{game_id}", token=tokens[0])  # exact
        token = tokens[view["current_players"][0]]
        moves = request(ports[0], "GET", f"/games/{game_id}/legal-moves", token=token)
        body = {"move": moves["moves"][0]["move"], "expected_version": view["version"]}
        headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": str(uuid.uuid4())}
        path = f"/games/{game_id}/moves"
        answers: list[tuple[int, bytes, str]] = []
        gate = threading.Barrier(THREADS)

        def fire(port: int) -> None:
            gate.wait()
            answers.append(send(port, path, body, headers))

        threads = [threading.Thread(target=fire, args=(ports[n % 2],)) for n in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        applied = [answer for answer in answers if answer[0] == 200]
        assert len(answers) == THREADS
        assert applied, answers
        assert {answer[1] for answer in applied} == {applied[0][1]}
        assert sum(1 for answer in applied if not answer[2]) == 1  # one ran, the rest replayed
        for status, text, _ in answers:
            if status != 200:
                assert status == 409, text
                assert json.loads(text)["code"] == "idempotency-key-in-use"
        after = request(ports[1], "GET", f"/games/{game_id}")
        assert after["version"] == view["version"] + json.loads(applied[0][1])["events"]
        again = send(ports[1], path, body, headers)
        assert again == (200, applied[0][1], "true")
    for n in range(2):
        log = (tmp_path / f"{n}.log").read_text()
        assert "Traceback" not in log, log


def test_concurrent_retries_on_sqlite(tmp_path: Path) -> None:
    storm({**os.environ, "GAMELEDGER_DATA_DIR": str(tmp_path / "data")}, tmp_path)


@pytest.mark.postgres
def test_concurrent_retries_on_postgres(pg_env: dict[str, str], tmp_path: Path) -> None:
    storm(pg_env, tmp_path)
