"""Following the event log into a projection (docs/architecture.md, "Read side").

SQLite cannot notify, so :class:`LogFollower` polls the application recorder's
``select_notifications`` from the view's tracking position, in batches. On PostgreSQL it
uses the library's ``ApplicationSubscription`` (LISTEN/NOTIFY, the mechanism under the
library's ``ProjectionRunner``) once it has caught up. Either way the view records each
event's position in the same transaction as its rows, so an event is applied exactly once,
even when two followers race (the loser's write is refused and skipped)."""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, Protocol

from eventsourcing.application import Application
from eventsourcing.persistence import IntegrityError, Tracking
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.projection import ApplicationSubscription

log = logging.getLogger(__name__)


class FollowedProjection(Protocol):
    """What a follower drives: a projection with its tracking view."""

    name: str

    @property
    def view(self) -> Any:
        """The view, a tracking recorder (``max_tracking_id``)."""
        ...

    def process_batch(self, events: list[Any], tracking: Tracking) -> None:
        """Apply consecutive events, ending at ``tracking``, in one transaction."""
        ...


@dataclass(frozen=True)
class FollowerFailure:
    """Why a read model stopped moving (docs/operations.md, "Health"): the notification it
    could not apply (the one after its position), the error, since when, how many tries."""

    read_model: str
    notification_id: int
    error: str
    since: float
    attempts: int

    def to_json(self) -> dict[str, Any]:
        """The failure as JSON-ready primitives."""
        return {
            "read_model": self.read_model,
            "notification_id": self.notification_id,
            "error": self.error,
            "since": self.since,
            "attempts": self.attempts,
        }


RETRY_FIRST = 1.0
RETRY_MOST = 30.0
"""A failed batch is tried again after 1 s, then twice as long each time, up to 30 s."""


class LogFollower:
    """Keeps one projection up to date with one application's event log."""

    def __init__(
        self,
        app: Application[Any],
        projection: FollowedProjection,
        *,
        interval: float = 0.05,
        batch: int = 500,
    ) -> None:
        self.app = app
        self.projection = projection
        self.interval = interval
        self.batch = batch
        self.errors = 0
        self.failure: FollowerFailure | None = None
        """Set while the follower cannot apply the next notification; cleared once it can."""
        self._stop = threading.Event()
        self._progress = threading.Condition()
        self._thread: threading.Thread | None = None

    @property
    def position(self) -> int:
        """The last notification id applied to the view (0 before any)."""
        return self.projection.view.max_tracking_id(self.app.name) or 0

    def catch_up(self) -> int:
        """Apply every event recorded after the view's position; return how many."""
        applied = 0
        start = self.position + 1
        while True:
            notifications = self.app.recorder.select_notifications(start, self.batch)
            if not notifications:
                break
            events = [self.app.mapper.to_domain_event(n) for n in notifications]
            self._apply(events, notifications[-1].id)
            applied += len(events)
            start = notifications[-1].id + 1
        return applied

    def _apply(self, events: list[Any], last_id: int) -> None:
        try:
            self.projection.process_batch(events, Tracking(self.app.name, last_id))
        except IntegrityError:
            # Another follower applied these first: the projection's cached games may be
            # behind now, which it notices and repairs from the store.
            log.debug("%s: notifications up to %d already applied", self.projection.name, last_id)
        with self._progress:
            self._progress.notify_all()

    def start(self) -> None:
        """Follow the log in a background thread until :meth:`stop`."""
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(
                target=self._run, name=f"follow-{self.projection.name}", daemon=True
            )
            self._thread.start()

    def stop(self) -> None:
        """Stop following and wait for the thread to end."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None

    def wait(self, notification_id: int, timeout: float = 5.0) -> bool:
        """Block until the view has applied ``notification_id`` (True) or time runs out."""
        deadline = time.monotonic() + timeout
        with self._progress:
            while self.position < notification_id:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._progress.wait(min(remaining, self.interval))
        return True

    def _run(self) -> None:
        subscribing = isinstance(self.app.recorder, PostgresApplicationRecorder)
        while not self._stop.is_set():
            try:
                self.catch_up()
                self.failure = None
                if subscribing:
                    self._follow_subscription()
                else:
                    self._stop.wait(self.interval)
            except Exception as error:  # a failed batch is retried from the view's position
                self._stop.wait(self._failed(error))

    def _failed(self, error: Exception) -> float:
        """Record and log a failure to apply the next notification; the seconds to wait
        before trying again (doubling from 1 s up to 30 s)."""
        self.errors += 1
        position = self.position
        attempts = 1 if self.failure is None else self.failure.attempts + 1
        since = time.time() if self.failure is None else self.failure.since
        self.failure = FollowerFailure(
            self.projection.name, position + 1, f"{type(error).__name__}: {error}", since, attempts
        )
        log.error(
            "%s: cannot apply notification %d (after position %d), attempt %d: %s",
            self.projection.name,
            position + 1,
            position,
            attempts,
            self.failure.error,
            exc_info=attempts == 1,
        )
        return float(min(RETRY_MOST, RETRY_FIRST * 2 ** (attempts - 1)))

    def _follow_subscription(self) -> None:
        """PostgreSQL: wait on LISTEN/NOTIFY instead of polling."""
        subscription = ApplicationSubscription(app=self.app, gt=self.position, topics=())
        watcher = threading.Thread(target=self._stop_on_signal, args=(subscription,), daemon=True)
        watcher.start()
        with subscription:
            for stored, tracking in subscription:
                self._apply([stored], tracking.notification_id)
                if self._stop.is_set():
                    break

    def _stop_on_signal(self, subscription: ApplicationSubscription[Any]) -> None:
        self._stop.wait()
        subscription.stop()
