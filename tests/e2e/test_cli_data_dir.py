"""Where the CLI finds its store (issue 10, part 8; docs/operations.md, "Where the data
lives"): one data directory whatever the current folder, moved by ``GAMELEDGER_DATA_DIR``;
a command that only reads a store never creates an empty one."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests.e2e.test_cli import BIN


def run(
    args: list[str], cwd: Path, data: Path | None, **extra_env: str
) -> subprocess.CompletedProcess[str]:
    """The console script run from ``cwd`` with no GAMELEDGER_ variable but the data
    directory (when given) and ``extra_env``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GAMELEDGER_")}
    env.update(extra_env)
    if data is not None:
        env["GAMELEDGER_DATA_DIR"] = str(data)
    return subprocess.run(
        [str(BIN), *args],
        cwd=cwd,
        env=env,
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )


def files_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


def test_export_works_from_any_folder(tmp_path: Path) -> None:
    data, elsewhere = tmp_path / "data", tmp_path / "elsewhere"
    elsewhere.mkdir()
    simulated = run(
        ["simulate", "azul", "--games", "1", "--players", "2", "--seed", "3"], tmp_path, data
    )
    assert simulated.returncode == 0, simulated.stderr
    game_id = json.loads(simulated.stdout.splitlines()[-1])["game_ids"][0]
    exported = run(["export", game_id], elsewhere, data)
    assert exported.returncode == 0, exported.stderr
    assert json.loads(exported.stdout)["game"]["id"] == game_id
    assert files_under(elsewhere) == []


def test_reading_a_missing_store_creates_nothing(tmp_path: Path) -> None:
    data, elsewhere = tmp_path / "data", tmp_path / "elsewhere"
    elsewhere.mkdir()
    for args in (["export", "0b7e1f4c-0000-4000-8000-000000000000"], ["projections", "rebuild"]):
        answer = run(args, elsewhere, data)
        assert answer.returncode == 2, answer.stderr
        assert "there is no GameLedger store at" in answer.stderr
        assert str(data / "gameledger.db") in answer.stderr
    assert not data.exists()
    assert files_under(elsewhere) == []


def test_the_default_data_directory_is_the_users(tmp_path: Path) -> None:
    answer = run(
        ["export", "0b7e1f4c-0000-4000-8000-000000000000"],
        tmp_path,
        None,
        XDG_DATA_HOME=str(tmp_path / "xdg"),
        HOME=str(tmp_path / "home"),
    )
    assert answer.returncode == 2
    assert str(tmp_path / "xdg" / "gameledger" / "gameledger.db") in answer.stderr
