"""A task run every few seconds in a background thread of every process that follows the event
log — the scheduled checkpoints (:mod:`infrastructure.checkpoint_schedule`) and the clock
scheduler (:mod:`infrastructure.clock_schedule`). A run that fails is reported in ``/health``
like a read model that cannot apply its next notification (docs/operations.md, "Health"), and
logged; the next interval tries again."""

from __future__ import annotations

import contextlib
import logging
import threading
import time

from infrastructure.follower import FollowerFailure

log = logging.getLogger(__name__)


class Schedule:
    """Runs :meth:`work` every ``interval`` seconds until :meth:`stop` (never when the interval
    is 0: off). Subclasses name themselves (``name``: in ``/health``; ``what``: in the log)."""

    name = "schedule"
    what = "the schedule"

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.failure: FollowerFailure | None = None
        """Set while runs fail; cleared by the next run that succeeds."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def work(self) -> int:
        """One run's work; how many things it did."""
        raise NotImplementedError

    def run_once(self) -> int:
        """One run now; a failure is recorded, logged and raised."""
        try:
            done = self.work()
        except Exception as error:
            attempts = 1 if self.failure is None else self.failure.attempts + 1
            since = time.time() if self.failure is None else self.failure.since
            self.failure = FollowerFailure(
                self.name, "pending", 0, f"{type(error).__name__}: {error}", since, attempts
            )
            log.error(
                "%s failed, attempt %d: %s",
                self.what,
                attempts,
                self.failure.error,
                exc_info=attempts == 1,
            )
            raise
        self.failure = None
        return done

    def start(self) -> None:
        """Run in a background thread (nothing when the interval is 0: off)."""
        if self.interval <= 0 or self._thread is not None:
            return
        self._stop.clear()
        thread_name = self.name.replace("_", "-")
        self._thread = threading.Thread(target=self._run, name=thread_name, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread and wait for it."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            with contextlib.suppress(Exception):  # recorded and logged by run_once
                self.run_once()
