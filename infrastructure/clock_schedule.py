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

from collections.abc import Callable
from datetime import UTC, datetime

from application.clocks import flag_all_due
from application.projections.clocks import ClocksView
from application.service import GameLedger
from infrastructure.schedule import Schedule

NAME = "clock_schedule"
"""How ``/health`` names the scheduler when a run fails."""

BATCH = 100
"""The most games one run flags (the rest wait for the next run)."""


class ClockSchedule(Schedule):
    """Flags the games whose time is up every ``interval`` seconds until :meth:`stop`."""

    name = NAME
    what = "the clock scheduler"

    def __init__(
        self,
        app: GameLedger,
        view: ClocksView,
        interval: float,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        super().__init__(interval)
        self.app = app
        self.view = view
        self.clock = clock

    def work(self) -> int:
        """Flag the games whose time is up (how many seats were flagged)."""
        now = self.clock()
        return flag_all_due(self.app, self.view.due(now, BATCH), now)
