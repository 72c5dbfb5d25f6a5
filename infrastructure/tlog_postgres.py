"""The transparency log kept in PostgreSQL, beside the event store on the process's pool
(docs/audit.md, "The transparency log"; docs/operations.md). An append takes a
transaction-level advisory lock first (so it also works through a transaction-pooling
PgBouncer): appends of every process and host are serialised, and each commits whole with the
checkpointer's tracking position (:mod:`application.tlog`).

The log is not a read model: nothing rebuilds it, and its tables are never dropped."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresDatastore
from psycopg.sql import SQL, Composed, Identifier

from application.checkpoints import SignedCheckpoint, TreeHead
from application.tlog import Key, LogEntry, Node, Pending
from infrastructure.pgsql import rendered
from infrastructure.readmodels import tracking
from infrastructure.tlog_tables import (
    ENTRIES,
    HEADS,
    NODES,
    PENDING,
    SCHEDULE,
    TRACKING,
    head_document,
)

_ENTRY = "leaf_index, checkpoint, signature"

_APPEND_STATEMENTS = {
    "size": (ENTRIES, "SELECT MAX(leaf_index) AS m FROM {}"),
    "logged": (
        ENTRIES,
        "SELECT e.game_id, e.version FROM {} e JOIN unnest(%s::text[], %s::integer[]) "
        "AS k(game_id, version) ON e.game_id = k.game_id AND e.version = k.version",
    ),
    "entry": (ENTRIES, "INSERT INTO {} VALUES (%s, %s, %s, %s, %s, %s)"),
    "node": (NODES, "INSERT INTO {} VALUES (%s, %s, %s)"),
    "head": (HEADS, "INSERT INTO {} VALUES (%s, %s, %s, %s, %s) ON CONFLICT (size) DO NOTHING"),
    "pending": (PENDING, "SELECT game_id, version, chain_head FROM {} ORDER BY game_id"),
    "set_pending": (
        PENDING,
        "INSERT INTO {} VALUES (%s, %s, %s) ON CONFLICT (game_id) DO UPDATE SET "
        "version = EXCLUDED.version, chain_head = EXCLUDED.chain_head",
    ),
    "drop_pending": (PENDING, "DELETE FROM {} WHERE game_id = ANY(%s)"),
    "subtrees": (
        NODES,
        "SELECT n.level, n.idx, n.hash FROM {} n JOIN unnest(%s::integer[], %s::bigint[]) "
        "AS k(level, idx) ON n.level = k.level AND n.idx = k.idx",
    ),
    "last_scheduled": (SCHEDULE, "SELECT last_run FROM {} WHERE name = 'checkpoints'"),
    "mark_scheduled": (
        SCHEDULE,
        "INSERT INTO {} VALUES ('checkpoints', %s) ON CONFLICT (name) "
        "DO UPDATE SET last_run = EXCLUDED.last_run",
    ),
}
"""The statements of an append: the table each names, and its text."""


class PostgresLogStore:
    """The log's tables in the store's PostgreSQL schema."""

    name = "tlog"

    def __init__(self, datastore: PostgresDatastore) -> None:
        self.datastore = datastore
        schema = datastore.schema
        self.t = {name: Identifier(schema, name) for name in (ENTRIES, NODES, HEADS, PENDING,
                                                             SCHEDULE)}  # fmt: skip
        self.lock_name = f"gameledger tlog {schema}"
        self.sql = {
            key: rendered(SQL(text).format(self.t[table]))
            for key, (table, text) in _APPEND_STATEMENTS.items()
        }
        """The statements of an append, rendered once (:mod:`infrastructure.pgsql`)."""

    def ddl(self) -> list[Composed]:
        """Create the tables."""
        t = self.t
        return [
            SQL(
                "CREATE TABLE IF NOT EXISTS {} (leaf_index bigint PRIMARY KEY, "
                "game_id text NOT NULL, version integer NOT NULL, checkpoint bytea NOT NULL, "
                "signature text NOT NULL, leaf_hash bytea NOT NULL)"
            ).format(t[ENTRIES]),
            SQL("CREATE UNIQUE INDEX IF NOT EXISTS {} ON {} (game_id, version)").format(
                Identifier(f"{ENTRIES}_game_idx"), t[ENTRIES]
            ),
            SQL(
                "CREATE TABLE IF NOT EXISTS {} (level integer NOT NULL, idx bigint NOT NULL, "
                "hash bytea NOT NULL, PRIMARY KEY (level, idx))"
            ).format(t[NODES]),
            SQL(
                "CREATE TABLE IF NOT EXISTS {} (size bigint PRIMARY KEY, root_hash bytea NOT NULL, "
                "at text NOT NULL, key_id text NOT NULL, signature text NOT NULL)"
            ).format(t[HEADS]),
            SQL(
                "CREATE TABLE IF NOT EXISTS {} (game_id text PRIMARY KEY, "
                "version integer NOT NULL, chain_head text NOT NULL)"
            ).format(t[PENDING]),
            SQL(
                "CREATE TABLE IF NOT EXISTS {} (name text PRIMARY KEY, "
                "last_run double precision NOT NULL)"
            ).format(t[SCHEDULE]),
            *tracking.postgres_tracking_ddl(self.datastore.schema, TRACKING),
        ]

    @contextmanager
    def transaction(self) -> Iterator[PostgresLogTransaction]:
        """An append: the log's advisory lock, held until the transaction commits. It commits
        without waiting for the disk unless it stores a signed tree head
        (:meth:`PostgresLogTransaction.add`): a batch of the checkpointer that only moves
        running games' pending heads and its position, lost to a crash, is lost whole and
        applied again (as a read model's, :func:`tracking.unflushed_postgres`); a head, once
        signed and stored, is durable before anyone can be shown it."""
        with self.datastore.transaction(commit=True) as curs:
            curs.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self.lock_name,))
            tracking.unflushed_postgres(curs)
            yield PostgresLogTransaction(self, curs)

    def max_tracking_id(self, application_name: str) -> int | None:
        """How far the checkpointer has followed ``application_name``'s log."""
        with self.datastore.transaction(commit=False) as curs:
            return tracking.position_postgres(
                curs, self.datastore.schema, TRACKING, application_name
            )

    def latest_head(self) -> TreeHead | None:
        """The head of the largest tree."""
        return self._head(SQL("SELECT * FROM {} ORDER BY size DESC LIMIT 1"), ())

    def head(self, size: int) -> TreeHead | None:
        """The stored head of the tree of ``size`` entries."""
        return self._head(SQL("SELECT * FROM {} WHERE size = %s"), (size,))

    def _head(self, query: SQL, params: tuple[Any, ...]) -> TreeHead | None:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(query.format(self.t[HEADS]), params)
            row = curs.fetchone()
        if row is None:
            return None
        return head_document(row["size"], bytes(row["root_hash"]), row["at"], row["key_id"],
                             row["signature"])  # fmt: skip

    def entries(self, start: int, limit: int) -> list[LogEntry]:
        """Entries from ``start``, at most ``limit``."""
        return self._entries(
            f"SELECT {_ENTRY} FROM {{}} WHERE leaf_index >= %s ORDER BY leaf_index LIMIT %s",
            (start, limit),
        )

    def entries_of(self, game: str) -> list[LogEntry]:
        """A game's entries, oldest first."""
        return self._entries(
            f"SELECT {_ENTRY} FROM {{}} WHERE game_id = %s ORDER BY version", (game,)
        )

    def latest_of(self, game: str, max_version: int, below: int) -> LogEntry | None:
        """The game's entry of the highest version up to ``max_version`` before ``below``."""
        found = self._entries(
            f"SELECT {_ENTRY} FROM {{}} WHERE game_id = %s AND version <= %s "
            "AND leaf_index < %s ORDER BY version DESC LIMIT 1",
            (game, max_version, below),
        )
        return found[0] if found else None

    def _entries(self, query: str, params: tuple[Any, ...]) -> list[LogEntry]:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(SQL(query).format(self.t[ENTRIES]), params)
            rows = curs.fetchall()
        return [
            {
                "leaf_index": int(row["leaf_index"]),
                "checkpoint": _json(row["checkpoint"]),
                "signature": str(row["signature"]),
            }
            for row in rows
        ]

    def subtree_hashes(self, keys: Sequence[Key]) -> dict[Key, bytes]:
        """The stored hashes of these perfect subtrees."""
        with self.datastore.transaction(commit=False) as curs:
            return _subtree_hashes(curs, self.sql["subtrees"], keys)


def _json(raw: Any) -> Any:
    """A stored checkpoint (its canonical JSON bytes) as JSON."""
    return json.loads(bytes(raw))


def _subtree_hashes(curs: Any, statement: bytes, keys: Sequence[Key]) -> dict[Key, bytes]:
    if not keys:
        return {}
    curs.execute(statement, ([k[0] for k in keys], [k[1] for k in keys]))
    return {(int(r["level"]), int(r["idx"])): bytes(r["hash"]) for r in curs.fetchall()}


class PostgresLogTransaction:
    """One append under the log's advisory lock (:class:`application.tlog.LogTransaction`)."""

    def __init__(self, store: PostgresLogStore, curs: Any) -> None:
        self.store = store
        self.curs = curs

    def track(self, position: Tracking) -> None:
        """Record the checkpointer's position (``IntegrityError`` if not past it)."""
        tracking.record_postgres(self.curs, self.store.datastore.schema, TRACKING, position)

    def size(self) -> int:
        """The number of entries."""
        self.curs.execute(self.store.sql["size"])
        found = self.curs.fetchone()["m"]
        return 0 if found is None else int(found) + 1

    def subtree_hashes(self, keys: Sequence[Key]) -> dict[Key, bytes]:
        """The stored hashes of these perfect subtrees."""
        return _subtree_hashes(self.curs, self.store.sql["subtrees"], keys)

    def logged(self, checkpoints: Sequence[tuple[str, int]]) -> set[tuple[str, int]]:
        """Which of these ``(game, version)`` are logged already."""
        if not checkpoints:
            return set()
        self.curs.execute(
            self.store.sql["logged"],
            ([c[0] for c in checkpoints], [c[1] for c in checkpoints]),
        )
        return {(str(r["game_id"]), int(r["version"])) for r in self.curs.fetchall()}

    def add(
        self, first: int, entries: Sequence[SignedCheckpoint], nodes: Sequence[Node], head: TreeHead
    ) -> None:
        """Store the entries, their subtree hashes and the grown tree's signed head; the
        transaction then commits durably (the server's ``synchronous_commit``)."""
        sql = self.store.sql
        self.curs.execute(b"SET LOCAL synchronous_commit TO DEFAULT")
        if entries:
            self.curs.executemany(
                sql["entry"],
                [
                    (first + n, e.game, e.version, e.leaf, e.signature, e.leaf_hash)
                    for n, e in enumerate(entries)
                ],
            )
        if nodes:
            self.curs.executemany(sql["node"], list(nodes))
        self.curs.execute(
            sql["head"],
            (head["size"], bytes.fromhex(head["root_hash"]), head["at"], head["key_id"],
             head["signature"]),
        )  # fmt: skip

    def pending(self) -> list[Pending]:
        """Every pending running game, by game id."""
        self.curs.execute(self.store.sql["pending"])
        return [
            Pending(str(r["game_id"]), int(r["version"]), str(r["chain_head"]))
            for r in self.curs.fetchall()
        ]

    def set_pending(self, rows: Sequence[Pending]) -> None:
        """Record these heads as pending."""
        if rows:
            self.curs.executemany(
                self.store.sql["set_pending"], [(r.game, r.version, r.chain_head) for r in rows]
            )

    def drop_pending(self, games: Collection[str]) -> None:
        """These games have no pending head any more."""
        if games:
            self.curs.execute(self.store.sql["drop_pending"], (list(games),))

    def last_scheduled(self) -> float:
        """When the schedule last ran (0: never)."""
        self.curs.execute(self.store.sql["last_scheduled"])
        row = self.curs.fetchone()
        return 0.0 if row is None else float(row["last_run"])

    def mark_scheduled(self, at: float) -> None:
        """The schedule ran at ``at``."""
        self.curs.execute(self.store.sql["mark_scheduled"], (at,))
