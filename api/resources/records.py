"""Records: a game's event log and its self-contained record (docs/audit.md). A record is
imported and verified with the CLI (``gameledger import``, ``gameledger verify``), not over
HTTP."""

from __future__ import annotations

from typing import Any

from werkzeug.wrappers import Response

from api import problems, schemas
from api.problems import Failure
from api.requests import Blueprint, bearer_token, game_uuid
from api.resources.common import PREFIX, Answer, document_answer, services, with_etag
from application.records import record_document

blp = Blueprint("records", __name__, url_prefix=PREFIX, description="The event log, the record")


@blp.route("/games/<game_id>/events", methods=["GET"])
@blp.arguments(schemas.EventsQuery(), location="query")
@blp.response(200, schemas.EventPageSchema)
@blp.problems(problems.QUERY, Failure(400, "unknown-event-type"), problems.VIEWER, problems.GAME)
def event_log(query: dict[str, Any], game_id: str) -> Answer:
    """A page of the event log as the viewer may see it (secrets redacted)."""
    types = frozenset(query["type"]) if query["type"] else None
    page = services().app.event_log(
        game_uuid(game_id), bearer_token(), query["after"], query["limit"], types
    )
    return with_etag(page, page["version"])


@blp.route("/games/<game_id>/record", methods=["GET"])
@blp.response(200, schemas.RecordSchema)
@blp.problems(problems.VIEWER, problems.GAME)
def game_record(game_id: str) -> Response:
    """The game's self-contained record as the viewer may see it: moves, every event with its
    hash, the seed once the game has ended, the outcome (docs/audit.md). A finished game's
    record is built once and served from storage."""
    found = services()
    return document_answer(
        record_document(found.app, found.records, game_uuid(game_id), bearer_token())
    )
