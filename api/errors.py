"""Errors as ``application/problem+json`` (RFC 9457) with a stable ``code`` (DESIGN.md,
"HTTP API"; the codes are listed in docs/api.md).

Every error the service can raise maps to exactly one status here, so routes never build
error responses themselves."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, json
from werkzeug.exceptions import HTTPException

from application.errors import BadRequest, Conflict, InvalidToken, NotFound, ServiceError
from domain.game import GameNotReady, SeatUnavailable
from domain.protocol import GameError, IllegalMove, InvalidMove, InvalidOptions
from domain.registry import UnknownGame

PROBLEM = "application/problem+json"
TYPE_BASE = "https://gameledger.dev/problems/"

_STATUS: list[tuple[type[Exception], int, str]] = [
    (NotFound, 404, "Not found"),
    (UnknownGame, 404, "Unknown game"),
    (InvalidToken, 403, "Invalid token"),
    (Conflict, 409, "Conflict"),
    (SeatUnavailable, 409, "Seat unavailable"),
    (GameNotReady, 409, "Game not started"),
    (BadRequest, 400, "Bad request"),
    (InvalidOptions, 422, "Invalid options"),
    (InvalidMove, 422, "Invalid move"),
    (IllegalMove, 422, "Illegal move"),
    (GameError, 422, "Rejected by the rules"),
]


def problem(status: int, code: str, title: str, detail: str, **extra: Any) -> Response:
    """A problem+json response."""
    body = {
        "type": TYPE_BASE + code,
        "title": title,
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
    }
    return Response(json.dumps(body), status=status, mimetype=PROBLEM)


class ApiError(Exception):
    """An error found by the API layer itself (headers, request shape)."""

    def __init__(self, status: int, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.extra = extra


def _service_error(error: ServiceError | GameError) -> Response:
    for cls, status, title in _STATUS:
        if isinstance(error, cls):
            return problem(status, error.code, title, error.message)
    return problem(500, "internal-error", "Internal error", "Unexpected error.")


def _http_error(error: HTTPException) -> Response:
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    messages = data.get("messages") if isinstance(data, dict) else None
    if status == 422 and messages is not None:
        # webargs: the request did not match its schema
        return problem(
            400,
            "invalid-request",
            "Invalid request",
            "The request does not match its schema; see 'errors'.",
            errors=messages,
        )
    if status == 400 and _is_json_syntax_error(messages, error):
        return problem(400, "malformed-json", "Malformed JSON", "The body is not valid JSON.")
    codes = {
        400: "bad-request",
        404: "not-found",
        405: "method-not-allowed",
        415: "unsupported-media-type",
        413: "payload-too-large",
    }
    code = codes.get(status, "http-error" if status < 500 else "internal-error")
    title = error.name or "Error"
    return problem(status, code, title, error.description or title)


def _is_json_syntax_error(messages: Any, error: HTTPException) -> bool:
    """webargs reports a body it cannot decode as ``{"json": ["Invalid JSON body."]}``."""
    if isinstance(messages, dict) and "Invalid JSON body." in messages.get("json", []):
        return True
    return "json" in (error.description or "").lower()


def install(app: Flask) -> None:
    """Register the handlers that turn every error into problem+json."""
    app.register_error_handler(ServiceError, _service_error)
    app.register_error_handler(GameError, _service_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(
        ApiError,
        lambda e: problem(
            e.status, e.code, e.code.replace("-", " ").capitalize(), e.detail, **e.extra
        ),
    )

    @app.errorhandler(Exception)
    def _unexpected(error: Exception) -> Response:
        if isinstance(error, HTTPException):
            return _http_error(error)
        app.logger.exception("unhandled error")
        return problem(500, "internal-error", "Internal error", "An unexpected error happened.")
