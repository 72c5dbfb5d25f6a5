"""The lobby verbs over HTTP (issue 13, part 4; docs/api.md, "Lobby"): leave, resign,
abort, private games, rematch and claim, their problems, the games list's statuses, and
``gameledger lobby expire``."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from api.cli import main
from infrastructure.container import Services
from tests.e2e.conftest import bearer, join_all, new_game

API = "/api/v1"


def create(client: FlaskClient, players: int = 2, **extra: object) -> dict[str, object]:
    created = client.post(f"{API}/games", json={"game": "azul", "players": players, **extra})
    assert created.status_code == 201, created.json
    body: dict[str, object] = created.json
    return body


def test_leave_and_abort(client: FlaskClient, http_services: Services) -> None:
    game = create(client)
    game_id = game["id"]
    token = client.post(f"{API}/games/{game_id}/seats", json={"name": "ann"}).json["token"]
    left = client.post(f"{API}/games/{game_id}/leave", json={}, headers=bearer(token))
    assert left.status_code == 200 and left.json["events"] == 1
    again = client.post(f"{API}/games/{game_id}/leave", json={}, headers=bearer(token))
    assert (again.status_code, again.json["code"]) == (403, "invalid-token")
    missing = client.post(f"{API}/games/{game_id}/abort", json={})
    assert (missing.status_code, missing.json["code"]) == (401, "token-required")
    stranger = client.post(f"{API}/games/{game_id}/abort", json={}, headers=bearer("x"))
    assert (stranger.status_code, stranger.json["code"]) == (403, "invalid-token")
    creator = str(game["creator_token"])
    aborted = client.post(f"{API}/games/{game_id}/abort", json={}, headers=bearer(creator))
    assert aborted.status_code == 200
    view = client.get(f"{API}/games/{game_id}").json
    assert view["status"] == "aborted"
    late = client.post(f"{API}/games/{game_id}/seats", json={"name": "bob"})
    assert (late.status_code, late.json["code"]) == (409, "game-aborted")
    http_services.catch_up()
    listed = client.get(f"{API}/games?status=aborted").json["items"]
    assert [row["id"] for row in listed] == [game_id]


def test_leave_after_the_start_is_a_conflict(client: FlaskClient) -> None:
    game_id, tokens = new_game(client)
    refused = client.post(f"{API}/games/{game_id}/leave", json={}, headers=bearer(tokens[0]))
    assert (refused.status_code, refused.json["code"]) == (409, "game-started")


def test_resign_ends_a_two_player_game(client: FlaskClient) -> None:
    game_id, tokens = new_game(client)
    version = client.get(f"{API}/games/{game_id}").json["version"]
    stale = client.post(
        f"{API}/games/{game_id}/resign", json={"expected_version": 1}, headers=bearer(tokens[0])
    )
    assert (stale.status_code, stale.json["code"]) == (409, "stale-version")
    resigned = client.post(
        f"{API}/games/{game_id}/resign",
        json={"expected_version": version},
        headers=bearer(tokens[0]),
    )
    assert resigned.status_code == 200
    view = client.get(f"{API}/games/{game_id}").json
    assert view["status"] == "finished"
    assert view["outcome"]["winners"] == [1]
    assert view["seats"][0]["resigned"] is True
    over = client.post(f"{API}/games/{game_id}/resign", json={}, headers=bearer(tokens[1]))
    assert (over.status_code, over.json["code"]) == (422, "game-over")
    record = client.get(f"{API}/games/{game_id}/record").json
    assert "SeatResigned" in [event["type"] for event in record["events"]]


def test_a_resigned_risk_seat_sees_no_hidden_cards(client: FlaskClient) -> None:
    game_id, tokens = new_game(client, players=3, game="risk")
    resigned = client.post(f"{API}/games/{game_id}/resign", json={}, headers=bearer(tokens[2]))
    assert resigned.status_code == 200
    seen = client.get(f"{API}/games/{game_id}", headers=bearer(tokens[2])).json
    spectator = client.get(f"{API}/games/{game_id}").json
    assert seen["viewer"] == {"seat": None, "arbiter": False}
    assert seen["state"] == spectator["state"]
    assert seen["seed"] is None


def test_a_private_game(client: FlaskClient, http_services: Services) -> None:
    game = create(client, private=True)
    game_id, secret = game["id"], game["join_secret"]
    assert secret and game["lobby"]["private"] is True
    bare = client.post(f"{API}/games/{game_id}/seats", json={"name": "ann"})
    assert (bare.status_code, bare.json["code"]) == (403, "join-secret-required")
    wrong = client.post(f"{API}/games/{game_id}/seats", json={"name": "ann", "secret": "no"})
    assert (wrong.status_code, wrong.json["code"]) == (403, "invalid-join-secret")
    ok = client.post(f"{API}/games/{game_id}/seats", json={"name": "ann", "secret": secret})
    assert ok.status_code == 201
    log = client.get(f"{API}/games/{game_id}/events").json["items"]
    assert str(secret) not in json.dumps(log)
    http_services.catch_up()
    assert client.get(f"{API}/games").json["items"] == []


def test_rematch_and_claim(client: FlaskClient) -> None:
    game_id, tokens = new_game(client)
    early = client.post(f"{API}/games/{game_id}/rematch", headers=bearer(tokens[0]))
    assert (early.status_code, early.json["code"]) == (409, "game-not-finished")
    client.post(f"{API}/games/{game_id}/resign", json={}, headers=bearer(tokens[1]))
    made = client.post(f"{API}/games/{game_id}/rematch", headers=bearer(tokens[0]))
    assert made.status_code == 201 and made.json["creator_token"]
    new_id = made.json["game_id"]
    assert made.headers["Location"].endswith(f"/games/{new_id}")
    again = client.post(f"{API}/games/{game_id}/rematch", headers=bearer(tokens[1]))
    assert again.json == {"game_id": new_id, "rematch_of": game_id, "creator_token": None}
    assert client.get(f"{API}/games/{game_id}").json["lobby"]["rematch"] == new_id
    taken = client.post(f"{API}/games/{new_id}/seats", json={"name": "thief"})
    assert (taken.status_code, taken.json["code"]) == (409, "seat-reserved")
    stolen = client.post(f"{API}/games/{new_id}/claim", headers=bearer("guess"))
    assert (stolen.status_code, stolen.json["code"]) == (403, "invalid-token")
    claims = [client.post(f"{API}/games/{new_id}/claim", headers=bearer(t)) for t in tokens]
    assert [c.status_code for c in claims] == [201, 201]
    assert [c.json["seat"] for c in claims] == [0, 1]
    view = client.get(f"{API}/games/{new_id}", headers=bearer(claims[0].json["token"])).json
    assert view["status"] == "active" and view["lobby"]["rematch_of"] == game_id
    no = client.post(f"{API}/games/{game_id}/claim", headers=bearer(tokens[0]))
    assert (no.status_code, no.json["code"]) == (409, "not-a-rematch")


def test_the_expire_command(
    client: FlaskClient,
    http_services: Services,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    waiting = create(client)["id"]
    started, _ = new_game(client)
    http_services.catch_up()
    monkeypatch.setenv("GAMELEDGER_STORE", "sqlite")
    monkeypatch.setenv("GAMELEDGER_SQLITE_PATH", str(http_services.settings.sqlite_path))
    monkeypatch.setenv("GAMELEDGER_LOBBY_EXPIRY_SECONDS", "1")
    time.sleep(1.01)
    assert main(["lobby", "expire"]) == 0
    printed = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert printed == {"expired": [waiting], "after_seconds": 1}
    assert client.get(f"{API}/games/{waiting}").json["status"] == "expired"
    assert client.get(f"{API}/games/{started}").json["status"] == "active"
    late = client.post(f"{API}/games/{waiting}/seats", json={"name": "bob"})
    assert (late.status_code, late.json["code"]) == (409, "game-expired")
    assert main(["lobby", "expire"]) == 0  # again: nothing more
    assert json.loads(capsys.readouterr().out.strip())["expired"] == []


def test_join_all_still_works_for_public_games(client: FlaskClient) -> None:
    game_id = create(client, players=3)["id"]
    assert len(join_all(client, str(game_id), 3)) == 3
