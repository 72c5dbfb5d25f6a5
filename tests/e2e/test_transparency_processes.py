"""The transparency log with the service in real processes (docs/operations.md, "Transparency
log"): two gunicorn workers, each following the event log with its embedded followers, and a
``projections run`` beside them all checkpoint the same games; each game's end is logged once,
running games are checkpointed on the schedule, the log has no gap and every signed head is its
tree's, and after all of them restart nothing is logged twice — on SQLite and PostgreSQL."""

from __future__ import annotations

import os
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from application.checkpoints import canonical_json
from domain.merkle import MemoryTree
from tests.e2e.test_cli import free_port
from tests.e2e.test_gunicorn import wait_for
from tests.e2e.test_processes import (  # noqa: F401 - pg_env: a fixture
    eventually,
    gameledger,
    gunicorn,
    pg_env,
    request,
    started,
)

CHECKPOINT_INTERVAL = "0.3"


def ended_game(port: int) -> str:
    """A game of two created, joined, one move made and then resigned (over); its id."""
    game_id = str(request(port, "POST", "/games", {"game": "azul", "players": 2})["id"])
    tokens = [
        request(port, "POST", f"/games/{game_id}/seats", {"name": f"p{n}"})["token"]
        for n in range(2)
    ]
    view = request(port, "GET", f"/games/{game_id}", token=tokens[1])  # a seat's view: exact
    request(port, "POST", f"/games/{game_id}/resign", {"expected_version": view["version"]},
            token=tokens[0])  # fmt: skip
    return game_id


def whole_log(port: int) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    start: int | None = 0
    while start is not None:
        page = request(port, "GET", f"/log/entries?start={start}&limit=50")
        entries += page["items"]
        start = page["next_start"]
    return entries


def check(port: int) -> list[dict[str, Any]]:
    """No gap, nothing twice, the latest signed head is the tree of the entries."""
    entries = whole_log(port)
    assert [e["leaf_index"] for e in entries] == list(range(len(entries)))
    logged = [(e["checkpoint"]["game"], e["checkpoint"]["version"]) for e in entries]
    assert len(set(logged)) == len(logged)
    tree = MemoryTree()
    for entry in entries:
        tree.append(canonical_json(entry["checkpoint"]))
    head = request(port, "GET", f"/log/tree-heads/{len(entries)}")
    assert head["root_hash"] == tree.root().hex()
    return entries


def ends(entries: list[dict[str, Any]]) -> list[str]:
    return sorted(e["checkpoint"]["game"] for e in entries if e["checkpoint"]["ended"])


def settled(port: int, games: list[str], running: str) -> list[dict[str, Any]]:
    """The log once every game's end and the running game's scheduled checkpoint are in."""
    assert eventually(lambda: ends(whole_log(port)) == sorted(games))
    assert eventually(lambda: request(port, "GET", f"/games/{running}/checkpoints")["items"])
    return check(port)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def env(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, str]:
    """The processes' environment: embedded followers in every worker, a short schedule."""
    base = {**os.environ, "GAMELEDGER_DATA_DIR": str(tmp_path / "data")}
    if request.param == "postgres":
        base = request.getfixturevalue("pg_env")
    return {
        **base,
        "GAMELEDGER_PROJECTIONS": "embedded",
        "GAMELEDGER_CHECKPOINT_INTERVAL": CHECKPOINT_INTERVAL,
    }


def test_every_process_checkpoints_and_each_end_is_logged_once(
    env: dict[str, str], tmp_path: Path
) -> None:
    with started(gameledger("db", "upgrade"), env, tmp_path / "upgrade.log") as upgrade:
        assert upgrade.wait(timeout=60) == 0
    port = free_port()
    games: list[str] = []
    for run in range(2):
        with ExitStack() as stack:
            stack.enter_context(started(gunicorn(port, workers=2), env, tmp_path / f"g{run}.log"))
            stack.enter_context(
                started(gameledger("projections", "run"), env, tmp_path / f"r{run}.log")
            )
            wait_for(port)
            games += [ended_game(port) for _ in range(3)]
            running = str(request(port, "POST", "/games", {"game": "azul", "players": 2})["id"])
            entries = settled(port, games, running)
        scheduled = [e for e in entries if e["checkpoint"]["game"] == running]
        assert [e["checkpoint"]["ended"] for e in scheduled] == [False]
    for log in tmp_path.glob("*.log"):
        text = log.read_text()
        assert "Traceback" not in text and "cannot apply" not in text, (log, text)
