"""The error responses as the OpenAPI document declares them (docs/api.md, "Errors"): one
marshmallow schema for the RFC 9457 problem details api/errors.py sends, the failures an
operation can meet, and the flask-smorest ``Api`` that declares no default error of its own.

An operation declares exactly the statuses its code paths can answer, each as
``application/problem+json`` with :class:`ProblemSchema`, its description naming the codes.
Nothing else is declared: no ``default`` response (a 500 is a bug, which the fuzz tests look
for), no 405 (an operation never answers it: a method the path lacks is not an operation)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from apispec import BasePlugin
from flask_smorest import Api
from marshmallow import RAISE, Schema, fields, validate

from api.errors import PROBLEM, TYPE_BASE
from api.idempotency import KEPT_STATUSES

CODE_PATTERN = r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$"


class ProblemSchema(Schema):
    """Problem details (RFC 9457) as the service sends them: every member always present,
    ``errors`` only for a request that does not match its schema, nothing else."""

    class Meta:
        unknown = RAISE

    type = fields.String(
        required=True,
        validate=validate.Regexp(r"^" + TYPE_BASE.replace(".", r"\.") + r"[a-z0-9-]+$"),
        metadata={"description": "A URI naming the problem: the base URI and the code"},
    )
    title = fields.String(
        required=True,
        metadata={"description": "Made from the code, one title per code ('Stale version')"},
    )
    status = fields.Integer(
        required=True,
        validate=validate.Range(min=400, max=599),
        metadata={"description": "The HTTP status, the same as the response's"},
    )
    detail = fields.String(required=True, metadata={"description": "A sentence for people"})
    code = fields.String(
        required=True,
        validate=validate.Regexp(CODE_PATTERN),
        metadata={"description": "Stable, for programs: the table in docs/api.md, 'Errors'"},
    )
    errors = fields.Dict(
        keys=fields.String(validate=validate.OneOf(["json", "query"])),
        values=fields.Dict(),
        metadata={
            "description": "code 'invalid-request' only: the messages for each field, by "
            "location ('json' for the body, 'query'), e.g. "
            '{"json": {"players": ["Missing data for required field."]}}'
        },
    )


@dataclass(frozen=True)
class Failure:
    """Problems an operation can answer: a status, its codes and a note on codes not
    listed (each game's own)."""

    status: int
    codes: tuple[str, ...]
    note: str

    def __init__(self, status: int, *codes: str, note: str = "") -> None:
        object.__setattr__(self, "status", status)
        object.__setattr__(self, "codes", codes)
        object.__setattr__(self, "note", note)


BODY: tuple[Failure, ...] = (
    Failure(
        400,
        "malformed-json",
        "too-deeply-nested",
        "number-out-of-range",
        "invalid-text",
        "invalid-request",
    ),
    Failure(413, "payload-too-large"),
    Failure(415, "unsupported-media-type"),
)
"""A command with a JSON body (api/requests.py, api/jsonbody.py and its schema)."""

QUERY = (Failure(400, "invalid-request"),)
"""A query string read by a schema (unknown parameters are refused too)."""

GAME = (Failure(404, "game-not-found"),)
"""A path holding a game id."""

TOURNAMENT = (Failure(404, "tournament-not-found"),)
"""A path holding a tournament id."""

VIEWER = (Failure(401, "invalid-authorization"), Failure(403, "invalid-token"))
"""A token that may be sent (a spectator without one)."""

SEAT = (Failure(401, "token-required", "invalid-authorization"), Failure(403, "invalid-token"))
"""A token that must be sent (a seat's; or a tournament's organiser or entrant token)."""

VERSIONED = (
    Failure(400, "invalid-if-match", "version-mismatch"),
    Failure(409, "stale-version"),
    Failure(428, "version-required"),
)
"""A command decided on a version (``expected_version`` or ``If-Match``)."""

UNDO_REFUSED = Failure(
    422,
    "undo-not-allowed",
    "arbiter-only",
    "nothing-to-undo",
    "not-own-turn",
    "no-undo-request",
    "not-asked",
    "game-over",
    "reason-required",
)
"""An undo the game's policy refuses (domain/undo.py)."""


def merged(failures: Iterable[Failure | Iterable[Failure]]) -> dict[int, Failure]:
    """One failure per status, statuses ascending: the codes in order, without repeats."""
    found: dict[int, Failure] = {}
    for item in failures:
        for failure in (item,) if isinstance(item, Failure) else item:
            known = found.get(failure.status, Failure(failure.status))
            codes = known.codes + tuple(c for c in failure.codes if c not in known.codes)
            note = "; ".join(n for n in (known.note, failure.note) if n)
            found[failure.status] = Failure(failure.status, *codes, note=note)
    return dict(sorted(found.items()))


def description(failure: Failure) -> str:
    """A declared problem response's description: the status's phrase, then its codes."""
    codes = ", ".join(f"'{c}'" for c in failure.codes)
    note = f"; {failure.note}" if failure.note else ""
    return f"{HTTPStatus(failure.status).phrase}: {codes}{note}"


IDEMPOTENCY = (
    Failure(400, "invalid-idempotency-key"),
    Failure(409, "idempotency-key-in-use"),
    Failure(422, "idempotency-key-reused"),
)
"""What ``Idempotency-Key`` adds to every POST (api/idempotency.py)."""

RATE_LIMITED = Failure(429, "rate-limited")
"""What rate limits add to every operation (api/ratelimit.py)."""

IDEMPOTENCY_KEY_PARAMETER: dict[str, Any] = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": {"type": "string", "minLength": 16, "maxLength": 255, "pattern": "^[!-~]+$"},
    "description": "Makes the command safe to retry: the same key with the same request "
    "answers the first answer again (marked 'Idempotent-Replayed: true'); with another request "
    "422 'idempotency-key-reused'; while the first still runs 409 'idempotency-key-in-use'. "
    "Keys are per caller (Authorization) and kept 24 h. Send a random UUID. docs/api.md, "
    "'Idempotency'.",
}
REPLAYED_HEADER: dict[str, Any] = {
    "description": "'true' when this is the kept answer of an earlier request with the same "
    "Idempotency-Key (absent otherwise)",
    "schema": {"type": "string", "enum": ["true"]},
}
RETRY_AFTER_HEADER: dict[str, Any] = {
    "description": "Seconds to wait before retrying",
    "schema": {"type": "integer", "minimum": 1},
}


class CrossCuttingProblems(BasePlugin):
    """Declares, in one place, what every operation gets from the app-wide hooks rather than
    from its route: 429 ``rate-limited`` with ``Retry-After`` on every operation, and on every
    POST the ``Idempotency-Key`` header and its problems — merged into the statuses the route
    declares itself (the codes appended to their descriptions)."""

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **_: Any
    ) -> None:
        """Add the cross-cutting parameter and responses to each operation of ``path``."""
        for method, operation in (operations or {}).items():
            if method not in ("get", "post"):
                continue
            added: list[Failure] = [RATE_LIMITED]
            responses = operation.setdefault("responses", {})
            if method == "post":
                added += IDEMPOTENCY
                operation.setdefault("parameters", []).append(IDEMPOTENCY_KEY_PARAMETER)
            for failure in added:
                _declare(responses, failure)
            if method == "post":
                # the answers an Idempotency-Key keeps, and so may replay: successes and the
                # command's own refusals (api/idempotency.py, KEPT_STATUSES)
                for status, response in responses.items():
                    if str(status).startswith("2") or str(status) in {
                        str(kept) for kept in KEPT_STATUSES
                    }:
                        response.setdefault("headers", {})["Idempotent-Replayed"] = REPLAYED_HEADER


def _declare(responses: dict[Any, Any], failure: Failure) -> None:
    """Declare ``failure`` among ``responses``: its codes added to a status already declared."""
    key = next((k for k in responses if str(k) == str(failure.status)), str(failure.status))
    known = responses.get(key)
    if known is None:
        response: dict[str, Any] = {
            "description": description(failure),
            "content": {PROBLEM: {"schema": {"$ref": "#/components/schemas/Problem"}}},
        }
        if failure.status == 429:
            response["headers"] = {"Retry-After": RETRY_AFTER_HEADER}
        responses[key] = response
        return
    codes = ", ".join(f"'{c}'" for c in failure.codes)
    known["description"] = f"{known.get('description', '')}, {codes}"


class ProblemApi(Api):  # type: ignore[misc]
    """flask-smorest's ``Api`` without its own error responses: no ``default`` response on
    every operation, and the status responses it may refer to are problem+json."""

    DEFAULT_ERROR_RESPONSE_NAME = None
    ERROR_SCHEMA = ProblemSchema

    def _init_spec(self, *, extra_plugins: Iterable[Any] | None = None, **options: Any) -> None:
        """flask-smorest's spec, with :class:`CrossCuttingProblems` after its own plugins."""
        super()._init_spec(
            extra_plugins=[*(extra_plugins or ()), CrossCuttingProblems()], **options
        )

    def _register_responses(self) -> None:
        """The responses named after statuses (``BAD_REQUEST``...), as problem+json; none
        is referred to, since every operation declares its own."""
        for status in HTTPStatus:
            if status >= 400:
                self.spec.components.response(
                    status.name, _problem_response(status.phrase), lazy=True
                )


def _problem_response(text: str) -> Mapping[str, Any]:
    return {
        "description": text,
        "content": {PROBLEM: {"schema": ProblemSchema}},
    }
