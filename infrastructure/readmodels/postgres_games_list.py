"""The games list kept in PostgreSQL, beside the event store, on the process's one pool."""

from __future__ import annotations

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresDatastore
from psycopg.sql import SQL, Composed, Identifier

from application.projections.games_list import GameRow
from infrastructure.readmodels import tracking
from infrastructure.readmodels.rows import COLUMNS, filters, from_record, to_params

_VALUES = ", ".join("%(" + c.strip() + ")s" for c in COLUMNS.split(","))
_UPDATES = ", ".join(f"{c.strip()} = EXCLUDED.{c.strip()}" for c in COLUMNS.split(",")[1:])


class PostgresGamesListView:
    """Rows and the tracking position written in one PostgreSQL transaction. ``suffix`` names
    a table set built beside the live one (a rebuild's, :mod:`infrastructure.rebuild`)."""

    name = "games_list"

    def __init__(self, datastore: PostgresDatastore, suffix: str = "") -> None:
        self.datastore = datastore
        self.suffix = suffix
        schema = datastore.schema
        self.table_name = f"games_list{suffix}"
        self.tracking_name = f"games_list_tracking{suffix}"
        self.table = Identifier(schema, self.table_name)

    def tables(self) -> list[str]:
        """The tables of this read model, rows first."""
        return [self.table_name, self.tracking_name]

    def ddl(self) -> list[Composed]:
        """Create the tables (secondary indexes apart: :meth:`index_ddl`)."""
        return [
            SQL(
                "CREATE TABLE IF NOT EXISTS {} ("
                "game_id text NOT NULL, game text NOT NULL, status text NOT NULL, "
                "players integer NOT NULL, seats jsonb NOT NULL, current_players jsonb NOT NULL, "
                "analysis boolean NOT NULL, "
                "scores jsonb NOT NULL, round integer, version integer NOT NULL, "
                "created_at text NOT NULL, last_activity text NOT NULL, "
                "CONSTRAINT {} PRIMARY KEY (game_id))"
            ).format(self.table, Identifier(f"{self.table_name}_pkey")),
            *tracking.postgres_tracking_ddl(self.datastore.schema, self.tracking_name),
        ]

    def index_ddl(self) -> list[Composed]:
        """The secondary indexes, by their names on the live table."""
        return [
            SQL("CREATE INDEX IF NOT EXISTS games_list_activity ON {} (last_activity DESC)").format(
                self.table
            )
        ]

    def upsert_games(self, rows: list[GameRow], position: Tracking) -> None:
        """Write the rows and the tracking position together (exactly once)."""
        statement = SQL(
            f"INSERT INTO {{}} ({COLUMNS}) VALUES ({_VALUES}) "
            f"ON CONFLICT (game_id) DO UPDATE SET {_UPDATES}"
        ).format(self.table)
        with self.datastore.transaction(commit=True) as curs:
            tracking.record_postgres(curs, self.datastore.schema, self.tracking_name, position)
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

    def max_tracking_id(self, application_name: str) -> int | None:
        """The last notification id of ``application_name``'s log applied."""
        with self.datastore.transaction(commit=False) as curs:
            return tracking.position_postgres(
                curs, self.datastore.schema, self.tracking_name, application_name
            )
