"""Undo, turns, forks and the hash chain over HTTP (issue 3)."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient

from application.verification import verify_record
from tests.e2e.conftest import bearer


def create(client: FlaskClient, **settings: Any) -> tuple[str, list[str], dict[str, Any]]:
    created = client.post(
        "/api/v1/games", json={"game": "azul", "players": 2, "settings": settings}
    )
    assert created.status_code == 201, created.json
    game_id = created.json["id"]
    tokens = [
        client.post(f"/api/v1/games/{game_id}/seats", json={"name": n}).json["token"]
        for n in ("Ann", "Bob")
    ]
    return game_id, tokens, created.json


def move(
    client: FlaskClient, game_id: str, tokens: list[str], bot: random.Random | None = None
) -> int:
    """One legal move by the seat to act: the last listed, or a random one with ``bot``."""
    view = client.get(f"/api/v1/games/{game_id}").json
    seat = view["current_players"][0]
    legal = client.get(f"/api/v1/games/{game_id}/legal-moves", headers=bearer(tokens[seat])).json
    chosen = bot.choice(legal["moves"]) if bot else legal["moves"][-1]
    played = client.post(
        f"/api/v1/games/{game_id}/moves",
        headers=bearer(tokens[seat]),
        json={"move": chosen["move"], "expected_version": view["version"]},
    )
    assert played.status_code == 200, played.json
    return seat


def eventually_turns(
    client: FlaskClient, game_id: str, done: Callable[[list[dict[str, Any]]], bool]
) -> list[dict[str, Any]]:
    """The turn index once the background follower has caught up (within 10 s)."""
    deadline = time.monotonic() + 10
    while True:
        items: list[dict[str, Any]] = client.get(f"/api/v1/games/{game_id}/turns").json["items"]
        if done(items) or time.monotonic() > deadline:
            return items
        time.sleep(0.05)


def test_consent_undo_over_http(client: FlaskClient) -> None:
    game_id, tokens, created = create(client)
    assert created["arbiter_token"] is None and created["settings"]["undo"] == "consent"
    seat = move(client, game_id, tokens)
    after_first = client.get(f"/api/v1/games/{game_id}/turns/0").json
    version = client.get(f"/api/v1/games/{game_id}").json["version"]
    asked = client.post(
        f"/api/v1/games/{game_id}/undo-requests",
        headers=bearer(tokens[seat]),
        json={"expected_version": version},
    )
    assert asked.status_code == 200, asked.json
    answered = client.post(
        f"/api/v1/games/{game_id}/undo-requests/answer",
        headers=bearer(tokens[1 - seat]),
        json={"accept": True, "expected_version": asked.json["version"]},
    )
    assert answered.status_code == 200, answered.json
    now = client.get(f"/api/v1/games/{game_id}").json
    assert now["state"] == after_first["state"] and now["moves"] == 0
    again = client.post(
        f"/api/v1/games/{game_id}/undo-requests",
        headers=bearer(tokens[seat]),
        json={"expected_version": now["version"]},
    )
    assert again.status_code == 422 and again.json["code"] == "nothing-to-undo"


def test_tournament_undo_is_the_arbiters(client: FlaskClient) -> None:
    game_id, tokens, created = create(client, tournament=True)
    arbiter = created["arbiter_token"]
    assert arbiter and created["settings"] == {"undo": "none", "tournament": True}
    for _ in range(3):
        move(client, game_id, tokens)
    version = client.get(f"/api/v1/games/{game_id}").json["version"]
    refused = client.post(
        f"/api/v1/games/{game_id}/undo-requests",
        headers=bearer(tokens[0]),
        json={"expected_version": version},
    )
    assert refused.status_code == 422 and refused.json["code"] == "arbiter-only"
    forged = client.post(
        f"/api/v1/games/{game_id}/arbiter/undo",
        headers=bearer(tokens[0]),
        json={"turn": 1, "reason": "x", "expected_version": version},
    )
    assert forged.status_code == 403
    done = client.post(
        f"/api/v1/games/{game_id}/arbiter/undo",
        headers=bearer(arbiter),
        json={"turn": 1, "reason": "disputed draw", "expected_version": version},
    )
    assert done.status_code == 200, done.json
    turns = eventually_turns(client, game_id, lambda items: any(t["undone_at"] for t in items))
    assert [t["undone_at"] is not None for t in turns] == [False, True, True]
    assert [t["turn"] for t in turns] == [1, 2, 3]
    as_arbiter = client.get(f"/api/v1/games/{game_id}", headers=bearer(arbiter)).json
    assert as_arbiter["viewer"]["arbiter"] is True and as_arbiter["moves"] == 1


def test_chain_head_and_event_hashes(client: FlaskClient) -> None:
    game_id, tokens, _ = create(client)
    move(client, game_id, tokens)
    view = client.get(f"/api/v1/games/{game_id}").json
    events = client.get(f"/api/v1/games/{game_id}/events?limit=500").json["items"]
    assert events[0]["prev_hash"] == ""
    for before, after in itertools.pairwise(events):
        assert after["prev_hash"] == before["hash"]
    assert view["chain_head"] == events[-1]["hash"]


def test_fork_over_http(client: FlaskClient) -> None:
    game_id, tokens, _ = create(client)
    for _ in range(4):
        move(client, game_id, tokens)
    forked = client.post(f"/api/v1/games/{game_id}/forks", json={"turn": 2})
    assert forked.status_code == 201, forked.json
    assert forked.json["analysis"]["source"] == game_id
    at_two = client.get(f"/api/v1/games/{game_id}/turns/2").json
    fork_id = forked.json["id"]
    for name in ("X", "Y"):
        client.post(f"/api/v1/games/{fork_id}/seats", json={"name": name})
    assert client.get(f"/api/v1/games/{fork_id}").json["state"] == at_two["state"]
    missing = client.post(f"/api/v1/games/{game_id}/forks", json={"turn": 99})
    assert missing.status_code == 404 and missing.json["code"] == "no-such-turn"


def test_record_over_http_verifies(client: FlaskClient) -> None:
    game_id, tokens, _ = create(client)
    bot = random.Random(11)
    for _ in range(1000):
        if client.get(f"/api/v1/games/{game_id}").json["status"] == "finished":
            break
        move(client, game_id, tokens, bot)
    response = client.get(f"/api/v1/games/{game_id}/record")
    assert response.status_code == 200
    record = response.json
    assert record["seed"] and record["chain_head"] == record["events"][-1]["hash"]
    assert verify_record(record).ok
    scored = next(e for e in record["events"] if e["type"] == "WallTiled")
    scored["data"]["points"] += 1
    assert not verify_record(record).ok
