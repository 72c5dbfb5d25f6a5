"""An HTTP client of the Flask app on a store (in-process WSGI). Every answer any e2e test
gets from an app's test client is checked against the served OpenAPI document
(tests/e2e/openapi_check.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api.app import create_app
from infrastructure.config import Settings
from infrastructure.container import Services, build_services
from tests.e2e.openapi_check import CheckedClient, checker


@pytest.fixture(scope="session")
def openapi_checker() -> object:
    """The served document, compiled once for the session."""
    return checker()


@pytest.fixture(autouse=True)
def checked_answers(openapi_checker: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every app's test client in an e2e test checks its answers against the document."""
    monkeypatch.setattr(Flask, "test_client_class", CheckedClient)


@pytest.fixture
def http_services(tmp_path: Path) -> Iterator[Services]:
    """The service on a SQLite file, as the README starts it."""
    built = build_services(Settings(store="sqlite", sqlite_path=tmp_path / "e2e.db"))
    yield built
    built.close()


@pytest.fixture
def client(http_services: Services) -> FlaskClient:
    """A client of the app, with the read models followed in the background."""
    return create_app(http_services, follow=True).test_client()


def bearer(token: str) -> dict[str, str]:
    """The header that carries a seat token."""
    return {"Authorization": f"Bearer {token}"}


def new_game(
    client: FlaskClient, players: int = 2, game: str = "azul", **options: Any
) -> tuple[str, list[str]]:
    """Create a game over HTTP and join every seat; its id and the tokens."""
    created = client.post(
        "/api/v1/games", json={"game": game, "players": players, "options": options}
    )
    assert created.status_code == 201, created.json
    game_id = created.json["id"]
    return game_id, join_all(client, game_id, players)


def seeded_game(
    client: FlaskClient, services: Services, players: int, game: str, seed: str, **options: Any
) -> tuple[str, list[str]]:
    """A game created with a known seed (the API never takes one; tests need the same dice
    every run), its seats joined over HTTP; its id and the tokens."""
    game_id = str(services.app.create_game(game, players, options, seed=seed))
    return game_id, join_all(client, game_id, players)


def join_all(client: FlaskClient, game_id: str, players: int) -> list[str]:
    """Take every seat over HTTP; the tokens in seat order."""
    tokens = []
    for n in range(players):
        joined = client.post(f"/api/v1/games/{game_id}/seats", json={"name": f"p{n}"})
        assert joined.status_code == 201, joined.json
        tokens.append(joined.json["token"])
    return tokens
