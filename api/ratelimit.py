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

The counting is in fixed windows: in this process's memory by :class:`MemoryWindows`, in a
shared store by the ``limits`` library's storages (it also parses the limits), the library
Flask-Limiter is built on. Flask-Limiter itself was used until its per-request bookkeeping
(resolving, filtering and scoping limits for every route) was measured at about a third of a
cached game view's time (docs/performance.md, "Rate limits"); one hook per request does what
the service needs of it."""

from __future__ import annotations

import hashlib
import itertools
import logging
import math
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

from flask import Flask, g, request
from limits import RateLimitItem, parse_many
from limits.storage import Storage, storage_from_string
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

    @property
    def over(self) -> bool:
        """Whether the caller has gone over the limit."""
        return self.remaining < 0

    def headers(self) -> dict[str, str]:
        """``X-RateLimit-Limit``, ``-Remaining`` and ``-Reset`` (a Unix time)."""
        return {
            "X-RateLimit-Limit": str(self.limit.amount),
            "X-RateLimit-Remaining": str(max(0, self.remaining)),
            "X-RateLimit-Reset": str(int(self.reset_at)),
        }


class MemoryWindows:
    """Fixed windows counted in this process's memory. Each caller's window is an
    ``itertools.count``, which hands out its numbers one at a time without a lock of ours:
    requests of one caller at once never queue behind each other for a lock, as they did in
    the library's ``MemoryStorage`` (a lock per key, and a thread started every 10 ms to
    forget old counts; docs/performance.md, "Rate limits"). A window starts at a multiple of
    its length since the epoch; windows past are forgotten at most once a second."""

    def __init__(self) -> None:
        self._counters: dict[tuple[str, int, int], Iterator[int]] = {}
        self._next_sweep = 0.0

    def hit(self, key: str, length: int) -> tuple[int, float]:
        """Count one request of ``key`` in its window of ``length`` seconds: the count
        with it, and the window's end (a Unix time)."""
        now = time.time()
        index = int(now // length)
        slot = (key, length, index)
        counter = self._counters.get(slot)
        if counter is None:  # dict.setdefault is atomic: one counter per window
            counter = self._counters.setdefault(slot, itertools.count(1))
            if now >= self._next_sweep:
                self._sweep(now)
        return next(counter), float((index + 1) * length)

    def _sweep(self, now: float) -> None:
        """Forget the windows that have ended."""
        self._next_sweep = now + 1.0
        for slot in list(self._counters):
            _, length, index = slot
            if (index + 1) * length <= now:
                self._counters.pop(slot, None)


class Counts:
    """The counts, in the configured store; in this process's memory (:class:`MemoryWindows`)
    while that store cannot be reached (looked for again every :data:`BACKEND_RETRY`
    seconds), or when none is configured."""

    def __init__(self, storage_uri: str) -> None:
        self._shared: Storage | None = None
        self._memory = MemoryWindows()
        self._counter: Storage | None = None
        """The store counting now: the shared one, or ``None``: memory."""
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

    def hit(self, limit: RateLimitItem, *keys: str) -> Window:
        """Count one request against ``limit`` in its fixed window: the window after the hit
        (:attr:`Window.over` when the caller has gone over the limit). In a shared store, the
        count it gives back from the increment and the window's end: two calls, where the
        library's ``FixedWindowRateLimiter`` makes three and builds the key twice."""
        key = limit.key_for(*keys)
        length = limit.get_expiry()
        storage = self._current()
        if storage is None:
            count, reset_at = self._memory.hit(key, length)
            return Window(limit, limit.amount - count, reset_at)
        try:
            count = storage.incr(key, length)
            reset_at = storage.get_expiry(key)
        except Exception as error:
            if self._shared is None or not isinstance(error, self._shared.base_exceptions):
                raise
            self._fall_back(error)
            return self.hit(limit, *keys)
        return Window(limit, limit.amount - count, reset_at)

    def _current(self) -> Storage | None:
        """The store to count in: the shared one, or ``None`` (memory) while it is down or
        none is configured. One request at a time, every :data:`BACKEND_RETRY` seconds, looks
        whether it is back (outside the lock: the others go on counting in memory
        meanwhile)."""
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
                self._memory = MemoryWindows()  # the outage's windows, never swept again
        return self._counter

    def _fall_back(self, error: Exception) -> None:
        with self._lock:
            if self._down_since is None:
                log.warning(
                    "rate limits: the shared store is unreachable (%s); counting in memory", error
                )
            self._down_since = time.monotonic()
            self._counter = None


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
            if window.over:
                g.rate_window = window
                wait = math.ceil(window.reset_at - time.time())
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
