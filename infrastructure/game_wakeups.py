"""Waking only the streams of the games that changed (docs/operations.md, "Streams").

The process's :class:`~infrastructure.watcher.LogWatcher` says that the event log may have
grown, not which game: were every stream to wait on it, each save of any game would wake
every stream of the process. Instead one thread per process waits on the watcher (a NOTIFY
on PostgreSQL, or its fallback interval; every ``poll`` seconds on SQLite), reads the
notifications recorded since the last it read (one query per part of the store, whatever the
number of streams), and wakes the streams of the games they belong to. A stream still looks
for itself every time it sends a heartbeat, so a wake-up lost (a connection dropped) delays
it by one heartbeat at most. The thread runs while the process has streams open."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from uuid import UUID

from application.store import GameStore
from infrastructure.watcher import LogWatcher

log = logging.getLogger(__name__)

BATCH = 1000


class GameWaker:
    """What one game's streams wait on (the :class:`application.streams.Waker` protocol).
    Other wakers may listen to it: each wake-up wakes them too (a tournament table's stream
    waits on one waker woken by its game and by its tournament, :meth:`GameWakeups.
    following_both`)."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._generation = 0
        self._listeners: list[GameWaker] = []
        self.streams = 0

    @property
    def generation(self) -> int:
        """How many times the game has been seen to change."""
        return self._generation

    def wake(self) -> None:
        """The game has changed (and so, for the wakers that listen to it, their own)."""
        with self._changed:
            self._generation += 1
            self._changed.notify_all()
            listeners = list(self._listeners)
        for listener in listeners:
            listener.wake()

    def listen(self, listener: GameWaker) -> None:
        """Wake ``listener`` too whenever this waker wakes."""
        with self._changed:
            self._listeners.append(listener)

    def unlisten(self, listener: GameWaker) -> None:
        """Stop waking ``listener``."""
        with self._changed:
            self._listeners.remove(listener)

    def wait(self, seen: int, timeout: float | None = None) -> int:
        """Block until the game has changed since generation ``seen``, or ``timeout``."""
        with self._changed:
            if self._generation == seen:
                self._changed.wait(timeout)
            return self._generation


class GameWakeups:
    """The games that streams of this process follow, and the thread that wakes them."""

    def __init__(self, stores: Sequence[GameStore], watcher: LogWatcher, poll: float) -> None:
        self.stores = list(stores)
        self.watcher = watcher
        self.poll = poll
        self._games: dict[UUID, GameWaker] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._positions: list[int] = []

    @contextmanager
    def following(self, game_id: UUID) -> Iterator[GameWaker]:
        """What a stream of ``game_id`` waits on while it is open."""
        with self._lock:
            waker = self._games.setdefault(game_id, GameWaker())
            waker.streams += 1
            if self._thread is None:
                self._positions = [
                    store.recorder.max_notification_id() or 0 for store in self.stores
                ]
                self._thread = threading.Thread(target=self._run, name="game-wakeups", daemon=True)
                self._thread.start()
        try:
            yield waker
        finally:
            with self._lock:
                waker.streams -= 1
                if not waker.streams:
                    del self._games[game_id]

    @contextmanager
    def following_both(
        self, game_id: UUID, other_id: UUID
    ) -> Iterator[tuple[GameWaker, GameWaker]]:
        """What a stream of ``game_id`` that also follows ``other_id`` (a table's game and
        its tournament, docs/api.md "Live updates") waits on: a waker of its own, woken by a
        change of either, and ``other_id``'s waker, whose generation says when that one
        changed."""
        with self.following(game_id) as game, self.following(other_id) as other:
            both = GameWaker()
            game.listen(both)
            other.listen(both)
            try:
                yield both, other
            finally:
                game.unlisten(both)
                other.unlisten(both)

    def wake_all(self) -> None:
        """Wake every stream (they look for themselves: at a shutdown, they end)."""
        with self._lock:
            woken = list(self._games.values())
        for waker in woken:
            waker.wake()

    def _run(self) -> None:
        seen = self.watcher.log_generation
        while True:
            seen = self.watcher.wait_log(seen, max(self.poll, self.watcher.interval))
            with self._lock:
                if not self._games:  # no stream left: the next one starts a thread again
                    self._thread = None
                    return
            try:
                changed = self._changed()
            except Exception:  # the store unreachable for a moment: the streams look later
                log.warning("could not read the event log's new notifications", exc_info=True)
                time.sleep(self.poll)
                continue
            with self._lock:
                woken = [self._games[g] for g in changed if g in self._games]
            for waker in woken:
                waker.wake()

    def _changed(self) -> set[UUID]:
        """The games of the notifications recorded since the last read."""
        changed: set[UUID] = set()
        for part, store in enumerate(self.stores):
            while True:
                found = store.recorder.select_notifications(
                    self._positions[part], BATCH, inclusive_of_start=False
                )
                for notification in found:
                    changed.add(UUID(str(notification.originator_id)))
                    self._positions[part] = notification.id
                if len(found) < BATCH:
                    break
        return changed
