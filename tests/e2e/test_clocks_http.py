"""Clocks over HTTP (issue 15, part 5; docs/api.md, "Clocks"), every answer checked against the
OpenAPI document: a Fischer game with a short base whose clock counts down in the view, a claim
refused while the seat has time and accepted after, a move's measured time in the event log,
the bad controls refused with ``invalid-clock``, and the record verified."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.app import create_app
from application.verification import verify_record
from infrastructure.config import Settings
from infrastructure.container import build_services
from tests.e2e.conftest import bearer, join_all

BASE = 1
"""The Fischer base of the games here, in seconds (short: the test waits it out once)."""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[FlaskClient]:
    """The service on a SQLite file, its read models followed, its clock scheduler off: the
    flags here are the players' (the scheduler's: tests/e2e/test_clock_processes.py)."""
    built = build_services(
        Settings(store="sqlite", sqlite_path=tmp_path / "e2e.db", clock_interval=0)
    )
    yield create_app(built, follow=True).test_client()
    built.close()


def clocked(client: FlaskClient, players: int = 2, **control: Any) -> tuple[str, list[str]]:
    clock = {"type": "fischer", "base_seconds": BASE, "increment_seconds": 0, **control}
    created = client.post(
        "/api/v1/games",
        json={"game": "azul", "players": players, "settings": {"clock": clock}},
    )
    assert created.status_code == 201, created.json
    assert created.json["settings"]["clock"] == clock
    assert created.json["clock"]["seats"][0]["running"] is False  # nobody seated yet
    return created.json["id"], join_all(client, created.json["id"], players)


def test_a_fischer_game_counts_down_and_a_claim_waits_for_the_time(client: FlaskClient) -> None:
    game_id, tokens = clocked(client, increment_seconds=1)
    game = f"/api/v1/games/{game_id}"
    view = client.get(game).json
    clock = view["clock"]
    mover = clock["flag_seat"]
    assert view["current_players"] == [mover]
    assert clock["seats"][mover]["remaining_ms"] == BASE * 1000
    flag_at = datetime.fromisoformat(clock["flag_at"])
    assert (flag_at - datetime.fromisoformat(clock["as_of"])).total_seconds() == BASE
    early = client.post(f"{game}/flag", json={"seat": mover}, headers=bearer(tokens[1 - mover]))
    assert early.status_code == 409 and early.json["code"] == "time-remaining"
    legal = client.get(f"{game}/legal-moves", headers=bearer(tokens[mover])).json
    body = {"move": legal["moves"][0]["move"], "expected_version": legal["version"]}
    moved = client.post(f"{game}/moves", json=body, headers=bearer(tokens[mover]))
    assert moved.status_code == 200, moved.json
    events = client.get(f"{game}/events?type=MoveMade").json["items"]
    elapsed = events[-1]["data"]["elapsed_ms"]
    assert 0 <= elapsed < BASE * 1000
    seats = client.get(game).json["clock"]["seats"]
    assert seats[mover]["remaining_ms"] == BASE * 1000 - elapsed + 1000  # the increment
    other = 1 - mover
    assert seats[other]["running"] and seats[other]["remaining_ms"] == BASE * 1000
    wait = datetime.fromisoformat(seats[other]["flag_at"]) - datetime.now(UTC)
    time.sleep(max(0.0, wait.total_seconds()) + 0.05)
    flagged = client.post(f"{game}/flag", json={}, headers=bearer(tokens[mover]))
    assert flagged.status_code == 200, flagged.json
    view = client.get(game).json
    assert view["status"] == "finished" and view["outcome"]["winners"] == [mover]
    assert view["outcome"]["details"] == {"ended_by": "flag", "resigned": [], "flagged": [other]}
    assert view["lobby"]["flagged"] == [other] and view["clock"]["seats"][other]["flagged"]
    again = client.post(f"{game}/flag", json={"seat": other}, headers=bearer(tokens[mover]))
    assert again.status_code == 422 and again.json["code"] == "game-over"
    flags = client.get(f"{game}/events?type=SeatFlagged").json["items"]
    assert [f["data"] for f in flags] == [{"seat": other, "by": "claim", "claimant": mover}]
    assert verify_record(client.get(f"{game}/record").json).ok


def test_a_late_move_is_answered_out_of_time(client: FlaskClient) -> None:
    game_id, tokens = clocked(client)
    game = f"/api/v1/games/{game_id}"
    mover = client.get(game).json["clock"]["flag_seat"]
    legal = client.get(f"{game}/legal-moves", headers=bearer(tokens[mover])).json
    time.sleep(BASE + 0.05)
    body = {"move": legal["moves"][0]["move"], "expected_version": legal["version"]}
    late = client.post(f"{game}/moves", json=body, headers=bearer(tokens[mover]))
    assert late.status_code == 409 and late.json["code"] == "out-of-time"
    view = client.get(game).json
    assert view["lobby"]["flagged"] == [mover] and view["status"] == "finished"


def test_the_claimant_needs_a_seat_and_the_game_a_clock(client: FlaskClient) -> None:
    plain = client.post("/api/v1/games", json={"game": "azul", "players": 2}).json
    assert plain["clock"] is None and "clock" not in plain["settings"]
    tokens = join_all(client, plain["id"], 2)
    game = f"/api/v1/games/{plain['id']}"
    refused = client.post(f"{game}/flag", json={"seat": 0}, headers=bearer(tokens[0]))
    assert refused.status_code == 409 and refused.json["code"] == "no-clock"
    anonymous = client.post(f"{game}/flag", json={"seat": 0})
    assert anonymous.status_code == 401
    game_id, tokens = clocked(client)
    beyond = client.post(
        f"/api/v1/games/{game_id}/flag", json={"seat": 5}, headers=bearer(tokens[0])
    )
    assert beyond.status_code == 409 and beyond.json["code"] == "no-such-seat"


@pytest.mark.parametrize(
    "clock",
    [
        {"type": "fischer", "base_seconds": 0, "increment_seconds": 0},
        {"type": "fischer", "base_seconds": 60},
        {"type": "correspondence", "per_move": 40, "unit": "days"},
        {"type": "correspondence", "per_move": 3, "unit": "weeks"},
        {"type": "hourglass"},
        {"type": ["fischer"]},
        {"type": {"fischer": 1}},
        {"type": "correspondence", "per_move": 3, "unit": ["days"]},
    ],
)
def test_a_bad_control_is_refused(client: FlaskClient, clock: dict[str, Any]) -> None:
    answer = client.post(
        "/api/v1/games", json={"game": "azul", "players": 2, "settings": {"clock": clock}}
    )
    assert answer.status_code == 422 and answer.json["code"] == "invalid-clock"


def test_a_correspondence_game_shows_its_allowance(client: FlaskClient) -> None:
    clock = {"type": "correspondence", "per_move": 2, "unit": "days"}
    created = client.post(
        "/api/v1/games", json={"game": "carcassonne", "players": 3, "settings": {"clock": clock}}
    ).json
    join_all(client, created["id"], 3)
    view = client.get(f"/api/v1/games/{created['id']}").json
    assert view["clock"]["control"] == clock
    assert [s["remaining_ms"] for s in view["clock"]["seats"]] == [2 * 86_400_000] * 3


def test_an_undo_or_a_resignation_after_the_time_ran_out_flags_first(client: FlaskClient) -> None:
    """No command is decided while a flag is due (docs/api.md, "Clocks"): another seat's undo
    request, then its resignation, each records the flag of the seat whose time ran out
    (a claim by the sender) and is answered 409 ``out-of-time``."""
    game_id, tokens = clocked(client, players=3)
    game = f"/api/v1/games/{game_id}"
    late = client.get(game).json["clock"]["flag_seat"]
    sender = (late + 1) % 3
    version = client.get(game).json["version"]
    time.sleep(BASE + 0.05)
    body = {"turns": 1, "expected_version": version}
    undo = client.post(f"{game}/undo-requests", json=body, headers=bearer(tokens[sender]))
    assert undo.status_code == 409 and undo.json["code"] == "out-of-time", undo.json
    view = client.get(game).json
    assert view["lobby"]["flagged"] == [late] and view["status"] != "finished"
    assert not client.get(f"{game}/events?type=UndoRequested").json["items"]
    nxt = view["clock"]["flag_seat"]  # the bot moved for the flagged seat: the next one runs
    resigning = next(seat for seat in range(3) if seat not in (late, nxt))
    wait = datetime.fromisoformat(view["clock"]["flag_at"]) - datetime.now(UTC)
    time.sleep(max(0.0, wait.total_seconds()) + 0.05)
    body = {"expected_version": view["version"]}
    resign = client.post(f"{game}/resign", json=body, headers=bearer(tokens[resigning]))
    assert resign.status_code == 409 and resign.json["code"] == "out-of-time", resign.json
    flags = client.get(f"{game}/events?type=SeatFlagged").json["items"]
    assert [f["data"] for f in flags] == [
        {"seat": late, "by": "claim", "claimant": sender},
        {"seat": nxt, "by": "claim", "claimant": resigning},
    ]
    assert client.get(game).json["outcome"]["winners"] == [resigning]
    assert verify_record(client.get(f"{game}/record").json).ok
