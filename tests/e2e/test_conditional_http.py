"""Conditional GET everywhere (issue 13, part 2; docs/api.md, "Conditional requests"): every
GET that sends an ``ETag`` — a view now or at a version, a view after a turn, a page of the
event log, the record — answers ``304 Not Modified`` with no body to an ``If-None-Match``
naming it, and the full answer once the game has moved on."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.e2e.conftest import bearer, new_game
from tests.e2e.test_streams import move

API = "/api/v1/games"


def test_every_get_with_an_etag_answers_304(client: FlaskClient) -> None:
    game_id, tokens = new_game(client)
    move(client, game_id, tokens)
    paths = [
        f"{API}/{game_id}",
        f"{API}/{game_id}?version=2",
        f"{API}/{game_id}/turns/1",
        f"{API}/{game_id}/events",
        f"{API}/{game_id}/events?after=2&limit=2",
        f"{API}/{game_id}/record",
    ]
    etags = {}
    for path in paths:
        for headers in ({}, bearer(tokens[0])):
            first = client.get(path, headers=headers)
            assert first.status_code == 200, path
            etag = first.headers["ETag"]
            etags[path] = etag
            again = client.get(path, headers={**headers, "If-None-Match": etag})
            assert again.status_code == 304, path
            assert again.data == b"" and again.headers["ETag"] == etag, path
            assert "Authorization" in again.headers["Vary"], path
            listed = client.get(path, headers={**headers, "If-None-Match": f'"0", W/{etag}'})
            assert listed.status_code == 304, path
            other = client.get(path, headers={**headers, "If-None-Match": '"999999"'})
            assert other.status_code == 200 and other.data == first.data, path
    move(client, game_id, tokens)
    for path in (f"{API}/{game_id}", f"{API}/{game_id}/events", f"{API}/{game_id}/record"):
        moved = client.get(path, headers={"If-None-Match": etags[path]})
        assert moved.status_code == 200 and moved.headers["ETag"] != etags[path], path
    # only a GET: a command's ETag is never a 304
    view = client.get(f"{API}/{game_id}").json
    seat = view["current_players"][0]
    legal = client.get(f"{API}/{game_id}/legal-moves", headers=bearer(tokens[seat])).json
    made = client.post(
        f"{API}/{game_id}/moves",
        json={"move": legal["moves"][0]["move"], "expected_version": view["version"]},
        headers={**bearer(tokens[seat]), "If-None-Match": "*"},
    )
    assert made.status_code == 200
