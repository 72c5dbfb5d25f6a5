"""Rate limits with Flask-Limiter (docs/operations.md, "Rate limits"; docs/api.md, "Rate
limits"): three classes of request under /api/v1, each with its own count per caller —

* ``reads``: every GET (``GAMELEDGER_RATE_LIMIT_READS``, 6000 per minute);
* ``writes``: every POST that is not a create — join, move, undo requests and answers
  (``GAMELEDGER_RATE_LIMIT_WRITES``, 1200 per minute);
* ``creates``: ``POST /games``, ``POST /games/{id}/forks`` and ``POST /tournaments``
  (``GAMELEDGER_RATE_LIMIT_CREATES``, 300 per minute).

A caller is its seat token (hashed) when the request carries one — a whole tournament room
behind one NAT address then never shares a count — else its address; creates, which need no
token, are always counted per address (a made-up token would dodge the count). The address is
the connection's, or the one ``GAMELEDGER_TRUSTED_PROXIES`` reverse proxies put in
``X-Forwarded-For`` (never the header when no proxy is trusted: a client could choose its own).
Health, the OpenAPI document and the docs pages are never limited.

Over a limit the answer is 429 ``rate-limited`` (problem+json) with ``Retry-After`` in seconds;
every limited answer carries ``X-RateLimit-Limit``, ``X-RateLimit-Remaining`` and
``X-RateLimit-Reset`` (a Unix time) of the class's limit. Counts live in memory (one process) or
in Redis (``GAMELEDGER_RATE_LIMIT_STORAGE_URI=redis://…``, shared by every process)."""

from __future__ import annotations

import hashlib
import math
import time

from flask import Flask, g, request
from flask_limiter import ApplicationLimit, HeaderNames, Limiter, RateLimitExceeded
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wrappers import Response

from api.errors import problem
from api.resources import BLUEPRINTS
from infrastructure.config import Settings

CLASSES = ("reads", "writes", "creates")
CREATES = frozenset({"/api/v1/games", "/api/v1/games/<game_id>/forks", "/api/v1/tournaments"})
"""The routes that make a new game or tournament."""
LIBRARY_RETRY_AFTER = "X-RateLimit-Retry-After"
"""Where the library writes its own Retry-After on every answer; removed, since Retry-After
belongs to a 429 (and a 409 ``idempotency-key-in-use``) only."""
HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")
"""The headers of the class's limit on every limited answer."""
_LIMITED_BLUEPRINTS = frozenset(blueprint.name for blueprint in BLUEPRINTS)


def request_class() -> str | None:
    """The class of this request, or ``None`` when it is not limited (health, docs, CORS
    preflights, paths that are no route); found once per request."""
    if "rate_class" in g:
        found: str | None = g.rate_class
        return found
    found = None
    if request.blueprint in _LIMITED_BLUEPRINTS:
        if request.method in ("GET", "HEAD"):
            found = "reads"
        elif request.method == "POST":
            rule = request.url_rule.rule if request.url_rule is not None else ""
            found = "creates" if rule in CREATES else "writes"
    g.rate_class = found
    return found


def caller() -> str:
    """Who is counted: the seat token's hash when the request carries one (except for a
    create), else the client's address."""
    token = request.headers.get("Authorization", "")
    if token and request_class() != "creates":
        return "token:" + hashlib.sha256(token.encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return "addr:" + (request.remote_addr or "unknown")


def install(app: Flask, settings: Settings) -> Limiter:
    """Limit the app's requests as ``settings`` say (and trust the configured proxies)."""
    if settings.trusted_proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.trusted_proxies)  # type: ignore[method-assign]
    limits = settings.rate_limits
    of_class = {"reads": limits.reads, "writes": limits.writes, "creates": limits.creates}
    # Registered before the limiter's own hook, so it runs after it (Flask runs after-request
    # hooks last registered first).
    app.after_request(_drop_library_retry_after)
    limiter = Limiter(
        caller,
        app=app,
        # One limit whose value and count (its scope) follow the request's class: a request
        # is checked against one limit only.
        application_limits=[
            ApplicationLimit(
                limit_provider=lambda: of_class[request_class() or "reads"],
                scope=lambda _: request_class() or "none",
                exempt_when=lambda: request_class() is None,
            )
        ],
        headers_enabled=True,
        header_name_mapping={HeaderNames.RETRY_AFTER: LIBRARY_RETRY_AFTER},
        storage_uri=limits.storage_uri,
        # Redis down: count in this process's memory meanwhile rather than fail requests.
        in_memory_fallback_enabled=not limits.storage_uri.startswith("memory://"),
        strategy="fixed-window",
        key_prefix="gameledger",
        enabled=limits.enabled,
    )

    def too_many(error: RateLimitExceeded) -> Response:
        current = limiter.current_limit
        wait = math.ceil(current.reset_at - time.time()) if current is not None else 1
        return problem(
            429,
            "rate-limited",
            f"Too many requests of this kind ({request_class()}): the limit is "
            f"{error.limit.limit}. Retry after Retry-After seconds.",
            headers={"Retry-After": str(max(1, wait))},
        )

    app.register_error_handler(RateLimitExceeded, too_many)
    return limiter


def _drop_library_retry_after(response: Response) -> Response:
    response.headers.pop(LIBRARY_RETRY_AFTER, None)
    return response
