"""Reading a request (docs/api.md, "Requests" and "Limits"): the JSON body (strictly, once),
the seat token, the version a command was decided on, the game id in the path.

Every refusal here is an :class:`~api.errors.ApiError`, so it reaches the client as a 4xx
problem+json with a stable code and nothing has been changed."""

from __future__ import annotations

import re
from typing import Any
from uuid import UUID

import flask
from flask import current_app, request
from flask_smorest import Blueprint as SmorestBlueprint
from webargs import core
from webargs.flaskparser import FlaskParser

from api import jsonbody
from api.errors import ApiError
from api.fields import MAX_INTEGER

JSON_TYPES = ("application/json",)
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
_ETAG_VERSION = re.compile(r'(?:W/)?"?([0-9]{1,16})"?')


class StrictParser(FlaskParser):
    """webargs' Flask parser, reading JSON bodies with :func:`api.jsonbody.decode`."""

    def _raw_load_json(self, req: flask.Request) -> Any:
        if not req.is_json:
            return core.missing
        return jsonbody.decode(
            req.get_data(cache=True), max_depth=current_app.config["MAX_JSON_DEPTH"]
        )


class Blueprint(SmorestBlueprint):  # type: ignore[misc]
    """flask-smorest's blueprint with the strict parser."""

    ARGUMENTS_PARSER = StrictParser()


def require_json_body() -> None:
    """Before every request: a body must be JSON (``Content-Type: application/json``), and
    is read now, so that one too large is a 413 whatever its transfer encoding."""
    if request.method not in BODY_METHODS:
        return
    chunked = "chunked" in request.headers.get("Transfer-Encoding", "").lower()
    if not request.content_length and not chunked:
        return
    if not request.is_json:
        raise ApiError(
            415,
            "unsupported-media-type",
            "Send the body as JSON, with 'Content-Type: application/json'.",
        )
    request.get_data(cache=True)  # 413 past MAX_CONTENT_LENGTH when the length is declared
    if chunked:
        # A chunked body is cut at the limit without an error; one more read raises 413 if
        # anything is left (werkzeug's LimitedStream with is_max).
        request.stream.read(1)


def bearer_token() -> str | None:
    """The seat token from ``Authorization: Bearer <token>``, if sent."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if not header:
        return None
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "invalid-authorization", "Send the seat token as 'Bearer <token>'.")
    return token.strip()


def required_token() -> str:
    """The seat token; a request without one is refused."""
    token = bearer_token()
    if token is None:
        raise ApiError(
            401,
            "token-required",
            "This request needs a seat token ('Authorization: Bearer <token>').",
        )
    return token


def game_uuid(game_id: str) -> UUID:
    """The game id from the path; a malformed one is simply not found."""
    try:
        return UUID(game_id)
    except ValueError:
        raise ApiError(404, "game-not-found", f"There is no game {game_id}.") from None


def expected_version(body: dict[str, Any]) -> int:
    """The version a command was decided on, from the body's ``expected_version`` or the
    ``If-Match`` header (an entity tag such as ``"12"``). Both may be sent only if they
    agree; neither is a 428."""
    in_body: int | None = body.get("expected_version")
    in_header = _if_match()
    if in_body is not None and in_header is not None and in_body != in_header:
        raise ApiError(
            400,
            "version-mismatch",
            f"expected_version is {in_body} but If-Match says {in_header}: send one, "
            "or the same version in both.",
        )
    found = in_body if in_body is not None else in_header
    if found is None:
        raise ApiError(
            428,
            "version-required",
            "Send the version the move was decided on as 'expected_version' or in If-Match.",
        )
    return found


def _if_match() -> int | None:
    header = request.headers.get("If-Match")
    if header is None:
        return None
    match = _ETAG_VERSION.fullmatch(header.strip())
    if match is None or int(match.group(1)) > MAX_INTEGER:
        raise ApiError(
            400,
            "invalid-if-match",
            'If-Match must be one entity tag holding the game\'s version, such as "12".',
        )
    return int(match.group(1))
