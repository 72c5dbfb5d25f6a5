"""How far a read model has followed each log (docs/architecture.md, "Read side"): one row per
followed log (an event-store shard, named by its application name) holding the last
notification id applied, written in the same transaction as the read model's rows.

A position already recorded is refused (``IntegrityError``), and so is a :class:`Step` whose
``previous`` position is no longer the recorded one, so an event is applied exactly once even
when two followers race with batches of different lengths (the one that finds the position
moved looks at it again). Each read model has its own tracking table,
``<read model>_tracking``, so that a rebuild can build a new one beside it and swap both in
at once (:mod:`infrastructure.rebuild`). The table has the shape the ``eventsourcing``
library's tracking recorders give it, so tables those made keep working."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from eventsourcing.persistence import IntegrityError, Tracking
from eventsourcing.postgres import PostgresDatastore
from eventsourcing.sqlite import SQLiteDatastore
from psycopg.sql import SQL, Composed, Identifier

from infrastructure.pgsql import rendered

TRACKING_COLUMNS = "application_name text NOT NULL, notification_id bigint NOT NULL"


@dataclass(frozen=True)
class Step(Tracking):
    """A position to record, with the position the follower saw recorded before it
    (``previous``; 0 when none was): recorded only if that is still the recorded one."""

    previous: int | None = None


def _after(tracking: Tracking) -> int | None:
    return tracking.previous if isinstance(tracking, Step) else None


MIGRATION_ROW = "__migration__"
"""A row the library's tracking recorders write for themselves; never a followed log."""


def postgres_tracking_ddl(schema: str, table: str) -> list[Composed]:
    """The tracking table of a read model (PostgreSQL); its primary key is named
    ``<table>_pkey`` so that a rebuilt table can take the name back."""
    return [
        SQL(
            "CREATE TABLE IF NOT EXISTS {} ({}, CONSTRAINT {} PRIMARY KEY (application_name))"
        ).format(Identifier(schema, table), SQL(TRACKING_COLUMNS), Identifier(f"{table}_pkey"))
    ]


def sqlite_tracking_ddl(table: str) -> list[str]:
    """The tracking table of a read model (SQLite)."""
    return [
        f"CREATE TABLE IF NOT EXISTS {table} ({TRACKING_COLUMNS}, "
        "PRIMARY KEY (application_name)) WITHOUT ROWID"
    ]


def unflushed_postgres(cursor: Any) -> None:
    """Commit the open transaction without waiting for the disk (``synchronous_commit`` off for
    it alone): a read model's rows and its position commit together, so a commit lost to a
    crash is lost whole and the follower applies the same events again. The event store's own
    commits keep the server's setting: the events are the truth."""
    cursor.execute(b"SET LOCAL synchronous_commit = off")


@functools.cache
def _record_statement(schema: str, table: str) -> bytes:
    """The statement of :func:`record_postgres`, rendered once per table (psycopg renders a
    composed statement anew on every call)."""
    return rendered(
        SQL(
            "INSERT INTO {0} AS t VALUES (%(name)s, %(id)s) ON CONFLICT (application_name) "
            "DO UPDATE SET notification_id = %(id)s WHERE t.notification_id < %(id)s "
            "AND (%(previous)s::bigint IS NULL OR t.notification_id = %(previous)s::bigint) "
            "RETURNING notification_id"
        ).format(Identifier(schema, table))
    )


def record_postgres(cursor: Any, schema: str, table: str, tracking: Tracking) -> None:
    """Record ``tracking`` in the open transaction of ``cursor``; raise ``IntegrityError``
    when the log's recorded position is already at or past it."""
    cursor.execute(
        _record_statement(schema, table),
        {
            "name": tracking.application_name,
            "id": tracking.notification_id,
            "previous": _after(tracking),
        },
    )
    if cursor.fetchone() is None:
        raise IntegrityError(
            f"{table}: {tracking.application_name} is past {tracking.notification_id}"
        )


def record_sqlite(cursor: Any, table: str, tracking: Tracking) -> None:
    """Record ``tracking`` in the open transaction of ``cursor`` (SQLite); as
    :func:`record_postgres`."""
    cursor.execute(
        f"INSERT INTO {table} VALUES (:name, :id) ON CONFLICT (application_name) "
        f"DO UPDATE SET notification_id = :id WHERE {table}.notification_id < :id "
        f"AND (:previous IS NULL OR {table}.notification_id = :previous) "
        "RETURNING notification_id",
        {
            "name": tracking.application_name,
            "id": tracking.notification_id,
            "previous": _after(tracking),
        },
    )
    if cursor.fetchone() is None:
        raise IntegrityError(
            f"{table}: {tracking.application_name} is past {tracking.notification_id}"
        )


def position_postgres(cursor: Any, schema: str, table: str, application_name: str) -> int | None:
    """The last notification id of ``application_name``'s log applied, if any."""
    cursor.execute(
        SQL("SELECT notification_id FROM {} WHERE application_name = %s").format(
            Identifier(schema, table)
        ),
        (application_name,),
    )
    row = cursor.fetchone()
    return None if row is None else int(row["notification_id"])


def position_sqlite(cursor: Any, table: str, application_name: str) -> int | None:
    """The last notification id of ``application_name``'s log applied, if any (SQLite)."""
    cursor.execute(
        f"SELECT notification_id FROM {table} WHERE application_name = ?", (application_name,)
    )
    row = cursor.fetchone()
    return None if row is None else int(row[0])


def changed_channel(schema: str, read_model: str) -> str:
    """The PostgreSQL channel a read model NOTIFYs, in the transaction that changes its rows:
    a process that keeps answers made from it knows when they may be out of date
    (:mod:`infrastructure.watcher`)."""
    return f"{schema}:{read_model}"[:63]


@functools.cache
def _notify_statement(schema: str, read_model: str) -> bytes:
    """The statement of :func:`notify_postgres`, rendered once per channel."""
    return rendered(SQL("NOTIFY {}").format(Identifier(changed_channel(schema, read_model))))


def notify_postgres(cursor: Any, schema: str, read_model: str) -> None:
    """NOTIFY the read model's channel in the open transaction of ``cursor``."""
    cursor.execute(_notify_statement(schema, read_model))


class PostgresTracked:
    """What every PostgreSQL read model shares: its position per log and its channel. A
    subclass sets ``datastore``, ``name`` and ``tracking_name``."""

    datastore: PostgresDatastore
    name: str
    tracking_name: str

    @property
    def channel(self) -> str:
        """The channel NOTIFYed when the read model changes or is rebuilt."""
        return changed_channel(self.datastore.schema, self.name)

    def max_tracking_id(self, application_name: str) -> int | None:
        """The last notification id of ``application_name``'s log applied."""
        with self.datastore.transaction(commit=False) as curs:
            return position_postgres(
                curs, self.datastore.schema, self.tracking_name, application_name
            )


class SQLiteTracked:
    """What every SQLite read model shares: its position per log. A subclass sets
    ``datastore`` and ``tracking_name``."""

    datastore: SQLiteDatastore
    tracking_name: str

    def max_tracking_id(self, application_name: str) -> int | None:
        """The last notification id of ``application_name``'s log applied."""
        with self.datastore.transaction(commit=False) as c:
            return position_sqlite(c, self.tracking_name, application_name)
