"""Emptying a read model for a rebuild: its rows and its tracking position, together."""

from __future__ import annotations

from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder
from psycopg.sql import SQL, Identifier


def clear_sqlite(view: SQLiteTrackingRecorder, table: str, application_name: str) -> None:
    """Delete every row of ``table`` and the view's tracking position, in one transaction."""
    with view.datastore.transaction(commit=True) as c:
        c.execute(f"DELETE FROM {table}")
        c.execute("DELETE FROM tracking WHERE application_name = ?", (application_name,))


def clear_postgres(
    view: PostgresTrackingRecorder, table: Identifier, application_name: str
) -> None:
    """Delete every row of ``table`` and the view's tracking position, in one transaction."""
    tracking = Identifier(view.datastore.schema, view.tracking_table_name)
    with view.datastore.transaction(commit=True) as curs:
        curs.execute(SQL("DELETE FROM {}").format(table))
        curs.execute(
            SQL("DELETE FROM {} WHERE application_name = %(name)s").format(tracking),
            {"name": application_name},
        )
