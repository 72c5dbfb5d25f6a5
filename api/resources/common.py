"""What the resources share: the process's services and the shape of an answer (the
version as ``ETag``, ``Location`` of a created game)."""

from __future__ import annotations

from typing import Any

from flask import current_app, url_for

from application.service import Played
from infrastructure.container import Services

PREFIX = "/api/v1"

Answer = tuple[dict[str, Any], int, dict[str, str]]


def services() -> Services:
    """The process's services, set up by the app factory."""
    found: Services = current_app.extensions["gameledger"]
    return found


def with_etag(
    body: dict[str, Any], version: int, status: int = 200, location: str | None = None
) -> Answer:
    """The aggregate version is the ETag; a 201 says where the new resource is."""
    headers = {"ETag": f'"{version}"'}
    if location is not None:
        headers["Location"] = location
    return body, status, headers


def game_location(game_id: Any) -> str:
    """The URL of a game's view (the ``Location`` of a created game or fork)."""
    return url_for("games.get_game", game_id=str(game_id))


def played_answer(game_id: str, done: Played) -> Answer:
    """The answer to a command: the game's new version (also the ETag) and its events."""
    return with_etag(
        {"game_id": game_id, "version": done.version, "events": done.events}, done.version
    )
