"""Server-Sent Events as the streams send them (docs/api.md, "Live updates"; the format is
the HTML Standard's, "Server-sent events"): the messages, the heartbeat comment, the
response that carries them, and the budget of open streams of one process.

A stream occupies one thread of its gunicorn worker while it is open (docs/operations.md,
"Streams"), so a process keeps at most ``GAMELEDGER_STREAMS_MAX`` of them; one more is
refused with ``503 too-many-streams`` and a ``Retry-After``, before anything is read."""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Callable, Iterator

from flask import Flask
from werkzeug.wrappers import Response

from api.errors import problem
from application.streams import SharedReads
from application.tournament_streams import SharedTournaments
from infrastructure.container import Services
from infrastructure.game_wakeups import GameWakeups
from infrastructure.stream_settings import StreamSettings

EVENT_STREAM = "text/event-stream"
HEARTBEAT = b": heartbeat\n\n"
RETRY_AFTER = 5
"""Seconds a client refused for want of room is told to wait."""

log = logging.getLogger(__name__)

CLOSING = threading.Event()
"""Set when the process is shutting down (:func:`close_all`)."""

_EVERY: weakref.WeakSet[Streams] = weakref.WeakSet()


def close_all() -> None:
    """The process is shutting down (gunicorn's SIGTERM, api/gunicorn_conf.py): every stream
    ends at once, without ``end``, and its client reconnects elsewhere, so a graceful restart
    does not wait for streams."""
    CLOSING.set()
    for streams in list(_EVERY):
        streams.wake_all()


def message(event: str, data: bytes, event_id: str | None = None) -> bytes:
    """One message: its id (the resume point), its type, one line of JSON data (orjson
    writes no newline)."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\n".encode() + b"data: " + data + b"\n\n"


def opening(retry_ms: int) -> bytes:
    """The first bytes of a stream: the reconnection delay it suggests and a comment (which
    lets a client see at once that the stream is open)."""
    return f"retry: {retry_ms}\n: open\n\n".encode()


class Streams:
    """The streams of one process: their settings and how many are open."""

    def __init__(self, settings: StreamSettings) -> None:
        self.settings = settings
        self.reads = SharedReads()
        """Pages of event logs read once for all the streams that need them."""
        self._wakeups: GameWakeups | None = None
        self._tournaments: SharedTournaments | None = None
        _EVERY.add(self)
        self._open = 0
        self._lock = threading.Lock()

    def wakeups(self, services: Services) -> GameWakeups:
        """What wakes the streams of each game (one thread, started on first use)."""
        with self._lock:
            if self._wakeups is None:
                self._wakeups = GameWakeups(
                    services.app.stores, services.watcher, self.settings.poll
                )
            return self._wakeups

    def tournaments(self, services: Services) -> SharedTournaments:
        """Tournaments read once per change for every table's stream (made on first use)."""
        with self._lock:
            if self._tournaments is None:
                self._tournaments = SharedTournaments(services.tournaments)
            return self._tournaments

    def wake_all(self) -> None:
        """Wake every game stream of the process (they look whether they must end)."""
        with self._lock:
            wakeups = self._wakeups
        if wakeups is not None:
            wakeups.wake_all()

    @property
    def open(self) -> int:
        """The streams open now."""
        return self._open

    def take(self) -> Callable[[], None] | None:
        """Room for one more stream, and how to give it back (once, however often it is
        called); ``None`` when every place is taken (:func:`no_room`)."""
        with self._lock:
            if self._open >= self.settings.max_streams:
                return None
            self._open += 1
        given_back = threading.Event()

        def give_back() -> None:
            with self._lock:
                if not given_back.is_set():
                    given_back.set()
                    self._open -= 1

        return give_back


def no_room(streams: Streams) -> Response:
    """``503 too-many-streams``, with the seconds to wait in ``Retry-After``."""
    return problem(
        503,
        "too-many-streams",
        f"This process already serves {streams.settings.max_streams} streams; "
        f"try again in {RETRY_AFTER} seconds.",
        headers={"Retry-After": str(RETRY_AFTER)},
    )


def streams_of(app: Flask) -> Streams:
    """The process's streams, made from the environment the first time they are needed
    (tests put their own in ``app.extensions["gameledger_streams"]``)."""
    found = app.extensions.get("gameledger_streams")
    if found is None:
        found = app.extensions.setdefault("gameledger_streams", Streams(StreamSettings.from_env()))
    assert isinstance(found, Streams)
    return found


def event_stream(chunks: Iterator[bytes], give_back: Callable[[], None]) -> Response:
    """The response that sends ``chunks`` as they come, never cached nor buffered by a
    proxy; its place is given back when the client leaves or the stream ends."""

    def sent() -> Iterator[bytes]:
        try:
            yield from chunks
        except Exception:
            log.exception("a stream failed; its client reconnects with Last-Event-ID")
        finally:
            give_back()

    answer = Response(sent(), mimetype=EVENT_STREAM, direct_passthrough=True)
    answer.headers["Cache-Control"] = "no-store"
    answer.headers["X-Accel-Buffering"] = "no"  # nginx: pass each message on at once
    answer.call_on_close(give_back)
    return answer
