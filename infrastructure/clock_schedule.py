"""The clock scheduler (issue 15, part 5; docs/api.md, "Clocks"; docs/operations.md,
"Clocks"): a background thread of every process that follows the event log, which every
``GAMELEDGER_CLOCK_INTERVAL`` seconds reads the games whose time is up from the clocks read
model (:mod:`application.projections.clocks`) and flags each
(:func:`application.clocks.flag_all_due`).

Restart-safe: the read model is kept with its tracking position, so a process that starts
finds every game whose time ran out while nothing ran. Safe with many processes: each flag is
decided at the version the read model saw, so a second flag of the same game is refused by
the aggregate's version. A run that fails is reported in ``/health`` like a read model that
cannot apply its next notification, and logged; the next interval tries again."""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime

from application.clocks import flag_all_due
from application.projections.clocks import ClocksView
from application.service import GameLedger
from infrastructure.follower import FollowerFailure

log = logging.getLogger(__name__)

NAME = "clock_schedule"
"""How ``/health`` names the scheduler when a run fails."""

BATCH = 100
"""The most games one run flags (the rest wait for the next run)."""


class ClockSchedule:
    """Flags the games whose time is up every ``interval`` seconds until :meth:`stop`."""

    def __init__(
        self,
        app: GameLedger,
        view: ClocksView,
        interval: float,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.app = app
        self.view = view
        self.interval = interval
        self.clock = clock
        self.failure: FollowerFailure | None = None
        """Set while runs fail; cleared by the next run that succeeds."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def run_once(self) -> int:
        """One run now (the seats flagged); a failure is recorded, logged and raised."""
        try:
            now = self.clock()
            flagged = flag_all_due(self.app, self.view.due(now, BATCH), now)
        except Exception as error:
            attempts = 1 if self.failure is None else self.failure.attempts + 1
            since = time.time() if self.failure is None else self.failure.since
            self.failure = FollowerFailure(
                NAME, "pending", 0, f"{type(error).__name__}: {error}", since, attempts
            )
            log.error(
                "the clock scheduler failed, attempt %d: %s",
                attempts,
                self.failure.error,
                exc_info=attempts == 1,
            )
            raise
        self.failure = None
        return flagged

    def start(self) -> None:
        """Run in a background thread (nothing when the interval is 0: off)."""
        if self.interval <= 0 or self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="clock-schedule", daemon=True)
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
