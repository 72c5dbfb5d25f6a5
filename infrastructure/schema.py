"""The store's schema as one explicit step (docs/operations.md, "Schema"): every table and
index of the event store (each of its parts, :mod:`application.shards`) and of the read
models, created or migrated by :func:`upgrade`, which ``gameledger db upgrade`` runs, and which
servers and runners run when they start unless ``GAMELEDGER_AUTO_UPGRADE=no`` (then they only
:func:`require_current`).

Safe to run by many processes at once: on PostgreSQL the changes to each database are made in
one transaction that first takes a transaction-level advisory lock (so it also works through a
transaction-pooling PgBouncer) and then re-reads the schema's versions; on SQLite each file is
changed inside ``BEGIN IMMEDIATE``, which admits one writer. A process that finds the schema
current (the usual case) takes no lock and runs no DDL at all, so servers and runners never
race on DDL. The version of each part is kept in the table ``gameledger_schema`` of the
database (or file) that holds it."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import psycopg
import psycopg.errors
from eventsourcing.postgres import PostgresDatastore
from psycopg import sql

from application.shards import store_name
from infrastructure.config import ConfigurationError
from infrastructure.idempotency import PART, idempotency_store
from infrastructure.readmodels.clock_rows import SCHEMA_VERSION as CLOCKS_VERSION
from infrastructure.readmodels.rows import SCHEMA_VERSION as GAMES_LIST_VERSION
from infrastructure.readmodels.sqlite_tournaments import SCHEMA_VERSION as TOURNAMENTS_VERSION
from infrastructure.storage import Storage

TLOG = "tlog"

EVENTS_VERSION = 4
"""Version 2 of a part of the event store adds the index of each game's events by topic (the
event log's ``?type=``). On PostgreSQL, version 3 adds the function ``<table>_insert`` that a
save calls (:mod:`infrastructure.pgrecorder`: the lock, the NOTIFY and the INSERT in one
statement), and version 4 gives it the lock's timeout to set in its own transaction. Neither
changes anything on SQLite, whose parts need version 2 (:data:`SQLITE_EVENTS_VERSION`): a
store made there by an earlier version is not refused for want of an upgrade that does
nothing."""
SQLITE_EVENTS_VERSION = 2
READ_MODEL_VERSIONS = {
    "games_list": GAMES_LIST_VERSION,
    "turns": 1,
    "clocks": CLOCKS_VERSION,
    "tournaments": TOURNAMENTS_VERSION,
    "tournament_results": 1,
    "records": 1,
    PART: 1,
    TLOG: 1,
}
"""Version 1 of a read model keeps its tracking position in ``<read model>_tracking`` (on
SQLite earlier versions kept it in the library's ``tracking`` table, which the upgrade moves
over). A read model whose shape changed (its view's ``recreate_below``; the games list at
version 2) is made anew by the upgrade and filled again from the log by its follower. The
``records`` part keeps finished games' records (:mod:`infrastructure.readmodels.records`), the
``idempotency`` part the answers kept for ``Idempotency-Key``
(:mod:`infrastructure.idempotency`), the ``tlog`` part the transparency log
(:mod:`infrastructure.tlog_tables`: not a read model, never rebuilt nor dropped). The
``clocks`` read model keeps when each running game's clock runs out, for the clock scheduler
(docs/operations.md, "Clocks"); at version 2 (:mod:`infrastructure.readmodels.clock_rows`)
games whose undo request waits have their rows, and an earlier one is made anew. The
``tournaments`` read model keeps each tournament's summary, public document and ratings
(docs/tournaments.md, "Standings and ratings read model"); ``tournament_results`` is the
results manager's position (application/tournament_results.py: not a read model, never
rebuilt)."""

KEPT_PARTS = ("records", PART, TLOG)
"""The parts that are not read models: created by their store's own statements."""

SHARDS = "shards"
"""The row of the first part's version table that counts the parts the store has had: a store
is never opened with fewer (their games would be lost from sight)."""

LEGACY_SQLITE_TRACKING = "tracking"
VERSION_TABLE = "gameledger_schema"


@dataclass(frozen=True)
class Part:
    """A part of the schema: its name in ``gameledger_schema``, the version this code needs,
    and where it lives (a PostgreSQL database, or an SQLite file: ``file``)."""

    name: str
    version: int
    file: str
    shard: int | None = None


def parts(storage: Storage) -> list[Part]:
    """Every part of the store's schema."""
    events_version = EVENTS_VERSION if storage.kind == "postgres" else SQLITE_EVENTS_VERSION
    events = [
        Part("events" if shard == 0 else f"events_{store_name(shard)}", events_version,
             storage.shard_file(shard), shard)
        for shard in range(storage.settings.shards)
    ]  # fmt: skip
    models = [Part(name, version, name) for name, version in READ_MODEL_VERSIONS.items()]
    return [*events, *models]


def needed(storage: Storage) -> dict[str, int]:
    """The version of each part this code needs."""
    return {part.name: part.version for part in parts(storage)}


@dataclass(frozen=True)
class Upgrade:
    """What :func:`upgrade` found and did: each part's version before, and the parts changed."""

    before: dict[str, int]
    changed: list[str]
    versions: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready, for the CLI."""
        return {"before": self.before, "changed": self.changed, "versions": self.versions}


def upgrade(storage: Storage) -> Upgrade:
    """Bring every table and index of the store up to the versions this code needs;
    idempotent and safe to run concurrently."""
    check_shards(storage)
    before: dict[str, int] = {}
    changed: list[str] = []
    if storage.kind == "postgres":
        for datastore, located in _by_database(storage):
            found, made = _upgrade_postgres(storage, datastore, located)
            before |= found
            changed += made
    else:
        for part in parts(storage):
            if storage.kind == "memory" and part.shard is not None:
                before[part.name] = part.version  # in-memory recorders need no tables
                continue
            version, made = _upgrade_sqlite(storage, part)
            before[part.name] = version
            changed += made
    _record_shards(storage)
    return Upgrade(before, changed, needed(storage))


def versions(storage: Storage) -> dict[str, int]:
    """Each part's schema version as the store records it (0: absent)."""
    found: dict[str, int] = {}
    if storage.kind == "postgres":
        for datastore, located in _by_database(storage):
            with datastore.get_connection() as conn:
                recorded = _postgres_versions(conn, datastore.schema)
            found |= {part.name: recorded.get(part.name, 0) for part in located}
        return found
    for part in parts(storage):
        if storage.kind == "memory" and part.shard is not None:
            found[part.name] = part.version
            continue
        with storage.sqlite_connection(part.file) as conn:
            found[part.name] = _sqlite_versions(conn).get(part.name, 0)
    return found


def require_current(storage: Storage) -> None:
    """Refuse a store whose schema is missing or behind this code's, saying what to run."""
    check_shards(storage)
    found = versions(storage)
    need = needed(storage)
    behind = {part: found.get(part, 0) for part in need if found.get(part, 0) < need[part]}
    if not behind:
        return
    where = (
        storage.settings.sqlite_path
        if storage.kind == "sqlite"
        else storage.settings.postgres.dbname
    )
    if not found.get("events"):
        raise ConfigurationError(
            f"{where} holds no GameLedger store; create it with `gameledger db upgrade` "
            '(docs/operations.md, "Schema")'
        )
    listed = ", ".join(
        f"{part} {version} < {needed(storage)[part]}" for part, version in behind.items()
    )
    raise ConfigurationError(
        f"the schema of {where} is behind this version of GameLedger ({listed}); "
        'run `gameledger db upgrade` (docs/operations.md, "Schema")'
    )


def check_shards(storage: Storage) -> None:
    """Refuse to open a store with fewer parts than it has had (docs/operations.md,
    "Shards")."""
    had = _recorded_shards(storage)
    if had > storage.settings.shards:
        raise ConfigurationError(
            f"the store has {had} parts (shards) and GAMELEDGER_SHARDS is "
            f"{storage.settings.shards}: set it to {had} or more; the games of a part are "
            "found only while the store has that part"
        )


def _recorded_shards(storage: Storage) -> int:
    if storage.kind == "memory":
        return 0
    if storage.kind == "postgres":
        assert storage.postgres is not None
        with storage.postgres.get_connection() as conn:
            return _postgres_versions(conn, storage.postgres.schema).get(SHARDS, 0)
    with storage.sqlite_connection("") as conn:
        return _sqlite_versions(conn).get(SHARDS, 0)


def _record_shards(storage: Storage) -> None:
    """Remember how many parts the store has (the most it has had)."""
    count = storage.settings.shards
    if storage.kind == "memory" or _recorded_shards(storage) >= count:
        return
    if storage.kind == "postgres":
        assert storage.postgres is not None
        with storage.postgres.transaction(commit=True) as curs:
            curs.execute(_postgres_set_version(storage.postgres.schema), (SHARDS, count))
        return
    with storage.sqlite_connection("") as conn:
        conn.execute(_SQLITE_SET_VERSION, (SHARDS, count))


# PostgreSQL


def _by_database(storage: Storage) -> Iterator[tuple[PostgresDatastore, list[Part]]]:
    """The parts of the schema grouped by the PostgreSQL database that holds them."""
    assert storage.postgres is not None
    groups: dict[int, tuple[PostgresDatastore, list[Part]]] = {}
    for part in parts(storage):
        datastore = storage.postgres if part.shard is None else storage.shard_datastore(part.shard)
        groups.setdefault(id(datastore), (datastore, []))[1].append(part)
    yield from groups.values()


def _postgres_versions(conn: psycopg.Connection[Any], schema: str) -> dict[str, int]:
    found = conn.execute("SELECT to_regclass(%s) AS t", (f"{schema}.{VERSION_TABLE}",)).fetchone()
    if not found or found["t"] is None:
        return {}
    rows = conn.execute(
        sql.SQL("SELECT component, version FROM {}").format(sql.Identifier(schema, VERSION_TABLE))
    ).fetchall()
    return {row["component"]: int(row["version"]) for row in rows}


def _postgres_set_version(schema: str) -> sql.Composed:
    return sql.SQL(
        "INSERT INTO {} VALUES (%s, %s) ON CONFLICT (component) "
        "DO UPDATE SET version = EXCLUDED.version"
    ).format(sql.Identifier(schema, VERSION_TABLE))


def _upgrade_postgres(
    storage: Storage, datastore: PostgresDatastore, located: list[Part]
) -> tuple[dict[str, int], list[str]]:
    schema = datastore.schema
    with datastore.get_connection() as conn:
        recorded = _postgres_versions(conn, schema)
        before = {part.name: recorded.get(part.name, 0) for part in located}
        if all(before[part.name] >= part.version for part in located):
            return before, []
        changed: list[str] = []
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
            for part in located:
                if current.get(part.name, 0) >= part.version:
                    continue
                for statement in _postgres_ddl(storage, part, current.get(part.name, 0)):
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
                conn.execute(_postgres_set_version(schema), (part.name, part.version))
                changed.append(part.name)
    datastore.register_type_adapters()  # the events' composite type, now that it exists
    return before, changed


def _postgres_ddl(storage: Storage, part: Part, version: int) -> list[Any]:
    """The statements creating one part on PostgreSQL: the library's own for a part of the
    event store (its composite type, tables and indexes; not its optional database
    functions, whose insert skips the table's lock) and the service's own (the topic index,
    the insert function that keeps the lock); each read model's tables and indexes."""
    if part.shard is not None:
        recorders = storage.shards[part.shard]
        statements: list[Any] = []
        for recorder in (recorders.events, recorders.snapshots):
            for statement in recorder.sql_create_statements:  # type: ignore[attr-defined]
                if not statement.as_string().startswith("CREATE OR REPLACE FUNCTION"):
                    statements.append(statement)
        return [*statements, *recorders.service_ddl]
    if part.name in KEPT_PARTS:
        return list(_kept_store(storage, part.name).ddl())
    view = storage.read_model(part.name)
    schema = storage.settings.postgres.schema
    drop = [
        sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(schema, table))
        for table in view.tables()
        if version < view.recreate_below
    ]
    return [*drop, *view.ddl(), *view.index_ddl()]


# SQLite (and the in-memory store's read models)

_SQLITE_SET_VERSION = (
    f"INSERT INTO {VERSION_TABLE} VALUES (?, ?) ON CONFLICT (component) "
    "DO UPDATE SET version = excluded.version"
)


def _sqlite_versions(conn: sqlite3.Connection) -> dict[str, int]:
    found = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?", (VERSION_TABLE,)
    ).fetchone()
    if found is None:
        return {}
    rows = conn.execute(f"SELECT component, version FROM {VERSION_TABLE}")
    return {part: int(version) for part, version in rows}


def _upgrade_sqlite(storage: Storage, part: Part) -> tuple[int, list[str]]:
    with storage.sqlite_connection(part.file) as conn:
        before = _sqlite_versions(conn).get(part.name, 0)
        if before >= part.version:
            return before, []
        conn.execute("BEGIN IMMEDIATE")
        try:
            found = _sqlite_versions(conn).get(part.name, 0)
            made = []
            if found < part.version:
                _sqlite_create(conn, storage, part, found)
                made.append(part.name)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return before, made


def _sqlite_create(conn: sqlite3.Connection, storage: Storage, part: Part, version: int) -> None:
    conn.execute(
        f"CREATE TABLE IF NOT EXISTS {VERSION_TABLE} (component TEXT PRIMARY KEY, "
        "version INTEGER NOT NULL)"
    )
    if part.shard is not None:
        recorders = storage.shards[part.shard]
        for recorder in (recorders.events, recorders.snapshots):
            for statement in recorder.create_table_statements:  # type: ignore[attr-defined]
                conn.execute(statement)
        for statement in recorders.service_ddl:
            conn.execute(statement)
    elif part.name in KEPT_PARTS:
        for statement in _kept_store(storage, part.name).ddl():
            conn.execute(statement)
    else:
        view = storage.read_model(part.name)
        if version < view.recreate_below:
            for table in [*view.tables(), LEGACY_SQLITE_TRACKING]:
                conn.execute(f"DROP TABLE IF EXISTS {table}")
        for statement in [*view.ddl(), *view.index_ddl()]:
            conn.execute(statement)
        _move_legacy_tracking(conn, view.tracking_name)
    conn.execute(_SQLITE_SET_VERSION, (part.name, part.version))


def _kept_store(storage: Storage, name: str) -> Any:
    """The store of a part that is not a read model (:data:`KEPT_PARTS`)."""
    if name == "records":
        return storage.record_store()
    if name == TLOG:
        return storage.tlog_store()
    return idempotency_store(storage)


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
