"""Seats: taking a seat of a game, which returns its secret token."""

from __future__ import annotations

from typing import Any

from api import problems, schemas
from api.problems import Failure
from api.requests import Blueprint, game_uuid
from api.resources.common import PREFIX, Answer, joined_answer, services

blp = Blueprint("seats", __name__, url_prefix=PREFIX, description="Taking a seat")


@blp.route("/games/<game_id>/seats", methods=["POST"])
@blp.arguments(schemas.JoinRequest())
@blp.response(201, schemas.JoinedSchema)
@blp.problems(
    problems.BODY,
    problems.GAME,
    Failure(403, "join-secret-required", "invalid-join-secret"),
    Failure(422, "not-plain-text", "bad-public-key"),
    Failure(
        409,
        "seat-taken",
        "no-such-seat",
        "game-full",
        "concurrent-update",
        "game-expired",
        "game-aborted",
        "seat-reserved",
    ),
)
def join_game(body: dict[str, Any], game_id: str) -> Answer:
    """Take a seat and receive its secret token (shown once). A private game's seats need its
    ``secret``; a rematch's seats are claimed (POST .../claim); a game that waited past the
    lobby's expiry is expired now and refused (docs/api.md, "Lobby"). With ``public_key`` the
    seat signs every move it makes (docs/api.md, "Signed moves")."""
    joined = services().app.join(
        game_uuid(game_id),
        body["name"],
        body["seat"],
        secret=body["secret"],
        expiry_seconds=services().settings.lobby_expiry_seconds,
        public_key=body["public_key"],
    )
    return joined_answer(game_id, joined)
