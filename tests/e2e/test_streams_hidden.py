"""A Risk game's stream hides what its event log hides (issue 13, part 2; docs/risk.md,
"Hidden information"; compare tests/e2e/test_risk_hidden_http.py): a spectator's stream and
another seat's never show a card drawn or dealt to someone else, and each is exactly the
event log that viewer is shown, item for item; the owner's stream shows the owner's cards."""

from __future__ import annotations

import random
from typing import Any
from uuid import UUID

from flask.testing import FlaskClient

from api.sse import Streams
from infrastructure.container import Services
from infrastructure.stream_settings import StreamSettings
from tests.e2e.conftest import bearer, seeded_game
from tests.e2e.sse import Message, events, parse
from tests.e2e.test_risk_hidden_http import a_card_deal, all_events, play_until

API = "/api/v1/games"


def streamed(client: FlaskClient, path: str, headers: dict[str, str], count: int) -> list[Message]:
    """The first ``count`` event messages of a stream (then it is closed)."""
    answer = client.get(path, headers=headers, buffered=False)
    assert answer.status_code == 200
    found = events(parse(answer.response))
    messages = [next(found) for _ in range(count)]
    answer.close()
    return messages


def hidden_from(seat: int | None, item: dict[str, Any]) -> None:
    """What ``seat`` (``None``: a spectator) must not see in one item."""
    data = item["data"]
    if item["type"] == "CardDrawn":
        assert ("card" in data) == (data["seat"] == seat), item
    if item["type"] in ("DealProposed", "DealExecuted"):
        for transfer in data["transfers"]:
            assert "cards" not in transfer, item
    if item["type"] == "MoveMade" and data["move"]["type"] == "propose":
        assert "cards" not in data["move"]["transfers"][0], item


def test_a_spectators_and_another_seats_stream_never_show_a_hidden_card(
    client: FlaskClient, http_services: Services
) -> None:
    client.application.extensions["gameledger_streams"] = Streams(
        StreamSettings(heartbeat=0.2, poll=0.05)
    )
    game_id, tokens = seeded_game(client, http_services, 3, "risk", "hidden-stream")
    play_until(
        http_services.app,
        game_id,
        tokens,
        random.Random(11),
        lambda v: (
            v["state"]["phase"] == "exchange"
            and not v["state"]["exchange"]["done"]
            and sum(p["cards"] > 0 for p in v["state"]["players"]) >= 2
        ),
    )
    giver, receiver, card = a_card_deal(client, game_id, tokens)
    assert card not in (
        http_services.app.view(UUID(game_id), tokens[giver])["state"]["players"][giver]["hand"]
        or []
    )
    outsider = 3 - giver - receiver
    drawn = 0
    for seat, headers in [(None, {}), (outsider, bearer(tokens[outsider]))]:
        log = all_events(client, game_id, tokens[seat] if seat is not None else None)
        stream = streamed(client, f"{API}/{game_id}/stream", headers, len(log))
        assert [m.json for m in stream] == log
        for item in log:
            hidden_from(seat, item)
            drawn += item["type"] == "CardDrawn"
    assert drawn
    # the query's token is the same viewer as the header's
    query = streamed(client, f"{API}/{game_id}/stream?token={tokens[outsider]}", {}, 3)
    assert [m.json for m in query] == all_events(client, game_id, tokens[outsider])[:3]
    # the parties of the deal see its cards in their streams
    for party in (giver, receiver):
        log = all_events(client, game_id, tokens[party])
        stream = streamed(client, f"{API}/{game_id}/stream", bearer(tokens[party]), len(log))
        dealt = [m.json for m in stream if m.event == "DealExecuted"][-1]
        assert dealt["data"]["transfers"][0]["cards"] == [card]
