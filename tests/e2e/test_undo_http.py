"""Undo, turns, forks and the hash chain over HTTP (issue 3; issue 10, parts 3, 6 and 7:
the turn index after any undo, /turns paged and refusing invalid tokens, undo at a table of
three)."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.app import create_app
from application.verification import verify_record
from infrastructure.container import Services
from tests.e2e.conftest import bearer, join_all


@pytest.fixture
def still(http_services: Services) -> FlaskClient:
    """A client of the app whose read models move only when a test calls ``catch_up``
    (no background follower, so no waiting on one)."""
    return create_app(http_services, follow=False).test_client()


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
    """The whole turn index (every page) once the background follower has caught up
    (within 10 s; used by tests of a client that follows in the background)."""
    deadline = time.monotonic() + 10
    while True:
        items = all_turns(client, game_id)
        if done(items) or time.monotonic() > deadline:
            return items
        time.sleep(0.05)


def all_turns(client: FlaskClient, game_id: str) -> list[dict[str, Any]]:
    """Every page of the turn index, followed by ``next_after``."""
    items: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = client.get(f"/api/v1/games/{game_id}/turns?after={after}&limit=500").json
        items += page["items"]
        after = page["next_after"]
    return items


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


def test_tournament_undo_is_the_arbiters(still: FlaskClient, http_services: Services) -> None:
    client = still
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
    http_services.catch_up()
    turns = client.get(f"/api/v1/games/{game_id}/turns").json["items"]
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


def undo_at_once(client: FlaskClient, game_id: str, token: str, turns: int = 1) -> Any:
    """POST an undo request on the current version; the response."""
    version = client.get(f"/api/v1/games/{game_id}").json["version"]
    return client.post(
        f"/api/v1/games/{game_id}/undo-requests",
        headers=bearer(token),
        json={"turns": turns, "expected_version": version},
    )


def test_the_turn_index_after_a_free_undo_of_the_only_turn(
    still: FlaskClient, http_services: Services
) -> None:
    """Issue 10, part 3: the view said ``moves: 0`` but /turns listed turn 1 as not undone."""
    game_id, tokens, _ = create(still, undo="free")
    seat = move(still, game_id, tokens)
    http_services.catch_up()
    done = undo_at_once(still, game_id, tokens[seat])
    assert done.status_code == 200, done.json
    http_services.catch_up()
    assert still.get(f"/api/v1/games/{game_id}").json["moves"] == 0
    turns = still.get(f"/api/v1/games/{game_id}/turns").json["items"]
    assert [(t["turn"], t["undone_at"]) for t in turns] == [(1, done.json["version"])]
    live = still.get(f"/api/v1/games/{game_id}/turns?include_undone=false").json
    assert live == {"items": [], "next_after": None}


def test_the_turn_index_after_a_consent_undo_back_to_the_start(
    still: FlaskClient, http_services: Services
) -> None:
    game_id, tokens, _ = create(still)
    first = move(still, game_id, tokens)
    second = move(still, game_id, tokens)
    assert first != second
    asked = undo_at_once(still, game_id, tokens[first], turns=2)
    assert asked.status_code == 200, asked.json
    answered = still.post(
        f"/api/v1/games/{game_id}/undo-requests/answer",
        headers=bearer(tokens[second]),
        json={"accept": True, "expected_version": asked.json["version"]},
    )
    assert answered.status_code == 200, answered.json
    http_services.catch_up()
    assert still.get(f"/api/v1/games/{game_id}").json["moves"] == 0
    turns = still.get(f"/api/v1/games/{game_id}/turns").json["items"]
    assert [t["undone_at"] for t in turns] == [answered.json["version"]] * 2


def test_turns_refuses_a_token_that_holds_no_seat(
    still: FlaskClient, http_services: Services
) -> None:
    """Issue 10, part 7: /turns answered 200 to an invalid token."""
    game_id, tokens, created = create(still, tournament=True)
    move(still, game_id, tokens)
    http_services.catch_up()
    turns = f"/api/v1/games/{game_id}/turns"
    refused = still.get(turns, headers=bearer("not-a-seat-token"))
    assert refused.status_code == 403 and refused.json["code"] == "invalid-token"
    for headers in ({}, bearer(tokens[1]), bearer(created["arbiter_token"])):
        answer = still.get(turns, headers=headers)
        assert answer.status_code == 200 and len(answer.json["items"]) == 1
    missing = still.get("/api/v1/games/00000000-0000-0000-0000-000000000000/turns")
    assert missing.status_code == 404


def test_turns_are_paged_like_the_event_log(still: FlaskClient, http_services: Services) -> None:
    game_id, tokens, _ = create(still, undo="free")
    for _ in range(7):
        move(still, game_id, tokens)
    seat = move(still, game_id, tokens)
    assert undo_at_once(still, game_id, tokens[seat]).status_code == 200
    http_services.catch_up()
    turns = f"/api/v1/games/{game_id}/turns"
    every = still.get(f"{turns}?limit=500").json
    assert len(every["items"]) == 8 and every["next_after"] is None
    paged: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = still.get(f"{turns}?after={after}&limit=3").json
        assert len(page["items"]) <= 3
        paged += page["items"]
        after = page["next_after"]
    assert paged == every["items"]
    live = still.get(f"{turns}?include_undone=false&limit=7").json
    assert len(live["items"]) == 7 and live["next_after"] is None
    assert (
        still.get(f"{turns}?include_undone=false&limit=6").json["next_after"]
        == (live["items"][5]["first_version"])
    )
    for query in ("limit=0", "limit=501", "after=-1"):
        assert still.get(f"{turns}?{query}").status_code == 400, query


def test_free_undo_at_a_table_of_three_asks_the_other_seat(client: FlaskClient) -> None:
    """Issue 10, part 7: under undo: free, taking back another seat's turn needs its consent."""
    created = client.post(
        "/api/v1/games", json={"game": "azul", "players": 3, "settings": {"undo": "free"}}
    )
    game_id = created.json["id"]
    tokens = join_all(client, game_id, 3)
    first = move(client, game_id, tokens)
    second = move(client, game_id, tokens)
    assert first != second
    refused = undo_at_once(client, game_id, tokens[second], turns=2)
    assert refused.status_code == 422 and refused.json["code"] == "not-own-turn"
    asked = undo_at_once(client, game_id, tokens[first], turns=2)
    assert asked.status_code == 200 and asked.json["events"] == 1
    view = client.get(f"/api/v1/games/{game_id}").json
    assert view["moves"] == 2 and view["undo_request"]["waiting"] == [second]
    answered = client.post(
        f"/api/v1/games/{game_id}/undo-requests/answer",
        headers=bearer(tokens[second]),
        json={"accept": True, "expected_version": asked.json["version"]},
    )
    assert answered.status_code == 200 and answered.json["events"] == 2
    assert client.get(f"/api/v1/games/{game_id}").json["moves"] == 0
