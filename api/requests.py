"""Reading a request (docs/api.md, "Requests" and "Limits"): the JSON body (strictly, once),
the seat token, the version a command was decided on, the game or tournament id in the path.

Every refusal here is an :class:`~api.errors.ApiError`, so it reaches the client as a 4xx
problem+json with a stable code and nothing has been changed."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, TypeVar
from uuid import UUID

import flask
from flask import current_app, request
from flask_smorest import Blueprint as SmorestBlueprint
from marshmallow import RAISE, Schema
from webargs import core
from webargs.flaskparser import FlaskParser
from werkzeug.routing import BaseConverter

from api import jsonbody
from api.errors import PROBLEM, ApiError
from api.fields import MAX_INTEGER
from api.problems import Failure, ProblemSchema, description, merged

_F = TypeVar("_F", bound=Callable[..., Any])

JSON_TYPES = ("application/json",)
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
PLAIN_DEFAULTS = (type(None), bool, int, float, str)
"""The defaults a query schema's empty query may be remembered with (immutable values)."""
_ETAG_VERSION = re.compile(r'"([1-9][0-9]{0,15})"|([1-9][0-9]{0,15})')
"""If-Match: one strong entity tag holding a version ("12"; RFC 9110 compares If-Match
strongly, so no W/), or the bare number."""


class TurnNumber(BaseConverter):
    """A turn number in a path: ASCII digits without a leading zero (werkzeug's ``int``
    takes any Unicode digit and ``01``), at most 16 of them."""

    regex = r"(?:0|[1-9][0-9]{0,15})"
    part_isolating = True

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: Any) -> str:
        return str(int(value))

    @staticmethod
    def parameter_schema(_: BaseConverter) -> dict[str, Any]:
        """The path parameter as the OpenAPI document shows it."""
        return {"type": "integer", "minimum": 0, "maximum": 10**16 - 1}


class StrictParser(FlaskParser):
    """webargs' Flask parser, reading JSON bodies with :func:`api.jsonbody.decode` and
    refusing unknown query parameters (a misspelt ``offest`` is named, not ignored)."""

    DEFAULT_UNKNOWN_BY_LOCATION = {
        **FlaskParser.DEFAULT_UNKNOWN_BY_LOCATION,
        "query": RAISE,
    }
    DEFAULT_VALIDATION_STATUS = 400
    """A request that does not match its schema is a 400 ``invalid-request`` (webargs'
    default is 422, which the rules' refusals use): flask-smorest declares it as such."""

    def __init__(self) -> None:
        super().__init__()
        self._without_query: dict[int, tuple[Schema, dict[str, Any]]] = {}

    def parse(
        self,
        argmap: Any,
        req: flask.Request | None = None,
        *,
        location: str | None = None,
        validate: Any = None,
        **kwargs: Any,
    ) -> Any:
        """webargs' parse; a request without a query string is given the query schema's
        defaults as loaded the first time (the same for every such request: a view or a page
        of a list needs no walk of the schema then). Only defaults that are plain values are
        kept, and a schema that refuses an empty query is asked every time."""
        if location == "query" and validate is None and isinstance(argmap, Schema):
            request_now = req if req is not None else flask.request
            if not request_now.query_string:
                kept = self._without_query.get(id(argmap))
                if kept is None:
                    loaded = super().parse(argmap, req, location=location, **kwargs)
                    if not all(isinstance(v, PLAIN_DEFAULTS) for v in loaded.values()):
                        return loaded
                    kept = self._without_query[id(argmap)] = (argmap, loaded)
                return dict(kept[1])
        return super().parse(argmap, req, location=location, validate=validate, **kwargs)

    def _raw_load_json(self, req: flask.Request) -> Any:
        if not req.is_json:
            return core.missing
        return jsonbody.decode(
            req.get_data(cache=True), max_depth=current_app.config["MAX_JSON_DEPTH"]
        )


class Blueprint(SmorestBlueprint):  # type: ignore[misc]
    """flask-smorest's blueprint with the strict parser, declaring its operations' errors as
    problem+json (api/problems.py)."""

    ARGUMENTS_PARSER = StrictParser()

    def problems(self, *failures: Failure | Iterable[Failure]) -> Callable[[_F], _F]:
        """Declare the problems an operation can answer: one problem+json response for each
        status, its description naming the codes."""

        def decorate(view: _F) -> _F:
            for status, failure in merged(failures).items():
                view = self.alt_response(
                    status,
                    schema=ProblemSchema,
                    content_type=PROBLEM,
                    description=description(failure),
                )(view)
            return view

        return decorate


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
    """The game id from the path, in its one canonical form (lower-case hex with dashes, as
    the service writes it); anything else is simply not found."""
    try:
        found = UUID(game_id)
    except ValueError:
        found = None
    if found is None or str(found) != game_id:
        raise ApiError(404, "game-not-found", f"There is no game {game_id[:64]}.")
    return found


def tournament_uuid(tournament_id: str) -> UUID:
    """The tournament id from the path, in its canonical form (as :func:`game_uuid`);
    anything else is not found."""
    try:
        found = UUID(tournament_id)
    except ValueError:
        found = None
    if found is None or str(found) != tournament_id:
        raise ApiError(404, "tournament-not-found", f"There is no tournament {tournament_id[:64]}.")
    return found


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
    version = int(match.group(1) or match.group(2)) if match else 0
    if not 1 <= version <= MAX_INTEGER:
        raise ApiError(
            400,
            "invalid-if-match",
            'If-Match must be one strong entity tag holding the game\'s version, such as "12".',
        )
    return version
