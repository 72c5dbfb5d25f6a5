"""Forks: an analysis game started from a game's state after a turn (never a result)."""

from __future__ import annotations

from typing import Any

from api import problems, schemas
from api.problems import Failure
from api.requests import Blueprint, bearer_token, game_uuid
from api.resources.common import PREFIX, Answer, game_location, services, with_etag

blp = Blueprint("forks", __name__, url_prefix=PREFIX, description="Analysis games")


@blp.route("/games/<game_id>/forks", methods=["POST"])
@blp.arguments(schemas.ForkRequest())
@blp.response(201, schemas.GameViewSchema)
@blp.problems(
    problems.BODY,
    problems.VIEWER,
    problems.GAME,
    Failure(404, "no-such-turn"),
    Failure(409, "hidden-information"),
)
def fork_game(body: dict[str, Any], game_id: str) -> Answer:
    """Start an analysis game from this game's state after a turn (never a result)."""
    app = services().app
    fork_id = app.fork(game_uuid(game_id), body["turn"], bearer_token())
    view = app.view(fork_id)
    return with_etag(view, view["version"], 201, game_location(fork_id))
