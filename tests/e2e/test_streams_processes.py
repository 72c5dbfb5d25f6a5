"""Live updates through real servers (issue 13, part 2; docs/api.md, "Live updates";
docs/operations.md, "Streams"): gunicorn with the project's configuration, over real sockets.

* five subscribers of one game each receive every event exactly once, in order, while moves
  are made, and one that disconnects mid-game and reconnects with ``Last-Event-ID`` receives
  the rest with no gap and no duplicate (SQLite: the streams poll);
* on PostgreSQL, two servers on one database: subscribers of one server see the moves made
  through the other (LISTEN/NOTIFY), and the lobby stream sees a game created there."""

from __future__ import annotations

import json
import os
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.sse import Message, Stream
from tests.e2e.test_cli import free_port
from tests.e2e.test_gunicorn import wait_for
from tests.e2e.test_processes import eventually, gameledger, gunicorn, pg_env, request, started

__all__ = ["pg_env"]  # the fixture, shared with test_processes.py

FAST = {"GAMELEDGER_STREAM_HEARTBEAT": "0.5", "GAMELEDGER_STREAM_POLL": "0.05"}
"""Short heartbeats and polling, so that the tests take little time (never timed)."""


def new_game(port: int) -> tuple[str, list[str]]:
    created = request(port, "POST", "/games", {"game": "azul", "players": 2})
    game_id = created["id"]
    tokens = [
        request(port, "POST", f"/games/{game_id}/seats", {"name": f"p{n}"})["token"]
        for n in range(2)
    ]
    return game_id, tokens


def moves(port: int, game_id: str, tokens: list[str], count: int) -> None:
    """``count`` moves over HTTP, each the first legal move of the seat to play."""
    for _ in range(count):
        view = request(port, "GET", f"/games/{game_id}", token=tokens[0])  # a seat's: exact
        seat = view["current_players"][0]
        legal = request(port, "GET", f"/games/{game_id}/legal-moves", token=tokens[seat])
        request(
            port,
            "POST",
            f"/games/{game_id}/moves",
            {"move": legal["moves"][0]["move"], "expected_version": view["version"]},
            token=tokens[seat],
        )


def event_log(port: int, game_id: str) -> list[dict[str, Any]]:
    """The spectator's whole event log."""
    items: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = request(port, "GET", f"/games/{game_id}/events?after={after}&limit=500")
        items += page["items"]
        after = page["next_after"]
    return items


def check(received: list[Message], log: list[dict[str, Any]]) -> None:
    """Every event of the log, once each, in order, as the log shows it."""
    assert [m.id for m in received] == [str(item["version"]) for item in log]
    assert [m.json for m in received] == log


def subscribers_see_every_event_once(serve: int, play: int) -> None:
    """Five subscribers on ``serve``, one of which reconnects mid-game; moves on ``play``."""
    game_id, tokens = new_game(play)
    path = f"/games/{game_id}/stream"
    with ExitStack() as stack:
        streams = [stack.enter_context(Stream(serve, path)) for _ in range(5)]
        assert {s.status for s in streams} == {200}
        leaver = Stream(serve, path)
        early = leaver.events(2)
        leaver.close()
        moves(play, game_id, tokens, 6)
        resumed = stack.enter_context(Stream(serve, path, {"Last-Event-ID": early[-1].id or ""}))
        moves(play, game_id, tokens, 6)
        log = event_log(play, game_id)
        for stream in streams:
            check(stream.events(len(log)), log)
        check(early + resumed.events(len(log) - 2), log)


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[int]:
    """gunicorn on a SQLite store, one worker, the project's configuration."""
    port = free_port()
    env = {
        **os.environ,
        **FAST,
        "GAMELEDGER_DATA_DIR": str(tmp_path),
        "GAMELEDGER_STORE": "sqlite",
    }
    command = [*gunicorn(port), "--access-logfile", str(tmp_path / "access.log")]
    with started(command, env, tmp_path / "server.log"):
        wait_for(port)
        yield port


def test_subscribers_see_every_event_once_in_order_on_sqlite(
    sqlite_server: int, tmp_path: Path
) -> None:
    subscribers_see_every_event_once(sqlite_server, sqlite_server)
    # a seat's stream with its token in the query: the access log never shows the token
    game_id, tokens = new_game(sqlite_server)
    with Stream(sqlite_server, f"/games/{game_id}/stream?token={tokens[0]}") as stream:
        assert stream.status == 200
        assert stream.events(1)[0].event == "Created"
    path = f"/api/v1/games/{game_id}/stream"
    # logged once the server finds the client gone (at its next heartbeat)
    logged = eventually(lambda: path in (tmp_path / "access.log").read_text() and path)
    assert logged
    logged = (tmp_path / "access.log").read_text()
    assert tokens[0] not in logged and "token=" not in logged


@pytest.mark.postgres
def test_two_servers_on_one_postgres_database(pg_env: dict[str, str], tmp_path: Path) -> None:
    env = {**pg_env, **FAST}
    ports = [free_port(), free_port()]
    with ExitStack() as stack:
        for n, port in enumerate(ports):
            stack.enter_context(started(gunicorn(port), env, tmp_path / f"server{n}.log"))
        stack.enter_context(started(gameledger("projections", "run"), env, tmp_path / "runner.log"))
        for port in ports:
            wait_for(port)
        subscriber, player = ports
        lobby = stack.enter_context(Stream(subscriber, "/games/stream"))
        subscribers_see_every_event_once(subscriber, player)
        created = request(player, "POST", "/games", {"game": "carcassonne", "players": 2})
        for message in lobby.messages():
            if message.json["id"] == created["id"]:
                assert message.json["status"] == "waiting"
                break
        listed = urllib.request.urlopen(f"http://127.0.0.1:{subscriber}/api/v1/games?limit=200")
        rows = {row["id"]: row for row in json.loads(listed.read())["items"]}
        assert rows[created["id"]] == message.json


def test_a_graceful_shutdown_closes_the_streams(tmp_path: Path) -> None:
    """SIGTERM: the worker closes its streams (no ``end``: their clients reconnect
    elsewhere) instead of waiting ``graceful_timeout`` (here 300 s) for them."""
    port = free_port()
    env = {**os.environ, **FAST, "GAMELEDGER_DATA_DIR": str(tmp_path)}
    env["GAMELEDGER_STREAM_HEARTBEAT"] = "120"  # nothing would wake the stream for 2 minutes
    command = [*gunicorn(port), "--graceful-timeout", "300"]
    with started(command, env, tmp_path / "server.log") as server:
        wait_for(port)
        game_id, _ = new_game(port)
        with Stream(port, f"/games/{game_id}/stream") as stream:
            assert stream.events(1)[0].event == "Created"
            server.terminate()
            rest = list(stream.messages())  # to the end of the stream
        assert [m.event for m in rest] == ["SeatJoined", "SeatJoined", "FactoriesFilled"]
        assert server.wait(timeout=60) == 0
