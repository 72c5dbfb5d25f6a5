"""The event store's save on PostgreSQL is one statement calling ``<table>_insert``
(infrastructure/pgrecorder.py): it must keep the library's contract — the ids of the rows in
order, all or nothing, a NOTIFY on the store's channel, and the table's lock that keeps
notification ids in commit order — and the schema's upgrade must make the function."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent
from psycopg import sql

from infrastructure import schema
from infrastructure.config import Settings
from infrastructure.container import Services, build_services
from infrastructure.pgrecorder import RenderedPostgresRecorder

pytestmark = pytest.mark.postgres


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


def test_a_save_that_meets_a_version_already_saved_saves_nothing(pg_services: Services) -> None:
    recorder = recorder_of(pg_services)
    game = uuid.uuid4()
    recorder.insert_events([event(game, 1)])
    with pytest.raises(IntegrityError):
        recorder.insert_events([event(game, 2), event(game, 1)])
    assert [e.originator_version for e in recorder.select_events(game)] == [1]
    assert recorder.insert_events([event(game, 2)])  # the connection is usable again


def test_a_save_notifies_the_stores_channel(pg_services: Services) -> None:
    recorder = recorder_of(pg_services)
    with connect(pg_services.settings) as listener:
        listener.execute(sql.SQL("LISTEN {}").format(sql.Identifier(recorder.channel_name)))
        recorder.insert_events([event(uuid.uuid4(), 1)])
        heard = list(listener.notifies(timeout=5, stop_after=1))
    assert [n.channel for n in heard] == [recorder.channel_name]


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
            deadline = time.monotonic() + 5
            waiting = 0
            while time.monotonic() < deadline and not waiting:
                found = holder.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                    "AND query LIKE %s",
                    (f"%{recorder.events_table_name}_insert%",),
                ).fetchone()
                waiting = int(found[0]) if found else 0
                time.sleep(0.05)
            assert waiting == 1
            assert saved == []
        saver.join(timeout=10)
    assert len(saved) == 1 and saved[0] > held


def test_the_upgrade_makes_the_insert_function(postgres_settings: Settings) -> None:
    """A store at the event store's version 2 (before the function) is brought to version 3
    by the upgrade, and saves again."""
    services = build_services(postgres_settings)
    try:
        recorder = recorder_of(services)
        function = sql.Identifier(
            postgres_settings.postgres.schema, f"{recorder.events_table_name}_insert"
        )
        version_table = sql.Identifier(postgres_settings.postgres.schema, schema.VERSION_TABLE)
        with connect(postgres_settings) as conn:
            conn.execute(
                sql.SQL("DROP FUNCTION {}(uuid[], bigint[], text[], bytea[])").format(function)
            )
            conn.execute(
                sql.SQL("UPDATE {} SET version = 2 WHERE component = 'events'").format(
                    version_table
                )
            )
        assert schema.versions(services.storage)["events"] == 2
        with pytest.raises(Exception, match="does not exist"):
            recorder.insert_events([event(uuid.uuid4(), 1)])
        done = schema.upgrade(services.storage)
        assert "events" in done.changed and done.versions["events"] == schema.EVENTS_VERSION == 3
        assert recorder.insert_events([event(uuid.uuid4(), 1)])
    finally:
        services.close()
