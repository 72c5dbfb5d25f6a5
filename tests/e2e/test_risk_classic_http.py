"""Classic Risk over HTTP (issue 6, part 10; docs/risk.md, "Classic Risk"): two players
with a neutral army, a turn of reinforcement, attack and fortify, refusals of the
Constitution's moves, and a bot game to its conquest whose record verifies."""

from __future__ import annotations

import random
from typing import Any
from uuid import UUID

from flask.testing import FlaskClient

from application.verification import verify_record
from infrastructure.container import Services
from tests.e2e.conftest import bearer, seeded_game

API = "/api/v1/games"


def move(client: FlaskClient, game_id: str, token: str, notation: str) -> Any:
    version = client.get(f"{API}/{game_id}").json["version"]
    return client.post(
        f"{API}/{game_id}/moves",
        json={"notation": notation, "expected_version": version},
        headers=bearer(token),
    )


def legal(client: FlaskClient, game_id: str, token: str) -> list[str]:
    answer = client.get(f"{API}/{game_id}/legal-moves", headers=bearer(token)).json
    return [m["notation"] for m in answer["moves"]]


def test_a_classic_turn_and_a_whole_game(client: FlaskClient, http_services: Services) -> None:
    game_id, tokens = seeded_game(
        client, http_services, 2, "risk", "classic-c", ruleset="classic", starting_units=3
    )
    state = client.get(f"{API}/{game_id}").json["state"]
    assert state["ruleset"] == "classic"
    owners = [t["owner"] for t in state["territories"].values()]
    assert owners.count(-1) == owners.count(0) == owners.count(1) == 14  # the neutral army
    first, second = state["order"]
    assert move(client, game_id, tokens[first], "colour red").status_code == 200
    assert move(client, game_id, tokens[second], "colour blue").status_code == 200
    for seat in (first, second):
        assert (
            move(client, game_id, tokens[seat], legal(client, game_id, tokens[seat])[0]).status_code
            == 200
        )

    view = client.get(f"{API}/{game_id}").json
    assert view["state"]["phase"] == "reinforcement" and view["current_players"] == [first]
    me = view["state"]["players"][first]
    log = client.get(f"{API}/{game_id}/events?type=ClassicReinforcements").json["items"]
    received = log[-1]["data"]
    assert received["territories"] == max(3, me["territories"] // 3)
    assert (
        me["reserve"]
        == received["total"]
        == received["territories"] + sum(received["continents"].values())
    )
    refused = move(client, game_id, tokens[first], "end-invasions")
    assert refused.status_code == 422 and refused.json["code"] == "wrong-phase"
    placing = [n for n in legal(client, game_id, tokens[first]) if n.endswith(f"={me['reserve']}")]
    assert move(client, game_id, tokens[first], placing[0]).status_code == 200
    assert client.get(f"{API}/{game_id}").json["state"]["phase"] == "invasion"
    attacks = [n for n in legal(client, game_id, tokens[first]) if n.startswith("attack")]
    assert attacks
    assert move(client, game_id, tokens[first], attacks[-1]).status_code == 200
    options = legal(client, game_id, tokens[first])
    if any(n.startswith("occupy") for n in options):  # a conquest: move in at least the dice
        assert move(client, game_id, tokens[first], options[-1]).status_code == 200
    assert move(client, game_id, tokens[first], "end-attacks").status_code == 200
    assert client.get(f"{API}/{game_id}").json["state"]["phase"] == "fortify"
    assert move(client, game_id, tokens[first], "end-turn").status_code == 200
    view = client.get(f"{API}/{game_id}").json
    assert view["current_players"] == [second] and view["state"]["phase"] == "reinforcement"

    app, bot, uuid = http_services.app, random.Random(2), UUID(game_id)
    for _ in range(20_000):
        version, acting = app.whose_turn(uuid)
        if not acting:
            break
        seat = bot.choice(acting)
        app.play(uuid, tokens[seat], app.bot_move(uuid, tokens[seat], bot), version)
    final = client.get(f"{API}/{game_id}/record").json
    assert final["outcome"]["details"]["reason"] == "conquest"
    assert verify_record(final).ok
