"""The games list kept in PostgreSQL, beside the event store."""

from __future__ import annotations

from typing import Any

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresDatastore, PostgresTrackingRecorder
from psycopg.sql import SQL, Identifier

from application.projections.games_list import GameRow
from infrastructure.readmodels.clearing import clear_postgres
from infrastructure.readmodels.rows import COLUMNS, filters, from_record, to_params

_VALUES = ", ".join("%(" + c.strip() + ")s" for c in COLUMNS.split(","))
_UPDATES = ", ".join(f"{c.strip()} = EXCLUDED.{c.strip()}" for c in COLUMNS.split(",")[1:])


class PostgresGamesListView(PostgresTrackingRecorder):
    """Rows and the tracking position written in one PostgreSQL transaction."""

    def __init__(self, datastore: PostgresDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self.table = Identifier(self.datastore.schema, "games_list")
        self.sql_create_statements.append(
            SQL(
                "CREATE TABLE IF NOT EXISTS {} ("
                "game_id text PRIMARY KEY, game text NOT NULL, status text NOT NULL, "
                "players integer NOT NULL, seats jsonb NOT NULL, current_players jsonb NOT NULL, "
                "analysis boolean NOT NULL, "
                "scores jsonb NOT NULL, round integer, version integer NOT NULL, "
                "created_at text NOT NULL, last_activity text NOT NULL)"
            ).format(self.table)
        )
        self.sql_create_statements.append(
            SQL("CREATE INDEX IF NOT EXISTS games_list_activity ON {} (last_activity DESC)").format(
                self.table
            )
        )

    def upsert_games(self, rows: list[GameRow], tracking: Tracking) -> None:
        """Write the rows and the tracking position together (exactly once)."""
        statement = SQL(
            f"INSERT INTO {{}} ({COLUMNS}) VALUES ({_VALUES}) "
            f"ON CONFLICT (game_id) DO UPDATE SET {_UPDATES}"
        ).format(self.table)
        with self.datastore.transaction(commit=True) as curs:
            self._insert_tracking(curs, tracking)
            for row in rows:
                curs.execute(statement, to_params(row))

    def list_games(
        self, *, status: str | None, game: str | None, limit: int, offset: int
    ) -> tuple[list[GameRow], int]:
        """A page of rows, most recently active first, and the total matching."""
        where, params = filters(status, game, "%({})s")
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(SQL("SELECT COUNT(*) AS n FROM {}" + where).format(self.table), params)
            found = curs.fetchone()
            total = int(found["n"]) if found else 0
            curs.execute(
                SQL(
                    f"SELECT {COLUMNS} FROM {{}}{where} "
                    "ORDER BY last_activity DESC, game_id LIMIT %(limit)s OFFSET %(offset)s"
                ).format(self.table),
                {**params, "limit": limit, "offset": offset},
            )
            rows = [from_record(r) for r in curs.fetchall()]
        return rows, total

    def all_rows(self) -> list[GameRow]:
        """Every row, by game id."""
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(SQL(f"SELECT {COLUMNS} FROM {{}} ORDER BY game_id").format(self.table))
            return [from_record(r) for r in curs.fetchall()]

    def clear(self, application_name: str) -> None:
        """Delete every row and the tracking position."""
        clear_postgres(self, self.table, application_name)
