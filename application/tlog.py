"""The append-only transparency log of checkpoints (issue 14, part 3; docs/audit.md, "The
transparency log"): what its storage offers, and how it grows.

The log is an RFC 9162 Merkle tree (:mod:`domain.merkle`) whose leaves are the canonical bytes
of signed checkpoints (:mod:`application.checkpoints`). Its store keeps, as
:class:`domain.merkle.MemoryTree` shows, every entry's leaf hash and every perfect subtree's
hash once it completes, so that a tree head and each proof take O(log n) look-ups — read here
in one query (:func:`prefetched`).

Every append runs inside one :class:`LogTransaction`, which the store serialises across
processes (PostgreSQL: an advisory transaction lock; SQLite: ``BEGIN IMMEDIATE``) and commits
whole: the entries, the new subtree hashes, the new signed tree head (one per append), the
follower's tracking position and the pending running games change together or not at all.
So a checkpoint is never logged twice nor lost, whichever process appends and whenever one
stops."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol, TypedDict, TypeVar

from eventsourcing.persistence import Tracking

from application.checkpoints import (
    Checkpoint,
    SignedCheckpoint,
    TreeHead,
    sign_tree_head,
)
from application.signing import Keyring
from domain.merkle import EMPTY_ROOT, HASH_SIZE, node_hash

Key = tuple[int, int]
"""A perfect subtree: ``(level, index)``, the ``2**level`` leaves from ``index * 2**level``."""
Node = tuple[int, int, bytes]
"""A perfect subtree's hash as stored: ``(level, index, hash)``."""


class LogEntry(TypedDict):
    """One entry as the API lists it."""

    leaf_index: int
    checkpoint: Checkpoint
    signature: str


@dataclass(frozen=True)
class Pending:
    """A running game's chain head not yet checkpointed (docs/audit.md, "Signed
    checkpoints": the schedule)."""

    game: str
    version: int
    chain_head: str


class LogCorrupt(RuntimeError):
    """The store lacks a subtree hash that its tree heads need: never expected."""


class LogTransaction(Protocol):
    """One append to the log, serialised with every other and committed whole."""

    def track(self, tracking: Tracking) -> None:
        """Record the follower's position; ``IntegrityError`` if it is not past the
        recorded one (the batch was applied already: the whole transaction is dropped)."""
        ...

    def size(self) -> int:
        """The number of entries now."""
        ...

    def subtree_hashes(self, keys: Sequence[Key]) -> dict[Key, bytes]:
        """The stored hashes of these perfect subtrees (those that exist)."""
        ...

    def logged(self, checkpoints: Sequence[tuple[str, int]]) -> set[tuple[str, int]]:
        """Which of these ``(game, version)`` have a checkpoint in the log already."""
        ...

    def add(
        self, first: int, entries: Sequence[SignedCheckpoint], nodes: Sequence[Node], head: TreeHead
    ) -> None:
        """Store ``entries`` as leaves ``first``, ``first + 1``, …, the subtree hashes they
        complete and the signed head of the grown tree (a head of that size already stored
        stays: only the empty tree's can be)."""
        ...

    def pending(self) -> list[Pending]:
        """Every running game waiting for a scheduled checkpoint."""
        ...

    def set_pending(self, rows: Sequence[Pending]) -> None:
        """Record (or move on) these games' heads as pending."""
        ...

    def drop_pending(self, games: Collection[str]) -> None:
        """These games wait for no scheduled checkpoint any more."""
        ...

    def last_scheduled(self) -> float:
        """When a scheduled run last ran (seconds since the epoch; 0: never)."""
        ...

    def mark_scheduled(self, at: float) -> None:
        """Record that a scheduled run ran at ``at``."""
        ...


class LogReader(Protocol):
    """What the log's store answers outside an append (each read consistent by itself:
    a tree head is stored with every hash its tree needs)."""

    def latest_head(self) -> TreeHead | None:
        """The signed head of the largest tree stored, if any."""
        ...

    def head(self, size: int) -> TreeHead | None:
        """The stored signed head of the tree of ``size`` entries."""
        ...

    def entries(self, start: int, limit: int) -> list[LogEntry]:
        """Entries ``start`` to ``start + limit - 1`` (those that exist)."""
        ...

    def entries_of(self, game: str) -> list[LogEntry]:
        """A game's entries, oldest first."""
        ...

    def latest_of(self, game: str, max_version: int, below: int) -> LogEntry | None:
        """The game's entry of the highest version not above ``max_version`` among the first
        ``below`` entries."""
        ...

    def subtree_hashes(self, keys: Sequence[Key]) -> dict[Key, bytes]:
        """As :meth:`LogTransaction.subtree_hashes`."""
        ...


class LogStore(LogReader, Protocol):
    """The log's storage: reads, and appends in transactions."""

    def transaction(self) -> AbstractContextManager[LogTransaction]:
        """An append, serialised with every other (committed when the block ends, rolled back
        when it raises)."""
        ...

    def max_tracking_id(self, application_name: str) -> int | None:
        """How far the checkpointer has followed ``application_name``'s log."""
        ...


def frontier_keys(size: int) -> list[Key]:
    """The perfect subtrees along the right edge of a tree of ``size`` leaves, largest first:
    one per set bit of ``size`` (level ``l``: index ``(size >> l) - 1``)."""
    return [
        (level, (size >> level) - 1)
        for level in reversed(range(size.bit_length()))
        if size >> level & 1
    ]


def root_of(frontier: dict[int, bytes]) -> bytes:
    """The tree head hash from the right edge's subtrees (by level): folded from the smallest,
    as RFC 9162's split at the largest power of two below the size does."""
    root: bytes | None = None
    for level in sorted(frontier):
        root = frontier[level] if root is None else node_hash(frontier[level], root)
    return EMPTY_ROOT if root is None else root


def grow(
    size: int, frontier: dict[int, bytes], leaf_hashes: Sequence[bytes]
) -> tuple[list[Node], dict[int, bytes]]:
    """Append leaves to a tree of ``size`` leaves whose right edge is ``frontier``: every
    subtree hash the new leaves complete (leaf hashes at level 0 included) and the new right
    edge. ``MemoryTree.append_hash``'s rule, with only the right edge in hand."""
    edge = dict(frontier)
    nodes: list[Node] = []
    for index, hashed in enumerate(leaf_hashes, start=size):
        level, current = 0, hashed
        nodes.append((0, index, current))
        while level in edge:
            current = node_hash(edge.pop(level), current)
            level += 1
            nodes.append((level, index >> level, current))
        edge[level] = current
    return nodes, edge


def append(
    tx: LogTransaction, keyring: Keyring, checkpoints: Sequence[SignedCheckpoint]
) -> TreeHead | None:
    """Append signed checkpoints in an open transaction and store the grown tree's head,
    signed by ``keyring``; ``None`` (and nothing stored) when there is nothing to append.

    A game's version is checkpointed at most once: one already in the log is left out. (Two
    followers may read overlapping batches: the tracking position refuses a batch that is not
    past it, but one that reaches further than the recorded position is applied, and its
    events up to that position were applied before.)"""
    done = tx.logged([(c.game, c.version) for c in checkpoints]) if checkpoints else set()
    checkpoints = [c for c in checkpoints if (c.game, c.version) not in done]
    if not checkpoints:
        return None
    size = tx.size()
    keys = frontier_keys(size)
    found = tx.subtree_hashes(keys)
    if len(found) != len(keys):
        raise LogCorrupt(f"the log of {size} entries lacks subtree hashes of its right edge")
    nodes, edge = grow(size, {level: found[(level, i)] for level, i in keys}, [
        c.leaf_hash for c in checkpoints
    ])  # fmt: skip
    head = sign_tree_head(keyring, size + len(checkpoints), root_of(edge))
    tx.add(size, checkpoints, nodes, head)
    return head


def ensure_empty_head(store: LogStore, keyring: Keyring) -> None:
    """Store the signed head of the empty tree (size 0, the hash of nothing) unless one is
    stored (docs/audit.md, "The transparency log": an empty log has a signed head too, and the
    empty tree is a prefix of every tree, so size 0 always has a head)."""
    with store.transaction() as tx:
        tx.add(0, [], [], sign_tree_head(keyring, 0, EMPTY_ROOT))


_T = TypeVar("_T")


class _Recording:
    """A subtree source that notes which subtrees are asked for (their hashes: zeros)."""

    def __init__(self) -> None:
        self.keys: list[Key] = []

    def subtree_hash(self, level: int, index: int) -> bytes:
        self.keys.append((level, index))
        return bytes(HASH_SIZE)


class _Found:
    """A subtree source answering from hashes read before."""

    def __init__(self, hashes: dict[Key, bytes]) -> None:
        self.hashes = hashes

    def subtree_hash(self, level: int, index: int) -> bytes:
        found = self.hashes.get((level, index))
        if found is None:
            raise LogCorrupt(f"the log lacks the hash of subtree ({level}, {index})")
        return found


def prefetched(reader: LogReader, compute: Callable[[Any], _T]) -> _T:
    """Run a proof maker of :mod:`domain.merkle` (``compute(source)``) with every subtree
    hash it needs read in one query: which subtrees it asks for depends only on the sizes and
    indexes, never on the hashes, so a first run with placeholder hashes names them."""
    recording = _Recording()
    compute(recording)
    return compute(_Found(reader.subtree_hashes(sorted(set(recording.keys)))))
