"""The transparency log stores bench/transparency.py fills and measures: the service's own
(``Storage.tlog_store()`` after ``infrastructure.schema.upgrade``, so the tables are exactly
the service's), on an SQLite file of a work directory or a PostgreSQL database of the bench's
own, with a bulk writer (bench/tlog_fill.py), their rows, their stored head sizes and their
size on disk, and what settles a store after a bulk fill (PostgreSQL: ``VACUUM (ANALYZE)`` of
the log's tables, which autovacuum does over time in a live log: a table just filled by
``COPY`` has no statistics and every first read of a page writes its hint bits).
docs/performance.md, "The transparency log at 10 million checkpoints"."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from pgdb import connect, server_settings
from psycopg import sql
from tlog_fill import PostgresWriter, Side, SQLiteWriter, Writer, sorted_rows

from application.tlog import LogStore
from infrastructure.config import Settings
from infrastructure.schema import upgrade
from infrastructure.storage import Storage
from infrastructure.tlog_tables import ENTRIES, HEADS, NODES

TABLES = (ENTRIES, NODES, HEADS)
ORDER = {ENTRIES: "leaf_index", NODES: "level, idx", HEADS: "size"}


@dataclass
class BenchStore:
    """One log store of the bench and what the bench does to it beyond the service's API."""

    kind: str
    storage: Storage
    store: LogStore
    writer: Callable[[], Writer]
    query: Callable[[str], list[tuple[Any, ...]]]
    disk: Callable[[], dict[str, int]]
    drop: Callable[[], None]
    settle: Callable[[], None] = lambda: None

    def side(self) -> Side:
        """The store for ``tlog_fill.check``."""
        return Side(self.store, self.writer, self.dump)

    def dump(self, table: str) -> list[tuple[Any, ...]]:
        """Every row of one of the log's tables, sorted."""
        return sorted_rows(self.query(f"SELECT * FROM {table} ORDER BY {ORDER[table]}"))

    def head_sizes(self) -> list[int]:
        """The sizes that have a stored signed head."""
        return [int(r[0]) for r in self.query(f"SELECT size FROM {HEADS} ORDER BY size")]

    def close(self) -> None:
        """Close the service's connections."""
        self.storage.close()


def sqlite_store(path: Path) -> BenchStore:
    """The log of an SQLite store at ``path`` (its ``<stem>-tlog.db``), created if new."""
    settings = Settings(store="sqlite", sqlite_path=path, embedded_projections=False)
    storage = Storage(settings)
    upgrade(storage)
    tlog = settings.sqlite_file("tlog")

    def query(text: str) -> list[tuple[Any, ...]]:
        with sqlite3.connect(tlog) as conn:
            return conn.execute(text).fetchall()

    def disk() -> dict[str, int]:
        with sqlite3.connect(tlog) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            found = {"total": tlog.stat().st_size}
            try:
                rows = conn.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name")
                found |= {str(name): int(size) for name, size in rows}
            except sqlite3.OperationalError:  # SQLite built without dbstat
                pass
            return found

    def drop() -> None:
        storage.close()
        for part in path.parent.glob(f"{path.stem}*"):
            part.unlink()

    return BenchStore("sqlite", storage, storage.tlog_store(),
                      lambda: SQLiteWriter(str(tlog)), query, disk, drop)  # fmt: skip


def postgres_store(dbname: str, *, continued: bool = True) -> BenchStore:
    """The log of a PostgreSQL store in database ``dbname``, created if missing; one that
    exists is used only to continue a run (``continued``), never overwritten nor dropped by a
    new one."""
    with connect() as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (dbname,))
        if exists.fetchone() is None:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(dbname)))
        elif not continued:
            raise SystemExit(
                f"the database {dbname} exists (a run kept with --keep?): pass that run's "
                "--workdir to continue it, another --pg-db, or drop it"
            )
    pg = server_settings(dbname)
    storage = Storage(Settings(store="postgres", postgres=pg, embedded_projections=False))
    upgrade(storage)
    info: dict[str, Any] = {"dbname": dbname, "host": pg.host, "port": pg.port, "user": pg.user,
            "password": pg.password}  # fmt: skip

    def query(text: str) -> list[tuple[Any, ...]]:
        with psycopg.connect(**info) as conn:
            return conn.execute(text.encode()).fetchall()

    def disk() -> dict[str, int]:
        rows = query(
            "SELECT relname, pg_total_relation_size(oid) FROM pg_class "
            f"WHERE relname IN ('{ENTRIES}', '{NODES}', '{HEADS}') AND relkind = 'r'"
        )
        found = {str(name): int(size) for name, size in rows}
        return {"total": sum(found.values()), **found}

    def drop() -> None:
        storage.close()
        with connect() as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(dbname))
            )

    def settle() -> None:
        with psycopg.connect(**info, autocommit=True) as conn:
            for table in TABLES:
                conn.execute(sql.SQL("VACUUM (ANALYZE) {}").format(sql.Identifier(table)))

    return BenchStore("postgres", storage, storage.tlog_store(),
                      lambda: PostgresWriter(info), query, disk, drop, settle)  # fmt: skip
