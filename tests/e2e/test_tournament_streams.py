"""Tournaments in the live updates (issue 15, part 7; docs/api.md, "Live updates"): the lobby
stream sends a tournament's summary each time it is created or changes (and again on a
resume); a table's game stream sends, after the game's events, what its tournament says of
the table — its result once recorded, the round over, the next round and where each of its
entrants sits in it — and ends only once the tournament has gone past the table; a finished
table's stream reopened before that goes on, after it is 204. Fed as the other streams are:
the event log's notifications (SQLite polling here), woken per game and tournament."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.sse import Streams
from infrastructure.container import Services
from infrastructure.stream_settings import StreamSettings
from tests.e2e.conftest import bearer
from tests.e2e.sse import Message, events
from tests.e2e.test_streams import blocks, opened
from tests.e2e.tournament_http import API, create, organise, play_game, register, seats_of, until


@pytest.fixture
def streams(client: FlaskClient) -> Streams:
    """Short heartbeats and polling."""
    found = Streams(StreamSettings(heartbeat=0.2, poll=0.05, retry_ms=1500, max_streams=8))
    client.application.extensions["gameledger_streams"] = found
    return found


def next_of(found: Iterator[Message], event: str) -> tuple[list[Message], Message]:
    """The messages before the next ``event`` message, and that message."""
    before = []
    for message in found:
        if message.event == event:
            return before, message
        before.append(message)
    raise AssertionError(f"the stream closed before a {event!r} message")


def test_the_lobby_stream_sends_each_tournament_as_it_changes(
    client: FlaskClient, http_services: Services, streams: Streams
) -> None:
    answer = opened(client, f"{API}/games/stream")
    found = events(blocks(answer))
    organised = create(client, {"kind": "swiss", "rounds": 1})
    _, news = next_of(found, "tournament")
    assert news.id is None  # a resume point is the games list's
    assert news.json == client.get(f"{API}/tournaments").json["items"][0]
    assert (news.json["tournament_id"], news.json["phase"]) == (
        organised.tournament_id,
        "registration",
    )
    register(client, organised, "Ann")
    _, news = next_of(found, "tournament")
    assert (news.json["version"], news.json["entrants"]) == (2, 1)
    answer.close()

    # a game's row and its resume point; a resume sends the tournaments changed since again
    game = client.post(f"{API}/games", json={"game": "azul", "players": 2}).json["id"]
    again = opened(client, f"{API}/games/stream")
    row = next(m for m in events(blocks(again)) if m.event == "game" and m.json["id"] == game)
    again.close()
    resumed = opened(client, f"{API}/games/stream", **{"Last-Event-ID": row.id or ""})
    _, news = next_of(events(blocks(resumed)), "tournament")
    assert (news.json["tournament_id"], news.json["version"]) == (organised.tournament_id, 2)
    resumed.close()
    assert streams.open == 0


def test_a_table_stream_carries_its_tournament_until_it_has_gone_past_the_table(
    client: FlaskClient, http_services: Services, streams: Streams
) -> None:
    organised = organise(client, {"kind": "swiss", "rounds": 2}, 4)
    tables = seats_of(client, organised)
    mine, other = sorted(tables)
    path = f"{API}/games/{mine}/stream"
    answer = opened(client, path, **bearer(tables[mine][0]))
    found = events(blocks(answer))
    log, news = next_of(found, "tournament")
    assert log and all(m.id is not None for m in log) and news.id is None
    state = news.json
    assert (state["tournament_id"], state["game"], state["round"]) == (
        organised.tournament_id,
        mine,
        1,
    )
    assert (state["result"], state["round_over"], state["next_round"]) == (None, False, None)

    bot = random.Random(7)
    play_game(client, mine, tables[mine], bot)
    played, news = next_of(found, "tournament")
    assert played[-1].event == "GameEnded"  # the game's events first, then the result
    assert news.json["result"]["how"] == "played" and not news.json["round_over"]
    assert news.json["latest_round"] == 1

    # the game has ended, its tournament has not gone past it: reopened, the stream goes on
    last = played[-1].id or ""
    reopened = opened(client, path, **{"Last-Event-ID": last})
    _, first = next_of(events(blocks(reopened)), "tournament")
    assert first.json == news.json
    reopened.close()

    play_game(client, other, tables[other], bot)
    _, news = next_of(found, "tournament")
    assert news.json["round_over"] and news.json["latest_round"] == 2
    following = news.json["next_round"]
    assert following["number"] == 2
    round_two = client.get(f"{organised.path}/rounds/2").json["tables"]
    for place in following["seats"]:
        table = next(t for t in round_two if place["entrant"] in [s["entrant"] for s in t["seats"]])
        seats = [s["entrant"] for s in table["seats"]]
        assert (place["game"], place["seat"], place["bye"]) == (
            table["game"],
            seats.index(place["entrant"]),
            False,
        )
        assert place["name"] == organised.names[place["entrant"]]
    end = next(found)
    assert (end.event, end.json) == ("end", {"version": int(last)})
    assert list(found) == []
    done = client.get(path, headers={"Last-Event-ID": last})
    assert done.status_code == 204
    assert streams.open == 0


def test_a_game_that_is_no_table_streams_as_before(
    client: FlaskClient, http_services: Services, streams: Streams
) -> None:
    game = client.post(f"{API}/games", json={"game": "azul", "players": 2}).json["id"]
    answer = opened(client, f"{API}/games/{game}/stream")
    found: list[Any] = []
    for message in blocks(answer):
        if message.comments == ("heartbeat",):
            break
        found.append(message)
    assert all(m.event != "tournament" for m in found)
    answer.close()
    until(lambda: streams.open == 0)
