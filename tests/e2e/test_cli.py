"""The ``gameledger`` command (issue 2, part 9), run as users run it."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from uuid import UUID

import pytest

from api.cli import main
from application.simulation import simulate
from infrastructure.config import Settings
from infrastructure.container import build_services

BIN = Path(sys.executable).parent / "gameledger"


def last_json_line(text: str) -> dict[str, object]:
    lines = [line for line in text.splitlines() if line.strip()]
    value: dict[str, object] = json.loads(lines[-1])
    return value


def test_simulate_in_memory(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["simulate", "azul", "--games", "3", "--players", "4", "--seed", "1", "--memory"]) == 0
    )
    report = last_json_line(capsys.readouterr().out)
    assert report["game"] == "azul" and report["games"] == 3 and report["finished"] == 3
    assert float(report["seconds"]) > 0 and float(report["games_per_second"]) > 0  # type: ignore[arg-type]
    assert "game_ids" not in report


def test_simulate_is_reproducible_with_a_seed() -> None:
    outcomes = []
    for _ in range(2):
        services = build_services(Settings(store="memory", embedded_projections=False))
        report = simulate(
            services.app, "azul", games=2, players=3, seed=5, options={"wall": "gray"}
        )
        outcomes.append([services.app.view(UUID(g))["outcome"] for g in report["game_ids"]])
        services.close()
    assert outcomes[0] == outcomes[1] and all(outcomes[0])


def test_simulate_on_sqlite_then_rebuild(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GAMELEDGER_STORE", "sqlite")
    monkeypatch.setenv("GAMELEDGER_SQLITE_PATH", str(tmp_path / "sim.db"))
    assert main(["simulate", "azul", "--games", "3", "--players", "2", "--seed", "9"]) == 0
    report = last_json_line(capsys.readouterr().out)
    assert report["finished"] == 3 and len(report["game_ids"]) == 3  # type: ignore[arg-type]

    services = build_services(Settings.from_env())
    before = services.games_list.all_rows()
    services.close()
    assert sorted(r.game_id for r in before) == sorted(report["game_ids"])  # type: ignore[arg-type]
    assert all(r.status == "finished" for r in before)

    assert main(["projections", "rebuild"]) == 0
    rebuilt = last_json_line(capsys.readouterr().out)
    assert rebuilt["games"] == 3
    services = build_services(Settings.from_env())
    assert services.games_list.all_rows() == before
    services.close()


def test_the_console_script_prints_json_last(tmp_path: Path) -> None:
    env = {**os.environ, "GAMELEDGER_SQLITE_PATH": str(tmp_path / "s.db")}
    done = subprocess.run(
        [str(BIN), "simulate", "azul", "--games", "2", "--players", "3", "--seed", "1"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=True,
    )
    report = last_json_line(done.stdout)
    assert report["finished"] == 2 and len(report["game_ids"]) == 2  # type: ignore[arg-type]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_serve_answers_over_real_http(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "GAMELEDGER_SQLITE_PATH": str(tmp_path / "served.db")}
    server = subprocess.Popen(
        [str(BIN), "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}/api/v1"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/health", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        request = urllib.request.Request(
            base + "/games",
            data=json.dumps({"game": "azul", "players": 2}).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=5) as response:
            created = json.loads(response.read())
        assert created["status"] == "waiting"
        for _ in range(100):
            with urllib.request.urlopen(base + "/games", timeout=5) as response:
                listed = json.loads(response.read())
            if len(listed["items"]) == 1:
                break
            time.sleep(0.05)
        assert listed["items"][0]["id"] == created["id"]
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert (tmp_path / "served.db").exists()
