"""The HTTP API end to end (issue 2, part 8): a whole game, and each error with its own
problem+json code that leaves the game unchanged."""

from __future__ import annotations

import random
import time

import pytest
from flask.testing import FlaskClient

from domain.registry import games
from infrastructure.container import Services
from tests.e2e.conftest import bearer, new_game, seeded_game

PROBLEM = "application/problem+json"


def assert_problem(response: object, status: int, code: str) -> None:
    assert response.status_code == status, response.json  # type: ignore[attr-defined]
    assert response.mimetype == PROBLEM  # type: ignore[attr-defined]
    body = response.json  # type: ignore[attr-defined]
    assert body["code"] == code and body["status"] == status
    assert body["title"] and body["detail"] and body["type"].endswith(code)


def game_state(client: FlaskClient, game_id: str) -> tuple[int, list[dict[str, object]]]:
    view = client.get(f"/api/v1/games/{game_id}")
    log = client.get(f"/api/v1/games/{game_id}/events?limit=500")
    return view.json["version"], log.json["items"]


def current_move(client: FlaskClient, game_id: str, tokens: list[str]) -> tuple[int, int, dict]:
    view = client.get(f"/api/v1/games/{game_id}").json
    seat = view["current_players"][0]
    moves = client.get(f"/api/v1/games/{game_id}/legal-moves", headers=bearer(tokens[seat]))
    return view["version"], seat, moves.json["moves"][0]["move"]


@pytest.mark.parametrize("game", sorted(games()))
def test_a_whole_game_over_http(client: FlaskClient, http_services: Services, game: str) -> None:
    # a known seed: random legal moves end every game, but not always within 1,000 moves
    game_id, tokens = seeded_game(client, http_services, 3, game, f"whole-game-{game}")
    bot = random.Random(3)
    for _ in range(1000):
        view = client.get(f"/api/v1/games/{game_id}")
        assert view.headers["ETag"] == f'"{view.json["version"]}"'
        if view.json["status"] == "finished":
            break
        seat = bot.choice(view.json["current_players"])
        listed = client.get(f"/api/v1/games/{game_id}/legal-moves", headers=bearer(tokens[seat]))
        choice = bot.choice(listed.json["moves"])
        if bot.random() < 0.5:
            body = {"move": choice["move"], "expected_version": view.json["version"]}
            headers = bearer(tokens[seat])
        else:
            body = {"notation": choice["notation"]}
            headers = {**bearer(tokens[seat]), "If-Match": view.headers["ETag"]}
        played = client.post(f"/api/v1/games/{game_id}/moves", json=body, headers=headers)
        assert played.status_code == 200, played.json
        assert played.json["version"] > view.json["version"]
    final = client.get(f"/api/v1/games/{game_id}", headers=bearer(tokens[0])).json
    assert final["status"] == "finished"
    assert final["outcome"]["winners"] and final["seed"]
    old = client.get(f"/api/v1/games/{game_id}?version=4").json
    assert old["version"] == 4 and old["status"] == "active"

    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        listed = client.get("/api/v1/games?status=finished").json
        if len(listed["items"]) == 1:
            break
        time.sleep(0.05)
    assert listed["items"][0]["id"] == game_id
    assert listed["items"][0]["game"] == game
    assert listed["items"][0]["scores"] == final["outcome"]["scores"]


def test_malformed_json(client: FlaskClient) -> None:
    game_id, tokens = new_game(client)
    before = game_state(client, game_id)
    response = client.post(
        f"/api/v1/games/{game_id}/moves",
        data="{not json",
        content_type="application/json",
        headers=bearer(tokens[0]),
    )
    assert_problem(response, 400, "malformed-json")
    assert_problem(
        client.post("/api/v1/games", data="[", content_type="application/json"),
        400,
        "malformed-json",
    )
    assert game_state(client, game_id) == before


def test_request_not_matching_its_schema(client: FlaskClient) -> None:
    response = client.post("/api/v1/games", json={"game": "azul"})
    assert_problem(response, 400, "invalid-request")
    assert "players" in response.json["errors"]["json"]
    assert_problem(
        client.post("/api/v1/games", json={"game": "azul", "players": 2, "x": 1}),
        400,
        "invalid-request",
    )


def test_unknown_game(client: FlaskClient) -> None:
    assert_problem(
        client.post("/api/v1/games", json={"game": "chess", "players": 2}), 404, "unknown-game"
    )
    assert_problem(
        client.get("/api/v1/games/7d1b1f7e-0000-4000-8000-000000000000"), 404, "game-not-found"
    )
    assert_problem(client.get("/api/v1/games/not-a-uuid"), 404, "game-not-found")


def test_invalid_options(client: FlaskClient) -> None:
    response = client.post(
        "/api/v1/games", json={"game": "azul", "players": 2, "options": {"wall": "purple"}}
    )
    assert_problem(response, 422, "invalid-options")
    assert_problem(
        client.post("/api/v1/games", json={"game": "azul", "players": 7}),
        422,
        "invalid-player-count",
    )


def test_wrong_token(client: FlaskClient) -> None:
    game_id, tokens = new_game(client)
    before = game_state(client, game_id)
    version, _, move = current_move(client, game_id, tokens)
    response = client.post(
        f"/api/v1/games/{game_id}/moves",
        headers=bearer("forged"),
        json={"move": move, "expected_version": version},
    )
    assert_problem(response, 403, "invalid-token")
    assert "forged" not in response.get_data(as_text=True)
    no_token = client.post(
        f"/api/v1/games/{game_id}/moves", json={"move": move, "expected_version": version}
    )
    assert_problem(no_token, 401, "token-required")
    assert_problem(
        client.get(f"/api/v1/games/{game_id}", headers=bearer("forged")), 403, "invalid-token"
    )
    assert game_state(client, game_id) == before


def test_not_your_turn(client: FlaskClient) -> None:
    game_id, tokens = new_game(client)
    before = game_state(client, game_id)
    version, seat, move = current_move(client, game_id, tokens)
    response = client.post(
        f"/api/v1/games/{game_id}/moves",
        headers=bearer(tokens[1 - seat]),
        json={"move": move, "expected_version": version},
    )
    assert_problem(response, 422, "not-your-turn")
    assert game_state(client, game_id) == before


def test_illegal_and_malformed_moves(client: FlaskClient) -> None:
    game_id, tokens = new_game(client)
    before = game_state(client, game_id)
    version, seat, move = current_move(client, game_id, tokens)
    listed = client.get(f"/api/v1/games/{game_id}/legal-moves", headers=bearer(tokens[seat]))
    legal = {str(m["move"]) for m in listed.json["moves"]}
    illegal = {**move, "source": "centre"}
    assert str(illegal) not in legal
    response = client.post(
        f"/api/v1/games/{game_id}/moves",
        headers=bearer(tokens[seat]),
        json={"move": illegal, "expected_version": version},
    )
    assert response.status_code == 422 and response.mimetype == PROBLEM
    assert response.json["code"] not in ("not-your-turn", "malformed-move")
    nonsense = client.post(
        f"/api/v1/games/{game_id}/moves",
        headers=bearer(tokens[seat]),
        json={"move": {"type": "dance"}, "expected_version": version},
    )
    assert_problem(nonsense, 422, "malformed-move")
    assert game_state(client, game_id) == before


def test_stale_version(client: FlaskClient) -> None:
    game_id, tokens = new_game(client)
    version, seat, move = current_move(client, game_id, tokens)
    ok = client.post(
        f"/api/v1/games/{game_id}/moves",
        headers=bearer(tokens[seat]),
        json={"move": move, "expected_version": version},
    )
    assert ok.status_code == 200
    after = game_state(client, game_id)
    again = client.post(
        f"/api/v1/games/{game_id}/moves",
        headers=bearer(tokens[seat]),
        json={"move": move, "expected_version": version},
    )
    assert_problem(again, 409, "stale-version")
    missing = client.post(
        f"/api/v1/games/{game_id}/moves", headers=bearer(tokens[seat]), json={"move": move}
    )
    assert_problem(missing, 428, "version-required")
    assert game_state(client, game_id) == after


def test_seat_errors(client: FlaskClient) -> None:
    created = client.post("/api/v1/games", json={"game": "azul", "players": 2}).json
    seats = f"/api/v1/games/{created['id']}/seats"
    assert client.post(seats, json={"name": "Ann", "seat": 1}).status_code == 201
    assert_problem(client.post(seats, json={"name": "Bob", "seat": 1}), 409, "seat-taken")
    assert client.post(seats, json={"name": "Bob"}).status_code == 201
    assert_problem(client.post(seats, json={"name": "Cy"}), 409, "game-full")


def test_event_log_hides_secrets_and_pages(client: FlaskClient) -> None:
    game_id, _tokens = new_game(client)
    first = client.get(f"/api/v1/games/{game_id}/events?limit=2").json
    assert [e["type"] for e in first["items"]] == ["Created", "SeatJoined"]
    assert "seed" not in first["items"][0]["data"]
    assert first["items"][0]["data"]["seed_sha256"]
    assert "token_sha256" not in first["items"][1]["data"]
    rest = client.get(f"/api/v1/games/{game_id}/events?after={first['next_after']}").json
    assert rest["items"][0]["version"] == 3
    only = client.get(f"/api/v1/games/{game_id}/events?type=FactoriesFilled").json
    assert [e["type"] for e in only["items"]] == ["FactoriesFilled"]
    ledger = client.get(f"/api/v1/games/{game_id}/events?type=SeatJoined&type=Created").json
    assert [e["type"] for e in ledger["items"]] == ["Created", "SeatJoined", "SeatJoined"]
    assert_problem(client.get(f"/api/v1/games/{game_id}/events?limit=0"), 400, "invalid-request")
    unknown = client.get(f"/api/v1/games/{game_id}/events?type=TilePlaced&type=Created")
    assert_problem(unknown, 400, "unknown-event-type")  # a Carcassonne event, not Azul's


def test_openapi_docs_and_cors(client: FlaskClient) -> None:
    spec = client.get("/api/v1/openapi.json").json
    assert spec["info"]["title"] == "GameLedger"
    assert "/api/v1/games/{game_id}/moves" in spec["paths"]
    assert "MoveRequest" in spec["components"]["schemas"]
    docs = client.get("/api/v1/docs")
    assert docs.status_code == 200 and b"/api/v1/docs/assets/swagger-ui-bundle.js" in docs.data
    bundle = client.get("/api/v1/docs/assets/swagger-ui-bundle.js")
    assert bundle.status_code == 200 and len(bundle.data) > 100_000
    # Swagger UI 5 renders OpenAPI 3.1 (4.x refuses the document)
    assert client.get("/api/v1/docs/assets/VERSION").data.startswith(b"v5.")
    assert spec["openapi"] == "3.1.0"
    types = client.get("/api/v1/game-types").json
    assert types[0]["name"] == "azul" and "TilesTaken" in types[0]["event_types"]
    preflight = client.options(
        "/api/v1/games",
        headers={
            "Origin": "https://front.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "Authorization, Content-Type",
        },
    )
    assert preflight.headers["Access-Control-Allow-Origin"] in ("*", "https://front.example")
    got = client.get("/api/v1/games", headers={"Origin": "https://front.example"})
    assert "ETag" in got.headers.get("Access-Control-Expose-Headers", "")
    assert "Retry-After" in got.headers.get("Access-Control-Expose-Headers", "")
    assert client.get("/api/v1/health").json == {"status": "ok"}
