"""The clocks read model (issue 15, part 5; docs/api.md, "Clocks"; docs/operations.md,
"Clocks"): one row per game whose clock runs — the game's version, the seat that runs out
first and when — kept by following the event log, so that the scheduler
(:mod:`infrastructure.clock_schedule`) finds the games whose time is up with one indexed query,
and finds them again after a restart. A game whose clocks all stop (it ended, every seat
waits) has no row. Rows depend only on the events (:func:`application.clocks.due_of`), so a
rebuild from zero gives the same rows; private games are followed too (a flag is public to
their players)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Protocol
from uuid import UUID

from eventsourcing.persistence import Tracking

from application.clocks import Due, due_of
from application.projections.following import (
    CACHE_BYTES,
    FollowingProjection,
    GamesMarked,
    GameSource,
)

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def to_micros(at: datetime) -> int:
    """A time as whole microseconds since the epoch (how the rows keep it: exact, ordered)."""
    delta = at - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def from_micros(micros: int) -> datetime:
    """The time a row keeps."""
    return datetime.fromtimestamp(micros // 1_000_000, UTC).replace(microsecond=micros % 1_000_000)


def row_params(due: Due) -> tuple[str, int, int, int]:
    """A row's columns: game id, version, seat, ``flag_at_us``."""
    return str(due.game_id), due.version, due.seat, to_micros(due.flag_at)


def due_of_row(row: Any) -> Due:
    """A row as the scheduler reads it."""
    game_id, version, seat, flag_at_us = tuple(row)
    return Due(UUID(str(game_id)), int(version), int(seat), from_micros(int(flag_at_us)))


class ClocksView(Protocol):
    """Where the clocks read model is kept (SQLite or PostgreSQL tables, infrastructure/)."""

    def apply_clocks(self, rows: list[Due], stopped: list[str], tracking: Tracking) -> None:
        """Write ``rows``, delete the rows of the games ``stopped``, and record the position,
        in one transaction; ``IntegrityError`` for a position already recorded."""
        ...

    def due(self, now: datetime, limit: int) -> list[Due]:
        """At most ``limit`` rows whose time is up by ``now``, the earliest first."""
        ...

    def all_rows(self) -> list[Due]:
        """Every row, by game id (for comparisons after a rebuild)."""
        ...

    def max_tracking_id(self, application_name: str) -> int | None:
        """The last notification id applied."""
        ...


class ClocksProjection(FollowingProjection):
    """Turns each event of a game into its row of the clocks read model (or none)."""

    name = "clocks"
    view: ClocksView

    def __init__(
        self, view: ClocksView, source: GameSource, cache_bytes: int = CACHE_BYTES
    ) -> None:
        super().__init__(source, cache_bytes)
        self.view = view
        self._clocked = GamesMarked(
            source,
            lambda created: created.settings.get("clock") is not None,
            lambda game: game.settings.get("clock") is not None,
        )
        """Which games have a clock (a game's settings are fixed when it is created): only
        those are followed."""

    def may_want(self, originator_id: UUID | str, topic: str) -> bool:
        """Whether an event may be of a game with a clock (a game known to have none: no)."""
        return self._clocked.may_be(originator_id)

    def wants(self, events: list[Any]) -> bool:
        """Whether the batch moves a game with a clock (else only the position moves:
        infrastructure/follower.py)."""
        return bool(self._clocked.among(events))

    def process_batch(self, events: list[Any], tracking: Tracking) -> None:
        """Apply consecutive stored events ending at ``tracking``: each game's row as its
        last event of the batch leaves it, and the position, in one transaction."""
        found: dict[str, Due | None] = {}
        for _, game in self.follow(self._clocked.among(events)):
            found[str(game.id)] = due_of(game)
        rows = [due for due in found.values() if due is not None]
        stopped = [game_id for game_id, due in found.items() if due is None]
        self.view.apply_clocks(rows, stopped, tracking)

    def forget(self) -> None:
        """Drop the games kept and what is known of which have clocks."""
        super().forget()
        self._clocked.forget()
