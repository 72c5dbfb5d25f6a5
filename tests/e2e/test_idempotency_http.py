"""``Idempotency-Key`` on every POST (issue 13, part 3; docs/api.md, "Idempotency"), on each
store: the same key and request replays the first answer and changes nothing; another request
with the key is a 422 and changes nothing; keys are per caller, expire and are purged; bad keys
are 400; answers that are not kept let a retry run again; the table holds no secret in clear."""

from __future__ import annotations

import dataclasses
import sqlite3
import time
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from flask import Flask
from flask.testing import FlaskClient
from psycopg import sql
from werkzeug.test import TestResponse

from api.app import create_app
from api.errors import PROBLEM
from api.idempotency import HEADER, REPLAYED, claim_for
from infrastructure.config import Settings
from infrastructure.container import Services, build_services
from infrastructure.idempotency import TABLE, idempotency_store
from tests.e2e.conftest import bearer, new_game


@pytest.fixture
def app(services: Services) -> Flask:
    return create_app(services, follow=False)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def key() -> dict[str, str]:
    return {HEADER: str(uuid.uuid4())}


def version(client: FlaskClient, game_id: str) -> int:
    found: int = client.get(f"/api/v1/games/{game_id}").json["version"]
    return found


def games(client: FlaskClient, services: Services) -> int:
    """How many games the store holds (the games list, brought up to date)."""
    services.catch_up()
    return len(client.get("/api/v1/games?limit=100").json["items"])


def first_move(client: FlaskClient, game_id: str, tokens: list[str]) -> tuple[str, dict[str, Any]]:
    """A seat to act's token and a body for one of its legal moves."""
    view = client.get(f"/api/v1/games/{game_id}").json
    token = tokens[view["current_players"][0]]
    moves = client.get(f"/api/v1/games/{game_id}/legal-moves", headers=bearer(token)).json
    return token, {"move": moves["moves"][0]["move"], "expected_version": view["version"]}


def assert_replayed(first: TestResponse, again: TestResponse) -> None:
    assert again.status_code == first.status_code
    assert again.data == first.data
    assert again.headers[REPLAYED] == "true"
    assert REPLAYED not in first.headers
    for name in ("Content-Type", "ETag", "Location"):
        assert again.headers.get(name) == first.headers.get(name)


def assert_problem(answer: TestResponse, status: int, code: str) -> None:
    assert answer.status_code == status, answer.json
    assert answer.mimetype == PROBLEM
    assert answer.json["code"] == code


def test_a_create_replayed_creates_nothing(client: FlaskClient, services: Services) -> None:
    sent = key()
    body = {"game": "azul", "players": 2}
    first = client.post("/api/v1/games", json=body, headers=sent)
    assert first.status_code == 201
    before = games(client, services)
    again = client.post("/api/v1/games", json={"players": 2, "game": "azul"}, headers=sent)
    assert_replayed(first, again)  # the same JSON in another key order is the same body
    assert games(client, services) == before == 1


def test_a_join_replayed_gives_the_same_seat_and_token(client: FlaskClient) -> None:
    game_id = client.post("/api/v1/games", json={"game": "azul", "players": 2}).json["id"]
    sent = key()
    first = client.post(f"/api/v1/games/{game_id}/seats", json={"name": "ann"}, headers=sent)
    assert first.status_code == 201
    seen = version(client, game_id)
    again = client.post(f"/api/v1/games/{game_id}/seats", json={"name": "ann"}, headers=sent)
    assert_replayed(first, again)
    assert again.json["token"] == first.json["token"]
    assert version(client, game_id) == seen
    other = client.post(f"/api/v1/games/{game_id}/seats", json={"name": "bob"}, headers=key())
    assert other.json["seat"] == 1 - first.json["seat"]


def test_a_move_replayed_is_applied_once(client: FlaskClient) -> None:
    game_id, tokens = new_game(client)
    token, body = first_move(client, game_id, tokens)
    sent = {**bearer(token), **key()}
    first = client.post(f"/api/v1/games/{game_id}/moves", json=body, headers=sent)
    assert first.status_code == 200, first.json
    events = client.get(f"/api/v1/games/{game_id}/events", headers=bearer(token)).json
    for _ in range(3):
        assert_replayed(
            first, client.post(f"/api/v1/games/{game_id}/moves", json=body, headers=sent)
        )
    assert version(client, game_id) == first.json["version"]
    assert client.get(f"/api/v1/games/{game_id}/events", headers=bearer(token)).json == events


def test_the_same_key_with_another_body_is_422_and_changes_nothing(
    client: FlaskClient, services: Services
) -> None:
    sent = key()
    client.post("/api/v1/games", json={"game": "azul", "players": 2}, headers=sent)
    other = client.post("/api/v1/games", json={"game": "azul", "players": 3}, headers=sent)
    assert_problem(other, 422, "idempotency-key-reused")
    elsewhere = client.post(f"/api/v1/games/{uuid.uuid4()}/seats", json={}, headers=sent)
    assert_problem(elsewhere, 422, "idempotency-key-reused")  # another path
    assert games(client, services) == 1


def test_a_move_with_the_key_of_another_version_is_422(client: FlaskClient) -> None:
    game_id, tokens = new_game(client)
    token, body = first_move(client, game_id, tokens)
    sent = {**bearer(token), **key()}
    assert client.post(f"/api/v1/games/{game_id}/moves", json=body, headers=sent).status_code == 200
    seen = version(client, game_id)
    changed = {**body, "expected_version": seen}
    answer = client.post(f"/api/v1/games/{game_id}/moves", json=changed, headers=sent)
    assert_problem(answer, 422, "idempotency-key-reused")
    assert version(client, game_id) == seen


def test_keys_are_per_caller(client: FlaskClient) -> None:
    """Two seats (two Authorization headers) may use the same key: neither sees the other's."""
    game_id, tokens = new_game(client)
    sent = key()
    first = client.post(
        f"/api/v1/games/{game_id}/forks", json={"turn": 0}, headers={**bearer(tokens[0]), **sent}
    )
    second = client.post(
        f"/api/v1/games/{game_id}/forks", json={"turn": 0}, headers={**bearer(tokens[1]), **sent}
    )
    assert first.status_code == second.status_code == 201
    assert REPLAYED not in second.headers
    assert first.json["id"] != second.json["id"]


@pytest.mark.parametrize(
    "value",
    ["", "1", "x" * 15, "x" * 256, "two words and more", "caf\u00e9-" + "x" * 16],
    ids=["empty", "guessable", "short", "long", "space", "non-ascii"],
)
def test_a_bad_key_is_400_and_changes_nothing(
    client: FlaskClient, services: Services, value: str
) -> None:
    answer = client.post(
        "/api/v1/games",
        json={"game": "azul", "players": 2},
        headers=[(HEADER, value.encode("utf-8").decode("latin-1"))],
    )
    assert_problem(answer, 400, "invalid-idempotency-key")
    assert games(client, services) == 0


@pytest.mark.parametrize("length", [16, 255])
def test_keys_of_16_to_255_characters_are_taken(client: FlaskClient, length: int) -> None:
    sent = {HEADER: "k" * length}
    first = client.post("/api/v1/games", json={"game": "azul", "players": 2}, headers=sent)
    assert_replayed(
        first, client.post("/api/v1/games", json={"game": "azul", "players": 2}, headers=sent)
    )


def test_an_answer_not_kept_lets_a_retry_run_again(client: FlaskClient) -> None:
    """A 409 (here a stale version) is not kept: the retry runs, and meets the game as it
    is then."""
    game_id, tokens = new_game(client)
    token, body = first_move(client, game_id, tokens)
    stale = {**body, "expected_version": body["expected_version"] - 1}
    sent = {**bearer(token), **key()}
    first = client.post(f"/api/v1/games/{game_id}/moves", json=stale, headers=sent)
    assert_problem(first, 409, "stale-version")
    again = client.post(f"/api/v1/games/{game_id}/moves", json=stale, headers=sent)
    assert_problem(again, 409, "stale-version")
    assert REPLAYED not in again.headers


def test_a_rules_refusal_is_kept(client: FlaskClient) -> None:
    game_id, tokens = new_game(client)
    token, body = first_move(client, game_id, tokens)
    other = tokens[1 - tokens.index(token)]
    sent = {**bearer(other), **key()}
    first = client.post(f"/api/v1/games/{game_id}/moves", json=body, headers=sent)
    assert first.status_code == 422
    assert_replayed(first, client.post(f"/api/v1/games/{game_id}/moves", json=body, headers=sent))


def test_a_key_in_flight_is_409(app: Flask, client: FlaskClient, services: Services) -> None:
    """A request whose key another request holds (still running) is 409 with Retry-After."""
    sent = key()
    body = {"game": "azul", "players": 2}
    with app.test_request_context("/api/v1/games", method="POST", json=body, headers=sent):
        claim = claim_for(sent[HEADER])
    store = idempotency_store(services.storage)
    assert store.claim(claim.key_id, claim.fingerprint, time.time(), time.time() + 60)
    answer = client.post("/api/v1/games", json=body, headers=sent)
    assert_problem(answer, 409, "idempotency-key-in-use")
    assert answer.headers["Retry-After"] == "1"
    assert games(client, services) == 0


def test_keys_expire_and_are_purged(services: Services) -> None:
    short = dataclasses.replace(services.settings, idempotency_ttl=0.05)
    client = create_app(dataclasses.replace(services, settings=short), follow=False).test_client()
    sent = key()
    client.post("/api/v1/games", json={"game": "azul", "players": 2}, headers=sent)
    time.sleep(0.1)
    again = client.post("/api/v1/games", json={"game": "azul", "players": 3}, headers=sent)
    assert again.status_code == 201  # the key expired: a new request
    assert REPLAYED not in again.headers
    assert games(client, services) == 2
    assert idempotency_store(services.storage).purge(time.time() + 1) == 1


def stored(services: Services) -> list[bytes]:
    """Every byte of the table of keys."""
    if services.storage.kind == "postgres":
        pg = services.settings.postgres
        with psycopg.connect(**pg.conninfo()) as conn:
            rows = conn.execute(
                sql.SQL("SELECT * FROM {}").format(sql.Identifier(pg.schema, TABLE))
            ).fetchall()
    else:
        with services.storage.sqlite_connection("idempotency") as conn:
            rows = conn.execute(f"SELECT * FROM {TABLE}").fetchall()
    return [bytes(value) if isinstance(value, (bytes, memoryview)) else str(value).encode()
            for row in rows for value in row]  # fmt: skip


def test_no_token_or_key_is_stored_in_clear(client: FlaskClient, services: Services) -> None:
    game_id = client.post("/api/v1/games", json={"game": "azul", "players": 2}).json["id"]
    sent = key()
    token = client.post(f"/api/v1/games/{game_id}/seats", json={"name": "ann"}, headers=sent).json[
        "token"
    ]
    moved = {**bearer(token), **key()}
    client.post(f"/api/v1/games/{game_id}/moves", json={"move": {}}, headers=moved)
    kept = stored(services)
    assert kept
    for secret in (token, sent[HEADER], moved[HEADER], game_id):
        assert not any(secret.encode() in value for value in kept), secret


def test_gets_and_routes_that_do_not_exist_ignore_the_key(client: FlaskClient) -> None:
    sent = {HEADER: "1"}
    assert client.get("/api/v1/games", headers=sent).status_code == 200
    assert client.post("/api/v1/nowhere", json={}, headers=sent).status_code == 404


@pytest.fixture
def sqlite_services(tmp_path: Any) -> Iterator[Services]:
    built = build_services(Settings(store="sqlite", sqlite_path=tmp_path / "kept.db"))
    yield built
    built.close()


def test_sqlite_keeps_keys_beside_the_event_store(sqlite_services: Services) -> None:
    """Keys outlive the process: a second app on the same file replays."""
    sent = key()
    body = {"game": "azul", "players": 2}
    first = (
        create_app(sqlite_services, follow=False)
        .test_client()
        .post("/api/v1/games", json=body, headers=sent)
    )
    path = sqlite_services.settings.sqlite_file("idempotency")
    assert sqlite3.connect(path).execute(f"SELECT count(*) FROM {TABLE}").fetchone() == (1,)
    settings = sqlite_services.settings
    sqlite_services.close()
    later = build_services(settings)
    try:
        again = (
            create_app(later, follow=False)
            .test_client()
            .post("/api/v1/games", json=body, headers=sent)
        )
        assert_replayed(first, again)
    finally:
        later.close()


def test_any_post_route_takes_a_key_and_a_failure_is_not_kept(services: Services) -> None:
    """A POST route added later gets the key with nothing of its own; a 500 releases the key,
    so the retry runs again (here: succeeds)."""
    app = create_app(services, follow=False)
    calls: list[int] = []

    def flaky() -> tuple[dict[str, int], int]:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("a bug, once")
        return {"calls": len(calls)}, 201

    app.add_url_rule("/api/v1/flaky", "flaky", flaky, methods=["POST"])
    client = app.test_client()
    sent = key()
    failed = client.post("/api/v1/flaky", json={}, headers=sent)
    assert_problem(failed, 500, "internal-error")
    done = client.post("/api/v1/flaky", json={}, headers=sent)
    assert done.status_code == 201
    assert REPLAYED not in done.headers
    assert_replayed(done, client.post("/api/v1/flaky", json={}, headers=sent))
    assert len(calls) == 2


def test_a_request_that_outlives_its_lease_is_logged(
    services: Services, caplog: pytest.LogCaptureFixture
) -> None:
    """A retry after the lease runs a still-running command again, so the lease must be far
    longer than any command (GAMELEDGER_IDEMPOTENCY_LEASE, 300 s by default); a request that
    outlives it anyway is logged for the operator (docs/operations.md)."""
    assert Settings().idempotency_lease == 300
    services.settings = dataclasses.replace(services.settings, idempotency_lease=0.05)
    app = create_app(services, follow=False)

    def slow() -> tuple[dict[str, bool], int]:
        time.sleep(0.1)
        return {"done": True}, 201

    app.add_url_rule("/api/v1/slow", "slow", slow, methods=["POST"])
    with caplog.at_level("WARNING", logger="gameledger.idempotency"):
        assert app.test_client().post("/api/v1/slow", json={}, headers=key()).status_code == 201
    assert "GAMELEDGER_IDEMPOTENCY_LEASE" in caplog.text


def test_the_document_declares_the_replay_header_on_every_answer_that_may_be_replayed(
    client: FlaskClient,
) -> None:
    """Successes and the kept refusals (404, 422) are replayed with ``Idempotent-Replayed``:
    the OpenAPI document says so on each POST."""
    paths = client.get("/api/v1/openapi.json").json["paths"]
    for path, operations in paths.items():
        responses = operations.get("post", {}).get("responses", {})
        for status, response in responses.items():
            replayable = status.startswith("2") or status in ("404", "422")
            assert (REPLAYED in response.get("headers", {})) == replayable, (path, status)
