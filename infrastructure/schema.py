"""The store's schema as one explicit step (docs/operations.md, "Schema"): every table and
index of the event store and of the read models, created or migrated by :func:`upgrade`,
which ``gameledger db upgrade`` runs, and which servers and runners run when they start
unless ``GAMELEDGER_AUTO_UPGRADE=no`` (then they only :func:`require_current`).

Safe to run by many processes at once: on PostgreSQL every change is made in one
transaction that first takes a transaction-level advisory lock (so it also works through a
transaction-pooling PgBouncer) and then re-reads the schema's version; on SQLite each file is
changed inside ``BEGIN IMMEDIATE``, which admits one writer. A process that finds the schema
current (the usual case) takes no lock and runs no DDL at all, so servers and runners never
race on DDL. The version of each part is kept in the table ``gameledger_schema``."""

from __future__ import annotations

import contextlib
import sqlite3
from dataclasses import dataclass
from typing import Any

import psycopg
import psycopg.errors
from psycopg import sql

from infrastructure.config import ConfigurationError
from infrastructure.readmodels.rows import SCHEMA_VERSION as GAMES_LIST_VERSION
from infrastructure.storage import READ_MODELS, Storage

VERSIONS: dict[str, int] = {
    "events": 2,
    "games_list": GAMES_LIST_VERSION,
    "turns": 1,
    "records": 1,
}
"""The schema version of each part that this code needs. Version 1 of a read model keeps its
tracking position in ``<read model>_tracking`` (on SQLite earlier versions kept it in the
library's ``tracking`` table, which the upgrade moves over). A read model whose shape changed
(its view's ``recreate_below``; the games list at version 2) is made anew by the upgrade and
filled again from the log by its follower (docs/operations.md, "Schema"). Version 2 of the
events adds the index of each game's events by topic (the event log's ``?type=``). The
``records`` part keeps finished games' records (:mod:`infrastructure.readmodels.records`)."""

LEGACY_SQLITE_TRACKING = "tracking"
VERSION_TABLE = "gameledger_schema"


@dataclass(frozen=True)
class Upgrade:
    """What :func:`upgrade` found and did: each part's version before, and the parts changed."""

    before: dict[str, int]
    changed: list[str]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready, for the CLI."""
        return {"before": self.before, "changed": self.changed, "versions": dict(VERSIONS)}


def upgrade(storage: Storage) -> Upgrade:
    """Bring every table and index of the store up to :data:`VERSIONS`; idempotent and safe
    to run concurrently."""
    if storage.postgres is not None:
        return _upgrade_postgres(storage)
    return _upgrade_sqlite(storage)


def versions(storage: Storage) -> dict[str, int]:
    """Each part's schema version as the store records it (0: absent)."""
    if storage.postgres is not None:
        with storage.postgres.get_connection() as conn:
            return _postgres_versions(conn, storage.postgres.schema)
    found: dict[str, int] = {}
    for part, file_part in _sqlite_parts():
        if storage.kind == "memory" and part == "events":
            found[part] = VERSIONS[part]  # the library's in-memory recorders need no tables
            continue
        with storage.sqlite_connection(file_part) as conn:
            found[part] = _sqlite_versions(conn).get(part, 0)
    return found


def require_current(storage: Storage) -> None:
    """Refuse a store whose schema is missing or behind this code's, saying what to run."""
    found = versions(storage)
    behind = {
        part: found.get(part, 0) for part, need in VERSIONS.items() if found.get(part, 0) < need
    }
    if not behind:
        return
    where = (
        storage.settings.sqlite_path
        if storage.kind == "sqlite"
        else storage.settings.postgres.dbname
    )
    if all(version == 0 for version in behind.values()) and not found.get("events"):
        raise ConfigurationError(
            f"{where} holds no GameLedger store; create it with `gameledger db upgrade` "
            '(docs/operations.md, "Schema")'
        )
    parts = ", ".join(f"{part} {version} < {VERSIONS[part]}" for part, version in behind.items())
    raise ConfigurationError(
        f"the schema of {where} is behind this version of GameLedger ({parts}); "
        'run `gameledger db upgrade` (docs/operations.md, "Schema")'
    )


# PostgreSQL


def _postgres_versions(conn: psycopg.Connection[Any], schema: str) -> dict[str, int]:
    found = conn.execute("SELECT to_regclass(%s) AS t", (f"{schema}.{VERSION_TABLE}",)).fetchone()
    if not found or found["t"] is None:
        return {}
    rows = conn.execute(
        sql.SQL("SELECT component, version FROM {}").format(sql.Identifier(schema, VERSION_TABLE))
    ).fetchall()
    return {row["component"]: int(row["version"]) for row in rows}


def _upgrade_postgres(storage: Storage) -> Upgrade:
    datastore = storage.postgres
    assert datastore is not None
    schema = datastore.schema
    with datastore.get_connection() as conn:
        before = _postgres_versions(conn, schema)
        if all(before.get(part, 0) >= need for part, need in VERSIONS.items()):
            return Upgrade(before, [])
        with conn.transaction():
            conn.execute(
                sql.SQL("SET LOCAL lock_timeout = {}").format(
                    sql.Literal(f"{max(1, datastore.lock_timeout)}s")
                )
            )
            conn.execute(
                "SELECT pg_advisory_xact_lock(hashtext(%s))", (f"gameledger schema {schema}",)
            )
            conn.execute(
                sql.SQL(
                    "CREATE TABLE IF NOT EXISTS {} (component text PRIMARY KEY, "
                    "version integer NOT NULL)"
                ).format(sql.Identifier(schema, VERSION_TABLE))
            )
            current = _postgres_versions(conn, schema)
            changed: list[str] = []
            for part, need in VERSIONS.items():
                if current.get(part, 0) >= need:
                    continue
                for statement in _postgres_ddl(storage, part, current.get(part, 0)):
                    if statement.as_string().startswith("CREATE TYPE"):
                        # PostgreSQL has no CREATE TYPE IF NOT EXISTS: a savepoint keeps
                        # the transaction alive when the type is there already.
                        with (
                            contextlib.suppress(psycopg.errors.DuplicateObject),
                            conn.transaction(),
                        ):
                            conn.execute(statement)
                    else:
                        conn.execute(statement)
                conn.execute(
                    sql.SQL(
                        "INSERT INTO {} VALUES (%s, %s) ON CONFLICT (component) "
                        "DO UPDATE SET version = EXCLUDED.version"
                    ).format(sql.Identifier(schema, VERSION_TABLE)),
                    (part, need),
                )
                changed.append(part)
    datastore.register_type_adapters()  # the events' composite type, now that it exists
    return Upgrade(before, changed)


def _postgres_ddl(storage: Storage, part: str, version: int) -> list[Any]:
    """The statements creating one part on PostgreSQL: the library's own for the events (its
    composite type, tables and indexes; not its optional database functions, which this
    service does not use), each read model's tables and indexes."""
    if part == "events":
        statements: list[Any] = []
        for recorder in (storage.recorders.events, storage.recorders.snapshots):
            for statement in recorder.sql_create_statements:  # type: ignore[attr-defined]
                if not statement.as_string().startswith("CREATE OR REPLACE FUNCTION"):
                    statements.append(statement)
        return [*statements, *storage.recorders.topic_index]
    if part == "records":
        return list(storage.record_store().ddl())
    view = storage.read_model(part)
    schema = storage.settings.postgres.schema
    drop = [
        sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(schema, table))
        for table in view.tables()
        if version < view.recreate_below
    ]
    return [*drop, *view.ddl(), *view.index_ddl()]


# SQLite (and the in-memory store's read models)


def _sqlite_parts() -> list[tuple[str, str]]:
    """Each part and the file it lives in (``""``: the event store's own file)."""
    return [("events", ""), *((name, name) for name in READ_MODELS), ("records", "records")]


def _sqlite_versions(conn: sqlite3.Connection) -> dict[str, int]:
    found = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?", (VERSION_TABLE,)
    ).fetchone()
    if found is None:
        return {}
    return {
        part: int(version)
        for part, version in conn.execute(f"SELECT component, version FROM {VERSION_TABLE}")
    }


def _upgrade_sqlite(storage: Storage) -> Upgrade:
    before: dict[str, int] = {}
    changed: list[str] = []
    for part, file_part in _sqlite_parts():
        if storage.kind == "memory" and part == "events":
            before[part] = VERSIONS[part]  # the library's in-memory recorders need no tables
            continue
        with storage.sqlite_connection(file_part) as conn:
            before[part] = _sqlite_versions(conn).get(part, 0)
            if before[part] >= VERSIONS[part]:
                continue
            conn.execute("BEGIN IMMEDIATE")
            try:
                found = _sqlite_versions(conn).get(part, 0)
                if found < VERSIONS[part]:
                    _sqlite_create(conn, storage, part, found)
                    changed.append(part)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
    return Upgrade(before, changed)


def _sqlite_create(conn: sqlite3.Connection, storage: Storage, part: str, version: int) -> None:
    conn.execute(
        f"CREATE TABLE IF NOT EXISTS {VERSION_TABLE} (component TEXT PRIMARY KEY, "
        "version INTEGER NOT NULL)"
    )
    if part == "events":
        for recorder in (storage.recorders.events, storage.recorders.snapshots):
            for statement in recorder.create_table_statements:  # type: ignore[attr-defined]
                conn.execute(statement)
        for statement in storage.recorders.topic_index:
            conn.execute(statement)
    elif part == "records":
        for statement in storage.record_store().ddl():
            conn.execute(statement)
    else:
        view = storage.read_model(part)
        if version < view.recreate_below:
            for table in [*view.tables(), LEGACY_SQLITE_TRACKING]:
                conn.execute(f"DROP TABLE IF EXISTS {table}")
        for statement in [*view.ddl(), *view.index_ddl()]:
            conn.execute(statement)
        _move_legacy_tracking(conn, view.tracking_name)
    conn.execute(
        f"INSERT INTO {VERSION_TABLE} VALUES (?, ?) ON CONFLICT (component) "
        "DO UPDATE SET version = excluded.version",
        (part, VERSIONS[part]),
    )


def _move_legacy_tracking(conn: sqlite3.Connection, table: str) -> None:
    """Earlier versions kept a SQLite read model's position in the library's ``tracking``
    table of its file: move it into the read model's own tracking table."""
    found = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?",
        (LEGACY_SQLITE_TRACKING,),
    ).fetchone()
    if found is None:
        return
    conn.execute(
        f"INSERT OR IGNORE INTO {table} SELECT application_name, MAX(notification_id) "
        f"FROM {LEGACY_SQLITE_TRACKING} WHERE application_name != '__migration__' "
        "GROUP BY application_name"
    )
    conn.execute(f"DROP TABLE {LEGACY_SQLITE_TRACKING}")
