"""Rate limits (docs/operations.md, "Rate limits"; docs/api.md, "Rate limits"): three classes
of request under /api/v1, each with its own count per caller —

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
``X-RateLimit-Reset`` (a Unix time) of the class's limit (of several, the one with the fewest
requests left). Counts live in memory (one process) or in Redis
(``GAMELEDGER_RATE_LIMIT_STORAGE_URI=redis://…``, shared by every process); while Redis cannot
be reached each process counts in its own memory and looks for Redis again every
:data:`BACKEND_RETRY` seconds.

The counting is the ``limits`` library's (fixed windows, its storages): the library Flask-Limiter
is built on. Flask-Limiter itself was used until its per-request bookkeeping (resolving,
filtering and scoping limits for every route) was measured at about a third of a cached game
view's time (docs/performance.md, "Rate limits"); one hook per request does what the service
needs of it."""

from __future__ import annotations

import hashlib
import logging
import math
import threading
import time
from dataclasses import dataclass

from flask import Flask, g, request
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage, Storage, storage_from_string
from limits.strategies import FixedWindowRateLimiter
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wrappers import Response

from api.errors import problem
from api.resources import BLUEPRINTS
from infrastructure.config import ConfigurationError, Settings
from infrastructure.rate_limit_settings import RateLimits

log = logging.getLogger(__name__)

CLASSES = ("reads", "writes", "creates")
CREATES = frozenset({"/api/v1/games", "/api/v1/games/<game_id>/forks", "/api/v1/tournaments"})
"""The routes that make a new game or tournament."""
HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")
"""The headers of the class's limit on every limited answer."""
KEY_PREFIX = "gameledger"
BACKEND_RETRY = 5.0
"""Seconds between looks for a shared store (Redis) that could not be reached."""
REDIS_TIMEOUT = 0.5
"""Seconds a request waits at most for Redis (to connect, then for an answer)."""
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


@dataclass(frozen=True)
class Window:
    """Where a caller stands against one limit: the headers every limited answer carries."""

    limit: RateLimitItem
    remaining: int
    reset_at: float

    def headers(self) -> dict[str, str]:
        """``X-RateLimit-Limit``, ``-Remaining`` and ``-Reset`` (a Unix time)."""
        return {
            "X-RateLimit-Limit": str(self.limit.amount),
            "X-RateLimit-Remaining": str(max(0, self.remaining)),
            "X-RateLimit-Reset": str(int(self.reset_at)),
        }


class Counts:
    """The counts, in the configured store; in this process's memory while that store cannot
    be reached (looked for again every :data:`BACKEND_RETRY` seconds)."""

    def __init__(self, storage_uri: str) -> None:
        self._shared: Storage | None = None
        self._memory: Storage = MemoryStorage()
        self._counter: Storage = self._memory
        if not storage_uri.startswith("memory://"):
            try:
                shared = storage_from_string(storage_uri, **_timeouts(storage_uri))
            except Exception as error:  # the library's own ConfigurationError, and others
                raise ConfigurationError(
                    f"GAMELEDGER_RATE_LIMIT_STORAGE_URI={storage_uri!r} is no store of counts "
                    f"the limits library knows ({error}); use memory:// or redis://host:port"
                ) from error
            if not isinstance(shared, Storage):  # async+…: this service is synchronous
                raise ConfigurationError(
                    f"GAMELEDGER_RATE_LIMIT_STORAGE_URI={storage_uri!r} is an asynchronous "
                    "store; use memory:// or redis://host:port"
                )
            self._shared = shared
            self._counter = shared
        self._down_since: float | None = None
        self._lock = threading.Lock()

    def hit(self, limit: RateLimitItem, *keys: str) -> Window | None:
        """Count one request against ``limit`` in its fixed window (the count the store gives
        back from the increment, and the window's end: two calls to the store, where the
        library's ``FixedWindowRateLimiter`` makes three, and builds the key twice): the
        window after the hit, or ``None`` when the caller is over the limit (then the window
        is :meth:`window`'s)."""
        storage = self._current()
        key = limit.key_for(*keys)
        try:
            count = storage.incr(key, limit.get_expiry())
            reset_at = storage.get_expiry(key)
        except Exception as error:
            if self._shared is None or not isinstance(error, self._shared.base_exceptions):
                raise
            self._fall_back(error)
            return self.hit(limit, *keys)
        return Window(limit, limit.amount - count, reset_at) if count <= limit.amount else None

    def window(self, limit: RateLimitItem, *keys: str) -> Window:
        """The caller's window of ``limit`` without counting."""
        stats = FixedWindowRateLimiter(self._current()).get_window_stats(limit, *keys)
        return Window(limit, stats.remaining, stats.reset_time)

    def _current(self) -> Storage:
        """The counter to use: the shared store's, or memory's while it is down. One request
        at a time, every :data:`BACKEND_RETRY` seconds, looks whether it is back (outside the
        lock: the others go on counting in memory meanwhile)."""
        shared = self._shared
        if self._down_since is None or shared is None:
            return self._counter
        with self._lock:
            due = time.monotonic() - self._down_since >= BACKEND_RETRY
            if due:
                self._down_since = time.monotonic()  # the next look is BACKEND_RETRY away
        if due and shared.check():
            with self._lock:
                log.warning("rate limits: the shared store is back; counting there")
                self._down_since = None
                self._counter = shared
        return self._counter

    def _fall_back(self, error: Exception) -> None:
        with self._lock:
            if self._down_since is None:
                log.warning(
                    "rate limits: the shared store is unreachable (%s); counting in memory", error
                )
            self._down_since = time.monotonic()
            self._counter = self._memory


def _timeouts(storage_uri: str) -> dict[str, float]:
    """A plain Redis server's socket timeouts: a server that hangs, rather than refuses,
    holds a request at most this long before the counts fall back to memory."""
    if storage_uri.startswith(("redis://", "rediss://")):
        return {"socket_connect_timeout": REDIS_TIMEOUT, "socket_timeout": REDIS_TIMEOUT}
    return {}


class RateLimiter:
    """The hook that counts each limited request (module docstring)."""

    def __init__(self, limits: RateLimits) -> None:
        self.enabled = limits.enabled
        self.of_class = {
            "reads": parse_many(limits.reads),
            "writes": parse_many(limits.writes),
            "creates": parse_many(limits.creates),
        }
        self.counts = Counts(limits.storage_uri)

    def check(self) -> Response | None:
        """Before a request: count it; a 429 problem when the caller is over a limit."""
        kind = request_class() if self.enabled else None
        if kind is None:
            return None
        key = caller()
        tightest: Window | None = None
        for limit in self.of_class[kind]:
            window = self.counts.hit(limit, KEY_PREFIX, kind, key)
            if window is None:
                over = self.counts.window(limit, KEY_PREFIX, kind, key)
                g.rate_window = over
                wait = math.ceil(over.reset_at - time.time())
                return problem(
                    429,
                    "rate-limited",
                    f"Too many requests of this kind ({kind}): the limit is {limit}. "
                    "Retry after Retry-After seconds.",
                    headers={"Retry-After": str(max(1, wait))},
                )
            if tightest is None or window.remaining < tightest.remaining:
                tightest = window
        g.rate_window = tightest
        return None

    @staticmethod
    def headers(response: Response) -> Response:
        """After a limited request: the headers of its class's limit."""
        window: Window | None = g.get("rate_window")
        if window is not None:
            response.headers.update(window.headers())
        return response


def install(app: Flask, settings: Settings) -> RateLimiter:
    """Limit the app's requests as ``settings`` say (and trust the configured proxies)."""
    if settings.trusted_proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.trusted_proxies)  # type: ignore[method-assign]
    limiter = RateLimiter(settings.rate_limits)
    app.before_request(limiter.check)
    app.after_request(limiter.headers)
    return limiter
