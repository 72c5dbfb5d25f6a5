"""Where ``Idempotency-Key`` answers are kept (docs/api.md, "Idempotency"; the HTTP side is
api/idempotency.py): one table, ``gameledger_idempotency``, in PostgreSQL beside the event store,
in SQLite in a file of its own beside it (``<stem>-idempotency.db``: its writes then never wait
for the event store's write lock), so that every process and every restart sees the same keys.

A row is one key of one caller: ``id`` is a hash of the caller and the key (neither is kept),
``fingerprint`` a hash of the request, ``response`` the encrypted answer once there is one
(``NULL`` while the request is in flight), ``expires_at`` a Unix time: while in flight the end of
the request's lease, once answered the end of the key's life. A row past ``expires_at`` counts
as absent: :meth:`claim` takes it over, :meth:`purge` deletes it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from eventsourcing.postgres import PostgresDatastore
from eventsourcing.sqlite import SQLiteDatastore
from psycopg.sql import SQL, Composed, Identifier

from infrastructure.storage import Storage

TABLE = "gameledger_idempotency"
PART = "idempotency"
"""The schema part (infrastructure/schema.py) and, on SQLite, the file's suffix."""


@dataclass(frozen=True)
class KeptKey:
    """A key's row: the request it was first used with and its answer (``None``: the first
    request with it is still in flight)."""

    fingerprint: bytes
    response: bytes | None
    expires_at: float


class IdempotencyStore(Protocol):
    """The table of keys, on either database."""

    def ddl(self) -> list[Any]:
        """Statements creating the table and its index."""
        ...

    def claim(self, key_id: bytes, fingerprint: bytes, now: float, lease_until: float) -> bool:
        """Take the key for a request about to run: ``True`` when there was no row for it, or
        only an expired one (taken over); ``False`` when another row holds it."""
        ...

    def find(self, key_id: bytes) -> KeptKey | None:
        """The key's row, if any."""
        ...

    def complete(self, key_id: bytes, fingerprint: bytes, response: bytes, expires: float) -> None:
        """Keep the answer of the request that claimed the key, until ``expires``."""
        ...

    def release(self, key_id: bytes, fingerprint: bytes) -> None:
        """Forget a claim whose answer is not kept (a retry runs the request again)."""
        ...

    def purge(self, now: float) -> int:
        """Delete every expired row; how many."""
        ...


class PostgresIdempotencyStore:
    """The keys in PostgreSQL."""

    def __init__(self, datastore: PostgresDatastore) -> None:
        self.datastore = datastore
        self.table = Identifier(datastore.schema, TABLE)

    def ddl(self) -> list[Composed]:
        """Create the table and the index that purging reads."""
        return [
            SQL(
                "CREATE TABLE IF NOT EXISTS {} (id bytea PRIMARY KEY, fingerprint bytea NOT NULL, "
                "response bytea, expires_at double precision NOT NULL)"
            ).format(self.table),
            SQL("CREATE INDEX IF NOT EXISTS {} ON {} (expires_at)").format(
                Identifier(f"{TABLE}_expires_idx"), self.table
            ),
        ]

    def claim(self, key_id: bytes, fingerprint: bytes, now: float, lease_until: float) -> bool:
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(
                SQL(
                    "INSERT INTO {0} AS kept VALUES (%s, %s, NULL, %s) ON CONFLICT (id) DO UPDATE "
                    "SET fingerprint = EXCLUDED.fingerprint, response = NULL, "
                    "expires_at = EXCLUDED.expires_at WHERE kept.expires_at < %s"
                ).format(self.table),
                (key_id, fingerprint, lease_until, now),
            )
            return curs.rowcount == 1

    def find(self, key_id: bytes) -> KeptKey | None:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                SQL("SELECT fingerprint, response, expires_at FROM {} WHERE id = %s").format(
                    self.table
                ),
                (key_id,),
            )
            row = curs.fetchone()
        if row is None:
            return None
        response = None if row["response"] is None else bytes(row["response"])
        return KeptKey(bytes(row["fingerprint"]), response, float(row["expires_at"]))

    def complete(self, key_id: bytes, fingerprint: bytes, response: bytes, expires: float) -> None:
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(
                SQL(
                    "UPDATE {} SET response = %s, expires_at = %s "
                    "WHERE id = %s AND fingerprint = %s AND response IS NULL"
                ).format(self.table),
                (response, expires, key_id, fingerprint),
            )

    def release(self, key_id: bytes, fingerprint: bytes) -> None:
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(
                SQL(
                    "DELETE FROM {} WHERE id = %s AND fingerprint = %s AND response IS NULL"
                ).format(self.table),
                (key_id, fingerprint),
            )

    def purge(self, now: float) -> int:
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(SQL("DELETE FROM {} WHERE expires_at < %s").format(self.table), (now,))
            return int(curs.rowcount)


class SQLiteIdempotencyStore:
    """The keys in SQLite (or the in-memory store's SQLite)."""

    def __init__(self, datastore: SQLiteDatastore) -> None:
        self.datastore = datastore

    def ddl(self) -> list[str]:
        """Create the table and the index that purging reads."""
        return [
            f"CREATE TABLE IF NOT EXISTS {TABLE} (id BLOB PRIMARY KEY, fingerprint BLOB NOT NULL, "
            "response BLOB, expires_at REAL NOT NULL)",
            f"CREATE INDEX IF NOT EXISTS {TABLE}_expires_idx ON {TABLE} (expires_at)",
        ]

    def claim(self, key_id: bytes, fingerprint: bytes, now: float, lease_until: float) -> bool:
        with self.datastore.transaction(commit=True) as c:
            c.execute(
                f"INSERT INTO {TABLE} VALUES (?, ?, NULL, ?) ON CONFLICT (id) DO UPDATE "
                "SET fingerprint = excluded.fingerprint, response = NULL, "
                f"expires_at = excluded.expires_at WHERE {TABLE}.expires_at < ?",
                (key_id, fingerprint, lease_until, now),
            )
            return bool(c.sqlite_cursor.rowcount == 1)

    def find(self, key_id: bytes) -> KeptKey | None:
        with self.datastore.transaction(commit=False) as c:
            c.execute(
                f"SELECT fingerprint, response, expires_at FROM {TABLE} WHERE id = ?", (key_id,)
            )
            row = c.fetchone()
        if row is None:
            return None
        response = None if row[1] is None else bytes(row[1])
        return KeptKey(bytes(row[0]), response, float(row[2]))

    def complete(self, key_id: bytes, fingerprint: bytes, response: bytes, expires: float) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(
                f"UPDATE {TABLE} SET response = ?, expires_at = ? "
                "WHERE id = ? AND fingerprint = ? AND response IS NULL",
                (response, expires, key_id, fingerprint),
            )

    def release(self, key_id: bytes, fingerprint: bytes) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(
                f"DELETE FROM {TABLE} WHERE id = ? AND fingerprint = ? AND response IS NULL",
                (key_id, fingerprint),
            )

    def purge(self, now: float) -> int:
        with self.datastore.transaction(commit=True) as c:
            c.execute(f"DELETE FROM {TABLE} WHERE expires_at < ?", (now,))
            return int(c.sqlite_cursor.rowcount)


def idempotency_store(storage: Storage) -> IdempotencyStore:
    """The store of keys: in PostgreSQL's main database when the service runs on it, else in
    the SQLite file beside the event store (in memory for the in-memory store)."""
    if storage.postgres is not None:
        return PostgresIdempotencyStore(storage.postgres)
    return SQLiteIdempotencyStore(storage.sqlite(PART))
