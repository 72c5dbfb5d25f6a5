"""``gameledger tournament simulate``, ``tournament export`` and ``verify`` of a tournament
record (issue 15, parts 6 and 7; docs/tournaments.md, "Simulating a tournament", "Verifying a
tournament"), run as users run them: the console script on a SQLite store in a data
directory of its own."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_cli import BIN, last_json_line


def run(args: list[str], data: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The console script with no GAMELEDGER_ variable but the data directory."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GAMELEDGER_")}
    env["GAMELEDGER_DATA_DIR"] = str(data)
    return subprocess.run(
        [str(BIN), *args],
        env=env,
        input=stdin,
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )


def simulated(data: Path, *options: str) -> tuple[dict[str, Any], Path]:
    """A tournament simulated on the SQLite store of ``data``: its summary and record file."""
    record = data / "record.json"
    done = run(["tournament", "simulate", "--game", "azul", *options, "-o", str(record)], data)
    assert done.returncode == 0, done.stderr
    return last_json_line(done.stdout), record


@pytest.mark.parametrize(
    ("options", "rounds", "tables"),
    [
        (["--format", "swiss", "--entrants", "6", "--rounds", "3", "--seed", "1"], 3, 9),
        (
            [
                "--format",
                "swiss",
                "--entrants",
                "7",
                "--rounds",
                "2",
                "--table-size",
                "3",
                "--min-table-size",
                "2",
            ],
            2,
            6,
        ),
        (["--format", "round-robin", "--entrants", "4"], 3, 6),
        (["--format", "elimination", "--entrants", "6", "--seed", "4"], 3, 5),
    ],
    ids=["swiss", "swiss-tables-of-3", "round-robin", "elimination"],
)
def test_each_format_is_simulated_exported_and_verified(
    tmp_path: Path, options: list[str], rounds: int, tables: int
) -> None:
    summary, record = simulated(tmp_path, *options)
    entrants = int(options[options.index("--entrants") + 1])
    assert summary["format"] == options[1] and summary["entrants"] == entrants
    assert summary["rounds"] == rounds and summary["tables"] == summary["games"] == tables
    assert summary["verified"] is True and summary["finished"] is True
    assert summary["winner"] in {f"bot-{n}" for n in range(1, entrants + 1)}
    assert float(summary["seconds"]) > 0 and summary["record"] == str(record)
    verified = run(["verify", str(record)], tmp_path)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout.startswith(f"OK: tournament {summary['tournament_id']} (")
    assert f"{rounds} rounds, {tables} tables ({tables} played" in verified.stdout


def test_export_verify_with_pinned_keys_and_the_exit_codes(tmp_path: Path) -> None:
    summary, _ = simulated(tmp_path, "--format", "swiss", "--entrants", "5", "--rounds", "2")
    tid = summary["tournament_id"]
    exported = run(["tournament", "export", tid, "-o", str(tmp_path / "t.json")], tmp_path)
    assert exported.returncode == 0, exported.stderr
    assert json.loads(exported.stdout) == {
        "tournament_id": tid,
        "file": str(tmp_path / "t.json"),
        "events": 4
        + 2 * 5
        + summary["rounds"]
        + summary["tables"],  # 4: created, check-in, start, end
        "games": summary["tables"],
    }
    keys = run(["keys", "show", "--json"], tmp_path)
    (tmp_path / "keys.json").write_text(keys.stdout)
    pinned = run(
        ["verify", str(tmp_path / "t.json"), "--keys", str(tmp_path / "keys.json")], tmp_path
    )
    assert pinned.returncode == 0, pinned.stdout
    key_id = json.loads(keys.stdout)["keys"][0]["key_id"]
    assert pinned.stdout.rstrip().endswith(f"signed by pinned key {key_id}.")
    as_json = run(["verify", "-", "--json"], tmp_path, stdin=(tmp_path / "t.json").read_text())
    report = json.loads(as_json.stdout)
    assert as_json.returncode == 0 and report["ok"] and report["record"] == "tournament"

    record = json.loads((tmp_path / "t.json").read_text())
    paired = next(e for e in record["events"] if e["type"] == "RoundPaired")
    paired["data"]["byes"] = []
    (tmp_path / "tampered.json").write_text(json.dumps(record))
    tampered = run(["verify", str(tmp_path / "tampered.json")], tmp_path)
    assert tampered.returncode == 1
    assert tampered.stdout.startswith(f"INVALID: event {paired['version']} (RoundPaired): hash ")

    (tmp_path / "broken.json").write_text("{")
    assert run(["verify", str(tmp_path / "broken.json")], tmp_path).returncode == 2


def test_an_unknown_tournament_and_a_bad_format_are_refused(tmp_path: Path) -> None:
    simulated(tmp_path, "--format", "swiss", "--entrants", "2", "--rounds", "1")
    missing = run(["tournament", "export", "00000000-0000-4000-8000-000000000000"], tmp_path)
    assert missing.returncode == 1
    assert missing.stderr.startswith("gameledger: tournament-not-found: ")
    refused = run(
        [
            "tournament",
            "simulate",
            "--game",
            "azul",
            "--entrants",
            "3",
            "--format",
            "swiss",
            "--table-size",
            "9",
        ],
        tmp_path,
    )
    assert refused.returncode == 1 and refused.stderr.startswith("gameledger: invalid-format: ")
