"""The clocks read model kept in PostgreSQL, beside the event store, on the process's one pool
(:mod:`application.projections.clocks`)."""

from __future__ import annotations

from datetime import datetime

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresDatastore
from psycopg.sql import SQL, Composed, Identifier

from application.clocks import Due
from application.projections.clocks import due_of_row, row_params, to_micros
from infrastructure.pgsql import rendered
from infrastructure.readmodels import tracking
from infrastructure.readmodels.clock_rows import SCHEMA_VERSION

_COLUMNS = "game_id, version, seat, flag_at_us"


class PostgresClocksView(tracking.PostgresTracked):
    """Clock rows and the tracking position written in one PostgreSQL transaction. ``suffix``
    names a table set built beside the live one (a rebuild's)."""

    name = "clocks"
    schema_version = SCHEMA_VERSION
    recreate_below = SCHEMA_VERSION

    def __init__(self, datastore: PostgresDatastore, suffix: str = "") -> None:
        self.datastore = datastore
        self.suffix = suffix
        self.table_name = f"clocks{suffix}"
        self.tracking_name = f"clocks_tracking{suffix}"
        self.table = Identifier(datastore.schema, self.table_name)
        self._upsert = rendered(
            SQL(
                f"INSERT INTO {{}} ({_COLUMNS}) VALUES (%s, %s, %s, %s) ON CONFLICT (game_id) "
                "DO UPDATE SET version = EXCLUDED.version, seat = EXCLUDED.seat, "
                "flag_at_us = EXCLUDED.flag_at_us"
            ).format(self.table)
        )
        self._delete = rendered(SQL("DELETE FROM {} WHERE game_id = %s").format(self.table))

    def tables(self) -> list[str]:
        """The tables of this read model, rows first."""
        return [self.table_name, self.tracking_name]

    def ddl(self) -> list[Composed]:
        """Create the tables."""
        return [
            SQL(
                "CREATE TABLE IF NOT EXISTS {} (game_id text NOT NULL, version integer NOT NULL, "
                "seat integer NOT NULL, flag_at_us bigint NOT NULL, "
                "CONSTRAINT {} PRIMARY KEY (game_id))"
            ).format(self.table, Identifier(f"{self.table_name}_pkey")),
            *tracking.postgres_tracking_ddl(self.datastore.schema, self.tracking_name),
        ]

    def index_ddl(self) -> list[Composed]:
        """The index of the scheduler's query, by its name on the live table."""
        return [
            SQL("CREATE INDEX IF NOT EXISTS clocks_flag_at ON {} (flag_at_us)").format(self.table)
        ]

    def apply_clocks(self, rows: list[Due], stopped: list[str], position: Tracking) -> None:
        """Write, delete and track, in one transaction (exactly once)."""
        with self.datastore.transaction(commit=True) as curs:
            tracking.unflushed_postgres(curs)
            tracking.record_postgres(curs, self.datastore.schema, self.tracking_name, position)
            if stopped:
                curs.executemany(self._delete, [(game_id,) for game_id in stopped])
            if rows:
                curs.executemany(self._upsert, [row_params(row) for row in rows])

    def due(self, now: datetime, limit: int) -> list[Due]:
        """The rows whose time is up by ``now``, the earliest first."""
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                SQL(
                    f"SELECT {_COLUMNS} FROM {{}} WHERE flag_at_us <= %s "
                    "ORDER BY flag_at_us LIMIT %s"
                ).format(self.table),
                (to_micros(now), limit),
            )
            return [due_of_row(r.values()) for r in curs.fetchall()]

    def all_rows(self) -> list[Due]:
        """Every row, by game id."""
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(SQL(f"SELECT {_COLUMNS} FROM {{}} ORDER BY game_id").format(self.table))
            return [due_of_row(r.values()) for r in curs.fetchall()]
