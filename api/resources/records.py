"""Records: a game's event log and its self-contained record (docs/audit.md). A record is
imported and verified with the CLI (``gameledger import``, ``gameledger verify``), not over
HTTP. A record carries its ``transparency`` (its checkpoint, signature and inclusion proof in
the transparency log; docs/audit.md, "Record format"), attached to each answer: its ``ETag``
is the game's version and the size of the tree head proved against (``"<version>-<size>"``)."""

from __future__ import annotations

from typing import Any

from werkzeug.wrappers import Response

from api import problems, schemas, tlog_schemas
from api.problems import Failure
from api.requests import Blueprint, bearer_token, game_uuid
from api.resources.common import PREFIX, Answer, services, with_etag
from application.records import record_document
from application.transparency import transparency_of, with_transparency

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
@blp.arguments(tlog_schemas.RecordQuery(), location="query")
@blp.response(200, schemas.RecordSchema)
@blp.problems(problems.QUERY, problems.VIEWER, problems.GAME, Failure(404, "tree-head-not-found"))
def game_record(query: dict[str, Any], game_id: str) -> Response:
    """The game's self-contained record as the viewer may see it: moves, every event with its
    hash, the seed once the game has ended, the outcome (docs/audit.md), and its
    ``transparency``: its latest checkpoint with the inclusion proof against the latest signed
    tree head, or the stored one of ``tree_size`` entries. A finished game's record is built
    once and served from storage; ``transparency`` is added to each answer."""
    found = services()
    uuid = game_uuid(game_id)
    document = record_document(found.app, found.records, uuid, bearer_token())
    transparency, head = transparency_of(
        found.tlog.store, found.keys, str(uuid), document.version, query["tree_size"]
    )
    answer = Response(with_transparency(document.body, transparency), mimetype="application/json")
    answer.headers["ETag"] = f'"{document.version}-{head["size"]}"'
    return answer
