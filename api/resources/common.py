"""What the resources share: the process's services and the shape of an answer (the
version as ``ETag``, ``Location`` of a created game)."""

from __future__ import annotations

from typing import Any

from flask import current_app, request, url_for
from werkzeug.wrappers import Response

from application.rendering import Cacheable
from application.service import Document, Joined, Played, serialised
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


def joined_answer(game_id: str, joined: Joined) -> Answer:
    """The answer to a seat taken (joined or claimed; docs/api.md, "Endpoints": seats, and
    "Lobby"): the seat, its token (shown once) and the game's version, 201 with the game's
    ``Location``."""
    answer = {
        "game_id": game_id,
        "seat": joined.seat,
        "token": joined.token,
        "version": joined.version,
    }
    return with_etag(answer, joined.version, 201, game_location(game_id))


def played_answer(game_id: str, done: Played) -> Response:
    """The answer to a command: the game's new version (also the ETag) and its events,
    serialised directly (the response schema documents it)."""
    body = serialised({"game_id": game_id, "version": done.version, "events": done.events})
    answer = Response(body, mimetype="application/json")
    answer.headers["ETag"] = etag_of(done.version)
    return answer


def etag_of(version: int) -> str:
    """The entity tag of a game's version (a strong validator: a viewer's view of a version
    never changes)."""
    return f'"{version}"'


def document_answer(document: Document, status: int = 200) -> Response:
    """A serialised view as it is sent, with its version as ``ETag``; a GET whose
    ``If-None-Match`` names that version is answered ``304 Not Modified`` with no body
    (docs/api.md, "Conditional requests"). (A :class:`Response` passes flask-smorest's
    response schema by: the document is what the schema describes, serialised once.)"""
    etag = etag_of(document.version)
    if request.method == "GET" and _none_match(request.headers.get("If-None-Match"), etag):
        answer = Response(status=304)
    else:
        answer = Response(document.body, status=status, mimetype="application/json")
    answer.headers["ETag"] = etag
    return answer


def not_modified(answer: Response) -> Response:
    """After every request: a ``GET`` answered ``200`` with an ``ETag`` that the request's
    ``If-None-Match`` names becomes ``304 Not Modified`` with no body, its ``ETag`` and
    ``Vary`` kept (RFC 9110, 13.1.2 and 15.4.5; docs/api.md, "Conditional requests"): every
    GET that sends an ETag (a view, a view after a turn, a page of the event log, a record)
    answers conditional requests, whichever resource made it."""
    etag = answer.headers.get("ETag")
    if (
        request.method == "GET"
        and answer.status_code == 200
        and etag is not None
        and _none_match(request.headers.get("If-None-Match"), etag)
    ):
        answer.status_code = 304
        answer.set_data(b"")
    return answer


def _none_match(header: str | None, etag: str) -> bool:
    """Whether an ``If-None-Match`` header names ``etag`` (RFC 9110, 13.1.2: the weak
    comparison, ``*`` for any)."""
    if not header:
        return False
    tags = {tag.strip().removeprefix("W/") for tag in header.split(",")}
    return "*" in tags or etag in tags


NOT_MODIFIED = "If-None-Match named the current ETag: no body"
"""The description of a cacheable document's 304."""


def cache_headers(max_age: int) -> dict[str, Any]:
    """The OpenAPI headers of a cacheable document's answers (its ETag and Cache-Control)."""
    return {
        "ETag": {
            "description": "A strong tag of the content (its SHA-256); send it back as "
            "If-None-Match",
            "schema": {"type": "string"},
        },
        "Cache-Control": {
            "description": f"public, max-age={max_age}",
            "schema": {"type": "string"},
        },
    }


def cached_answer(document: Cacheable, max_age: int) -> Response:
    """``document`` with its ``ETag`` and ``Cache-Control: public, max-age=``; ``304 Not
    Modified`` without a body when ``If-None-Match`` names the tag (RFC 9110's weak
    comparison, ``*`` for any). No ``Date``: the server adds it (gunicorn and werkzeug's
    development server each write one, so an answer that set its own — werkzeug's
    ``make_conditional`` does — carried two)."""
    if request.method in ("GET", "HEAD") and _none_match(
        request.headers.get("If-None-Match"), document.etag
    ):
        answer = Response(status=304)
    else:
        answer = Response(document.body, mimetype="application/json")
    answer.headers["ETag"] = document.etag
    answer.headers["Cache-Control"] = f"public, max-age={max_age}"
    return answer
