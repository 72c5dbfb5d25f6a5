"""Following the event log into a projection (docs/architecture.md, "Read side").

:class:`LogFollower` reads each followed log's notifications after the view's tracking
position (the recorder's ``select_notifications``), in batches, and hands them to the
projection, which writes its rows and the position in one transaction: an event is applied
exactly once, even when two followers race (the loser's write is refused and skipped). It
reads again whenever the :class:`~infrastructure.watcher.LogWatcher` says the log may have
grown (LISTEN/NOTIFY on PostgreSQL, polling on SQLite).

A batch that cannot be applied is reported, not retried silently forever
(docs/operations.md, "Health"): the follower records which notification failed and why,
logs it with its position, and tries again after 1 s, then twice as long each time up to
30 s, until the cause is mended."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from eventsourcing.application import Application
from eventsourcing.persistence import IntegrityError, Tracking

from infrastructure.watcher import LogWatcher

log = logging.getLogger(__name__)


class FollowedProjection(Protocol):
    """What a follower drives: a projection with its tracking view."""

    name: str

    @property
    def view(self) -> Any:
        """The view (``max_tracking_id(application_name)``)."""
        ...

    def process_batch(self, events: list[Any], tracking: Tracking) -> None:
        """Apply consecutive events of one log, ending at ``tracking``, in one transaction."""
        ...


@dataclass(frozen=True)
class FollowerFailure:
    """Why a read model stopped moving (docs/operations.md, "Health"): the log and the
    notification it could not apply (the one after its position), the error, since when,
    how many tries."""

    read_model: str
    log: str
    notification_id: int
    error: str
    since: float
    attempts: int

    def to_json(self) -> dict[str, Any]:
        """The failure as JSON-ready primitives."""
        return {
            "read_model": self.read_model,
            "log": self.log,
            "notification_id": self.notification_id,
            "error": self.error,
            "since": self.since,
            "attempts": self.attempts,
        }


RETRY_FIRST = 1.0
RETRY_MOST = 30.0
"""A failed batch is tried again after 1 s, then twice as long each time, up to 30 s."""


class BatchFailed(Exception):
    """A batch of one log could not be applied."""

    def __init__(self, log_name: str, position: int, error: Exception) -> None:
        super().__init__(str(error))
        self.log_name = log_name
        self.position = position
        self.error = error


class LogFollower:
    """Keeps one projection up to date with the logs of the event store (one per shard)."""

    def __init__(
        self,
        logs: Sequence[Application[Any]],
        projection: FollowedProjection,
        watcher: LogWatcher,
        *,
        batch: int = 500,
    ) -> None:
        self.logs = list(logs)
        self.projection = projection
        self.watcher = watcher
        self.batch = batch
        self.errors = 0
        self.failure: FollowerFailure | None = None
        """Set while the follower cannot apply the next notification; cleared once it can."""
        self._stop = threading.Event()
        self._progress = threading.Condition()
        self._thread: threading.Thread | None = None

    def position(self, log_name: str) -> int:
        """The last notification id of log ``log_name`` applied to the view (0 before any)."""
        return self.projection.view.max_tracking_id(log_name) or 0

    def catch_up(self) -> int:
        """Apply every event recorded after the view's positions; return how many."""
        return sum(self._catch_up(app) for app in self.logs)

    def _catch_up(self, app: Application[Any]) -> int:
        applied = 0
        start = 1
        try:
            start = self.position(app.name) + 1
            while notifications := app.recorder.select_notifications(start, self.batch):
                events = [app.mapper.to_domain_event(n) for n in notifications]
                self._apply(events, Tracking(app.name, notifications[-1].id))
                applied += len(events)
                start = notifications[-1].id + 1
        except Exception as error:
            raise BatchFailed(app.name, start - 1, error) from error
        return applied

    def _apply(self, events: list[Any], tracking: Tracking) -> None:
        try:
            self.projection.process_batch(events, tracking)
        except IntegrityError:
            # Another follower applied these first: the projection's cached games may be
            # behind now, which it notices and repairs from the store.
            log.debug("%s: %s already applied", self.projection.name, tracking)
        with self._progress:
            self._progress.notify_all()

    def start(self) -> None:
        """Follow the logs in a background thread until :meth:`stop`."""
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(
                target=self._run, name=f"follow-{self.projection.name}", daemon=True
            )
            self._thread.start()

    def stop(self) -> None:
        """Stop following and wait for the thread to end."""
        self._stop.set()
        self.watcher.wake()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None

    def wait(self, log_name: str, notification_id: int, timeout: float = 5.0) -> bool:
        """Block until the view has applied ``notification_id`` of log ``log_name`` (True)
        or time runs out."""
        deadline = time.monotonic() + timeout
        with self._progress:
            while self.position(log_name) < notification_id:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._progress.wait(min(remaining, 0.05))
        return True

    def _run(self) -> None:
        seen = self.watcher.generation
        while not self._stop.is_set():
            try:
                self.catch_up()
                self.failure = None
            except BatchFailed as failed:
                self._stop.wait(self._failed(failed))
                continue
            seen = self.watcher.wait(seen)

    def _failed(self, failed: BatchFailed) -> float:
        """Record and log a failure to apply the next notification; the seconds to wait
        before trying again (doubling from 1 s up to 30 s)."""
        self.errors += 1
        error = failed.error
        attempts = 1 if self.failure is None else self.failure.attempts + 1
        since = time.time() if self.failure is None else self.failure.since
        self.failure = FollowerFailure(
            self.projection.name,
            failed.log_name,
            failed.position + 1,
            f"{type(error).__name__}: {error}",
            since,
            attempts,
        )
        log.error(
            "%s: cannot apply notification %d of %s (after position %d), attempt %d: %s",
            self.projection.name,
            failed.position + 1,
            failed.log_name,
            failed.position,
            attempts,
            self.failure.error,
            exc_info=attempts == 1,
        )
        return float(min(RETRY_MOST, RETRY_FIRST * 2 ** (attempts - 1)))
