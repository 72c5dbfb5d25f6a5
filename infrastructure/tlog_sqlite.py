"""The transparency log kept in SQLite, in its own file beside the event store
(``<stem>-tlog.db``; docs/audit.md, "The transparency log"; docs/operations.md). An append
runs inside ``BEGIN IMMEDIATE``, which admits one writer to the file at a time, whichever
process it is: appends are serialised, and each commits whole (:mod:`application.tlog`).

The log is not a read model: nothing rebuilds it, and its tables are never dropped."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from eventsourcing.persistence import Tracking
from eventsourcing.sqlite import SQLiteDatastore

from application.checkpoints import SignedCheckpoint, TreeHead
from application.tlog import Key, LogEntry, Node, Pending
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


class SQLiteLogStore:
    """The log's tables in an SQLite file (or the memory store's in-memory SQLite)."""

    name = "tlog"

    def __init__(self, datastore: SQLiteDatastore) -> None:
        self.datastore = datastore

    def ddl(self) -> list[str]:
        """Create the tables."""
        return [
            f"CREATE TABLE IF NOT EXISTS {ENTRIES} (leaf_index INTEGER PRIMARY KEY, "
            "game_id TEXT NOT NULL, version INTEGER NOT NULL, checkpoint BLOB NOT NULL, "
            "signature TEXT NOT NULL, leaf_hash BLOB NOT NULL)",
            f"CREATE UNIQUE INDEX IF NOT EXISTS {ENTRIES}_game_idx ON {ENTRIES} (game_id, version)",
            f"CREATE TABLE IF NOT EXISTS {NODES} (level INTEGER NOT NULL, idx INTEGER NOT NULL, "
            "hash BLOB NOT NULL, PRIMARY KEY (level, idx)) WITHOUT ROWID",
            f"CREATE TABLE IF NOT EXISTS {HEADS} (size INTEGER PRIMARY KEY, "
            "root_hash BLOB NOT NULL, at TEXT NOT NULL, key_id TEXT NOT NULL, "
            "signature TEXT NOT NULL)",
            f"CREATE TABLE IF NOT EXISTS {PENDING} (game_id TEXT PRIMARY KEY, "
            "version INTEGER NOT NULL, chain_head TEXT NOT NULL) WITHOUT ROWID",
            f"CREATE TABLE IF NOT EXISTS {SCHEDULE} (name TEXT PRIMARY KEY, "
            "last_run REAL NOT NULL) WITHOUT ROWID",
            *tracking.sqlite_tracking_ddl(TRACKING),
        ]

    @contextmanager
    def transaction(self) -> Iterator[SQLiteLogTransaction]:
        """An append: ``BEGIN IMMEDIATE`` (the file's one writer), committed at the end."""
        with self.datastore.get_connection(commit=True) as conn:
            cursor = conn.cursor().sqlite_cursor
            cursor.execute("BEGIN IMMEDIATE")
            try:
                yield SQLiteLogTransaction(cursor)
            except BaseException:
                cursor.execute("ROLLBACK")
                raise
            cursor.execute("COMMIT")

    def max_tracking_id(self, application_name: str) -> int | None:
        """How far the checkpointer has followed ``application_name``'s log."""
        with self.datastore.transaction(commit=False) as c:
            return tracking.position_sqlite(c, TRACKING, application_name)

    def latest_head(self) -> TreeHead | None:
        """The head of the largest tree."""
        return self._head(f"SELECT * FROM {HEADS} ORDER BY size DESC LIMIT 1", ())

    def head(self, size: int) -> TreeHead | None:
        """The stored head of the tree of ``size`` entries."""
        return self._head(f"SELECT * FROM {HEADS} WHERE size = ?", (size,))

    def _head(self, query: str, params: tuple[Any, ...]) -> TreeHead | None:
        with self.datastore.transaction(commit=False) as c:
            c.execute(query, params)
            row = c.fetchone()
        if row is None:
            return None
        return head_document(row["size"], bytes(row["root_hash"]), row["at"], row["key_id"],
                             row["signature"])  # fmt: skip

    def entries(self, start: int, limit: int) -> list[LogEntry]:
        """Entries from ``start``, at most ``limit``."""
        return self._entries(
            f"SELECT {_ENTRY} FROM {ENTRIES} WHERE leaf_index >= ? ORDER BY leaf_index LIMIT ?",
            (start, limit),
        )

    def entries_of(self, game: str) -> list[LogEntry]:
        """A game's entries, oldest first."""
        return self._entries(
            f"SELECT {_ENTRY} FROM {ENTRIES} WHERE game_id = ? ORDER BY version", (game,)
        )

    def latest_of(self, game: str, max_version: int, below: int) -> LogEntry | None:
        """The game's entry of the highest version up to ``max_version`` before ``below``."""
        found = self._entries(
            f"SELECT {_ENTRY} FROM {ENTRIES} WHERE game_id = ? AND version <= ? "
            "AND leaf_index < ? ORDER BY version DESC LIMIT 1",
            (game, max_version, below),
        )
        return found[0] if found else None

    def _entries(self, query: str, params: tuple[Any, ...]) -> list[LogEntry]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(query, params)
            rows = c.fetchall()
        return [
            {
                "leaf_index": int(row[0]),
                "checkpoint": json.loads(bytes(row[1])),
                "signature": str(row[2]),
            }
            for row in rows
        ]

    def subtree_hashes(self, keys: Sequence[Key]) -> dict[Key, bytes]:
        """The stored hashes of these perfect subtrees."""
        with self.datastore.transaction(commit=False) as c:
            return _subtree_hashes(c, keys)


def subtree_query(keys: Sequence[Key]) -> tuple[str, list[int]]:
    """The query reading these perfect subtrees' hashes, and its parameters.

    A ``CROSS JOIN`` from the keys, never ``(level, idx) IN (VALUES ...)``: for a ``VALUES``
    list of more than one row SQLite's planner scans the whole table (3.40), so a proof of a
    log of 10 million entries would read all 20 million hashes; ``CROSS JOIN`` keeps the keys
    as the outer loop, each a primary-key search (docs/performance.md, "The transparency log
    at 10 million checkpoints")."""
    marks = ", ".join("(?, ?)" for _ in keys)
    return (
        f"WITH k(level, idx) AS (VALUES {marks}) SELECT n.level, n.idx, n.hash "
        f"FROM k CROSS JOIN {NODES} AS n ON n.level = k.level AND n.idx = k.idx",
        [number for key in keys for number in key],
    )


def logged_query(checkpoints: Sequence[tuple[str, int]]) -> tuple[str, list[Any]]:
    """The query finding which of these ``(game, version)`` are logged, and its parameters:
    a search of the game index per pair (a ``CROSS JOIN``, as :func:`subtree_query`)."""
    marks = ", ".join("(?, ?)" for _ in checkpoints)
    return (
        f"WITH k(game_id, version) AS (VALUES {marks}) SELECT e.game_id, e.version "
        f"FROM k CROSS JOIN {ENTRIES} AS e ON e.game_id = k.game_id AND e.version = k.version",
        [value for pair in checkpoints for value in pair],
    )


def _subtree_hashes(cursor: Any, keys: Sequence[Key]) -> dict[Key, bytes]:
    if not keys:
        return {}
    cursor.execute(*subtree_query(keys))
    return {(int(row[0]), int(row[1])): bytes(row[2]) for row in cursor.fetchall()}


class SQLiteLogTransaction:
    """One append in an open ``BEGIN IMMEDIATE`` (:class:`application.tlog.LogTransaction`)."""

    def __init__(self, cursor: Any) -> None:
        self.cursor = cursor

    def track(self, position: Tracking) -> None:
        """Record the checkpointer's position (``IntegrityError`` if not past it)."""
        tracking.record_sqlite(self.cursor, TRACKING, position)

    def size(self) -> int:
        """The number of entries."""
        self.cursor.execute(f"SELECT MAX(leaf_index) FROM {ENTRIES}")
        found = self.cursor.fetchone()[0]
        return 0 if found is None else int(found) + 1

    def subtree_hashes(self, keys: Sequence[Key]) -> dict[Key, bytes]:
        """The stored hashes of these perfect subtrees."""
        return _subtree_hashes(self.cursor, keys)

    def logged(self, checkpoints: Sequence[tuple[str, int]]) -> set[tuple[str, int]]:
        """Which of these ``(game, version)`` are logged already."""
        found: set[tuple[str, int]] = set()
        for start in range(0, len(checkpoints), 400):  # SQLite's bound parameters
            self.cursor.execute(*logged_query(checkpoints[start : start + 400]))
            found |= {(str(r[0]), int(r[1])) for r in self.cursor.fetchall()}
        return found

    def add(
        self, first: int, entries: Sequence[SignedCheckpoint], nodes: Sequence[Node], head: TreeHead
    ) -> None:
        """Store the entries, their subtree hashes and the grown tree's signed head."""
        self.cursor.executemany(
            f"INSERT INTO {ENTRIES} VALUES (?, ?, ?, ?, ?, ?)",
            [
                (first + n, e.game, e.version, e.leaf, e.signature, e.leaf_hash)
                for n, e in enumerate(entries)
            ],
        )
        self.cursor.executemany(f"INSERT INTO {NODES} VALUES (?, ?, ?)", nodes)
        self.cursor.execute(
            f"INSERT INTO {HEADS} VALUES (?, ?, ?, ?, ?) ON CONFLICT (size) DO NOTHING",
            (head["size"], bytes.fromhex(head["root_hash"]), head["at"], head["key_id"],
             head["signature"]),
        )  # fmt: skip

    def pending(self) -> list[Pending]:
        """Every pending running game, by game id."""
        self.cursor.execute(f"SELECT game_id, version, chain_head FROM {PENDING} ORDER BY game_id")
        return [Pending(str(r[0]), int(r[1]), str(r[2])) for r in self.cursor.fetchall()]

    def set_pending(self, rows: Sequence[Pending]) -> None:
        """Record these heads as pending."""
        self.cursor.executemany(
            f"INSERT INTO {PENDING} VALUES (?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
            "version = excluded.version, chain_head = excluded.chain_head",
            [(r.game, r.version, r.chain_head) for r in rows],
        )

    def drop_pending(self, games: Collection[str]) -> None:
        """These games have no pending head any more."""
        self.cursor.executemany(f"DELETE FROM {PENDING} WHERE game_id = ?", [(g,) for g in games])

    def last_scheduled(self) -> float:
        """When the schedule last ran (0: never)."""
        self.cursor.execute(f"SELECT last_run FROM {SCHEDULE} WHERE name = 'checkpoints'")
        row = self.cursor.fetchone()
        return 0.0 if row is None else float(row[0])

    def mark_scheduled(self, at: float) -> None:
        """The schedule ran at ``at``."""
        self.cursor.execute(
            f"INSERT INTO {SCHEDULE} VALUES ('checkpoints', ?) ON CONFLICT (name) "
            "DO UPDATE SET last_run = excluded.last_run",
            (at,),
        )
