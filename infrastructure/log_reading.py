"""One read of the event log for every follower of a process (docs/architecture.md, "Read
side"): the read models, the results manager, the clocks and the checkpointer each follow the
log on their own, and all of them are woken by the same commit; without this each would ask
the store for the same new notifications (on SQLite the reads were an eighth of a worker's
time under a load of moves, docs/performance.md, "HTTP").

:class:`LogReading` keeps the notifications last read from each log — the stored rows, as
the store gave them (their ``state`` is bytes: each follower decodes its own events, so no
projection can change what another one sees) — and answers a follower from them when they
cover where it reads from. What is kept is exactly the log: notification ids are committed in
their order (one writer at a time: the table lock on PostgreSQL, the one write transaction of
SQLite), so a read from ``start`` that returned notifications up to ``n`` holds every
notification from ``start`` to ``n``. A follower far behind the others reads on its own and
leaves the kept ones to the others."""

from __future__ import annotations

import bisect
import threading
from collections.abc import Sequence
from typing import Any

from eventsourcing.application import Application
from eventsourcing.persistence import Notification

KEEP = 2000
"""Notifications kept per log (about a read's worth for each follower of a busy process)."""


class _Kept:
    """The notifications kept of one log: every one from ``first`` to the last kept."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.notifications: list[Notification] = []
        self.first = 0


class LogReading:
    """Reads of the logs' notifications, shared by the followers given the same instance;
    ``keep=0`` reads the store every time."""

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self._logs: dict[str, _Kept] = {}
        self._guard = threading.Lock()

    def read(self, app: Application[Any], start: int, limit: int) -> Sequence[Notification]:
        """At most ``limit`` notifications of ``app``'s log from id ``start`` on, in order."""
        if self.keep <= 0:
            return app.recorder.select_notifications(start, limit)
        with self._guard:
            kept = self._logs.setdefault(app.name, _Kept())
        with kept.lock:
            found = kept.notifications
            behind = bool(found) and start < kept.first
            if not behind:
                return self._read_ahead(app, kept, start, limit)
        # A follower far behind reads on its own, without holding up the others.
        return app.recorder.select_notifications(start, limit)

    def _read_ahead(
        self, app: Application[Any], kept: _Kept, start: int, limit: int
    ) -> Sequence[Notification]:
        """From the kept notifications when they cover ``start``, else from the store, kept
        (the caller holds ``kept.lock``: the followers woken together read once)."""
        found = kept.notifications
        if found and start <= found[-1].id:
            at = bisect.bisect_left(found, start, key=_id)
            return found[at : at + limit]
        read = list(app.recorder.select_notifications(start, limit))
        if read:
            if found and start == found[-1].id + 1:
                found.extend(read)
            else:
                kept.notifications = found = list(read)
                kept.first = start
            if len(found) > self.keep:
                dropped = len(found) - self.keep
                kept.first = found[dropped - 1].id + 1
                del found[:dropped]
        return read


def _id(notification: Notification) -> int:
    return notification.id
