"""Risk's hidden information through every endpoint (issue 6, part 7; docs/risk.md, "Hidden
information"): a hand is seen only by its owner, the cards of a deal only by its parties —
in views, the event log, records, the turn index and legal moves — until the game ends, when
everything is shown and every seal is checked against what it hid."""

from __future__ import annotations

import copy
import random
from typing import Any
from uuid import UUID

from flask.testing import FlaskClient

from application.service import GameLedger
from application.verification import verify_record
from infrastructure.container import Services
from tests.e2e.conftest import bearer, seeded_game
from tests.e2e.test_undo_http import eventually_turns

API = "/api/v1/games"


def play_until(
    app: GameLedger, game_id: str, tokens: list[str], bot: random.Random, done: Any
) -> None:
    """Bot moves (the game's bot policy) until ``done(view)`` holds."""
    for _ in range(5_000):
        view = app.view(UUID(game_id))
        if done(view):
            return
        version, acting = app.whose_turn(UUID(game_id))
        seat = bot.choice(acting)
        app.play(
            UUID(game_id), tokens[seat], app.bot_move(UUID(game_id), tokens[seat], bot), version
        )
    raise AssertionError("the condition was never reached")


def all_events(client: FlaskClient, game_id: str, token: str | None) -> list[dict[str, Any]]:
    headers = bearer(token) if token else {}
    items: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = client.get(f"{API}/{game_id}/events?after={after}&limit=200", headers=headers)
        assert page.status_code == 200
        items += page.json["items"]
        after = page.json["next_after"]
    return items


def a_card_deal(client: FlaskClient, game_id: str, tokens: list[str]) -> tuple[int, int, str]:
    """At the opening of an exchange session, a seat holding a card gives it to another
    seat, which accepts: the giver, the receiver and the card."""
    arbiter_view = client.get(f"{API}/{game_id}").json  # spectator: hands hidden
    assert all(p["hand"] is None for p in arbiter_view["state"]["players"])
    for giver, token in enumerate(tokens):
        hand = client.get(f"{API}/{game_id}", headers=bearer(token)).json["state"]["players"][
            giver
        ]["hand"]
        if hand:
            receiver = (giver + 1) % len(tokens)
            move = {
                "type": "propose",
                "to": [receiver],
                "transfers": [{"from": giver, "to": receiver, "cards": [hand[0]]}],
            }
            made = client.post(
                f"{API}/{game_id}/moves",
                json={"move": move},
                headers={**bearer(token), "If-Match": str(arbiter_view["version"])},
            )
            assert made.status_code == 200, made.json
            proposals = client.get(f"{API}/{game_id}", headers=bearer(tokens[receiver])).json
            number = proposals["state"]["exchange"]["proposals"][-1]["id"]
            accepted = client.post(
                f"{API}/{game_id}/moves",
                json={"move": {"type": "accept", "proposal": number}},
                headers={**bearer(tokens[receiver]), "If-Match": str(proposals["version"])},
            )
            assert accepted.status_code == 200, accepted.json
            return giver, receiver, hand[0]
    raise AssertionError("nobody holds a card")


def test_hands_and_deals_are_hidden_from_everyone_else(
    client: FlaskClient, http_services: Services
) -> None:
    app = http_services.app
    game_id, tokens = seeded_game(client, http_services, 3, "risk", "hidden-hands")
    bot = random.Random(11)
    play_until(
        app,
        game_id,
        tokens,
        bot,
        lambda v: (
            v["state"]["phase"] == "exchange"
            and not v["state"]["exchange"]["done"]
            and sum(p["cards"] > 0 for p in v["state"]["players"]) >= 2
        ),
    )
    giver, receiver, card = a_card_deal(client, game_id, tokens)
    outsider = 3 - giver - receiver
    hands = app.view(UUID(game_id), tokens[giver])["state"]["players"]
    assert card not in (hands[giver]["hand"] or [])

    for seat, token in [(outsider, tokens[outsider]), (None, None)]:
        headers = bearer(token) if token else {}
        view = client.get(f"{API}/{game_id}", headers=headers).json["state"]
        version = client.get(f"{API}/{game_id}").json["version"]
        earlier = [
            client.get(f"{API}/{game_id}?version={v}", headers=headers).json["state"]
            for v in range(version // 2, version + 1, max(1, version // 7))
        ]
        earlier += [
            client.get(f"{API}/{game_id}/turns/{n}", headers=headers).json["state"]
            for n in (5, 20, 40)
        ]
        for shown in [view, *earlier]:
            for player in shown["players"]:
                assert (player["hand"] is not None) == (player["seat"] == seat)
                assert isinstance(player["cards"], int)
        events = all_events(client, game_id, token)
        record = client.get(f"{API}/{game_id}/record", headers=headers).json
        assert record["events"] == events
        for item in events:
            data = item["data"]
            if item["type"] == "CardDrawn":
                assert ("card" in data) == (data["seat"] == seat)
                assert item["sealed"]  # hidden from spectators: hashed by its seal
            if item["type"] in ("DealProposed", "DealExecuted"):
                for transfer in data["transfers"]:
                    assert "cards" not in transfer
                    assert transfer.get("card_count") in (None, 1)
            if item["type"] == "MoveMade" and data["move"]["type"] == "propose":
                assert "cards" not in data["move"]["transfers"][0]
                assert card not in data["notation"]
        assert verify_record(record).ok, verify_record(record).summary
        turns = eventually_turns(
            client, game_id, lambda items: any(t["notation"].startswith("propose") for t in items)
        )
        proposal_turns = [t for t in turns if t["notation"].startswith("propose")]
        assert proposal_turns and all(card not in t["notation"] for t in proposal_turns)
        if token is not None:
            legal = client.get(f"{API}/{game_id}/legal-moves", headers=headers).json["moves"]
            named = {c for m in legal for c in m["move"].get("cards", [])}
            assert named <= set(view["players"][seat]["hand"])

    for party in (giver, receiver):
        seen = all_events(client, game_id, tokens[party])
        dealt = [e for e in seen if e["type"] == "DealExecuted"][-1]
        assert dealt["data"]["transfers"][0]["cards"] == [card]

    # Once the game is over nothing is hidden, and every seal is checked against its facts.
    play_until(app, game_id, tokens, bot, lambda v: v["status"] == "finished")
    record = client.get(f"{API}/{game_id}/record").json
    drawn = [e for e in record["events"] if e["type"] == "CardDrawn"]
    assert drawn and all("card" in e["data"] and e["sealed"] for e in drawn)
    assert verify_record(record).ok
    forged = copy.deepcopy(record)
    victim = next(e for e in forged["events"] if e["type"] == "CardDrawn")
    victim["data"]["card"] = "wild-2" if victim["data"]["card"] != "wild-2" else "wild-1"
    verdict = verify_record(forged)
    assert not verdict.ok
    assert verdict.version == victim["version"]
    assert "sealed" in (verdict.discrepancy or "")


def test_a_running_game_with_hidden_hands_is_not_forked(
    client: FlaskClient, http_services: Services
) -> None:
    """A fork's opening (its prelude) is public: forking a running Risk game would show
    every hand, so it is refused, and allowed once the game has ended."""
    game_id, tokens = seeded_game(client, http_services, 2, "risk", "no-fork")
    bot = random.Random(4)
    app = http_services.app
    play_until(app, game_id, tokens, bot, lambda v: v["state"]["round"] == 2)
    refused = client.post(f"{API}/{game_id}/forks", json={"turn": 3}, headers=bearer(tokens[0]))
    assert refused.status_code == 409 and refused.json["code"] == "hidden-information"
    play_until(app, game_id, tokens, bot, lambda v: v["status"] == "finished")
    forked = client.post(f"{API}/{game_id}/forks", json={"turn": 3})
    assert forked.status_code == 201, forked.json
