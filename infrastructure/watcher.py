"""Telling a process that the event log has grown (docs/operations.md, "Connections").

On PostgreSQL every save NOTIFYs the channel named after its events table; one thread per
process holds one connection that LISTENs to every channel the process follows and wakes
whoever waits. However many read models (and, later, streams) a process follows, it holds one
LISTEN connection. That connection may go to the server itself while the pool goes through
PgBouncer (``GAMELEDGER_POSTGRES_LISTEN_HOST``): LISTEN needs a session. SQLite cannot
notify: waiters are woken every ``interval`` seconds, and at once by a save made in this
process (:meth:`LogWatcher.wake`). A lost notification costs at most ``fallback`` seconds:
waiters always wake by then and look for themselves.

Two kinds of waiter: the followers of the event log (read models, the transparency log, game
streams) wait for the log alone (:meth:`LogWatcher.wait_log`), and the lobby stream waits
for the log or a read model it shows (:meth:`LogWatcher.wait`). A read model's own
notification (the games list's, the tournaments') must not wake the log's followers: each
would look at the log again for nothing, once per read-model commit."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Collection, Sequence
from typing import Any

import psycopg
from psycopg import sql

log = logging.getLogger(__name__)

RECONNECT_FIRST = 0.5
RECONNECT_MOST = 10.0


class LogWatcher:
    """Wakes waiters when a followed log may have grown."""

    def __init__(
        self,
        *,
        interval: float,
        listens: Sequence[tuple[dict[str, Any], Sequence[str]]] = (),
        fallback: float = 1.0,
        read_models: Collection[str] = (),
    ) -> None:
        """``listens``: on PostgreSQL, for each database that holds a part of the event store,
        its connection arguments and the channels of its parts (one LISTEN connection each);
        none on SQLite, where waiters wake every ``interval`` seconds. ``read_models``: the
        channels among those that are read models' (they wake :meth:`wait`, not
        :meth:`wait_log`)."""
        self.interval = interval if not listens else fallback
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
        """On PostgreSQL, start listening in background threads, one per database (once)."""
        if self._listens and not self._threads:
            self._stop.clear()
            for conninfo, channels in self._listens:
                thread = threading.Thread(
                    target=self._run, args=(conninfo, channels), name="log-watcher", daemon=True
                )
                thread.start()
                self._threads.append(thread)

    def stop(self) -> None:
        """Stop listening, and wake every waiter."""
        self._stop.set()
        self.wake()
        for thread in self._threads:
            thread.join(timeout=10)
        self._threads = []

    def token(self, channel: str) -> object:
        """A value that changes whenever ``channel`` is notified (a commit that NOTIFYs it)
        or its LISTEN connection is made anew; ``None`` while it is not listened to (then
        nothing can be known without asking the database)."""
        live = self._live.get(channel)
        if live is None:
            return None
        return (live, self._channels.get(channel, 0))

    def wake(self) -> None:
        """The log may have grown (a save of this process, a notification)."""
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
        ``timeout`` (by default the polling interval) has passed; the log generation now."""
        deadline = time.monotonic() + (self.interval if timeout is None else timeout)
        with self._changed:
            # A read model's notification wakes the condition too: wait on past it.
            while self._log_generation == seen and not self._stop.is_set():
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not self._changed.wait(remaining):
                    break
            return self._log_generation

    def _run(self, conninfo: dict[str, Any], channels: list[str]) -> None:
        pause = RECONNECT_FIRST
        while not self._stop.is_set():
            try:
                self._listen_until_stopped(conninfo, channels)
                pause = RECONNECT_FIRST
            except psycopg.Error as error:
                log.warning("LISTEN connection lost (%s); again in %.1f s", error, pause)
                self.wake()  # whatever was missed, the waiters look for themselves
                self._stop.wait(pause)
                pause = min(RECONNECT_MOST, pause * 2)

    def _listen_until_stopped(self, conninfo: dict[str, Any], channels: list[str]) -> None:
        epoch = object()
        try:
            with psycopg.connect(**conninfo, autocommit=True) as conn:
                for channel in channels:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
                with self._changed:
                    self._up += 1
                    for channel in channels:
                        self._live[channel] = epoch
                self.wake()  # anything saved before the LISTEN took effect
                if self._up >= len(self._listens):
                    self.listening.set()
                while not self._stop.is_set():
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
