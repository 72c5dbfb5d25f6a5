"""The turn index kept in SQLite, in its own database file."""

from __future__ import annotations

from eventsourcing.persistence import Tracking
from eventsourcing.sqlite import SQLiteDatastore

from application.projections.turns import TurnRow
from infrastructure.readmodels import tracking

_COLUMNS = "game_id, turn, seat, first_version, last_version, notation, summary, undone_at"


class SQLiteTurnsView(tracking.SQLiteTracked):
    """Turn rows and the tracking position written in one SQLite transaction. ``suffix``
    names a table set built beside the live one (a rebuild's)."""

    name = "turns"
    schema_version = 1
    recreate_below = 0

    def __init__(self, datastore: SQLiteDatastore, suffix: str = "") -> None:
        self.datastore = datastore
        self.suffix = suffix
        self.table = f"turns{suffix}"
        self.tracking_name = f"turns_tracking{suffix}"

    def tables(self) -> list[str]:
        """The tables of this read model, rows first."""
        return [self.table, self.tracking_name]

    def ddl(self) -> list[str]:
        """Create the tables."""
        return [
            f"CREATE TABLE IF NOT EXISTS {self.table} ("
            "game_id TEXT NOT NULL, turn INTEGER NOT NULL, seat INTEGER NOT NULL, "
            "first_version INTEGER NOT NULL, last_version INTEGER NOT NULL, "
            "notation TEXT NOT NULL, summary TEXT NOT NULL, undone_at INTEGER, "
            "PRIMARY KEY (game_id, first_version))",
            *tracking.sqlite_tracking_ddl(self.tracking_name),
        ]

    def index_ddl(self) -> list[str]:
        """No secondary index: the primary key serves every query."""
        return []

    def apply_turns(
        self, rows: list[TurnRow], undone: list[tuple[str, int, int]], position: Tracking
    ) -> None:
        """Write, mark undone and track, in one transaction (exactly once)."""
        with self.datastore.transaction(commit=True) as c:
            tracking.record_sqlite(c, self.tracking_name, position)
            for game_id, to_version, at in undone:
                c.execute(
                    f"UPDATE {self.table} SET undone_at = ? WHERE game_id = ? "
                    "AND first_version > ? AND undone_at IS NULL",
                    (at, game_id, to_version),
                )
            for row in rows:
                c.execute(
                    f"INSERT OR REPLACE INTO {self.table} ({_COLUMNS}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    row.as_params(),
                )

    def turns_of(
        self, game_id: str, *, include_undone: bool, after: int = 0, limit: int | None = None
    ) -> list[TurnRow]:
        """A game's turns by first version: those starting after version ``after``, at
        most ``limit`` of them."""
        where = "" if include_undone else " AND undone_at IS NULL"
        with self.datastore.transaction(commit=False) as c:
            c.execute(
                f"SELECT {_COLUMNS} FROM {self.table} WHERE game_id = ? AND first_version > ?"
                f"{where} ORDER BY first_version LIMIT ?",
                (game_id, after, -1 if limit is None else limit),
            )
            return [TurnRow(*tuple(r)) for r in c.fetchall()]
