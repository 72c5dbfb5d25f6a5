"""Telling a process that the event log has grown (docs/operations.md, "Connections").

On PostgreSQL every save NOTIFYs the channel named after its events table; one thread per
process holds one connection that LISTENs to every channel the process follows and wakes
whoever waits. However many read models (and, later, streams) a process follows, it holds one
LISTEN connection. That connection may go to the server itself while the pool goes through
PgBouncer (``GAMELEDGER_POSTGRES_LISTEN_HOST``): LISTEN needs a session. SQLite cannot
notify: one thread per process asks SQLite every ``interval`` seconds whether any connection
(of this process or another) has committed to the event store's files (``PRAGMA
data_version``, one cheap query on a connection of its own) and wakes the log's waiters when
one has; the log's followers no longer each read the log every ``interval`` to find nothing
new. A lost notification costs at most ``fallback`` seconds: waiters always wake by then and
look for themselves.

Two kinds of waiter: the followers of the event log (read models, the transparency log, game
streams) wait for the log alone (:meth:`LogWatcher.wait_log`), and the lobby stream waits
for the log or a read model it shows (:meth:`LogWatcher.wait`). A read model's own
notification (the games list's, the tournaments') must not wake the log's followers: each
would look at the log again for nothing, once per read-model commit."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Collection, Sequence
from typing import Any

import psycopg
from psycopg import sql

log = logging.getLogger(__name__)

RECONNECT_FIRST = 0.5
RECONNECT_MOST = 10.0


STOP_WAIT = 10.0
"""Seconds :meth:`LogWatcher.stop` waits for each of its threads (a look or a LISTEN
connection that hangs longer is left to end by itself; a later start never revives it)."""


class LogWatcher:
    """Wakes waiters when a followed log may have grown."""

    def __init__(
        self,
        *,
        interval: float,
        listens: Sequence[tuple[dict[str, Any], Sequence[str]]] = (),
        fallback: float = 1.0,
        read_models: Collection[str] = (),
        log_versions: Callable[[], object] | None = None,
    ) -> None:
        """``listens``: on PostgreSQL, for each database that holds a part of the event store,
        its connection arguments and the channels of its parts (one LISTEN connection each);
        none on SQLite. ``read_models``: the
        channels among those that are read models' (they wake :meth:`wait`, not
        :meth:`wait_log`). ``log_versions``: on SQLite, a value that changes whenever the
        event store's files have had a commit, looked at every ``interval`` seconds once
        :meth:`start` has been called (until then the log's waiters wake every ``interval``)."""
        self.interval = interval if not listens else fallback
        self.fallback = fallback
        self._log_versions = log_versions
        self._polling = False
        self._listens = [(conninfo, list(channels)) for conninfo, channels in listens]
        self._changed = threading.Condition()
        self._generation = 0
        self._log_generation = 0
        self._read_models = frozenset(read_models)
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self.listening = threading.Event()
        """Set once every LISTEN connection has been up (PostgreSQL)."""
        self._up = 0
        self._channels: dict[str, int] = {}
        """Per channel: how many notifications it has had since its connection came up."""
        self._live: dict[str, object] = {}
        """Per channel: the connection (a token) LISTENing to it now; absent while down."""

    @property
    def generation(self) -> int:
        """How many times the log has been seen to grow (a waiter passes back the last it saw)."""
        return self._generation

    @property
    def log_generation(self) -> int:
        """How many times the event log has been seen to grow (for :meth:`wait_log`)."""
        return self._log_generation

    def start(self) -> None:
        """On PostgreSQL, start listening in background threads, one per database; on SQLite,
        start looking for commits to the event store's files (once)."""
        if self._threads:
            return
        # A stop event of this start's own: a thread of an earlier start that outlived its
        # stop's wait keeps the event that was set, and ends as soon as it can.
        stop = self._stop = threading.Event()
        for conninfo, channels in self._listens:
            thread = threading.Thread(
                target=self._run, args=(conninfo, channels, stop), name="log-watcher", daemon=True
            )
            thread.start()
            self._threads.append(thread)
        if self._log_versions is not None and not self._listens:
            thread = threading.Thread(
                target=self._poll, args=(self._log_versions, stop), name="log-poller", daemon=True
            )
            thread.start()
            self._threads.append(thread)
            self._polling = True
            self.wake()  # no token given out before this start vouches for anything now

    def stop(self) -> None:
        """Stop listening, and wake every waiter."""
        self._stop.set()
        self._polling = False
        self.wake()
        for thread in self._threads:
            thread.join(timeout=STOP_WAIT)
        self._threads = []

    def polled_token(self) -> object:
        """On SQLite, while this watcher looks for commits itself: a value that changes
        whenever it has seen one (within ``interval`` of the commit); ``None`` otherwise."""
        if not self._polling:
            return None
        return ("polled", self._log_generation)

    def token(self, channel: str) -> object:
        """A value that changes whenever ``channel`` is notified (a commit that NOTIFYs it)
        or its LISTEN connection is made anew; ``None`` while it is not listened to (then
        nothing can be known without asking the database)."""
        live = self._live.get(channel)
        if live is None:
            return None
        return (live, self._channels.get(channel, 0))

    def wake(self) -> None:
        """The log may have grown (a notification, a look that found a commit, a stop)."""
        with self._changed:
            self._generation += 1
            self._log_generation += 1
            self._changed.notify_all()

    def _read_model_changed(self) -> None:
        """A read model has changed: wakes :meth:`wait`, not :meth:`wait_log`."""
        with self._changed:
            self._generation += 1
            self._changed.notify_all()

    def wait(self, seen: int, timeout: float | None = None) -> int:
        """Block until the log or a read model has changed since generation ``seen``, or
        ``timeout`` (by default the polling interval) has passed; the generation now."""
        with self._changed:
            if self._generation == seen and not self._stop.is_set():
                self._changed.wait(self.interval if timeout is None else timeout)
            return self._generation

    def wait_log(self, seen: int, timeout: float | None = None) -> int:
        """Block until the event log has grown since :attr:`log_generation` ``seen``, or
        ``timeout`` has passed (by default the polling interval; ``fallback`` while this
        watcher looks for SQLite's commits itself); the log generation now."""
        if timeout is None:
            timeout = self.fallback if self._polling else self.interval
        deadline = time.monotonic() + timeout
        with self._changed:
            # A read model's notification wakes the condition too: wait on past it.
            while self._log_generation == seen and not self._stop.is_set():
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not self._changed.wait(remaining):
                    break
            return self._log_generation

    def _poll(self, versions: Callable[[], object], stop: threading.Event) -> None:
        """Every ``interval`` seconds: wake the log's waiters if the files have had a commit
        since the last look (a failed look wakes them too: they look for themselves)."""
        last: object = None
        failing = False
        while not stop.wait(self.interval):
            try:
                now = versions()
                failing = False
            except Exception:
                if not failing:  # once per failing spell, not every interval
                    log.warning("could not look for commits to the event store", exc_info=True)
                failing = True
                now = None
            if now is None or now != last:
                self.wake()
            last = now

    def _run(self, conninfo: dict[str, Any], channels: list[str], stop: threading.Event) -> None:
        pause = RECONNECT_FIRST
        while not stop.is_set():
            try:
                self._listen_until_stopped(conninfo, channels, stop)
                pause = RECONNECT_FIRST
            except psycopg.Error as error:
                log.warning("LISTEN connection lost (%s); again in %.1f s", error, pause)
                self.wake()  # whatever was missed, the waiters look for themselves
                stop.wait(pause)
                pause = min(RECONNECT_MOST, pause * 2)

    def _listen_until_stopped(
        self, conninfo: dict[str, Any], channels: list[str], stop: threading.Event
    ) -> None:
        epoch = object()
        try:
            with psycopg.connect(**conninfo, autocommit=True) as conn:
                for channel in channels:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
                with self._changed:
                    if stop.is_set():  # a thread of an earlier start: the live one's stay
                        return
                    self._up += 1
                    for channel in channels:
                        self._live[channel] = epoch
                self.wake()  # anything saved before the LISTEN took effect
                if self._up >= len(self._listens):
                    self.listening.set()
                while not stop.is_set():
                    for notice in conn.notifies(timeout=0.5, stop_after=1):
                        with self._changed:
                            name = notice.channel
                            self._channels[name] = self._channels.get(name, 0) + 1
                        if name in self._read_models:
                            self._read_model_changed()
                        else:
                            self.wake()
        finally:
            with self._changed:
                for channel in channels:
                    if self._live.get(channel) is epoch:
                        del self._live[channel]
