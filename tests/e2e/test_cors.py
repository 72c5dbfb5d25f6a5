"""CORS answers a browser's ``Origin`` and leaves every other request's answer alone
(docs/api.md, "CORS"): flask-cors's hook runs only for a request that sends ``Origin``
(api/app.py), which must change nothing a client sees."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from api.app import create_app
from infrastructure.config import Settings
from infrastructure.container import build_services
from tests.e2e.conftest import bearer, new_game

FRONT = "https://front.example"


@pytest.fixture
def front_client(tmp_path: Path) -> Iterator[FlaskClient]:
    """The service allowing one origin."""
    services = build_services(
        Settings(store="sqlite", sqlite_path=tmp_path / "cors.db", cors_origins=FRONT)
    )
    yield create_app(services, follow=False).test_client()
    services.close()


def cors_headers(headers: object) -> dict[str, str]:
    """The answer's ``Access-Control-*`` headers."""
    found = dict(headers)  # type: ignore[call-overload]
    return {k: v for k, v in found.items() if k.startswith("Access-Control-")}


def test_an_answer_without_origin_carries_no_cors_header(front_client: FlaskClient) -> None:
    game_id, tokens = new_game(front_client)
    for answer in (
        front_client.get(f"/api/v1/games/{game_id}"),
        front_client.get(f"/api/v1/games/{game_id}", headers=bearer(tokens[0])),
        front_client.get("/api/v1/games/no-such-game"),
        front_client.post(f"/api/v1/games/{game_id}/moves", json={"move": {}}),
    ):
        assert cors_headers(answer.headers) == {}
        assert answer.headers.get("Vary", "Authorization") == "Authorization"


def test_an_allowed_origin_is_answered_on_views_and_errors(front_client: FlaskClient) -> None:
    game_id, _ = new_game(front_client)
    origin = {"Origin": FRONT}
    for answer in (
        front_client.get(f"/api/v1/games/{game_id}", headers=origin),
        front_client.get("/api/v1/games/no-such-game", headers=origin),
    ):
        assert answer.headers["Access-Control-Allow-Origin"] == FRONT
        assert "ETag" in answer.headers["Access-Control-Expose-Headers"]
    stranger = front_client.get(f"/api/v1/games/{game_id}", headers={"Origin": "https://x.example"})
    assert stranger.status_code == 200
    assert cors_headers(stranger.headers) == {}
