"""Errors as ``application/problem+json`` (RFC 9457) with a stable ``code`` (docs/architecture.md,
"HTTP API"; the codes are listed in docs/api.md).

Every error the service can raise maps to exactly one status here, so routes never build
error responses themselves."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, json
from werkzeug.exceptions import HTTPException

from application.errors import BadRequest, Conflict, InvalidToken, NotFound
from domain.errors import (
    GameError,
    GameNotReady,
    IllegalMove,
    InvalidMove,
    InvalidOptions,
    SeatUnavailable,
)
from domain.registry import UnknownGame
from domain.tournament.errors import (
    BadResult,
    EntrantRefused,
    InvalidTournament,
    NoSuchEntrant,
    NoSuchTable,
    ResultRefused,
    RoundRefused,
    TournamentPhase,
)

PROBLEM = "application/problem+json"
TYPE_BASE = "https://gameledger.dev/problems/"

_STATUS: list[tuple[type[Exception], int]] = [
    (NotFound, 404),
    (UnknownGame, 404),
    (NoSuchEntrant, 404),
    (NoSuchTable, 404),
    (TournamentPhase, 409),
    (EntrantRefused, 409),
    (ResultRefused, 409),
    (RoundRefused, 409),
    (BadResult, 422),
    (InvalidTournament, 422),
    (InvalidToken, 403),
    (Conflict, 409),
    (SeatUnavailable, 409),
    (GameNotReady, 409),
    (BadRequest, 400),
    (InvalidOptions, 422),
    (InvalidMove, 422),
    (IllegalMove, 422),
    (GameError, 422),
]

HTTP_CODES = {
    400: "bad-request",
    404: "not-found",
    405: "method-not-allowed",
    413: "payload-too-large",
    414: "uri-too-long",
    415: "unsupported-media-type",
    417: "expectation-failed",
    431: "headers-too-large",
    501: "not-implemented",
    505: "http-version-not-supported",
}
"""Codes of the errors werkzeug raises itself, and gunicorn's and the development server's
own (api/gunicorn_conf.py, api/devserver.py)."""


_ACRONYMS = {"json": "JSON", "uri": "URI", "http": "HTTP"}
_TITLES = {
    "invalid-if-match": "Invalid If-Match",
    "invalid-last-event-id": "Invalid Last-Event-ID",
}


def title_of(code: str) -> str:
    """A problem's title, made from its code: one title per code (``undo-pending`` →
    "Undo pending", ``malformed-json`` → "Malformed JSON")."""
    if code in _TITLES:
        return _TITLES[code]
    title = " ".join(_ACRONYMS.get(word, word) for word in code.split("-"))
    return title[:1].upper() + title[1:]


def problem_body(status: int, code: str, detail: str, **extra: Any) -> dict[str, Any]:
    """The members of a problem+json body (RFC 9457) whose title follows from its code."""
    return {
        "type": TYPE_BASE + code,
        "title": title_of(code),
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
    }


def server_problem(status: int, detail: str) -> bytes:
    """The body of an error a server answers before the app sees the request (gunicorn's,
    the development server's): the code from the status, the server's sentence cut to 200
    characters as the detail."""
    code = HTTP_CODES.get(status, "bad-request" if status < 500 else "internal-error")
    return json.dumps(problem_body(status, code, detail[:200])).encode("utf-8")


def problem(
    status: int,
    code: str,
    detail: str,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> Response:
    """A problem+json response."""
    body = problem_body(status, code, detail, **extra)
    return Response(json.dumps(body), status=status, mimetype=PROBLEM, headers=headers)


class ApiError(Exception):
    """An error found by the API layer itself (headers, request shape)."""

    def __init__(self, status: int, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.extra = extra


def _service_error(error: GameError) -> Response:
    for cls, status in _STATUS:
        if isinstance(error, cls):
            return problem(status, error.code, error.message)
    return problem(500, "internal-error", "Unexpected error.")


def _http_error(error: HTTPException) -> Response:
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    messages = data.get("messages") if isinstance(data, dict) else None
    if status == 400 and _is_json_syntax_error(messages, error):
        return problem(400, "malformed-json", "The body is not valid JSON.")
    if status in (400, 422) and messages is not None:
        # webargs (api/requests.py, StrictParser): the request did not match its schema
        return problem(
            400,
            "invalid-request",
            "The request does not match its schema; see 'errors' for each field.",
            errors=messages,
        )
    code = HTTP_CODES.get(status, "http-error" if status < 500 else "internal-error")
    headers = {k: v for k, v in error.get_headers() if k.lower() != "content-type"}
    return problem(status, code, error.description or title_of(code), headers or None)


def _is_json_syntax_error(messages: Any, error: HTTPException) -> bool:
    """webargs reports a body it cannot decode as ``{"json": ["Invalid JSON body."]}``."""
    if isinstance(messages, dict) and "Invalid JSON body." in messages.get("json", []):
        return True
    return "json" in (error.description or "").lower()


def install(app: Flask) -> None:
    """Register the handlers that turn every error into problem+json."""
    app.register_error_handler(GameError, _service_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(ApiError, lambda e: problem(e.status, e.code, e.detail, **e.extra))

    @app.errorhandler(Exception)
    def _unexpected(error: Exception) -> Response:
        if isinstance(error, HTTPException):
            return _http_error(error)
        app.logger.exception("unhandled error")
        return problem(500, "internal-error", "An unexpected error happened.")
