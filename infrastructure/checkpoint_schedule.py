"""The schedule of running games' checkpoints (docs/audit.md, "Signed checkpoints";
docs/operations.md, "Transparency log"): a background thread of every process that follows
the event log, which every ``GAMELEDGER_CHECKPOINT_INTERVAL`` seconds runs
:func:`application.checkpointer.checkpoint_running` (which itself skips a run when another
process ran one less than an interval ago). A run that fails is reported in ``/health`` like a
read model that cannot apply its next notification, and logged; the next interval tries
again."""

from __future__ import annotations

from application.checkpointer import checkpoint_running
from application.checkpoints import Signer
from application.tlog import LogStore
from infrastructure.schedule import Schedule

NAME = "checkpoint_schedule"
"""How ``/health`` names the schedule when a run fails."""


class CheckpointSchedule(Schedule):
    """Runs the scheduled checkpoints every ``interval`` seconds until :meth:`stop`."""

    name = NAME
    what = "the scheduled checkpoints"

    def __init__(self, store: LogStore, signer: Signer, interval: float) -> None:
        super().__init__(interval)
        self.store = store
        self.signer = signer

    def work(self) -> int:
        """The checkpoints of running games that are due (how many were logged)."""
        return checkpoint_running(self.store, self.signer, self.interval)
