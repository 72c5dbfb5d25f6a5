"""Turns: the turn index (a read model) and the game as it was after a turn."""

from __future__ import annotations

from typing import Any

from api import problems, schemas
from api.problems import Failure
from api.requests import Blueprint, bearer_token, game_uuid
from api.resources.common import PREFIX, Answer, services, with_etag
from application.projections.turns import turns_page

blp = Blueprint("turns", __name__, url_prefix=PREFIX, description="The turn index, replay")


@blp.route("/games/<game_id>/turns", methods=["GET"])
@blp.arguments(schemas.TurnsQuery(), location="query")
@blp.response(200, schemas.TurnListSchema)
@blp.problems(problems.QUERY, problems.VIEWER, problems.GAME)
def list_turns(query: dict[str, Any], game_id: str) -> dict[str, Any]:
    """A page of the turn index (a read model), paged like the event log (``after`` a
    version, ``limit``, ``next_after``): who moved, the versions of each turn, its notation;
    turns taken back carry the version of the undo. A token that holds no seat and is not
    the arbiter's is refused (403), as everywhere; without one the caller is a spectator."""
    uuid = game_uuid(game_id)
    services().app.viewer(uuid, bearer_token())  # 404 unknown game, 403 invalid token
    return turns_page(
        services().turns,
        str(uuid),
        include_undone=query["include_undone"],
        after=query["after"],
        limit=query["limit"],
    )


@blp.route("/games/<game_id>/turns/<turn:turn>", methods=["GET"])
@blp.response(200, schemas.GameViewSchema)
@blp.problems(problems.VIEWER, problems.GAME, Failure(404, "no-such-turn"))
def view_after_turn(game_id: str, turn: int) -> Answer:
    """The game as it was after ``turn`` (0: before the first move), for the viewer."""
    view = services().app.view_after_turn(game_uuid(game_id), turn, bearer_token())
    return with_etag(view, view["version"])
