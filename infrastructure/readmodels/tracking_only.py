"""The position of a process manager that writes no rows (application/tournament_results.py):
a tracking table of its own, on SQLite or PostgreSQL, built and rebuilt as a read model's."""

from __future__ import annotations

from typing import Any

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresDatastore
from eventsourcing.sqlite import SQLiteDatastore
from psycopg.sql import Composed

from infrastructure.readmodels import tracking


class SQLiteTrackingView(tracking.SQLiteTracked):
    """A manager's position in SQLite."""

    schema_version = 1
    recreate_below = 1

    def __init__(self, datastore: SQLiteDatastore, suffix: str = "", name: str = "") -> None:
        self.datastore = datastore
        self.suffix = suffix
        self.name = name
        self.tracking_name = f"{name}_tracking{suffix}"

    def tables(self) -> list[str]:
        """The one table."""
        return [self.tracking_name]

    def ddl(self) -> list[str]:
        """Create the table."""
        return tracking.sqlite_tracking_ddl(self.tracking_name)

    def index_ddl(self) -> list[Any]:
        """No index."""
        return []

    def track(self, position: Tracking) -> None:
        """Record the position (exactly once)."""
        with self.datastore.transaction(commit=True) as c:
            tracking.record_sqlite(c, self.tracking_name, position)


class PostgresTrackingView(tracking.PostgresTracked):
    """A manager's position in PostgreSQL."""

    schema_version = 1
    recreate_below = 1

    def __init__(self, datastore: PostgresDatastore, suffix: str = "", name: str = "") -> None:
        self.datastore = datastore
        self.suffix = suffix
        self.name = name
        self.tracking_name = f"{name}_tracking{suffix}"

    def tables(self) -> list[str]:
        """The one table."""
        return [self.tracking_name]

    def ddl(self) -> list[Composed]:
        """Create the table."""
        return tracking.postgres_tracking_ddl(self.datastore.schema, self.tracking_name)

    def index_ddl(self) -> list[Any]:
        """No index."""
        return []

    def track(self, position: Tracking) -> None:
        """Record the position (exactly once)."""
        with self.datastore.transaction(commit=True) as curs:
            tracking.record_postgres(curs, self.datastore.schema, self.tracking_name, position)
