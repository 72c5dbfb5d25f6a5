"""Live updates in one process (issue 13, part 2; docs/api.md, "Live updates"): a game's
stream sends the event log's items in order, each once, resumes after ``Last-Event-ID`` or
``?after=``, sends heartbeats, ends with ``end`` when the game has ended (204 after that);
the lobby stream sends rows of the games list as they change; bad input is problem+json;
a process full of streams answers 503."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from api.sse import Streams
from application.projections.games_list import Position
from infrastructure.container import Services
from infrastructure.stream_settings import StreamSettings
from tests.e2e.conftest import bearer, new_game
from tests.e2e.sse import Message, events, parse
from tests.e2e.test_risk_hidden_http import all_events, play_until

API = "/api/v1/games"


@pytest.fixture
def streams(client: FlaskClient) -> Streams:
    """Short heartbeats and polling, few places."""
    found = Streams(StreamSettings(heartbeat=0.2, poll=0.05, retry_ms=1500, max_streams=3))
    client.application.extensions["gameledger_streams"] = found
    return found


def opened(client: FlaskClient, path: str, **headers: str) -> TestResponse:
    answer = client.get(path, headers=headers, buffered=False)
    assert answer.status_code == 200, answer.get_data()
    assert answer.mimetype == "text/event-stream"
    assert answer.headers["Cache-Control"] == "no-store"
    return answer


def blocks(answer: TestResponse) -> Iterator[Message]:
    return parse(answer.response)


def take(found: Iterator[Message], count: int) -> list[Message]:
    return [next(found) for _ in range(count)]


def move(client: FlaskClient, game_id: str, tokens: list[str]) -> None:
    """The first legal move of a seat whose turn it is."""
    view = client.get(f"{API}/{game_id}").json
    seat = view["current_players"][0]
    legal = client.get(f"{API}/{game_id}/legal-moves", headers=bearer(tokens[seat])).json
    made = client.post(
        f"{API}/{game_id}/moves",
        json={"move": legal["moves"][0]["move"], "expected_version": view["version"]},
        headers=bearer(tokens[seat]),
    )
    assert made.status_code == 200, made.json


def test_a_stream_sends_the_event_log_then_each_new_event(
    client: FlaskClient, streams: Streams
) -> None:
    game_id, tokens = new_game(client)
    answer = opened(client, f"{API}/{game_id}/stream", **bearer(tokens[0]))
    found = blocks(answer)
    first = next(found)
    assert first.retry == 1500 and not first.event
    log = all_events(client, game_id, tokens[0])
    sent = take(events(found), len(log))
    assert [m.json for m in sent] == log
    assert [m.id for m in sent] == [str(item["version"]) for item in log]
    assert [m.event for m in sent] == [item["type"] for item in log]
    move(client, game_id, tokens)
    log = all_events(client, game_id, tokens[0])
    later = take(events(found), len(log) - len(sent))
    assert [m.json for m in sent + later] == log
    # nothing happens: a heartbeat comment
    assert next(found).comments == ("heartbeat",)
    assert streams.open == 1
    answer.close()
    assert streams.open == 0


@pytest.mark.parametrize("how", ["header", "query"])
def test_a_stream_resumes_after_the_last_event_id(client: FlaskClient, how: str) -> None:
    game_id, tokens = new_game(client)
    move(client, game_id, tokens)
    log = all_events(client, game_id, None)
    middle = log[len(log) // 2]["version"]
    if how == "header":
        answer = opened(client, f"{API}/{game_id}/stream?after=1", **{"Last-Event-ID": str(middle)})
    else:
        answer = opened(client, f"{API}/{game_id}/stream?after={middle}")
    rest = [item for item in log if item["version"] > middle]
    assert [m.json for m in take(events(blocks(answer)), len(rest))] == rest
    answer.close()


def test_the_token_may_come_in_the_query(client: FlaskClient) -> None:
    game_id, tokens = new_game(client)
    answer = opened(client, f"{API}/{game_id}/stream?token={tokens[1]}")
    log = all_events(client, game_id, tokens[1])
    assert [m.json for m in take(events(blocks(answer)), len(log))] == log
    answer.close()
    both = client.get(f"{API}/{game_id}/stream?token={tokens[1]}", headers=bearer(tokens[0]))
    assert both.status_code == 401 and both.json["code"] == "invalid-authorization"


def test_a_finished_game_ends_its_stream(client: FlaskClient, http_services: Services) -> None:
    game_id, tokens = new_game(client)
    answer = opened(client, f"{API}/{game_id}/stream")
    found = events(blocks(answer))
    play_until(
        http_services.app, game_id, tokens, random.Random(3), lambda v: v["status"] == "finished"
    )
    log = all_events(client, game_id, None)
    sent = take(found, len(log))
    assert [m.json for m in sent] == log
    end = next(found)
    assert (end.event, end.id, end.json) == ("end", None, {"version": log[-1]["version"]})
    assert list(found) == []  # closed
    done = client.get(f"{API}/{game_id}/stream", headers={"Last-Event-ID": sent[-1].id or ""})
    assert done.status_code == 204 and not done.get_data()
    beyond = str(log[-1]["version"] + 1)  # no message ever had it: not "the game is over"
    for resumed in ({"Last-Event-ID": beyond}, {}):
        path = f"{API}/{game_id}/stream" + ("" if resumed else f"?after={beyond}")
        refused = client.get(path, headers=resumed)
        assert refused.status_code == 400
        assert refused.get_json()["code"] == "invalid-last-event-id"
    earlier = opened(client, f"{API}/{game_id}/stream?after={log[-2]['version']}")
    assert [m.event for m in events(blocks(earlier))] == [log[-1]["type"], "end"]


def test_bad_requests_are_problems(client: FlaskClient, streams: Streams) -> None:
    game_id, _ = new_game(client)
    cases: list[tuple[str, dict[str, str], int, str]] = [
        (f"{API}/{game_id}/stream", {"Last-Event-ID": "x1"}, 400, "invalid-last-event-id"),
        (f"{API}/{game_id}/stream", {"Last-Event-ID": "01"}, 400, "invalid-last-event-id"),
        (f"{API}/{game_id}/stream", {"Last-Event-ID": "99999"}, 400, "invalid-last-event-id"),
        (f"{API}/{game_id}/stream?after=99999", {}, 400, "invalid-last-event-id"),
        (f"{API}/{game_id}/stream?after=-1", {}, 400, "invalid-request"),
        (f"{API}/{game_id}/stream?limit=3", {}, 400, "invalid-request"),
        (f"{API}/{game_id}/stream", bearer("nope"), 403, "invalid-token"),
        (f"{API}/{game_id}/stream?token=nope", {}, 403, "invalid-token"),
        (f"{API}/{game_id}/stream", {"Authorization": "Basic x"}, 401, "invalid-authorization"),
        (f"{API}/{UUID(int=1)}/stream", {}, 404, "game-not-found"),
        (f"{API}/stream", {"Last-Event-ID": "not-a-cursor"}, 400, "invalid-cursor"),
        (f"{API}/stream?after=" + "a" * 600, {}, 400, "invalid-request"),
        (f"{API}/stream", {"Last-Event-ID": "a" * 600}, 400, "invalid-cursor"),
    ]
    for path, headers, status, code in cases:
        refused = client.get(path, headers=headers)
        assert refused.status_code == status, (path, refused.get_data())
        assert refused.mimetype == "application/problem+json"
        assert refused.json["code"] == code, path
    assert streams.open == 0


def test_a_process_full_of_streams_answers_503(client: FlaskClient, streams: Streams) -> None:
    game_id, _ = new_game(client)
    held = [opened(client, f"{API}/{game_id}/stream") for _ in range(3)]
    for path in (f"{API}/{game_id}/stream", f"{API}/stream"):
        full = client.get(path)
        assert full.status_code == 503
        assert full.json["code"] == "too-many-streams"
        assert full.headers["Retry-After"] == "5"
    held.pop().close()
    again = opened(client, f"{API}/stream")
    again.close()
    for answer in held:
        answer.close()
    assert streams.open == 0


def rows(found: Iterator[Message], count: int) -> list[dict[str, Any]]:
    return [m.json for m in take(events(found), count)]


def test_the_lobby_stream_sends_the_games_list_as_it_changes(
    client: FlaskClient, http_services: Services, streams: Streams
) -> None:
    first, _ = new_game(client)
    http_services.wait()
    answer = opened(client, f"{API}/stream")
    found = blocks(answer)
    head = rows(found, 1)
    assert head[0]["id"] == first and head[0]["status"] == "active"
    second = client.post(API, json={"game": "azul", "players": 2}).json["id"]
    (created,) = rows(found, 1)
    assert (created["id"], created["status"]) == (second, "waiting")
    client.post(f"{API}/{second}/seats", json={"name": "a"})
    http_services.wait()
    changed = rows(found, 1)[0]
    assert changed["id"] == second and changed["seats"][0]["joined"]
    listed = client.get(API).json["items"]
    assert changed == next(row for row in listed if row["id"] == second)
    answer.close()

    # a resume from the first row's id sends what changed after it, oldest first, and again
    # what changed in the 5 s before it (the same id and version: the client skips it)
    resumed = opened(client, f"{API}/stream", **{"Last-Event-ID": resume_id(client, first)})
    again = rows(blocks(resumed), 2)
    assert [(row["id"], row["version"]) for row in again] == [
        (row["id"], row["version"]) for row in reversed(client.get(API).json["items"][:2])
    ]
    assert [row["id"] for row in again] == [first, second]
    resumed.close()
    # a cursor from long ago: every row changed since
    long_ago = Position("2000-01-01T00:00:00+00:00", "").cursor()
    old = opened(client, f"{API}/stream", **{"Last-Event-ID": long_ago})
    assert {row["id"] for row in rows(blocks(old), 2)} == {first, second}
    old.close()
    # a cursor at the dawn of time: nothing to look back to (it once killed the stream)
    dawn = Position("0001-01-01T00:00:01", "x").cursor()
    earliest = opened(client, f"{API}/stream", **{"Last-Event-ID": dawn})
    assert {row["id"] for row in rows(blocks(earliest), 2)} == {first, second}
    earliest.close()


def resume_id(client: FlaskClient, game_id: str) -> str:
    """The id of a lobby message that sent ``game_id``'s row as it is now."""
    answer = opened(client, f"{API}/stream")
    for message in events(blocks(answer)):
        if message.json["id"] == game_id:
            answer.close()
            return message.id or ""
    raise AssertionError("never sent")


def test_a_stream_closes_after_its_lifetime_and_resumes(client: FlaskClient) -> None:
    """``GAMELEDGER_STREAM_LIFETIME``: the stream closes without ``end``; its client
    reconnects with ``Last-Event-ID`` and goes on."""
    client.application.extensions["gameledger_streams"] = Streams(
        StreamSettings(heartbeat=0.05, poll=0.02, lifetime=0.3)
    )
    game_id, tokens = new_game(client)
    log = all_events(client, game_id, None)
    answer = opened(client, f"{API}/{game_id}/stream")
    found = list(blocks(answer))  # ends by itself
    sent = [m for m in found if m.event]
    assert [m.json for m in sent] == log
    assert any(m.comments == ("heartbeat",) for m in found)
    move(client, game_id, tokens)
    again = opened(client, f"{API}/{game_id}/stream", **{"Last-Event-ID": sent[-1].id or ""})
    rest = [m.json for m in blocks(again) if m.event]
    assert rest == all_events(client, game_id, None)[len(log) :]
