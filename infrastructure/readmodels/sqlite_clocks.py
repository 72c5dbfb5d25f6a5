"""The clocks read model kept in SQLite, in its own database file
(:mod:`application.projections.clocks`)."""

from __future__ import annotations

from datetime import datetime

from eventsourcing.persistence import Tracking
from eventsourcing.sqlite import SQLiteDatastore

from application.clocks import Due
from application.projections.clocks import due_of_row, row_params, to_micros
from infrastructure.readmodels import tracking
from infrastructure.readmodels.clock_rows import SCHEMA_VERSION

_COLUMNS = "game_id, version, seat, flag_at_us"


class SQLiteClocksView(tracking.SQLiteTracked):
    """Clock rows and the tracking position written in one SQLite transaction. ``suffix``
    names a table set built beside the live one (a rebuild's)."""

    name = "clocks"
    schema_version = SCHEMA_VERSION
    recreate_below = SCHEMA_VERSION

    def __init__(self, datastore: SQLiteDatastore, suffix: str = "") -> None:
        self.datastore = datastore
        self.suffix = suffix
        self.table = f"clocks{suffix}"
        self.tracking_name = f"clocks_tracking{suffix}"

    def tables(self) -> list[str]:
        """The tables of this read model, rows first."""
        return [self.table, self.tracking_name]

    def ddl(self) -> list[str]:
        """Create the tables."""
        return [
            f"CREATE TABLE IF NOT EXISTS {self.table} (game_id TEXT NOT NULL PRIMARY KEY, "
            "version INTEGER NOT NULL, seat INTEGER NOT NULL, flag_at_us INTEGER NOT NULL)",
            *tracking.sqlite_tracking_ddl(self.tracking_name),
        ]

    def index_ddl(self) -> list[str]:
        """The index of the scheduler's query, by its name on the live table."""
        return [f"CREATE INDEX IF NOT EXISTS clocks_flag_at ON {self.table} (flag_at_us)"]

    def apply_clocks(self, rows: list[Due], stopped: list[str], position: Tracking) -> None:
        """Write, delete and track, in one transaction (exactly once)."""
        with self.datastore.transaction(commit=True) as c:
            tracking.record_sqlite(c, self.tracking_name, position)
            for game_id in stopped:
                c.execute(f"DELETE FROM {self.table} WHERE game_id = ?", (game_id,))
            for row in rows:
                c.execute(
                    f"INSERT OR REPLACE INTO {self.table} ({_COLUMNS}) VALUES (?, ?, ?, ?)",
                    row_params(row),
                )

    def due(self, now: datetime, limit: int) -> list[Due]:
        """The rows whose time is up by ``now``, the earliest first."""
        with self.datastore.transaction(commit=False) as c:
            c.execute(
                f"SELECT {_COLUMNS} FROM {self.table} WHERE flag_at_us <= ? "
                "ORDER BY flag_at_us LIMIT ?",
                (to_micros(now), limit),
            )
            return [due_of_row(r) for r in c.fetchall()]

    def all_rows(self) -> list[Due]:
        """Every row, by game id."""
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT {_COLUMNS} FROM {self.table} ORDER BY game_id")
            return [due_of_row(r) for r in c.fetchall()]
