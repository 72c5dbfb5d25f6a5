"""The turn index kept in PostgreSQL, beside the event store, on the process's one pool."""

from __future__ import annotations

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresDatastore
from psycopg.sql import SQL, Composed, Identifier

from application.projections.turns import TurnRow
from infrastructure.pgsql import rendered
from infrastructure.readmodels import tracking

_COLUMNS = "game_id, turn, seat, first_version, last_version, notation, summary, undone_at"


class PostgresTurnsView(tracking.PostgresTracked):
    """Turn rows and the tracking position written in one PostgreSQL transaction. ``suffix``
    names a table set built beside the live one (a rebuild's)."""

    name = "turns"
    schema_version = 1
    recreate_below = 0

    def __init__(self, datastore: PostgresDatastore, suffix: str = "") -> None:
        self.datastore = datastore
        self.suffix = suffix
        self.table_name = f"turns{suffix}"
        self.tracking_name = f"turns_tracking{suffix}"
        self.table = Identifier(datastore.schema, self.table_name)
        self._upsert = rendered(
            SQL(
                f"INSERT INTO {{}} ({_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT (game_id, first_version) DO UPDATE SET turn = EXCLUDED.turn, "
                "seat = EXCLUDED.seat, last_version = EXCLUDED.last_version, "
                "notation = EXCLUDED.notation, summary = EXCLUDED.summary, "
                "undone_at = EXCLUDED.undone_at"
            ).format(self.table)
        )
        self._mark = rendered(
            SQL(
                "UPDATE {} SET undone_at = %s WHERE game_id = %s AND first_version > %s "
                "AND undone_at IS NULL"
            ).format(self.table)
        )

    def tables(self) -> list[str]:
        """The tables of this read model, rows first."""
        return [self.table_name, self.tracking_name]

    def ddl(self) -> list[Composed]:
        """Create the tables."""
        return [
            SQL(
                "CREATE TABLE IF NOT EXISTS {} ("
                "game_id text NOT NULL, turn integer NOT NULL, seat integer NOT NULL, "
                "first_version integer NOT NULL, last_version integer NOT NULL, "
                "notation text NOT NULL, summary text NOT NULL, undone_at integer, "
                "CONSTRAINT {} PRIMARY KEY (game_id, first_version))"
            ).format(self.table, Identifier(f"{self.table_name}_pkey")),
            *tracking.postgres_tracking_ddl(self.datastore.schema, self.tracking_name),
        ]

    def index_ddl(self) -> list[Composed]:
        """No secondary index: the primary key serves every query."""
        return []

    def apply_turns(
        self, rows: list[TurnRow], undone: list[tuple[str, int, int]], position: Tracking
    ) -> None:
        """Write, mark undone and track, in one transaction (exactly once): the marks, in
        order, before the rows (a row written again after an undo is not marked)."""
        with self.datastore.transaction(commit=True) as curs:
            tracking.unflushed_postgres(curs)
            tracking.record_postgres(curs, self.datastore.schema, self.tracking_name, position)
            if undone:
                curs.executemany(self._mark, [(at, game, after) for game, after, at in undone])
            if rows:
                curs.executemany(self._upsert, [row.as_params() for row in rows])

    def turns_of(
        self, game_id: str, *, include_undone: bool, after: int = 0, limit: int | None = None
    ) -> list[TurnRow]:
        """A game's turns by first version: those starting after version ``after``, at
        most ``limit`` of them."""
        where = "" if include_undone else " AND undone_at IS NULL"
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                SQL(
                    f"SELECT {_COLUMNS} FROM {{}} WHERE game_id = %s AND first_version > %s"
                    f"{where} ORDER BY first_version LIMIT %s"
                ).format(self.table),
                (game_id, after, limit),
            )
            return [TurnRow(**r) for r in curs.fetchall()]
