"""Tournaments in the live updates across processes (issue 15, part 7; docs/api.md, "Live
updates"): two gunicorn servers on one PostgreSQL database and a projections runner. A
tournament created and run through one server reaches the lobby stream of the other (the
tournaments read model NOTIFYs its channel, which every server LISTENs to), and the
arbiter's decisions made through one server reach a table's game stream on the other (the
tournament's events NOTIFY, the server wakes the streams of its tables)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.e2e.sse import Message, Stream
from tests.e2e.test_cli import free_port
from tests.e2e.test_gunicorn import wait_for
from tests.e2e.test_processes import gameledger, gunicorn, pg_env, request, started
from tests.e2e.test_streams_processes import FAST

__all__ = ["pg_env"]  # the fixture, shared with test_processes.py


def next_news(messages: Iterator[Message]) -> Message:
    return next(m for m in messages if m.event == "tournament")


@pytest.mark.postgres
def test_tournament_news_crosses_servers(pg_env: dict[str, str], tmp_path: Path) -> None:
    env = {**pg_env, **FAST}
    ports = [free_port(), free_port()]
    with ExitStack() as stack:
        for n, port in enumerate(ports):
            stack.enter_context(started(gunicorn(port), env, tmp_path / f"server{n}.log"))
        stack.enter_context(started(gameledger("projections", "run"), env, tmp_path / "runner.log"))
        for port in ports:
            wait_for(port)
        subscriber, organiser = ports
        lobby = stack.enter_context(Stream(subscriber, "/games/stream")).messages()

        made = request(
            organiser,
            "POST",
            "/tournaments",
            {"game": "azul", "name": "Two hosts", "format": {"kind": "swiss", "rounds": 2}},
        )
        tid, org = made["tournament_id"], made["organiser_token"]
        news = next_news(lobby)
        assert (news.json["tournament_id"], news.json["phase"]) == (tid, "registration")
        path = f"/tournaments/{tid}"
        tokens = [
            request(organiser, "POST", f"{path}/entrants", {"name": f"p{n}"})["token"]
            for n in range(4)
        ]
        request(organiser, "POST", f"{path}/open-check-in", token=org)
        for token in tokens:
            request(organiser, "POST", f"{path}/check-in", token=token)
        request(organiser, "POST", f"{path}/start", token=org)
        while news.json["phase"] != "running":
            news = next_news(lobby)
        assert news.json["rounds"] == 1

        first, second = request(subscriber, "GET", f"{path}/rounds/1")["tables"]
        table = stack.enter_context(Stream(subscriber, f"/games/{first['game']}/stream"))
        messages = table.messages()
        state = next_news(messages).json
        assert (state["round"], state["result"]) == (1, None)
        decide = {"ranks": [2, 1], "reason": "power cut"}
        request(
            organiser,
            "POST",
            f"{path}/arbiter/adjudicate",
            {"game": first["game"], **decide},
            token=org,
        )
        state = next_news(messages).json
        assert state["result"]["how"] == "adjudicated" and not state["round_over"]
        request(
            organiser,
            "POST",
            f"{path}/arbiter/adjudicate",
            {"game": second["game"], **decide},
            token=org,
        )
        state = next_news(messages).json
        assert state["round_over"] and state["next_round"]["number"] == 2
        paired = request(subscriber, "GET", f"{path}/rounds/2")["tables"]
        assert {s["game"] for s in state["next_round"]["seats"]} == {t["game"] for t in paired}
