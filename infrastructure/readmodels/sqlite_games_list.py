"""The games list kept in SQLite (the embedded default), in its own database file."""

from __future__ import annotations

from typing import Any

from eventsourcing.persistence import Tracking
from eventsourcing.sqlite import SQLiteDatastore, SQLiteTrackingRecorder

from application.projections.games_list import GameRow
from infrastructure.readmodels.clearing import clear_sqlite
from infrastructure.readmodels.rows import COLUMNS, filters, from_record, to_params

_VALUES = ", ".join(":" + c.strip() for c in COLUMNS.split(","))


class SQLiteGamesListView(SQLiteTrackingRecorder):
    """Rows and the tracking position written in one SQLite transaction."""

    def __init__(self, datastore: SQLiteDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self.create_table_statements.append(
            "CREATE TABLE IF NOT EXISTS games_list ("
            "game_id TEXT PRIMARY KEY, game TEXT NOT NULL, status TEXT NOT NULL, "
            "players INTEGER NOT NULL, seats TEXT NOT NULL, current_players TEXT NOT NULL, "
            "analysis INTEGER NOT NULL, "
            "scores TEXT NOT NULL, round INTEGER, version INTEGER NOT NULL, "
            "created_at TEXT NOT NULL, last_activity TEXT NOT NULL)"
        )
        self.create_table_statements.append(
            "CREATE INDEX IF NOT EXISTS games_list_activity ON games_list (last_activity DESC)"
        )

    def upsert_games(self, rows: list[GameRow], tracking: Tracking) -> None:
        """Write the rows and the tracking position together (exactly once)."""
        with self.datastore.transaction(commit=True) as c:
            self._insert_tracking(c, tracking)
            for row in rows:
                c.execute(
                    f"INSERT OR REPLACE INTO games_list ({COLUMNS}) VALUES ({_VALUES})",
                    to_params(row),
                )

    def list_games(
        self, *, status: str | None, game: str | None, limit: int, offset: int
    ) -> tuple[list[GameRow], int]:
        """A page of rows, most recently active first, and the total matching."""
        where, params = filters(status, game, ":{}")
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT COUNT(*) FROM games_list{where}", params)
            total = int(c.fetchone()[0])
            c.execute(
                f"SELECT {COLUMNS} FROM games_list{where} "
                "ORDER BY last_activity DESC, game_id LIMIT :limit OFFSET :offset",
                {**params, "limit": limit, "offset": offset},
            )
            rows = [from_record(r) for r in c.fetchall()]
        return rows, total

    def all_rows(self) -> list[GameRow]:
        """Every row, by game id."""
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT {COLUMNS} FROM games_list ORDER BY game_id")
            return [from_record(r) for r in c.fetchall()]

    def clear(self, application_name: str) -> None:
        """Delete every row and the tracking position."""
        clear_sqlite(self, "games_list", application_name)
