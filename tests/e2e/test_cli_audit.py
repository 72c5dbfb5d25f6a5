"""The record commands of ``gameledger`` (issue 3, part 6), run as users run them: export
from the configured store, verify, replay, import into another store."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from api.cli import main
from application.verification import replay_record
from infrastructure.config import Settings
from infrastructure.container import build_services
from tests.application.test_verification import (
    finished,
    first,
    rehash,
    unfinished_with_sealed_events,
)

BIN = Path(sys.executable).parent / "gameledger"


def use_store(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    """Point the configured store at a SQLite file."""
    monkeypatch.setenv("GAMELEDGER_STORE", "sqlite")
    monkeypatch.setenv("GAMELEDGER_SQLITE_PATH", str(path))


@pytest.fixture
def game_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> UUID:
    """A finished game in the configured store."""
    use_store(monkeypatch, tmp_path / "games.db")
    services = build_services(Settings.from_env())
    played = finished(services.app, 3, "colored", seed="cli").game_id
    services.close()
    return played


def test_export_verify_replay_and_import(
    game_id: UUID,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["export", str(game_id)]) == 0
    record: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert record["game"]["id"] == str(game_id) and record["seed"] == "cli-3-colored"

    path = tmp_path / "game.json"
    assert main(["export", str(game_id), "-o", str(path)]) == 0
    written = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert written == {"game_id": str(game_id), "file": str(path), "events": len(record["events"])}
    assert json.loads(path.read_text()) == record

    assert main(["verify", str(path)]) == 0
    assert capsys.readouterr().out.startswith(f"OK: game {game_id} (azul, 3 players)")

    assert main(["replay", str(path), "--to", "4"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed == replay_record(record, 4) and replayed["turn"] == 4

    use_store(monkeypatch, tmp_path / "elsewhere.db")
    assert main(["import", str(path)]) == 0
    assert capsys.readouterr().out.strip() == str(game_id)
    assert main(["export", str(game_id)]) == 0
    again = json.loads(capsys.readouterr().out)
    # the first store never followed its log (no checkpoint); the import caught the new one's
    # up, which logged the game's end there, signed by its own key
    assert record["transparency"] is None
    assert again["transparency"]["checkpoint"]["ended"] is True
    assert {**again, "transparency": None} == record

    assert main(["import", str(path)]) == 1
    assert "game-exists" in capsys.readouterr().err


def test_verify_names_the_first_discrepancy(
    game_id: UUID, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", str(game_id)]) == 0
    record = json.loads(capsys.readouterr().out)
    scored = first(record, "WallTiled", last=True)
    points = scored["data"]["points"]
    scored["data"]["points"] = points + 3
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(rehash(record)))

    assert main(["verify", str(path)]) == 1
    assert capsys.readouterr().out.strip() == (
        f"INVALID: event {scored['version']} (WallTiled): "
        f"data.points recorded {points + 3}, the rules give {points}"
    )
    assert main(["verify", str(path), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False and report["version"] == scored["version"]

    assert main(["replay", str(path)]) == 1
    assert "invalid-record" in capsys.readouterr().err
    assert main(["import", str(path)]) == 1
    assert "invalid-record" in capsys.readouterr().err


def test_verify_says_the_records_moves_and_those_re_decided(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 10, part 7: an unfinished record's moves are not only those re-decided."""
    services = build_services(Settings(store="memory", embedded_projections=False))
    try:
        record = unfinished_with_sealed_events(services.app)
    finally:
        services.close()
    path = tmp_path / "running.json"
    path.write_text(json.dumps(record))
    moves = len(record["moves"])

    assert main(["verify", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["moves"] == moves and 0 < report["moves_redecided"] < moves
    assert main(["verify", str(path)]) == 0
    summary = capsys.readouterr().out
    assert f", {moves} moves ({report['moves_redecided']} re-decided by the rules), " in summary


def test_errors_are_reported_not_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    use_store(monkeypatch, tmp_path / "empty.db")
    assert main(["export", "00000000-0000-4000-8000-000000000000"]) == 2
    assert "there is no GameLedger store" in capsys.readouterr().err
    build_services(Settings.from_env()).close()  # an empty store, as the service creates it
    assert main(["export", "00000000-0000-4000-8000-000000000000"]) == 1
    assert "game-not-found" in capsys.readouterr().err
    assert main(["verify", str(tmp_path / "missing.json")]) == 2
    assert "cannot read a record" in capsys.readouterr().err
    (tmp_path / "bad.json").write_text("{not json")
    assert main(["verify", str(tmp_path / "bad.json")]) == 2


def test_the_console_script_exports_into_verify(game_id: UUID, tmp_path: Path) -> None:
    env = {**os.environ}
    exported = subprocess.run(
        [str(BIN), "export", str(game_id)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=True,
    )
    verified = subprocess.run(
        [str(BIN), "verify", "-"],
        input=exported.stdout,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert verified.returncode == 0, verified.stderr
    assert verified.stdout.startswith(f"OK: game {game_id}")
