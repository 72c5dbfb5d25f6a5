"""Rebuilding the read models from zero, atomically (docs/operations.md, "Read models").

Each read model is rebuilt into a new set of tables beside the live one (``games_list_rebuild``
and ``games_list_tracking_rebuild``), by the same projection that keeps the live one, from the
first event of every log; then, in one transaction, the new tables take the live ones' names
and the old ones are dropped. Until that transaction commits, readers and the followers of
running servers see and keep the old rows; if the rebuild fails at any point, the new tables
are dropped and the old rows stay as they were."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from eventsourcing.application import Application
from psycopg import sql

from infrastructure.follower import FollowedProjection, LogFollower
from infrastructure.storage import Storage
from infrastructure.watcher import LogWatcher

SUFFIX = "_rebuild"
RETIRED = "_retired"

ProjectionFactory = Callable[[Any], FollowedProjection]
"""Makes the projection of a read model writing into the given view."""


def rebuild_read_model(
    storage: Storage,
    name: str,
    logs: Sequence[Application[Any]],
    projection: ProjectionFactory,
    batch: int = 500,
) -> int:
    """Rebuild read model ``name`` from every event of ``logs`` (``batch`` events per
    transaction) and swap it in; the events applied. On failure the live tables are
    untouched."""
    shadow = storage.read_model(name, SUFFIX)
    _create_fresh(storage, shadow)
    try:
        follower = LogFollower(logs, projection(shadow), LogWatcher(interval=0.0), batch=batch)
        applied = follower.catch_up()
        follower.record_passed()
        _swap(storage, storage.read_model(name), shadow)
    except BaseException:
        _drop(storage, shadow)
        raise
    # What was saved between the rebuild's last read and the swap went to the old tables:
    # apply it to the new ones now (each batch over the position before it, so a running
    # follower that got there first is refused, never applied twice). Running followers also
    # notice the swap themselves (infrastructure/follower.py, LOOK_AGAIN).
    after = LogFollower(logs, projection(storage.read_model(name)), LogWatcher(interval=0.0))
    applied += after.catch_up()
    after.record_passed()
    return applied


def _create_fresh(storage: Storage, view: Any) -> None:
    """Empty new tables for ``view`` (any left by an interrupted rebuild are dropped)."""
    _drop(storage, view)
    if storage.postgres is not None:
        with storage.postgres.transaction(commit=True) as curs:
            for statement in view.ddl():
                curs.execute(statement)
        return
    with storage.sqlite_connection(view.name) as conn:
        for statement in view.ddl():
            conn.execute(statement)


def _drop(storage: Storage, view: Any) -> None:
    if storage.postgres is not None:
        schema = storage.postgres.schema
        with storage.postgres.transaction(commit=True) as curs:
            for table in view.tables():
                curs.execute(
                    sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(schema, table))
                )
        return
    with storage.sqlite_connection(view.name) as conn:
        for table in view.tables():
            conn.execute(f"DROP TABLE IF EXISTS {table}")


def _swap(storage: Storage, live: Any, shadow: Any) -> None:
    """In one transaction: each rebuilt table takes its live table's name (with its primary
    key's), the old table is dropped, the secondary indexes are made again."""
    pairs = list(zip(live.tables(), shadow.tables(), strict=True))
    if storage.postgres is not None:
        schema = storage.postgres.schema
        with storage.postgres.transaction(commit=True) as curs:
            curs.execute(
                sql.SQL("SET LOCAL lock_timeout = {}").format(
                    sql.Literal(f"{max(1, storage.postgres.lock_timeout)}s")
                )
            )
            for table, rebuilt in pairs:
                retired = f"{table}{RETIRED}"
                curs.execute(
                    sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(schema, retired))
                )
                curs.execute(
                    sql.SQL("ALTER TABLE IF EXISTS {} RENAME TO {}").format(
                        sql.Identifier(schema, table), sql.Identifier(retired)
                    )
                )
                curs.execute(
                    sql.SQL("ALTER TABLE {} RENAME TO {}").format(
                        sql.Identifier(schema, rebuilt), sql.Identifier(table)
                    )
                )
                curs.execute(
                    sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(schema, retired))
                )
                curs.execute(
                    sql.SQL("ALTER INDEX {} RENAME TO {}").format(
                        sql.Identifier(schema, f"{rebuilt}_pkey"), sql.Identifier(f"{table}_pkey")
                    )
                )
            for statement in live.index_ddl():
                curs.execute(statement)
            # Answers a process keeps from the old rows are out of date now.
            curs.execute(sql.SQL("NOTIFY {}").format(sql.Identifier(live.channel)))
        return
    with storage.sqlite_connection(live.name) as conn:
        conn.execute("BEGIN IMMEDIATE")
        try:
            for table, rebuilt in pairs:
                retired = f"{table}{RETIRED}"
                conn.execute(f"DROP TABLE IF EXISTS {retired}")
                conn.execute(f"ALTER TABLE {table} RENAME TO {retired}")
                conn.execute(f"ALTER TABLE {rebuilt} RENAME TO {table}")
                conn.execute(f"DROP TABLE {retired}")
            for statement in live.index_ddl():
                conn.execute(statement)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
