"""Games: the registered kinds of game, the games list, creating a game, viewing one."""

from __future__ import annotations

from typing import Any

from werkzeug.wrappers import Response

from api import problems, schemas
from api.problems import Failure
from api.requests import Blueprint, bearer_token, game_uuid
from api.resources.common import (
    PREFIX,
    Answer,
    document_answer,
    game_location,
    services,
    with_etag,
)
from application.contract import ledger_event_schemas

blp = Blueprint(
    "games", __name__, url_prefix=PREFIX, description="Kinds of game, the games list, a game"
)


@blp.route("/game-types", methods=["GET"])
@blp.response(200, schemas.GameTypeSchema(many=True))
def list_game_types() -> list[dict[str, Any]]:
    """The registered games: rules version, player range per set of options, every option
    with its values and default, and the event types."""
    return services().app.game_types()


@blp.route("/game-types/<name>/schemas", methods=["GET"])
@blp.response(200, schemas.GameSchemasSchema)
@blp.problems(Failure(404, "unknown-game"))
def get_game_schemas(name: str) -> dict[str, Any]:
    """The JSON Schemas of a game's events (by type), move, view and options, and of the
    ledger's own events (``ledger_events``), generated from their one typed definition: what
    GameView.state, MoveRequest.move and Event.data hold (docs/api.md, "The schemas of a
    game's data")."""
    return {**services().app.game_schemas(name), "ledger_events": ledger_event_schemas()}


@blp.route("/games", methods=["GET"])
@blp.arguments(schemas.ListQuery(), location="query")
@blp.response(200, schemas.GameListSchema)
@blp.problems(problems.QUERY, Failure(400, "invalid-cursor"))
def list_games(query: dict[str, Any]) -> Response:
    """The games list (read model): newest activity first, filtered by status or game; a
    page at a time (``next_cursor`` gives the next page's ``cursor``)."""
    body = services().list_pages.page(
        status=query["status"], game=query["game"], limit=query["limit"], cursor=query["cursor"]
    )
    return Response(body, mimetype="application/json")


@blp.route("/games", methods=["POST"])
@blp.arguments(schemas.CreateGameRequest())
@blp.response(201, schemas.CreatedGameSchema)
@blp.problems(
    problems.BODY,
    Failure(404, "unknown-game"),
    Failure(422, "invalid-options", "invalid-player-count", "invalid-settings", "invalid-clock"),
)
def create_game(body: dict[str, Any]) -> Answer:
    """Create a game; its seats are then joined with POST .../seats. The creator receives,
    once each, the creator's token (to abort the game before it starts), a private game's
    join secret and a tournament game's arbiter token (docs/api.md, "Lobby")."""
    app = services().app
    opened = app.open_game(
        body["game"], body["players"], body["options"], body["settings"], private=body["private"]
    )
    view = {
        **app.view(opened.game_id),
        "arbiter_token": opened.arbiter_token,
        "creator_token": opened.creator_token,
        "join_secret": opened.join_secret,
    }
    return with_etag(view, view["version"], 201, game_location(opened.game_id))


@blp.route("/games/<game_id>", methods=["GET"])
@blp.arguments(schemas.ViewQuery(), location="query")
@blp.response(200, schemas.GameViewSchema)
@blp.problems(problems.QUERY, problems.VIEWER, problems.GAME, Failure(404, "no-such-version"))
def get_game(query: dict[str, Any], game_id: str) -> Response:
    """The game as the token's seat (or a spectator) sees it, now or at ``version``.

    With ``If-None-Match`` naming the version it would show: 304 Not Modified, no body."""
    document = services().app.view_document(game_uuid(game_id), bearer_token(), query["version"])
    return document_answer(document)
