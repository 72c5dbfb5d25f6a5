"""The games list kept in SQLite (the embedded default), in its own database file."""

from __future__ import annotations

import orjson
from eventsourcing.persistence import Tracking
from eventsourcing.sqlite import SQLiteDatastore

from application.projections.games_list import GameRow, Position
from infrastructure.readmodels import tracking
from infrastructure.readmodels.rows import (
    COLUMNS,
    INDEXES,
    ORDER,
    SCHEMA_VERSION,
    filters,
    to_params,
)

_VALUES = ", ".join(":" + c.strip() for c in COLUMNS.split(","))


class SQLiteGamesListView(tracking.SQLiteTracked):
    """Rows and the tracking position written in one SQLite transaction. ``suffix`` names a
    table set built beside the live one (a rebuild's, :mod:`infrastructure.rebuild`)."""

    name = "games_list"
    schema_version = SCHEMA_VERSION
    recreate_below = SCHEMA_VERSION

    def __init__(self, datastore: SQLiteDatastore, suffix: str = "") -> None:
        self.datastore = datastore
        self.suffix = suffix
        self.table = f"games_list{suffix}"
        self.tracking_name = f"games_list_tracking{suffix}"

    def tables(self) -> list[str]:
        """The tables of this read model, rows first."""
        return [self.table, self.tracking_name]

    def ddl(self) -> list[str]:
        """Create the tables (secondary indexes apart: :meth:`index_ddl`)."""
        return [
            f"CREATE TABLE IF NOT EXISTS {self.table} ("
            "game_id TEXT PRIMARY KEY, game TEXT NOT NULL, status TEXT NOT NULL, "
            "last_activity TEXT NOT NULL, doc TEXT NOT NULL)",
            *tracking.sqlite_tracking_ddl(self.tracking_name),
        ]

    def index_ddl(self) -> list[str]:
        """The secondary indexes, by their names on the live table."""
        return [
            f"CREATE INDEX IF NOT EXISTS {name} ON {self.table} ({columns})"
            for name, columns in INDEXES
        ]

    def upsert_games(self, rows: list[GameRow], position: Tracking) -> None:
        """Write the rows and the tracking position together (exactly once)."""
        with self.datastore.transaction(commit=True) as c:
            tracking.record_sqlite(c, self.tracking_name, position)
            for row in rows:
                c.execute(
                    f"INSERT OR REPLACE INTO {self.table} ({COLUMNS}) VALUES ({_VALUES})",
                    to_params(row),
                )

    def list_games(
        self, *, status: str | None, game: str | None, limit: int, after: Position | None
    ) -> list[tuple[Position, str]]:
        """At most ``limit`` rows after ``after``, in list order: position and document."""
        where, params = filters(status, game, after, ":{}")
        with self.datastore.transaction(commit=False) as c:
            c.execute(
                f"SELECT last_activity, game_id, doc FROM {self.table}{where}{ORDER} LIMIT :limit",
                {**params, "limit": limit},
            )
            return [(Position(r[0], r[1]), r[2]) for r in c.fetchall()]

    def all_rows(self) -> list[GameRow]:
        """Every row, by game id."""
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT doc FROM {self.table} ORDER BY game_id")
            return [GameRow.from_json(orjson.loads(r[0])) for r in c.fetchall()]
