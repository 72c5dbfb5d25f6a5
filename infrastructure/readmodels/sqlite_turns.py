"""The turn index kept in SQLite, in its own database file."""

from __future__ import annotations

from typing import Any

from eventsourcing.persistence import Tracking
from eventsourcing.sqlite import SQLiteDatastore, SQLiteTrackingRecorder

from application.projections.turns import TurnRow
from infrastructure.readmodels.clearing import clear_sqlite

_COLUMNS = "game_id, turn, seat, first_version, last_version, notation, summary, undone_at"


class SQLiteTurnsView(SQLiteTrackingRecorder):
    """Turn rows and the tracking position written in one SQLite transaction."""

    def __init__(self, datastore: SQLiteDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self.create_table_statements.append(
            "CREATE TABLE IF NOT EXISTS turns ("
            "game_id TEXT NOT NULL, turn INTEGER NOT NULL, seat INTEGER NOT NULL, "
            "first_version INTEGER NOT NULL, last_version INTEGER NOT NULL, "
            "notation TEXT NOT NULL, summary TEXT NOT NULL, undone_at INTEGER, "
            "PRIMARY KEY (game_id, first_version))"
        )

    def apply_turns(
        self, rows: list[TurnRow], undone: list[tuple[str, int, int]], tracking: Tracking
    ) -> None:
        """Write, mark undone and track, in one transaction (exactly once)."""
        with self.datastore.transaction(commit=True) as c:
            self._insert_tracking(c, tracking)
            for game_id, to_version, at in undone:
                c.execute(
                    "UPDATE turns SET undone_at = ? WHERE game_id = ? AND first_version > ? "
                    "AND undone_at IS NULL",
                    (at, game_id, to_version),
                )
            for row in rows:
                c.execute(
                    f"INSERT OR REPLACE INTO turns ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
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
                f"SELECT {_COLUMNS} FROM turns WHERE game_id = ? AND first_version > ?{where} "
                "ORDER BY first_version LIMIT ?",
                (game_id, after, -1 if limit is None else limit),
            )
            return [TurnRow(*tuple(r)) for r in c.fetchall()]

    def clear(self, application_name: str) -> None:
        """Delete every row and the tracking position."""
        clear_sqlite(self, "turns", application_name)
