"""The seed's three-player bazaar auction (seed 001, "Базары") played over HTTP by three
clients, each with only its own token (issue 5, "How it will be checked")."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.e2e.conftest import bearer

RED, BLUE, GREEN = 0, 1, 2


class Client:
    """One player's front end: it knows the game id and its own token only."""

    def __init__(self, client: FlaskClient, game_id: str, token: str) -> None:
        self.client, self.game_id, self.token = client, game_id, token

    def view(self) -> dict[str, Any]:
        got: dict[str, Any] = self.client.get(
            f"/api/v1/games/{self.game_id}", headers=bearer(self.token)
        ).json
        return got

    def act(self, notation: str) -> list[str]:
        """Make a move from the legal moves the API lists; the event types it caused."""
        view = self.view()
        listed = self.client.get(
            f"/api/v1/games/{self.game_id}/legal-moves", headers=bearer(self.token)
        ).json["moves"]
        assert notation in [m["notation"] for m in listed], (notation, listed[:5])
        played = self.client.post(
            f"/api/v1/games/{self.game_id}/moves",
            headers=bearer(self.token),
            json={"notation": notation, "expected_version": view["version"]},
        )
        assert played.status_code == 200, played.json
        log = self.client.get(
            f"/api/v1/games/{self.game_id}/events?after={view['version']}&limit=500",
            headers=bearer(self.token),
        ).json["items"]
        return [e["type"] for e in log if e["type"] != "MoveMade"]

    def place_first(self) -> list[str]:
        """Place the tile in hand at the first listed spot, without a follower."""
        listed = self.client.get(
            f"/api/v1/games/{self.game_id}/legal-moves", headers=bearer(self.token)
        ).json["moves"]
        plain = next(m["notation"] for m in listed if "+" not in m["notation"])
        return self.act(plain)


def test_the_seeds_auction_by_three_clients(client: FlaskClient) -> None:
    created = client.post(
        "/api/v1/games",
        json={
            "game": "carcassonne",
            "players": 3,
            "options": {
                "expansions": ["bridges-castles-bazaars"],
                "stack": ["BB6", "B", "E", "U"],
                "stack-only": True,
            },
        },
    ).json
    game_id = created["id"]
    assert created["analysis"] == {"scenario": True}
    names = ("Red", "Blue", "Green")
    tokens = [
        client.post(f"/api/v1/games/{game_id}/seats", json={"name": n}).json["token"] for n in names
    ]
    red, blue, green = (Client(client, game_id, t) for t in tokens)

    assert red.act("BB6@0,1r0+f0")[-1] == "AuctionOpened"
    assert blue.view()["state"]["bazaar"]["tiles"] == ["B", "E", "U"]
    assert blue.view()["current_players"] == [BLUE]
    blue.act("bid B 2")
    green.act("pass")
    red.act("bid 3")
    assert blue.act("buy") == ["TileBought"]
    assert red.view()["state"]["scores"] == [3, -3, 0]

    green.act("bid E 2")
    assert green.view()["current_players"] == [RED]
    red.act("bid 3")
    sold = green.act("sell")
    assert sold[:3] == ["TileSold", "TileTakenFree", "BazaarTileTaken"]
    assert green.view()["state"]["scores"] == [0, -3, 3]

    blue.place_first()
    green.place_first()
    assert "GameEnded" in red.place_first()
    final = red.view()
    assert final["status"] == "finished" and final["outcome"]["scores"] == [0, -3, 3]
    wrong_turn = client.post(
        f"/api/v1/games/{game_id}/moves",
        headers=bearer(tokens[BLUE]),
        json={"notation": "pass", "expected_version": final["version"]},
    )
    assert wrong_turn.status_code == 422
