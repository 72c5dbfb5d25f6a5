"""Reads near the framework's own speed, and still right (issue 12, part 6; docs/api.md,
"Conditional requests" and "The games list"): a view names its version in ``ETag`` and a
client that has it gets 304; the games list is paged by cursor, every game once, in order."""

from __future__ import annotations

from uuid import UUID

from flask.testing import FlaskClient

from application.service import GameLedger
from infrastructure.container import Services
from tests.e2e.conftest import bearer, new_game

API = "/api/v1/games"


def play_first_move(client: FlaskClient, game_id: str, tokens: list[str]) -> None:
    view = client.get(f"{API}/{game_id}").json
    seat = view["current_players"][0]
    move = client.get(f"{API}/{game_id}/legal-moves", headers=bearer(tokens[seat])).json
    played = client.post(
        f"{API}/{game_id}/moves",
        json={"move": move["moves"][0]["move"], "expected_version": view["version"]},
        headers=bearer(tokens[seat]),
    )
    assert played.status_code == 200, played.json


def test_a_view_the_client_has_is_304(client: FlaskClient) -> None:
    game_id, tokens = new_game(client, players=2)
    first = client.get(f"{API}/{game_id}")
    etag = first.headers["ETag"]
    assert etag == f'"{first.json["version"]}"'
    again = client.get(f"{API}/{game_id}", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == etag
    for header in (f"W/{etag}", f'"0", {etag}', "*"):
        assert client.get(f"{API}/{game_id}", headers={"If-None-Match": header}).status_code == 304
    assert client.get(f"{API}/{game_id}", headers={"If-None-Match": '"1"'}).status_code == 200
    seat = client.get(f"{API}/{game_id}", headers={**bearer(tokens[0]), "If-None-Match": etag})
    assert seat.status_code == 304  # the same version; Vary: Authorization keeps caches apart
    assert "Authorization" in seat.headers["Vary"]

    play_first_move(client, game_id, tokens)
    moved = client.get(f"{API}/{game_id}", headers={"If-None-Match": etag})
    assert moved.status_code == 200 and moved.headers["ETag"] != etag
    assert moved.json["version"] > first.json["version"]


def test_each_viewer_gets_their_own_view_kept(client: FlaskClient, http_services: Services) -> None:
    game_id, tokens = new_game(client, players=2, game="risk")
    views = {
        who: client.get(f"{API}/{game_id}", headers=headers).json
        for who, headers in (
            ("spectator", {}),
            ("seat 0", bearer(tokens[0])),
            ("seat 1", bearer(tokens[1])),
        )
    }
    assert views["seat 0"]["viewer"]["seat"] == 0 and views["seat 1"]["viewer"]["seat"] == 1
    assert views["spectator"]["viewer"]["seat"] is None
    for who, headers in (("spectator", {}), ("seat 0", bearer(tokens[0]))):
        assert client.get(f"{API}/{game_id}", headers=headers).json == views[who]  # kept
    cold = GameLedger(http_services.app.stores)  # the same store, nothing kept
    assert cold.view(UUID(game_id), tokens[1]) == views["seat 1"]


def test_the_games_list_is_paged_by_cursor(client: FlaskClient, http_services: Services) -> None:
    made = [new_game(client, players=2)[0] for _ in range(5)]
    http_services.catch_up()
    everything = client.get(f"{API}?limit=200").json
    assert everything["next_cursor"] is None
    ids = [row["id"] for row in everything["items"]]
    assert set(made) <= set(ids)
    paged: list[str] = []
    cursor = None
    while True:
        query = f"?limit=2&cursor={cursor}" if cursor else "?limit=2"
        page = client.get(API + query)
        assert page.status_code == 200 and page.json["limit"] == 2
        paged += [row["id"] for row in page.json["items"]]
        cursor = page.json["next_cursor"]
        if cursor is None:
            break
    assert paged == ids
    refused = client.get(f"{API}?cursor=bm90IGEgY3Vyc29y")
    assert refused.status_code == 400 and refused.json["code"] == "invalid-cursor"
