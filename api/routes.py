"""The routes of ``/api/v1`` (docs/api.md). Thin: each reads the request, calls one use case
and shapes the answer; errors are raised and turned into problem+json by api/errors.py."""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, url_for

from api import schemas
from api.requests import Blueprint, bearer_token, expected_version, game_uuid, required_token
from application.projections.turns import turns_page
from application.records import export_record
from application.service import Played
from infrastructure.container import Services

blp = Blueprint("games", __name__, url_prefix="/api/v1", description="Games, seats and moves")

_ERRORS = {
    400: "Malformed JSON or a request that does not match its schema",
    403: "The token holds no seat in this game",
    404: "No such game",
    409: "Stale version, seat taken or game not started",
    422: "The move or the options are refused by the rules",
}


def services() -> Services:
    """The process's services, set up by the app factory."""
    found: Services = current_app.extensions["gameledger"]
    return found


def with_etag(
    body: dict[str, Any], version: int, status: int = 200, location: str | None = None
) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The aggregate version is the ETag; a 201 says where the new resource is."""
    headers = {"ETag": f'"{version}"'}
    if location is not None:
        headers["Location"] = location
    return body, status, headers


def game_location(game_id: Any) -> str:
    """The URL of a game's view (the ``Location`` of a created game or fork)."""
    return url_for("games.get_game", game_id=str(game_id))


def _doc_errors(*statuses: int) -> dict[str, Any]:
    return {"responses": {str(s): {"description": _ERRORS[s]} for s in statuses}}


@blp.route("/game-types", methods=["GET"])
@blp.response(200, schemas.GameTypeSchema(many=True))
def list_game_types() -> list[dict[str, Any]]:
    """The registered games: rules version, player range per set of options, every option
    with its values and default, and the event types."""
    return services().app.game_types()


@blp.route("/games", methods=["GET"])
@blp.arguments(schemas.ListQuery, location="query")
@blp.response(200, schemas.GameListSchema)
def list_games(query: dict[str, Any]) -> dict[str, Any]:
    """The games list (read model): newest activity first, filtered by status or game."""
    rows, total = services().games_list.list_games(
        status=query["status"], game=query["game"], limit=query["limit"], offset=query["offset"]
    )
    return {
        "items": [r.to_json() for r in rows],
        "total": total,
        "limit": query["limit"],
        "offset": query["offset"],
    }


@blp.route("/games", methods=["POST"])
@blp.arguments(schemas.CreateGameRequest)
@blp.response(201, schemas.CreatedGameSchema)
@blp.doc(**_doc_errors(400, 404, 422))
def create_game(body: dict[str, Any]) -> Any:
    """Create a game; its seats are then joined with POST .../seats. A tournament game's
    creator receives the arbiter's token (shown once)."""
    app = services().app
    opened = app.open_game(body["game"], body["players"], body["options"], body["settings"])
    view = {**app.view(opened.game_id), "arbiter_token": opened.arbiter_token}
    return with_etag(view, view["version"], 201, game_location(opened.game_id))


@blp.route("/games/<game_id>", methods=["GET"])
@blp.arguments(schemas.ViewQuery, location="query")
@blp.response(200, schemas.GameViewSchema)
@blp.doc(**_doc_errors(403, 404))
def get_game(query: dict[str, Any], game_id: str) -> Any:
    """The game as the token's seat (or a spectator) sees it, now or at ``version``."""
    view = services().app.view(game_uuid(game_id), bearer_token(), query["version"])
    return with_etag(view, view["version"])


@blp.route("/games/<game_id>/seats", methods=["POST"])
@blp.arguments(schemas.JoinRequest)
@blp.response(201, schemas.JoinedSchema)
@blp.doc(**_doc_errors(400, 404, 409))
def join_game(body: dict[str, Any], game_id: str) -> Any:
    """Take a seat and receive its secret token (shown once)."""
    joined = services().app.join(game_uuid(game_id), body["name"], body["seat"])
    answer = {
        "game_id": game_id,
        "seat": joined.seat,
        "token": joined.token,
        "version": joined.version,
    }
    return with_etag(answer, joined.version, 201, game_location(game_id))


@blp.route("/games/<game_id>/legal-moves", methods=["GET"])
@blp.response(200, schemas.LegalMovesSchema)
@blp.doc(**_doc_errors(403, 404))
def legal_moves(game_id: str) -> Any:
    """Every move the token's seat may make now."""
    answer = services().app.legal_moves(game_uuid(game_id), required_token())
    return with_etag(answer, answer["version"])


@blp.route("/games/<game_id>/moves", methods=["POST"])
@blp.arguments(schemas.MoveRequest)
@blp.response(200, schemas.PlayedSchema)
@blp.doc(**_doc_errors(400, 403, 404, 409, 422))
def make_move(body: dict[str, Any], game_id: str) -> Any:
    """Make a move on the version the client saw (``expected_version`` or If-Match)."""
    done = services().app.play(
        game_uuid(game_id),
        required_token(),
        body["move"],
        expected_version(body),
        notation=body["notation"],
    )
    return played_answer(game_id, done)


@blp.route("/games/<game_id>/events", methods=["GET"])
@blp.arguments(schemas.EventsQuery, location="query")
@blp.response(200, schemas.EventPageSchema)
@blp.doc(**_doc_errors(403, 404))
def event_log(query: dict[str, Any], game_id: str) -> Any:
    """A page of the event log as the viewer may see it (secrets redacted)."""
    types = frozenset(query["type"]) if query["type"] else None
    page = services().app.event_log(
        game_uuid(game_id), bearer_token(), query["after"], query["limit"], types
    )
    return with_etag(page, page["version"])


@blp.route("/games/<game_id>/turns", methods=["GET"])
@blp.arguments(schemas.TurnsQuery, location="query")
@blp.response(200, schemas.TurnListSchema)
@blp.doc(**_doc_errors(400, 403, 404))
def list_turns(query: dict[str, Any], game_id: str) -> Any:
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
@blp.doc(**_doc_errors(403, 404))
def view_after_turn(game_id: str, turn: int) -> Any:
    """The game as it was after ``turn`` (0: before the first move), for the viewer."""
    view = services().app.view_after_turn(game_uuid(game_id), turn, bearer_token())
    return with_etag(view, view["version"])


@blp.route("/games/<game_id>/undo-requests", methods=["POST"])
@blp.arguments(schemas.UndoRequest)
@blp.response(200, schemas.PlayedSchema)
@blp.doc(**_doc_errors(403, 404, 409, 422))
def request_undo(body: dict[str, Any], game_id: str) -> Any:
    """Ask to take back the last ``turns`` turns of the line of play, the first of them your
    own (docs/audit.md, "Undo"): at once when nobody must consent (undo 'free' and only your
    own turns); else a request that every other seat ('consent'), or under 'free' each other
    seat whose turn it takes back, accepts or refuses."""
    done = services().app.request_undo(
        game_uuid(game_id), required_token(), body["turns"], expected_version(body)
    )
    return played_answer(game_id, done)


@blp.route("/games/<game_id>/undo-requests/answer", methods=["POST"])
@blp.arguments(schemas.UndoAnswer)
@blp.response(200, schemas.PlayedSchema)
@blp.doc(**_doc_errors(403, 404, 409, 422))
def answer_undo(body: dict[str, Any], game_id: str) -> Any:
    """Accept or refuse the pending undo request."""
    done = services().app.answer_undo(
        game_uuid(game_id), required_token(), body["accept"], expected_version(body)
    )
    return played_answer(game_id, done)


@blp.route("/games/<game_id>/arbiter/undo", methods=["POST"])
@blp.arguments(schemas.ArbiterUndoRequest)
@blp.response(200, schemas.PlayedSchema)
@blp.doc(**_doc_errors(403, 404, 409, 422))
def arbiter_undo(body: dict[str, Any], game_id: str) -> Any:
    """The arbiter takes the game back to the end of a turn, with a recorded reason."""
    done = services().app.arbiter_undo(
        game_uuid(game_id),
        required_token(),
        body["turn"],
        body["reason"],
        expected_version(body),
    )
    return played_answer(game_id, done)


@blp.route("/games/<game_id>/forks", methods=["POST"])
@blp.arguments(schemas.ForkRequest)
@blp.response(201, schemas.GameViewSchema)
@blp.doc(**_doc_errors(403, 404, 409))
def fork_game(body: dict[str, Any], game_id: str) -> Any:
    """Start an analysis game from this game's state after a turn (never a result)."""
    app = services().app
    fork_id = app.fork(game_uuid(game_id), body["turn"], bearer_token())
    view = app.view(fork_id)
    return with_etag(view, view["version"], 201, game_location(fork_id))


@blp.route("/games/<game_id>/record", methods=["GET"])
@blp.response(200, schemas.RecordSchema)
@blp.doc(**_doc_errors(403, 404))
def game_record(game_id: str) -> Any:
    """The game's self-contained record as the viewer may see it: moves, every event with its
    hash, the seed once the game has ended, the outcome (docs/audit.md)."""
    record = export_record(services().app, game_uuid(game_id), bearer_token())
    return with_etag(record, record["events"][-1]["version"])


def played_answer(game_id: str, done: Played) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The answer to a command: the game's new version (also the ETag) and its events."""
    return with_etag(
        {"game_id": game_id, "version": done.version, "events": done.events}, done.version
    )


def health() -> Response:
    """Liveness: the process answers."""
    return Response('{"status": "ok"}', mimetype="application/json")
