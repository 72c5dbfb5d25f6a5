"""The schedule of running games' checkpoints (docs/audit.md, "Signed checkpoints";
docs/operations.md, "Transparency log"): a background thread of every process that follows
the event log, which every ``GAMELEDGER_CHECKPOINT_INTERVAL`` seconds runs
:func:`application.checkpointer.checkpoint_running` (which itself skips a run when another
process ran one less than an interval ago). A run that fails is reported in ``/health`` like a
read model that cannot apply its next notification, and logged; the next interval tries
again."""

from __future__ import annotations

import contextlib
import logging
import threading
import time

from application.checkpointer import checkpoint_running
from application.checkpoints import Signer
from application.tlog import LogStore
from infrastructure.follower import FollowerFailure

log = logging.getLogger(__name__)

NAME = "checkpoint_schedule"
"""How ``/health`` names the schedule when a run fails."""


class CheckpointSchedule:
    """Runs the scheduled checkpoints every ``interval`` seconds until :meth:`stop`."""

    def __init__(self, store: LogStore, signer: Signer, interval: float) -> None:
        self.store = store
        self.signer = signer
        self.interval = interval
        self.failure: FollowerFailure | None = None
        """Set while runs fail; cleared by the next run that succeeds."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def run_once(self) -> int:
        """One run now (the checkpoints logged); a failure is recorded, logged and raised."""
        try:
            logged = checkpoint_running(self.store, self.signer, self.interval)
        except Exception as error:
            attempts = 1 if self.failure is None else self.failure.attempts + 1
            since = time.time() if self.failure is None else self.failure.since
            self.failure = FollowerFailure(
                NAME, "pending", 0, f"{type(error).__name__}: {error}", since, attempts
            )
            log.error(
                "the scheduled checkpoints failed, attempt %d: %s",
                attempts,
                self.failure.error,
                exc_info=attempts == 1,
            )
            raise
        self.failure = None
        return logged

    def start(self) -> None:
        """Run in a background thread (nothing when the interval is 0: off)."""
        if self.interval <= 0 or self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="checkpoint-schedule", daemon=True)
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
