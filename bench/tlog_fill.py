"""Bulk fill of a real transparency log store with simulated checkpoints, for
bench/transparency.py (issue 14, part 6; docs/performance.md, "The transparency log at 10
million checkpoints").

The rows are exactly those the service's append path writes (``application.tlog.append``):
each checkpoint made and signed by ``application.checkpoints.sign_checkpoint`` (a real Ed25519
signature each, with the bench's own key), the leaf hashes and every perfect subtree's hash
computed by ``application.tlog.grow`` from the right edge of the tree, and one signed tree head
(``sign_tree_head``) after each simulated append of 1 to ``BATCH_MAX`` checkpoints. Only the
way they reach the tables differs: one transaction per chunk of ``CHUNK`` entries, by
``executemany`` on SQLite and ``COPY`` on PostgreSQL, instead of one small transaction per
append. :func:`check` shows on a small log that the tables come out equal to the real append
path's, and that every stored head equals ``domain.merkle``'s ``tree_hash`` over a
``MemoryTree`` of the same leaves.

Simulated games: a pool of ``POOL`` running games per chunk; each checkpoint moves a random
one on by 4 to 60 events (a random chain head), and ends it (``ended: true``) one time in
four, a new game taking its place. Checkpoints are ``SPACING`` seconds apart from
``BASE_TIME``. Everything is drawn from ``random.Random(f"{seed}:{start}")``: a fill stopped
and run again from the store's size makes the same kind of entries, and a chunk is committed
whole, so a fill is restartable (:func:`fill` starts from the stored size and right edge)."""

from __future__ import annotations

import random
import sqlite3
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

import psycopg
from psycopg import sql

from application.checkpoints import (
    SignedCheckpoint,
    TreeHead,
    sign_checkpoint,
    sign_tree_head,
    tree_head_signed_by,
)
from application.signing import Keyring
from application.tlog import LogStore, Node, append, ensure_empty_head, frontier_keys, grow, root_of
from domain.merkle import MemoryTree, leaf_hash, tree_hash
from infrastructure.tlog_tables import ENTRIES, HEADS, NODES, head_document

CHUNK = 50_000
"""Entries per committed chunk of a bulk fill."""
BATCH_MAX = 32
"""A simulated append logs 1 to this many checkpoints (uniformly): one signed head each."""
POOL = 2_000
"""Running games per chunk."""
BASE_TIME = datetime(2026, 1, 1, tzinfo=UTC)
SPACING = 3
"""Seconds between two simulated checkpoints (10 million: about a year)."""


def at(index: int) -> str:
    """The simulated signing time of entry ``index``."""
    moment = BASE_TIME + timedelta(seconds=SPACING * index)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class Chunk:
    """Simulated checkpoints from leaf ``start`` and the sizes of the appends logging them."""

    start: int
    entries: list[SignedCheckpoint]
    batches: list[int]


def simulated(keyring: Keyring, seed: int, start: int, count: int) -> Chunk:
    """``count`` checkpoints of simulated games from leaf ``start`` (module docstring)."""
    rng = random.Random(f"{seed}:{start}")

    def new_game() -> list[Any]:
        return [str(uuid.UUID(int=rng.getrandbits(128), version=4)), rng.randint(1, 40)]

    pool = [new_game() for _ in range(POOL)]
    entries: list[SignedCheckpoint] = []
    for index in range(start, start + count):
        slot = rng.randrange(POOL)
        game = pool[slot]
        game[1] += rng.randint(4, 60)
        ended = rng.random() < 0.25
        head = rng.getrandbits(256).to_bytes(32, "big").hex()
        entries.append(sign_checkpoint(keyring, game[0], game[1], head, ended=ended, at=at(index)))
        if ended:
            pool[slot] = new_game()
    batches: list[int] = []
    left = count
    while left:
        batches.append(min(left, rng.randint(1, BATCH_MAX)))
        left -= batches[-1]
    return Chunk(start, entries, batches)


EntryRow = tuple[int, str, int, bytes, str, bytes]
HeadRow = tuple[int, bytes, str, str, str]


@dataclass
class Rows:
    """The rows of a chunk for the three tables."""

    entries: list[EntryRow]
    nodes: list[Node]
    heads: list[HeadRow]


def rows_of(
    chunk: Chunk, edge: dict[int, bytes], keyring: Keyring
) -> tuple[Rows, dict[int, bytes]]:
    """The rows the append path would write for the chunk's appends, and the new right edge:
    ``grow`` per simulated append, and its head signed with the time of its last entry."""
    rows = Rows([], [], [])
    size = chunk.start
    for count in chunk.batches:
        part = chunk.entries[size - chunk.start : size - chunk.start + count]
        hashes = [leaf_hash(e.leaf) for e in part]
        nodes, edge = grow(size, edge, hashes)
        rows.entries += [
            (size + n, e.game, e.version, e.leaf, e.signature, h)
            for n, (e, h) in enumerate(zip(part, hashes, strict=True))
        ]
        rows.nodes += nodes
        size += count
        head = sign_tree_head(keyring, size, root_of(edge), at(size - 1))
        rows.heads.append(head_row(head))
    return rows, edge


def head_row(head: TreeHead) -> HeadRow:
    """A signed head as a row of ``tlog_heads``."""
    return (head["size"], bytes.fromhex(head["root_hash"]), head["at"], head["key_id"],
            head["signature"])  # fmt: skip


class Writer(Protocol):
    """Writes a chunk's rows into a store's tables in one transaction."""

    def size(self) -> int:
        """Entries stored."""
        ...

    def write(self, rows: Rows) -> None:
        """Insert the rows, committed together."""
        ...

    def close(self) -> None:
        """Close the connection."""
        ...


class SQLiteWriter:
    """``executemany`` into the log's SQLite file, one transaction per chunk."""

    def __init__(self, path: str) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("PRAGMA cache_size = -1048576")  # 1 GiB for the random game index
        self.conn.execute("PRAGMA synchronous = NORMAL")

    def size(self) -> int:
        """Entries stored."""
        found = self.conn.execute(f"SELECT MAX(leaf_index) FROM {ENTRIES}").fetchone()[0]
        return 0 if found is None else int(found) + 1

    def write(self, rows: Rows) -> None:
        """One transaction: the entries, the nodes, the heads."""
        c = self.conn
        c.execute("BEGIN IMMEDIATE")
        c.executemany(f"INSERT INTO {ENTRIES} VALUES (?, ?, ?, ?, ?, ?)", rows.entries)
        c.executemany(f"INSERT INTO {NODES} VALUES (?, ?, ?)", rows.nodes)
        c.executemany(f"INSERT INTO {HEADS} VALUES (?, ?, ?, ?, ?)", rows.heads)
        c.execute("COMMIT")

    def close(self) -> None:
        """Checkpoint the WAL into the file, close."""
        self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.conn.close()


class PostgresWriter:
    """``COPY`` into the log's PostgreSQL tables, one transaction per chunk."""

    def __init__(self, conninfo: dict[str, Any], schema: str = "public") -> None:
        self.conn = psycopg.connect(**conninfo)
        self.conn.execute("SET synchronous_commit = off")  # a lost chunk is simply made again
        self.conn.commit()
        self.t = {name: sql.Identifier(schema, name) for name in (ENTRIES, NODES, HEADS)}

    def size(self) -> int:
        """Entries stored."""
        row = self.conn.execute(
            sql.SQL("SELECT MAX(leaf_index) FROM {}").format(self.t[ENTRIES])
        ).fetchone()
        self.conn.commit()
        return 0 if row is None or row[0] is None else int(row[0]) + 1

    def write(self, rows: Rows) -> None:
        """One transaction: three ``COPY``s."""
        with self.conn.transaction(), self.conn.cursor() as cur:
            for table, data in ((ENTRIES, rows.entries), (NODES, rows.nodes),
                                (HEADS, rows.heads)):  # fmt: skip
                with cur.copy(sql.SQL("COPY {} FROM STDIN").format(self.t[table])) as copy:
                    for row in data:
                        copy.write_row(row)

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()


def fill(
    store: LogStore,
    writer: Writer,
    keyring: Keyring,
    target: int,
    seed: int,
    *,
    chunk_size: int = CHUNK,
    report: Callable[[str], None] = print,
    made: Callable[[Chunk], None] | None = None,
) -> float:
    """Bulk-fill the store up to ``target`` entries from its stored size and right edge (the
    empty tree's head stored first, as the service does); the seconds it took. ``made`` sees
    each chunk generated."""
    started = time.perf_counter()
    size = writer.size()
    if size == 0:
        ensure_empty_head(store, keyring)
    keys = frontier_keys(size)
    found = store.subtree_hashes(keys)
    edge = {level: found[(level, index)] for level, index in keys}
    first = size
    while size < target:
        chunk = simulated(keyring, seed, size, min(chunk_size, target - size))
        if made is not None:
            made(chunk)
        rows, edge = rows_of(chunk, edge, keyring)
        writer.write(rows)
        size += len(chunk.entries)
        seconds = time.perf_counter() - started
        report(f"  filled {size:,} / {target:,} ({(size - first) / seconds:,.0f} entries/s)")
    return time.perf_counter() - started


def real_appends(store: LogStore, keyring: Keyring, chunk: Chunk) -> None:
    """The same checkpoints through the service's own path: one ``append`` per batch."""
    ensure_empty_head(store, keyring)
    offset = 0
    for count in chunk.batches:
        with store.transaction() as tx:
            append(tx, keyring, chunk.entries[offset : offset + count])
        offset += count


@dataclass
class Side:
    """A log store for :func:`check`: the store, how to open a bulk writer on it, and its
    table's rows (sorted)."""

    store: LogStore
    writer: Callable[[], Writer]
    dump: Callable[[str], list[tuple[Any, ...]]]


def check(bulk: Side, real: Side, keyring: Keyring, entries: int = 3_000) -> list[str]:
    """Fill ``bulk`` by :func:`fill` in two runs (stopped half-way and started again with a
    new writer, in chunks of ``entries // 3``: the right edge is read back
    from the store and crosses chunk boundaries) and ``real`` with the same checkpoints by
    :func:`real_appends`; the differences found (none expected): tables ``dump(table)`` (rows,
    sorted) equal, heads equal but for their signing time (and so signature), each head's
    signature valid, and every head equal to ``tree_hash`` over a ``MemoryTree``."""
    whole = Chunk(0, [], [])

    def made(chunk: Chunk) -> None:
        whole.entries.extend(chunk.entries)
        whole.batches.extend(chunk.batches)

    for target in (entries // 2, entries):
        writer = bulk.writer()
        try:
            fill(bulk.store, writer, keyring, target, seed=14, chunk_size=entries // 3,
                 report=lambda _: None, made=made)  # fmt: skip
        finally:
            writer.close()
    real_appends(real.store, keyring, whole)
    problems: list[str] = []
    for table in (ENTRIES, NODES):
        if bulk.dump(table) != real.dump(table):
            problems.append(f"{table} differs from the append path's")
    bulk_heads, real_heads = bulk.dump(HEADS), real.dump(HEADS)
    if [h[:2] + h[3:4] for h in bulk_heads] != [h[:2] + h[3:4] for h in real_heads]:
        problems.append("the heads (size, root, key) differ from the append path's")
    memory = MemoryTree()
    for e in whole.entries:
        memory.append(e.leaf)
    for head in bulk_heads:
        size, root = int(head[0]), bytes(head[1])
        document = head_document(size, root, head[2], head[3], head[4])
        if not tree_head_signed_by(document, keyring.current):
            problems.append(f"the head of size {size} is not validly signed")
        if tree_hash(memory, size) != root:
            problems.append(f"the head of size {size} is not MemoryTree's tree_hash")
    if len(bulk_heads) != len(whole.batches) + 1 or len(whole.entries) != entries:
        problems.append(f"{len(bulk_heads)} heads for {len(whole.batches)} appends")
    return problems


def sorted_rows(rows: Sequence[Sequence[Any]]) -> list[tuple[Any, ...]]:
    """Rows as comparable tuples (memoryview and bytea as bytes), sorted."""
    return sorted(
        tuple(bytes(v) if isinstance(v, memoryview | bytearray) else v for v in row) for row in rows
    )
