"""The games list kept in PostgreSQL, beside the event store, on the process's one pool."""

from __future__ import annotations

import orjson
from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresDatastore
from psycopg.sql import SQL, Composed, Identifier

from application.projections.games_list import GameRow, Position
from infrastructure.pgsql import rendered
from infrastructure.readmodels import tracking
from infrastructure.readmodels.rows import (
    COLUMNS,
    INDEXES,
    ORDER,
    SCHEMA_VERSION,
    filters,
    to_params,
)

_VALUES = ", ".join("%(" + c.strip() + ")s" for c in COLUMNS.split(","))
_UPDATES = ", ".join(f"{c.strip()} = EXCLUDED.{c.strip()}" for c in COLUMNS.split(",")[1:])


class PostgresGamesListView(tracking.PostgresTracked):
    """Rows and the tracking position written in one PostgreSQL transaction. ``suffix`` names
    a table set built beside the live one (a rebuild's, :mod:`infrastructure.rebuild`)."""

    name = "games_list"
    schema_version = SCHEMA_VERSION
    recreate_below = SCHEMA_VERSION

    def __init__(self, datastore: PostgresDatastore, suffix: str = "") -> None:
        self.datastore = datastore
        self.suffix = suffix
        schema = datastore.schema
        self.table_name = f"games_list{suffix}"
        self.tracking_name = f"games_list_tracking{suffix}"
        self.table = Identifier(schema, self.table_name)
        self._upsert = rendered(
            SQL(
                f"INSERT INTO {{}} ({COLUMNS}) VALUES ({_VALUES}) "
                f"ON CONFLICT (game_id) DO UPDATE SET {_UPDATES}"
            ).format(self.table)
        )

    def tables(self) -> list[str]:
        """The tables of this read model, rows first."""
        return [self.table_name, self.tracking_name]

    def ddl(self) -> list[Composed]:
        """Create the tables (secondary indexes apart: :meth:`index_ddl`)."""
        return [
            SQL(
                "CREATE TABLE IF NOT EXISTS {} ("
                "game_id text NOT NULL, game text NOT NULL, status text NOT NULL, "
                "last_activity text NOT NULL, doc text NOT NULL, "
                "CONSTRAINT {} PRIMARY KEY (game_id))"
            ).format(self.table, Identifier(f"{self.table_name}_pkey")),
            *tracking.postgres_tracking_ddl(self.datastore.schema, self.tracking_name),
        ]

    def index_ddl(self) -> list[Composed]:
        """The secondary indexes, by their names on the live table."""
        return [
            SQL("CREATE INDEX IF NOT EXISTS {} ON {} (" + columns + ")").format(
                Identifier(name), self.table
            )
            for name, columns in INDEXES
        ]

    def upsert_games(self, rows: list[GameRow], position: Tracking) -> None:
        """Write the rows and the tracking position together (exactly once)."""
        with self.datastore.transaction(commit=True) as curs:
            tracking.unflushed_postgres(curs)
            tracking.record_postgres(curs, self.datastore.schema, self.tracking_name, position)
            if rows:
                curs.executemany(self._upsert, [to_params(row) for row in rows])
                tracking.notify_postgres(curs, self.datastore.schema, self.name + self.suffix)

    def list_games(
        self, *, status: str | None, game: str | None, limit: int, after: Position | None
    ) -> list[tuple[Position, str]]:
        """At most ``limit`` rows after ``after``, in list order: position and document."""
        where, params = filters(status, game, after, "%({})s")
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                SQL(
                    f"SELECT last_activity, game_id, doc FROM {{}}{where}{ORDER} LIMIT %(limit)s"
                ).format(self.table),
                {**params, "limit": limit},
            )
            return [(Position(r["last_activity"], r["game_id"]), r["doc"]) for r in curs.fetchall()]

    def all_rows(self) -> list[GameRow]:
        """Every row, by game id."""
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(SQL("SELECT doc FROM {} ORDER BY game_id").format(self.table))
            return [GameRow.from_json(orjson.loads(r["doc"])) for r in curs.fetchall()]
