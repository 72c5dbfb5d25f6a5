"""The turn index kept in PostgreSQL, beside the event store."""

from __future__ import annotations

from typing import Any

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresDatastore, PostgresTrackingRecorder
from psycopg.sql import SQL, Identifier

from application.projections.turns import TurnRow
from infrastructure.readmodels.clearing import clear_postgres

_COLUMNS = "game_id, turn, seat, first_version, last_version, notation, summary, undone_at"


class PostgresTurnsView(PostgresTrackingRecorder):
    """Turn rows and the tracking position written in one PostgreSQL transaction."""

    def __init__(self, datastore: PostgresDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self.table = Identifier(self.datastore.schema, "turns")
        self.sql_create_statements.append(
            SQL(
                "CREATE TABLE IF NOT EXISTS {} ("
                "game_id text NOT NULL, turn integer NOT NULL, seat integer NOT NULL, "
                "first_version integer NOT NULL, last_version integer NOT NULL, "
                "notation text NOT NULL, summary text NOT NULL, undone_at integer, "
                "PRIMARY KEY (game_id, first_version))"
            ).format(self.table)
        )

    def apply_turns(
        self, rows: list[TurnRow], undone: list[tuple[str, int, int]], tracking: Tracking
    ) -> None:
        """Write, mark undone and track, in one transaction (exactly once)."""
        upsert = SQL(
            f"INSERT INTO {{}} ({_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (game_id, first_version) DO UPDATE SET turn = EXCLUDED.turn, "
            "seat = EXCLUDED.seat, last_version = EXCLUDED.last_version, "
            "notation = EXCLUDED.notation, summary = EXCLUDED.summary, "
            "undone_at = EXCLUDED.undone_at"
        ).format(self.table)
        mark = SQL(
            "UPDATE {} SET undone_at = %s WHERE game_id = %s AND first_version > %s "
            "AND undone_at IS NULL"
        ).format(self.table)
        with self.datastore.transaction(commit=True) as curs:
            self._insert_tracking(curs, tracking)
            for game_id, to_version, at in undone:
                curs.execute(mark, (at, game_id, to_version))
            for row in rows:
                curs.execute(
                    upsert,
                    row.as_params(),
                )

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

    def clear(self, application_name: str) -> None:
        """Delete every row and the tracking position."""
        clear_postgres(self, self.table, application_name)
