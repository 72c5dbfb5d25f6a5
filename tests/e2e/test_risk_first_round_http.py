"""A game of Risk's first round over HTTP, as docs/risk.md plays it with curl (issue 6,
part 9): turn-order rolls, colours, placement, an invasion fought out, reinforcements placed,
the turn ended, and the exchange session closed by both players declaring done."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from domain.risk.worldmap import WORLD_MAP
from tests.e2e.conftest import bearer

API = "/api/v1/games"


def play(client: FlaskClient, game_id: str, token: str, notation: str) -> dict[str, Any]:
    """Make a move in notation on the version just read; the new view."""
    version = client.get(f"{API}/{game_id}").json["version"]
    made = client.post(
        f"{API}/{game_id}/moves",
        json={"notation": notation, "expected_version": version},
        headers=bearer(token),
    )
    assert made.status_code == 200, made.json
    return dict(client.get(f"{API}/{game_id}", headers=bearer(token)).json)


def test_first_round_over_http(client: FlaskClient) -> None:
    created = client.post(
        API, json={"game": "risk", "players": 2, "options": {"starting_units": 3}}
    )
    assert created.status_code == 201, created.json
    game_id = created.json["id"]
    tokens = [
        client.post(f"{API}/{game_id}/seats", json={"name": name}).json["token"]
        for name in ("ann", "bob")
    ]
    events = client.get(f"{API}/{game_id}/events").json["items"]
    kinds = [e["type"] for e in events]
    assert kinds[3] == "OrderRolled" and "TurnOrderDecided" in kinds
    view = client.get(f"{API}/{game_id}").json
    state = view["state"]
    assert state["phase"] == "colours" and state["fund"] == 2000
    assert [p["territories"] for p in state["players"]] == [21, 21]
    first, second = state["order"]

    play(client, game_id, tokens[first], "colour red")
    view = play(client, game_id, tokens[second], "colour blue")
    assert view["state"]["phase"] == "placement"
    for seat in (first, second):  # 3 starting units: one step of 3 each, on a front line
        owners = {t: v["owner"] for t, v in view["state"]["territories"].items()}
        front = [
            t
            for t, owner in owners.items()
            if owner == seat and any(owners[n] != seat for n in WORLD_MAP.adjacency[t])
        ]
        view = play(client, game_id, tokens[seat], f"place {front[0].replace(' ', '_')}=3")
    assert view["state"]["phase"] == "invasion" and view["state"]["round"] == 1
    assert view["current_players"] == [first]

    legal = client.get(f"{API}/{game_id}/legal-moves", headers=bearer(tokens[first])).json
    invasions = [m["notation"] for m in legal["moves"] if m["move"]["type"] == "invade"]
    assert invasions, "4 units on a territory can invade a neighbour"
    play(client, game_id, tokens[first], invasions[0])
    view = play(client, game_id, tokens[first], "fight")
    kinds = [e["type"] for e in client.get(f"{API}/{game_id}/events?after=20").json["items"]]
    assert "DiceRolled" in kinds and "BattleResolved" in kinds
    if view["state"]["invasion"] is not None:
        view = play(client, game_id, tokens[first], "stop")
    view = play(client, game_id, tokens[first], "end-invasions")
    assert view["state"]["phase"] == "reinforcement"
    me = view["state"]["players"][first]
    log = client.get(f"{API}/{game_id}/events?type=ReinforcementsReceived").json["items"]
    received = log[-1]["data"]
    assert received["territories"] == me["territories"] // 3  # no minimum of 3
    assert (
        me["reserve"]
        == received["total"]
        == received["territories"] + sum(received["continents"].values())
    )  # a capture may have completed a continent; no deals, no cards yet
    held = [t for t, v in view["state"]["territories"].items() if v["owner"] == first]
    view = play(
        client, game_id, tokens[first], f"place {held[0].replace(' ', '_')}={me['reserve']}"
    )
    view = play(client, game_id, tokens[first], "end-turn")
    assert view["current_players"] == [second]

    view = play(client, game_id, tokens[second], "end-invasions")
    reserve = view["state"]["players"][second]["reserve"]
    held = [t for t, v in view["state"]["territories"].items() if v["owner"] == second]
    play(client, game_id, tokens[second], f"place {held[0].replace(' ', '_')}={reserve}")
    view = play(client, game_id, tokens[second], "end-turn")
    assert view["state"]["phase"] == "exchange" and sorted(view["current_players"]) == [0, 1]

    play(client, game_id, tokens[second], "done")
    view = play(client, game_id, tokens[first], "done")
    assert view["state"]["phase"] == "invasion" and view["state"]["round"] == 2
    assert view["current_players"] == [first]
    refused = client.post(
        f"{API}/{game_id}/moves",
        json={"notation": "buy 1", "expected_version": view["version"]},
        headers=bearer(tokens[first]),
    )
    assert refused.status_code == 422
    assert refused.json["code"] == "wrong-phase"
    assert client.get(f"{API}/{game_id}").json["version"] == view["version"]
