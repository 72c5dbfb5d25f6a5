"""The event store's PostgreSQL recorder with its statements written once, and a save sent in
one round trip (docs/performance.md, "Application"):

* the library's ``PostgresApplicationRecorder`` composes most of its SQL on every call
  (``psycopg.sql.Composed``), and psycopg converts a composed statement anew each time it is
  executed — about 50 µs per statement here, several statements per save and one per read of a
  game's events. This recorder renders each statement to bytes once, which psycopg converts
  once and remembers;
* the library's save waits for the answer to its INSERT before it sends the COMMIT, holding the
  table's lock across a round trip to the client, and sends five statements. This recorder's
  save is one statement: a call of the database function ``<table>_insert``, which sets the
  lock timeout for its transaction, takes the table's lock, NOTIFYs and inserts, in the
  implicit transaction of the call (the connections are in autocommit), so the lock is held
  only while the server inserts and commits, and the client waits on its socket once
  (psycopg's pipeline of the five statements cost the client some 250 µs of CPU a save against
  40 µs for one statement; docs/performance.md, "Where the processor's time goes"). The
  function is created by the schema's upgrade (the event store's version 4 on PostgreSQL,
  :mod:`infrastructure.schema`). A refused INSERT (another save came first) rolls the
  transaction back and is raised as the library's ``IntegrityError`` all the same;
* the library inserts an array of a composite type, which psycopg builds in Python, field by
  field; this recorder inserts four arrays of plain types (``unnest`` of ids, versions,
  topics, states), the same rows in the same order.

The lock's timeout (``SET LOCAL``), the lock, the NOTIFY and the INSERT, in that order, are the
library's own. A process of an earlier version saving through the five statements takes the
same lock, so the two can share a store (tests/integration/test_pg_save.py checks the save: its
ids in order, all or nothing, the NOTIFY, the lock and its timeout, the upgrade that makes the
function)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from eventsourcing.utils import retry
from psycopg.rows import DictRow
from psycopg.sql import SQL, Composable, Identifier

from infrastructure.pgsql import rendered


def stored_events(rows: list[DictRow]) -> list[StoredEvent]:
    """Rows of the events table as the library's stored events."""
    return [
        StoredEvent(
            originator_id=row["originator_id"],
            originator_version=row["originator_version"],
            topic=row["topic"],
            state=bytes(row["state"]),
        )
        for row in rows
    ]


class RenderedPostgresRecorder(PostgresApplicationRecorder):
    """The library's application recorder, its statements rendered once."""

    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str) -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        self._function = Identifier(datastore.schema, f"{events_table_name}_insert")
        self._insert = rendered(
            SQL(
                "SELECT inserted AS notification_id FROM "
                "{}(%s::uuid[], %s::bigint[], %s::text[], %s::bytea[], %s::text) AS inserted"
            ).format(self._function)
        )
        self._lock_wait = f"{max(1, int(datastore.lock_timeout))}s"
        """How long a save waits for the table's lock, set in its own transaction (the
        library's ``SET LOCAL lock_timeout``): a session setting does not follow a client
        from one server connection to the next behind a transaction-pooling PgBouncer."""
        self._select: dict[tuple[bool, bool, bool, bool], bytes] = {}
        self._by_topic = rendered(
            SQL(
                "SELECT originator_id, originator_version, topic, state FROM {}.{} "
                "WHERE originator_id = %s AND topic = ANY(%s) AND originator_version > %s "
                "AND originator_version <= %s ORDER BY originator_version LIMIT %s"
            ).format(Identifier(datastore.schema), Identifier(events_table_name))
        )

    def service_ddl(self) -> list[Composable]:
        """What this service adds to the library's tables: the index of a game's events by
        topic (docs/api.md, "Event log": ``?type=``) and the function a save calls."""
        table = Identifier(self.datastore.schema, self.events_table_name)
        return [
            SQL(
                "CREATE INDEX IF NOT EXISTS {} ON {} (originator_id, topic, originator_version)"
            ).format(Identifier(f"{self.events_table_name}_topic_idx"), table),
            # The first function (the event store's version 3) took no lock timeout.
            SQL("DROP FUNCTION IF EXISTS {}(uuid[], bigint[], text[], bytea[])").format(
                self._function
            ),
            SQL(
                "CREATE OR REPLACE FUNCTION {function}("
                "ids uuid[], versions bigint[], topics text[], states bytea[], lock_wait text) "
                "RETURNS SETOF bigint LANGUAGE plpgsql AS $body$ BEGIN "
                "PERFORM set_config('lock_timeout', lock_wait, true); "
                "LOCK TABLE {table} IN EXCLUSIVE MODE; "
                "NOTIFY {channel}; "
                "RETURN QUERY INSERT INTO {table} "
                "(originator_id, originator_version, topic, state) "
                "SELECT * FROM unnest(ids, versions, topics, states) "
                "RETURNING notification_id; "
                "END $body$"
            ).format(function=self._function, table=table, channel=Identifier(self.channel_name)),
        ]

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def select_by_topic(
        self, game_id: UUID, topics: Sequence[str], after: int, up_to: int, limit: int
    ) -> Sequence[StoredEvent]:
        """A game's events of ``topics`` after version ``after`` (to ``up_to``), at most
        ``limit``, through the topic index."""
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(self._by_topic, [game_id, list(topics), after, up_to, limit], prepare=True)
            return stored_events(curs.fetchall())

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        """The library's save — the table lock, the NOTIFY, the INSERT returning the
        notification ids — as one statement in its own transaction (the module's docstring)."""
        if not stored_events:
            return []
        columns = (
            [e.originator_id for e in stored_events],
            [e.originator_version for e in stored_events],
            [e.topic for e in stored_events],
            [e.state for e in stored_events],
            self._lock_wait,
        )
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(self._insert, columns, prepare=True)
            return [row["notification_id"] for row in curs.fetchall()]

    def _select_statement(self, gt: bool, lte: bool, desc: bool, limit: bool) -> bytes:
        key = (gt, lte, desc, limit)
        found = self._select.get(key)
        if found is None:
            statement = self.select_events_statement
            if gt:
                statement += SQL(" AND originator_version > %s")
            if lte:
                statement += SQL(" AND originator_version <= %s")
            statement += SQL(
                " ORDER BY originator_version DESC" if desc else " ORDER BY originator_version ASC"
            )
            if limit:
                statement += SQL(" LIMIT %s")
            found = self._select[key] = rendered(statement)
        return found

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def select_events(
        self,
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Sequence[StoredEvent]:
        """The library's ``select_events``, its statement rendered once per shape."""
        params: list[Any] = [originator_id]
        if gt is not None:
            params.append(gt)
        if lte is not None:
            params.append(lte)
        if limit is not None:
            params.append(limit)
        statement = self._select_statement(gt is not None, lte is not None, desc, limit is not None)
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(statement, params, prepare=True)
            return stored_events(curs.fetchall())
