"""Following the event log into a projection (docs/architecture.md, "Read side").

:class:`LogFollower` reads each followed log's notifications after the view's tracking
position (the recorder's ``select_notifications``, one read shared by the process's
followers: :mod:`infrastructure.log_reading`), in batches, and hands them to the
projection, which writes its rows and the position in one transaction: an event is applied
exactly once, even when two followers race (the loser's write is refused and skipped). It
reads again whenever the :class:`~infrastructure.watcher.LogWatcher` says the log may have
grown (LISTEN/NOTIFY on PostgreSQL, polling on SQLite).

A projection that has nothing to write for a batch (``wants``: a tournaments read model
when no tournament moved) is passed over: its position moves in memory and is recorded with
its next batch, or after :data:`PASS_OVER_MOST` notifications. The follower reads the view's
position once and keeps it; a write refused because the position moved (another follower, a
rebuild) makes it read the position again.

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
from typing import Any, Protocol, runtime_checkable
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import IntegrityError, Tracking

from infrastructure.log_reading import LogReading
from infrastructure.readmodels.tracking import Step
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


@runtime_checkable
class Selective(Protocol):
    """A projection that says which batches it needs to see: a batch it does not want is
    passed over without a transaction (its position kept in memory)."""

    def wants(self, events: list[Any]) -> bool:
        """Whether the batch holds an event the projection would write anything for."""
        ...


@runtime_checkable
class Sifting(Protocol):
    """A projection that can tell, from a stored event's aggregate and topic alone, that it
    writes nothing for it: such an event is never decoded for it (most games have no clock
    and are no tournament's table: three followers of every process passed each of their
    events over only after decoding it)."""

    def may_want(self, originator_id: UUID | str, topic: str) -> bool:
        """False only when the projection surely writes nothing for the event."""
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


LOOK_AGAIN = 5.0
"""A follower whose log has nothing new reads its view's recorded position again at most this
often (seconds), in case a rebuild swapped new tables in under it."""

PASS_OVER_MOST = 1000
"""A follower records its position at least once every this many notifications, even when
none of them is for its projection."""

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
        gather: float = 0.0,
        reading: LogReading | None = None,
    ) -> None:
        self.logs = list(logs)
        self.reading = reading or LogReading(keep=0)
        """Where the notifications are read: shared with the process's other followers
        (:mod:`infrastructure.log_reading`), or the store each time."""
        self.gather = gather
        """Seconds to wait after a catch-up that applied something, before the next."""
        self.projection = projection
        self._wants = projection.wants if isinstance(projection, Selective) else None
        """The projection's ``wants`` (:class:`Selective`), looked up once: the runtime check
        of a protocol costs some 20 µs, once per batch of each follower (7% of their time)."""
        self._may_want = projection.may_want if isinstance(projection, Sifting) else None
        """The projection's ``may_want`` (:class:`Sifting`), looked up once likewise."""
        self.watcher = watcher
        self.batch = batch
        self.errors = 0
        self.failure: FollowerFailure | None = None
        """Set while the follower cannot apply the next notification; cleared once it can."""
        self._recorded: dict[str, int] = {}
        """Per log: the position last read from, or recorded in, the view."""
        self._passed: dict[str, int] = {}
        """Per log: the last notification applied or passed over (at or past ``_recorded``)."""
        self._catching = threading.Lock()
        """Held while catching up: what the follower keeps is one thread's at a time."""
        self._looked: dict[str, float] = {}
        """Per log: when the view's recorded position was last read."""
        self._stop = threading.Event()
        self._progress = threading.Condition()
        self._thread: threading.Thread | None = None

    def position(self, log_name: str) -> int:
        """The last notification id of log ``log_name`` this follower has applied or passed
        over (0 before any); the view's recorded position until it has read one."""
        known = self._passed.get(log_name)
        if known is not None:
            return known
        return self.projection.view.max_tracking_id(log_name) or 0

    def catch_up(self) -> int:
        """Apply every event recorded after the view's positions; return how many. One
        thread at a time (the follower's own and, say, a test's or a command's)."""
        with self._catching:
            return sum(self._catch_up(app) for app in self.logs)

    def _catch_up(self, app: Application[Any]) -> int:
        name = app.name
        applied = 0
        start = 1
        try:
            while True:
                start = self._next(name)
                notifications = self.reading.read(app, start, self.batch)
                if not notifications:
                    if self._view_moved(name):  # a rebuild swapped in: look again from it
                        continue
                    return applied
                sifted = notifications
                if self._may_want is not None:
                    may_want = self._may_want
                    sifted = [n for n in notifications if may_want(n.originator_id, n.topic)]
                events = [app.mapper.to_domain_event(n) for n in sifted]
                last = notifications[-1].id
                if self._passes_over(name, events, last):
                    self._passed[name] = last
                else:
                    self._apply(name, events, last)
                applied += len(notifications)
                self._notify()
        except Exception as error:
            raise BatchFailed(name, start - 1, error) from error

    def _apply(self, name: str, events: list[Any], last: int) -> None:
        """Apply a batch ending at ``last`` over the position recorded before it. Refused
        because the view's position is no longer that one (another follower applied these,
        or a rebuild swapped the view in): the position is read again. Refused while the
        position is unchanged: a failure like any other (raised)."""
        try:
            self.projection.process_batch(events, Step(name, last, self._recorded[name]))
        except IntegrityError:
            if not self._view_moved(name, now=True):
                raise
            # The projection's cached games may be behind now, which it notices and repairs
            # from the store.
            log.debug("%s: %s, position moved; read again", self.projection.name, name)
            return
        self._recorded[name] = self._passed[name] = last

    def _view_moved(self, name: str, *, now: bool = False) -> bool:
        """Whether the view's recorded position of log ``name`` is no longer the one this
        follower knows (a rebuild swapped new tables in, another follower wrote); then what it
        knows is dropped and read again. Looked at ``now``, or when the log has nothing new
        at most every :data:`LOOK_AGAIN` seconds."""
        clock = time.monotonic()
        if not now and clock - self._looked.get(name, clock - LOOK_AGAIN) < LOOK_AGAIN:
            return False
        self._looked[name] = clock
        recorded = self.projection.view.max_tracking_id(name) or 0
        if recorded == self._recorded.get(name):
            return False
        self._recorded.pop(name, None)
        self._passed.pop(name, None)
        return True

    def _notify(self) -> None:
        with self._progress:
            self._progress.notify_all()

    def record_passed(self) -> None:
        """Record the positions passed over and not yet recorded (an empty batch each)."""
        with self._catching:
            for name, passed in list(self._passed.items()):
                if passed > self._recorded[name]:
                    self._apply(name, [], passed)

    def _next(self, name: str) -> int:
        """The first notification id of log ``name`` still to apply (reads the view's
        position once, then keeps it)."""
        if name not in self._passed:
            recorded = self.projection.view.max_tracking_id(name) or 0
            self._recorded[name] = self._passed[name] = recorded
            self._looked[name] = time.monotonic()
        return self._passed[name] + 1

    def _passes_over(self, name: str, events: list[Any], last: int) -> bool:
        """Whether the batch holds nothing the projection wants (``wants``), so that only
        the position moves, in memory, until :data:`PASS_OVER_MOST` notifications have gone
        by unrecorded (a restart reads at most that many again)."""
        if self._wants is None or self._wants(events):
            return False
        return last - self._recorded[name] < PASS_OVER_MOST

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
        try:
            self.record_passed()
        except Exception:  # the store gone at shutdown: a restart reads them again
            log.warning("%s: could not record its position", self.projection.name, exc_info=True)

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
        seen = self.watcher.log_generation
        while not self._stop.is_set():
            try:
                applied = self.catch_up()
                self.failure = None
            except BatchFailed as failed:
                self._stop.wait(self._failed(failed))
                continue
            if applied and self.gather > 0:
                # Busy: let the next events gather into one batch (one transaction for
                # several moves) instead of one transaction each.
                self._stop.wait(self.gather)
            seen = self.watcher.wait_log(seen)

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
