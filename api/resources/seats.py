"""Seats: taking a seat of a game, which returns its secret token."""

from __future__ import annotations

from typing import Any

from api import problems, schemas
from api.problems import Failure
from api.requests import Blueprint, game_uuid
from api.resources.common import PREFIX, Answer, game_location, services, with_etag

blp = Blueprint("seats", __name__, url_prefix=PREFIX, description="Taking a seat")


@blp.route("/games/<game_id>/seats", methods=["POST"])
@blp.arguments(schemas.JoinRequest())
@blp.response(201, schemas.JoinedSchema)
@blp.problems(
    problems.BODY,
    problems.GAME,
    Failure(409, "seat-taken", "no-such-seat", "game-full", "concurrent-update"),
    Failure(422, "not-plain-text"),
)
def join_game(body: dict[str, Any], game_id: str) -> Answer:
    """Take a seat and receive its secret token (shown once)."""
    joined = services().app.join(game_uuid(game_id), body["name"], body["seat"])
    answer = {
        "game_id": game_id,
        "seat": joined.seat,
        "token": joined.token,
        "version": joined.version,
    }
    return with_etag(answer, joined.version, 201, game_location(game_id))
