"""The clock scheduler in real processes (issue 15, part 5; docs/api.md, "Clocks";
docs/operations.md, "Clocks"), on SQLite and PostgreSQL: two gunicorn workers, each following
the event log and running the scheduler, flag a game whose short Fischer clock runs out — once,
though both look; and a game whose time runs out while no process runs is flagged when the
service starts again. Each record verifies."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from application.verification import verify_record
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


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def env(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, str]:
    """The processes' environment: embedded followers in every worker, a scheduler that looks
    five times a second."""
    base = {**os.environ, "GAMELEDGER_DATA_DIR": str(tmp_path / "data")}
    if request.param == "postgres":
        base = request.getfixturevalue("pg_env")
    return {
        **base,
        "GAMELEDGER_PROJECTIONS": "embedded",
        "GAMELEDGER_CLOCK_INTERVAL": "0.2",
    }


def clocked_game(port: int, base_seconds: int) -> str:
    """A game of two with a Fischer clock, both seats taken: its first seat's time runs."""
    clock = {"type": "fischer", "base_seconds": base_seconds, "increment_seconds": 0}
    body = {"game": "azul", "players": 2, "settings": {"clock": clock}}
    game_id = str(request(port, "POST", "/games", body)["id"])
    for name in ("ann", "bob"):
        request(port, "POST", f"/games/{game_id}/seats", {"name": name})
    # A spectator's view may trail the other worker's commits (docs/api.md, "Consistency"):
    # the test reads the game once both seats show.
    assert eventually(lambda: seated(port, game_id), timeout=5)
    return game_id


def seated(port: int, game_id: str) -> bool:
    return all(seat["joined"] for seat in request(port, "GET", f"/games/{game_id}")["seats"])


def flags(port: int, game_id: str) -> list[dict[str, Any]]:
    page = request(port, "GET", f"/games/{game_id}/events?type=SeatFlagged")
    return [item["data"] for item in page["items"]]


def finished(port: int, game_id: str) -> bool:
    return bool(request(port, "GET", f"/games/{game_id}")["status"] == "finished")


def test_the_scheduler_flags_once_and_after_a_restart(env: dict[str, str], tmp_path: Path) -> None:
    with started(gameledger("db", "upgrade"), env, tmp_path / "upgrade.log") as upgrade:
        assert upgrade.wait(timeout=60) == 0
    port = free_port()
    with started(gunicorn(port, workers=2), env, tmp_path / "g0.log"):
        wait_for(port)
        running = clocked_game(port, 1)
        view = request(port, "GET", f"/games/{running}")
        seat = view["clock"]["flag_seat"]
        assert eventually(lambda: finished(port, running), timeout=15)
        time.sleep(1)  # both workers' schedulers have looked again meanwhile
        assert flags(port, running) == [{"seat": seat, "by": "scheduler", "claimant": -1}]
        view = request(port, "GET", f"/games/{running}")
        assert view["outcome"]["winners"] == [1 - seat]
        assert view["outcome"]["details"]["ended_by"] == "flag"
        asleep = clocked_game(port, 2)  # its time runs out while no process runs
    time.sleep(2.2)
    with started(gunicorn(port, workers=1), env, tmp_path / "g1.log"):
        wait_for(port)
        assert eventually(lambda: finished(port, asleep), timeout=15)
        assert [f["by"] for f in flags(port, asleep)] == ["scheduler"]
        for game_id in (running, asleep):
            record = request(port, "GET", f"/games/{game_id}/record")
            assert verify_record(record).ok, game_id
    for log in tmp_path.glob("*.log"):
        text = log.read_text()
        assert "Traceback" not in text and "clock scheduler failed" not in text, (log, text)
