"""The Flask app factory (docs/architecture.md, "HTTP API"): JSON under /api/v1, an OpenAPI document
generated from the marshmallow schemas at /api/v1/openapi.json, a browsable docs page at
/api/v1/docs (Swagger UI, its files served locally), problem+json errors and CORS."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import flask_swagger_ui
from flask import Flask, json, redirect, request, send_from_directory
from flask_cors import CORS
from werkzeug.wrappers import Response

from api import errors, ratelimit, requests
from api.idempotency import REPLAYED, Idempotency
from api.openapi import TypedApi
from api.requests import TurnNumber
from api.resources import BLUEPRINTS
from api.resources.common import not_modified
from infrastructure.config import Settings
from infrastructure.container import Services, build_services
from infrastructure.idempotency import idempotency_store

API_VERSION = "1.0.0"
SWAGGER_ASSETS = "/api/v1/docs/assets"
SYNC_KEPT = 1024
"""Functions whose ``ensure_sync`` answer :class:`ServiceFlask` remembers (the app has some
sixty hooks, views and error handlers)."""
SWAGGER_UI = Path(flask_swagger_ui.__file__).parent / "dist"
"""Swagger UI 5's files (flask-swagger-ui ships them): it renders OpenAPI 3.1."""


class ServiceFlask(Flask):
    """Flask, deciding once per function whether it must be run as a coroutine. Flask asks
    it (``ensure_sync``: ``inspect.iscoroutinefunction``) of every hook and view of every
    request, sixteen times a request here: a tenth of a cached view's time in the process
    (docs/performance.md, "HTTP"). The hooks and views are the app's own, registered once;
    what a function needs is remembered for :data:`SYNC_KEPT` functions at most."""

    def __init__(self, import_name: str) -> None:
        super().__init__(import_name)
        self._sync: dict[Callable[..., Any], Callable[..., Any]] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        """Flask's ``ensure_sync``, its answer remembered per function."""
        found = self._sync.get(func)
        if found is None:
            found = super().ensure_sync(func)
            if len(self._sync) < SYNC_KEPT:
                self._sync[func] = found
        return found


def create_app(services: Services | None = None, *, follow: bool | None = None) -> Flask:
    """Build the app around ``services`` (built from the environment when omitted).

    ``follow`` starts the read models' followers in this process; by default it follows
    ``GAMELEDGER_PROJECTIONS`` (embedded: yes)."""
    services = services or build_services(Settings.from_env())
    app = ServiceFlask("gameledger")
    app.config.update(
        API_TITLE="GameLedger",
        API_VERSION=API_VERSION,
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/api/v1",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        OPENAPI_SWAGGER_UI_URL=f"{SWAGGER_ASSETS}/",
        API_SPEC_OPTIONS=_spec_options(),
        MAX_CONTENT_LENGTH=services.settings.max_body_bytes,
        MAX_JSON_DEPTH=services.settings.max_json_depth,
    )
    # A path is matched as sent: no redirect (an HTML 308) for '//' or a trailing '/'.
    app.url_map.merge_slashes = False
    app.url_map.strict_slashes = False
    app.url_map.converters["turn"] = TurnNumber
    app.extensions["gameledger"] = services
    app.before_request(requests.require_json_body)
    # Rate limits, then Idempotency-Key, on every route (api/ratelimit.py, api/idempotency.py).
    ratelimit.install(app, services.settings)
    Idempotency(idempotency_store(services.storage), services.settings).install(app)
    api = TypedApi(app)
    api.register_converter(TurnNumber, TurnNumber.parameter_schema)
    for blueprint in BLUEPRINTS:
        api.register_blueprint(blueprint)
    errors.install(app)
    hooks = app.after_request_funcs[None]
    before_cors = list(hooks)
    CORS(
        app,
        resources={r"/api/*": {"origins": services.settings.cors_origins}},
        # every header the OpenAPI document declares (api/openapi.py)
        expose_headers=["ETag", "Location", "Retry-After", REPLAYED, *ratelimit.HEADERS],
        allow_headers=[
            "Authorization",
            "Content-Type",
            "If-Match",
            "If-None-Match",
            "Idempotency-Key",
            "Last-Event-ID",
        ],
        methods=["GET", "POST", "OPTIONS"],
        always_send=False,  # CORS headers answer a browser's Origin, not every request
    )
    hooks[:] = [hook if hook in before_cors else _with_origin_only(hook) for hook in hooks]
    app.add_url_rule("/api/v1/health", "health", lambda: _health(services))
    app.add_url_rule(f"{SWAGGER_ASSETS}/<path:filename>", "swagger_assets", _swagger_asset)
    app.add_url_rule("/", "root", lambda: redirect("/api/v1/docs"))
    app.after_request(_vary_on_authorization)
    app.after_request(not_modified)  # 304 for every GET that sends an ETag
    # The watcher tells this process when the store or the games list has changed (on
    # PostgreSQL, one LISTEN connection; docs/operations.md, "Connections").
    services.watcher.start()
    if services.settings.embedded_projections if follow is None else follow:
        services.start_following()
    return app


def _health(services: Services) -> Response:
    """The process answers (200 ``ok``); a read model this process follows that cannot apply
    its next notification makes it 503 ``degraded``, naming the read model, the notification,
    the error and how long it has failed (docs/operations.md, "Health")."""
    failures = services.failures()
    if not failures:
        return Response('{"status": "ok"}', mimetype="application/json")
    body = {"status": "degraded", "read_models": [failure.to_json() for failure in failures]}
    return Response(json.dumps(body), status=503, mimetype="application/json")


def _swagger_asset(filename: str) -> Response:
    """Swagger UI's files, served from the flask-swagger-ui package (only its files are used):
    the docs page needs no network."""
    return send_from_directory(SWAGGER_UI, filename)


def _with_origin_only(cors_hook: Callable[[Any], Any]) -> Callable[[Response], Response]:
    """flask-cors's hook, run only for a request that sends ``Origin``: with ``always_send``
    off it adds nothing to any other answer (not even ``Vary: Origin``), and looking through
    its resources and options for nothing cost some 6 to 12 µs of a cached view's 110 µs in
    process (docs/performance.md, "HTTP")."""

    def cors_if_origin(response: Response) -> Response:
        if "Origin" in request.headers:
            answered: Response = cors_hook(response)
            return answered
        return response

    return cors_if_origin


def _vary_on_authorization(response: Response) -> Response:
    """Views depend on who asks: caches must key on the token too. (The header is written
    as text: parsing it into a set on every answer cost more than the rest of the hook.)"""
    vary = response.headers.get("Vary")
    if not vary:
        response.headers["Vary"] = "Authorization"
    elif "authorization" not in vary.lower():
        response.headers["Vary"] = f"{vary}, Authorization"
    return response


def _spec_options() -> dict[str, Any]:
    return {
        "info": {
            "description": "Event-sourced board games. Seat tokens go in "
            "'Authorization: Bearer <token>'. Errors are application/problem+json with a "
            "stable 'code'. The game version is the ETag; moves carry the version they were "
            "decided on. See docs/api.md.",
        },
        "components": {
            "securitySchemes": {"seatToken": {"type": "http", "scheme": "bearer"}},
        },
    }
