"""Every answer of the e2e suite checked against the served OpenAPI document (issue 13, part 1;
docs/api.md, "The typed OpenAPI document"): a test client whose every response to an operation
of the document is validated by openapi-core (status declared, body valid against the declared
schema, declared required headers sent), and whose ``ETag``, ``Location`` and ``Retry-After``
headers must be declared for that response. A violation fails the test that made the request.

Answers outside the document's operations (a 405 for a method a path lacks, the docs page, the
health check) are not checked here; test_openapi_problems.py checks the 405's body."""

from __future__ import annotations

import json
import re
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient
from openapi_core import Config, OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest, WerkzeugOpenAPIResponse
from werkzeug.test import TestResponse

from api.app import create_app
from infrastructure.config import Settings
from infrastructure.container import build_services

CHECKED_HEADERS = ("ETag", "Location", "Retry-After")
METHODS = ("get", "post", "put", "patch", "delete")


@cache
def served_document() -> dict[str, Any]:
    """The document an app serves (the same for every app: it depends on the code only)."""
    with tempfile.TemporaryDirectory() as folder:
        services = build_services(Settings(store="sqlite", sqlite_path=Path(folder) / "doc.db"))
        try:
            found: dict[str, Any] = (
                create_app(services, follow=False).test_client().get("/api/v1/openapi.json").json
            )
        finally:
            services.close()
    return found


class Checker:
    """The document compiled once, and its operations by path pattern."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        # openapi-core reads only plain JSON bodies as JSON; problems are RFC 9457's type
        self.openapi = OpenAPI.from_dict(
            document,
            config=Config(extra_media_type_deserializers={"application/problem+json": json.loads}),
        )
        # literal paths first, as the router matches them (/games/stream before /games/{id})
        self.paths = [
            (re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path)) + "$"), item)
            for path, item in sorted(document["paths"].items(), key=lambda p: p[0].count("{"))
        ]

    def operation(self, method: str, path: str) -> dict[str, Any] | None:
        for pattern, item in self.paths:
            if pattern.match(path):
                found: dict[str, Any] | None = item.get(method.lower())
                return found
        return None

    def check(self, response: TestResponse) -> None:
        """Fail (AssertionError) when ``response`` breaks its operation's declaration."""
        request = response.request
        operation = self.operation(request.method, request.path)
        if operation is None:
            return
        status = str(response.status_code)
        declared = operation["responses"].get(status)
        assert declared is not None, (
            f"{request.method} {request.path} answered {status}, which it does not declare: "
            f"{response.get_data(as_text=True)[:300]}"
        )
        declared = self.resolved(declared)
        # The test client hands the body over as an iterator (``is_streamed`` is true for every
        # answer here); only an event stream is left unread, every other body is read and
        # validated.
        if response.mimetype != "text/event-stream":
            try:
                self.openapi.validate_response(
                    AnsweredRequest(request), WerkzeugOpenAPIResponse(response)
                )
            except Exception as error:
                raise AssertionError(
                    f"{request.method} {request.path} {status} breaks the document: "
                    f"{_explained(error)}"
                ) from error
        for header in CHECKED_HEADERS:
            if header in response.headers:
                assert header in declared.get("headers", {}), (
                    f"{request.method} {request.path} {status} sends {header}, undeclared"
                )

    def resolved(self, node: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in node:
            target: Any = self.document
            for part in node["$ref"].removeprefix("#/").split("/"):
                target = target[part]
            node = target
        return node


class AnsweredRequest(WerkzeugOpenAPIRequest):  # type: ignore[misc]
    """The request of an answer, to find its operation: its body was read by the app (only
    the answer is validated, so it is not needed)."""

    @property
    def body(self) -> bytes:
        return b""


@cache
def checker() -> Checker:
    return Checker(served_document())


class CheckedClient(FlaskClient):
    """A test client that checks every answer against the document."""

    def open(self, *args: Any, **kwargs: Any) -> TestResponse:
        response: TestResponse = super().open(*args, **kwargs)
        checker().check(response)
        return response


def _explained(error: BaseException) -> str:
    """The deepest schema errors under ``error``, briefly."""
    found = getattr(error.__cause__, "schema_errors", None) or ()
    lines: list[str] = []

    def walk(item: Any, depth: int = 0) -> None:
        context = list(getattr(item, "context", None) or ())
        if not context or depth > 6:
            path = "/".join(str(p) for p in getattr(item, "absolute_path", ()))
            lines.append(f"{path}: {getattr(item, 'message', item)!s:.300}")
        for sub in context:
            walk(sub, depth + 1)

    for item in found:
        walk(item)
    return f"{error!r} {error.__cause__!r:.200} " + " | ".join(lines[:12])
