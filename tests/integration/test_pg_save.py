"""The event store's save on PostgreSQL is one statement calling ``<table>_insert``
(infrastructure/pgrecorder.py): it must keep the library's contract — the ids of the rows in
order, all or nothing, a NOTIFY on the store's channel, and the table's lock that keeps
notification ids in commit order — and the schema's upgrade must make the function."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import psycopg
import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent
from psycopg import sql

from infrastructure import schema
from infrastructure.config import Settings
from infrastructure.container import Services, build_services
from infrastructure.pgrecorder import RenderedPostgresRecorder


@pytest.fixture
def pg_services(postgres_settings: Settings) -> Iterator[Services]:
    """The service on a fresh PostgreSQL schema."""
    built = build_services(postgres_settings)
    yield built
    built.close()


def recorder_of(services: Services) -> RenderedPostgresRecorder:
    """The first part's events recorder."""
    found = services.app.stores[0].recorder
    assert isinstance(found, RenderedPostgresRecorder)
    return found


def connect(settings: Settings) -> psycopg.Connection[tuple[object, ...]]:
    """A connection of its own to the test database, in autocommit."""
    pg = settings.postgres
    return psycopg.connect(
        dbname=pg.dbname, host=pg.host, port=pg.port, user=pg.user, password=pg.password,
        autocommit=True,
    )  # fmt: skip


def event(originator: uuid.UUID, version: int) -> StoredEvent:
    """A stored event of ``originator`` at ``version``."""
    return StoredEvent(originator, version, "tests:Saved", f'{{"v": {version}}}'.encode())


@pytest.mark.postgres
def test_a_save_returns_its_rows_ids_in_order_and_the_log_holds_them(
    pg_services: Services,
) -> None:
    recorder = recorder_of(pg_services)
    first, second = uuid.uuid4(), uuid.uuid4()
    ids = recorder.insert_events([event(first, 1), event(first, 2), event(second, 1)])
    assert ids is not None and len(ids) == 3 and list(ids) == sorted(ids)
    later = recorder.insert_events([event(first, 3)])
    assert later is not None and later[0] > ids[-1]
    logged = recorder.select_notifications(ids[0], 10)
    assert [(n.id, n.originator_id, n.originator_version) for n in logged] == [
        (ids[0], first, 1),
        (ids[1], first, 2),
        (ids[2], second, 1),
        (later[0], first, 3),
    ]
    assert logged[1].state == b'{"v": 2}' and logged[1].topic == "tests:Saved"


@pytest.mark.postgres
def test_a_save_that_meets_a_version_already_saved_saves_nothing(pg_services: Services) -> None:
    recorder = recorder_of(pg_services)
    game = uuid.uuid4()
    recorder.insert_events([event(game, 1)])
    with pytest.raises(IntegrityError):
        recorder.insert_events([event(game, 2), event(game, 1)])
    assert [e.originator_version for e in recorder.select_events(game)] == [1]
    assert recorder.insert_events([event(game, 2)])  # the connection is usable again


@pytest.mark.postgres
def test_a_save_notifies_the_stores_channel(pg_services: Services) -> None:
    recorder = recorder_of(pg_services)
    with connect(pg_services.settings) as listener:
        listener.execute(sql.SQL("LISTEN {}").format(sql.Identifier(recorder.channel_name)))
        recorder.insert_events([event(uuid.uuid4(), 1)])
        heard = list(listener.notifies(timeout=5, stop_after=1))
    assert [n.channel for n in heard] == [recorder.channel_name]


@pytest.mark.postgres
def test_a_save_takes_the_tables_lock(pg_services: Services) -> None:
    """An insert not yet committed by another writer holds the save back until it commits
    (the save's ``LOCK TABLE … IN EXCLUSIVE MODE`` waits for it, where a plain INSERT would
    not): notification ids stay in commit order, and a follower reading the log never skips
    a row committed after one it has read."""
    recorder = recorder_of(pg_services)
    table = sql.Identifier(pg_services.settings.postgres.schema, recorder.events_table_name)
    saved: list[int] = []
    with connect(pg_services.settings) as holder:
        with holder.transaction():
            row = holder.execute(
                sql.SQL(
                    "INSERT INTO {} (originator_id, originator_version, topic, state) "
                    "VALUES (%s, 1, 'tests:Saved', '{{}}') RETURNING notification_id"
                ).format(table),
                (uuid.uuid4(),),
            ).fetchone()
            assert row is not None
            held = int(row[0])
            saver = threading.Thread(
                target=lambda: saved.extend(recorder.insert_events([event(uuid.uuid4(), 1)]) or [])
            )
            saver.start()
            assert saves_waiting_for_a_lock(pg_services.settings, recorder) == 1
            assert saved == []
        saver.join(timeout=10)
    assert len(saved) == 1 and saved[0] > held


def saves_waiting_for_a_lock(settings: Settings, recorder: RenderedPostgresRecorder) -> int:
    """How many saves wait for a lock, once one does or 5 s have passed: looked at from a
    connection of its own, each look its own transaction (the statistics views are one
    snapshot per transaction)."""
    deadline = time.monotonic() + 5
    with connect(settings) as looker:
        while True:
            found = looker.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND query LIKE %s",
                (f"%{recorder.events_table_name}_insert%",),
            ).fetchone()
            waiting = int(found[0]) if found else 0
            if waiting or time.monotonic() > deadline:
                return waiting
            time.sleep(0.05)


@pytest.mark.postgres
def test_a_save_gives_up_on_the_lock_after_its_own_timeout(postgres_settings: Settings) -> None:
    """The save sets its lock timeout in its own transaction: even on a connection whose
    session has none (behind a transaction-pooling PgBouncer the session's setting stays with
    a server connection that is then recycled), it gives up instead of waiting for ever."""
    settings = replace(
        postgres_settings, postgres=replace(postgres_settings.postgres, lock_timeout=1)
    )
    services = build_services(settings)
    try:
        recorder = recorder_of(services)
        datastore = services.storage.postgres
        assert datastore is not None
        table = sql.Identifier(settings.postgres.schema, recorder.events_table_name)
        with connect(settings) as holder, holder.transaction():
            holder.execute(sql.SQL("LOCK TABLE {} IN EXCLUSIVE MODE").format(table))
            with datastore.get_connection() as conn:
                conn.execute("SET lock_timeout = 0")  # as a recycled pooled connection has
                conn.execute("SET statement_timeout = '10s'")  # fail, not hang, without it
                started = time.monotonic()
                wait = recorder._lock_wait  # what the save sends
                assert wait == "1s"
                with pytest.raises(psycopg.errors.LockNotAvailable):
                    conn.execute(
                        recorder._insert,  # the save's own statement
                        ([uuid.uuid4()], [1], ["tests:Saved"], [b"{}"], wait),
                    )
                assert 0.9 < time.monotonic() - started < 5
                conn.execute("RESET statement_timeout")
    finally:
        services.close()


FIRST_FUNCTION = (
    "CREATE FUNCTION {function}(ids uuid[], versions bigint[], topics text[], states bytea[]) "
    "RETURNS SETOF bigint LANGUAGE plpgsql AS $body$ BEGIN "
    "LOCK TABLE {table} IN EXCLUSIVE MODE; "
    "RETURN QUERY INSERT INTO {table} (originator_id, originator_version, topic, state) "
    "SELECT * FROM unnest(ids, versions, topics, states) RETURNING notification_id; "
    "END $body$"
)
"""The function as the event store's version 3 made it (no lock timeout)."""


@pytest.mark.postgres
@pytest.mark.parametrize("version", [2, 3])
def test_the_upgrade_makes_the_insert_function(postgres_settings: Settings, version: int) -> None:
    """A store at the event store's version 2 (no function) or 3 (the function without the
    lock's timeout) is brought to version 4 by the upgrade, and saves again."""
    services = build_services(postgres_settings)
    try:
        recorder = recorder_of(services)
        pg_schema = postgres_settings.postgres.schema
        function = sql.Identifier(pg_schema, f"{recorder.events_table_name}_insert")
        table = sql.Identifier(pg_schema, recorder.events_table_name)
        with connect(postgres_settings) as conn:
            conn.execute(
                sql.SQL("DROP FUNCTION {}(uuid[], bigint[], text[], bytea[], text)").format(
                    function
                )
            )
            if version == 3:
                conn.execute(sql.SQL(FIRST_FUNCTION).format(function=function, table=table))
            conn.execute(
                sql.SQL("UPDATE {} SET version = %s WHERE component = 'events'").format(
                    sql.Identifier(pg_schema, schema.VERSION_TABLE)
                ),
                (version,),
            )
        assert schema.versions(services.storage)["events"] == version
        with pytest.raises(Exception, match="does not exist"):
            recorder.insert_events([event(uuid.uuid4(), 1)])
        done = schema.upgrade(services.storage)
        assert "events" in done.changed and done.versions["events"] == schema.EVENTS_VERSION == 4
        assert recorder.insert_events([event(uuid.uuid4(), 1)])
        with connect(postgres_settings) as conn:
            kept = conn.execute(
                "SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
                "WHERE n.nspname = %s AND p.proname = %s",
                (pg_schema, f"{recorder.events_table_name}_insert"),
            ).fetchone()
        assert kept is not None and kept[0] == 1  # the first function is gone
    finally:
        services.close()


def test_sqlite_needs_no_upgrade_for_the_postgresql_function(tmp_path: Path) -> None:
    """The event store's versions 3 and 4 change nothing on SQLite: a store made there at
    version 2 is current."""
    services = build_services(Settings(store="sqlite", sqlite_path=tmp_path / "games.db"))
    try:
        assert schema.needed(services.storage)["events"] == 2
        assert schema.versions(services.storage)["events"] == 2
        schema.require_current(services.storage)
    finally:
        services.close()


@pytest.mark.postgres
def test_unprepared_connections_prepare_nothing(postgres_settings: Settings) -> None:
    """With ``GAMELEDGER_POSTGRES_PREPARED=no`` (a transaction-pooling PgBouncer before 1.21)
    no statement is prepared on the server: not a save's, nor what psycopg prepares of itself
    (``executemany`` of more than five rows, as the transparency log's appends)."""
    settings = replace(
        postgres_settings, postgres=replace(postgres_settings.postgres, prepared=False)
    )
    services = build_services(settings)
    try:
        datastore = services.storage.postgres
        assert datastore is not None
        with datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute("CREATE TEMPORARY TABLE rows_of_six (n integer)")
            curs.executemany(b"INSERT INTO rows_of_six VALUES (%s)", [(n,) for n in range(6)])
            for _ in range(6):
                curs.execute(b"SELECT count(*) FROM rows_of_six", prepare=True)
            curs.execute("SELECT count(*) AS n FROM pg_prepared_statements")
            prepared = curs.fetchone()
        assert prepared is not None and prepared["n"] == 0
        assert recorder_of(services).insert_events([event(uuid.uuid4(), 1)])
    finally:
        services.close()
