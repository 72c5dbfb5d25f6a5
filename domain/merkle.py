"""The Merkle tree of the transparency log, exactly as RFC 9162 (Certificate Transparency 2.0)
defines it (issue 14, part 3; docs/audit.md, "Transparency log: the Merkle tree").

Hashing (RFC 9162 §2.1.1), with SHA-256 and the 0x00 / 0x01 domain separation that stops a
node from passing for a leaf::

    MTH({})        = SHA-256()                                   (the empty tree)
    MTH({d(0)})    = SHA-256(0x00 || d(0))                       (a leaf hash)
    MTH(D[n])      = SHA-256(0x01 || MTH(D[0:k]) || MTH(D[k:n]))  k = largest power of 2 < n

Proofs: ``inclusion_proof`` is PATH(m, D[n]) (§2.1.3.1) and ``consistency_proof`` is
PROOF(m, D[n]) (§2.1.4.1); ``verify_inclusion`` and ``verify_consistency`` are the RFC's
verification algorithms (§2.1.3.2, §2.1.4.2), which need nothing but the proof, the sizes and
the tree heads.

The tree is never held whole. The proof makers ask a ``SubtreeSource`` for the hash of a
*perfect* subtree — the ``2**level`` leaves starting at ``index * 2**level`` (level 0 is a
leaf hash) — and only ever for subtrees that exist in full in the tree they prove. Every range
the RFC's recursion needs is either perfect or (only along the right edge of the tree) the
concatenation of at most log2(n) perfect subtrees, so a tree head, an inclusion proof and a
consistency proof each cost O(log n) subtree look-ups and O(log n) hashes. A store that keeps
every perfect subtree's hash as it completes (one per leaf on average: ``MemoryTree.append``
shows how) therefore serves proofs for millions of leaves without reading them. Pure: no I/O,
only ``hashlib``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Protocol

__all__ = [
    "EMPTY_ROOT",
    "HASH_SIZE",
    "MemoryTree",
    "SubtreeSource",
    "consistency_proof",
    "inclusion_proof",
    "leaf_hash",
    "node_hash",
    "tree_hash",
    "verify_consistency",
    "verify_inclusion",
]

HASH_SIZE = 32
"""Bytes in a SHA-256 hash: every leaf hash, node hash, tree head and proof element."""

EMPTY_ROOT = hashlib.sha256(b"").digest()
"""MTH({}), the hash of the empty tree (RFC 9162 §2.1.1)."""

_LEAF_PREFIX = b"\x00"
_NODE_PREFIX = b"\x01"


def leaf_hash(leaf: bytes) -> bytes:
    """SHA-256(0x00 || leaf): the hash of one log entry (RFC 9162 §2.1.1)."""
    return hashlib.sha256(_LEAF_PREFIX + leaf).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """SHA-256(0x01 || left || right): the hash of an interior node (RFC 9162 §2.1.1)."""
    return hashlib.sha256(_NODE_PREFIX + left + right).digest()


class SubtreeSource(Protocol):
    """Where the proof makers get hashes from: the storage of the log (later parts of issue 14)
    or ``MemoryTree``.

    ``subtree_hash(level, index)`` is the MTH of the perfect subtree of ``2**level`` leaves
    starting at leaf ``index * 2**level``; level 0 is the leaf hash of leaf ``index``. It is
    asked only for subtrees wholly inside the tree being proved (a store may refuse others).
    """

    def subtree_hash(self, level: int, index: int) -> bytes:
        """The hash of perfect subtree ``(level, index)``."""
        ...


def _largest_power_of_two_below(n: int) -> int:
    """k of RFC 9162 §2.1.1: the largest power of two strictly smaller than ``n`` (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


def _range_hash(source: SubtreeSource, start: int, end: int) -> bytes:
    """MTH(D[start:end]) for a range the RFC's recursion produces: ``start`` is a multiple of
    the largest power of two not above ``end - start`` (so the left part of every split is a
    perfect subtree). Costs at most log2(n) look-ups and as many hashes."""
    size = end - start
    if size & (size - 1) == 0:
        level = size.bit_length() - 1
        return source.subtree_hash(level, start >> level)
    k = _largest_power_of_two_below(size)
    return node_hash(_range_hash(source, start, start + k), _range_hash(source, start + k, end))


def tree_hash(source: SubtreeSource, size: int) -> bytes:
    """MTH(D[size]): the root (tree head hash) of the first ``size`` leaves (RFC 9162 §2.1.1)."""
    if size < 0:
        raise ValueError(f"a tree size is not negative, got {size}")
    if size == 0:
        return EMPTY_ROOT
    return _range_hash(source, 0, size)


def inclusion_proof(source: SubtreeSource, index: int, size: int) -> tuple[bytes, ...]:
    """PATH(index, D[size]) (RFC 9162 §2.1.3.1): the hashes, leaf's sibling first, that lead
    from leaf ``index`` to the head of the tree of ``size`` leaves. Raises ``ValueError`` for an
    index outside the tree."""
    if not 0 <= index < size:
        raise ValueError(f"leaf {index} is not in a tree of {size} leaves")
    path: list[bytes] = []
    start, end, m = 0, size, index
    # The RFC's recursion, unrolled from the root down; each sibling is appended after the
    # path below it, so the hashes are collected top-down and reversed at the end.
    while end - start > 1:
        k = _largest_power_of_two_below(end - start)
        if m < k:
            path.append(_range_hash(source, start + k, end))
            end = start + k
        else:
            path.append(_range_hash(source, start, start + k))
            start, m = start + k, m - k
    path.reverse()
    return tuple(path)


def consistency_proof(source: SubtreeSource, old_size: int, new_size: int) -> tuple[bytes, ...]:
    """PROOF(old_size, D[new_size]) (RFC 9162 §2.1.4.1): the hashes that show the tree of
    ``old_size`` leaves is a prefix of the tree of ``new_size`` leaves. Empty when the sizes are
    equal or the old tree is empty. Raises ``ValueError`` unless 0 <= old_size <= new_size."""
    if not 0 <= old_size <= new_size:
        raise ValueError(f"no consistency proof from a tree of {old_size} to {new_size} leaves")
    if old_size in (0, new_size):
        return ()
    proof: list[bytes] = []
    start, end, m, complete = 0, new_size, old_size, True
    # SUBPROOF(m, D[start:end], complete), unrolled: collected top-down, reversed at the end.
    while True:
        n = end - start
        if m == n:
            if not complete:
                proof.append(_range_hash(source, start, end))
            break
        k = _largest_power_of_two_below(n)
        if m <= k:
            proof.append(_range_hash(source, start + k, end))
            end = start + k
        else:
            proof.append(_range_hash(source, start, start + k))
            start, m, complete = start + k, m - k, False
    proof.reverse()
    return tuple(proof)


def _is_hash(value: bytes) -> bool:
    return isinstance(value, bytes) and len(value) == HASH_SIZE


def verify_inclusion(
    leaf: bytes, index: int, size: int, proof: Sequence[bytes], root: bytes
) -> bool:
    """RFC 9162 §2.1.3.2: whether ``proof`` shows the leaf hash ``leaf`` is leaf ``index`` of
    the tree of ``size`` leaves whose head hash is ``root``. Never raises: anything malformed
    (an index outside the tree, a hash of the wrong length, a path too short or too long) is
    simply not a proof. ``size`` and ``root`` must come from the same (signed) tree head: the
    hash alone does not fix the size (docs/audit.md, "Transparency log: the Merkle tree")."""
    if not (0 <= index < size and _is_hash(leaf) and _is_hash(root)):
        return False
    if not all(_is_hash(p) for p in proof):
        return False
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root


def verify_consistency(
    old_size: int, new_size: int, old_root: bytes, new_root: bytes, proof: Sequence[bytes]
) -> bool:
    """RFC 9162 §2.1.4.2: whether ``proof`` shows the tree of ``old_size`` leaves with head
    ``old_root`` is a prefix of the tree of ``new_size`` leaves with head ``new_root`` — that
    the log only appended since. Equal sizes need an empty proof and equal heads; every tree
    extends the empty tree (empty proof), whose head is the hash of nothing: a "size 0" head
    with another hash is no tree, and the prefix of none. Never raises."""
    if not (0 <= old_size <= new_size and _is_hash(old_root) and _is_hash(new_root)):
        return False
    if not all(_is_hash(p) for p in proof):
        return False
    if old_size == 0:  # the empty tree, whose head is the hash of nothing, begins every tree
        return not proof and old_root == EMPTY_ROOT and (new_size > 0 or new_root == EMPTY_ROOT)
    if old_size == new_size:
        return not proof and old_root == new_root
    if not proof:
        return False
    path = list(proof)
    if old_size & (old_size - 1) == 0:
        path.insert(0, old_root)
    fn, sn = old_size - 1, new_size - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return fr == old_root and sr == new_root and sn == 0


class MemoryTree:
    """A log's tree kept in memory: every leaf hash and every perfect subtree's hash, computed
    incrementally as leaves are appended (on average one node hash per leaf). It is the
    reference ``SubtreeSource``, and shows what a store should keep: the ``(level, index,
    hash)`` of each perfect subtree as it completes."""

    def __init__(self) -> None:
        self._levels: list[list[bytes]] = [[]]

    def __len__(self) -> int:
        return len(self._levels[0])

    def append(self, leaf: bytes) -> int:
        """Adds a log entry (its bytes; hashed here with ``leaf_hash``); returns its index."""
        return self.append_hash(leaf_hash(leaf))

    def append_hash(self, hashed: bytes) -> int:
        """Adds an entry by its leaf hash; completes every subtree it closes. Returns its index."""
        if not _is_hash(hashed):
            raise ValueError("a leaf hash is 32 bytes")
        levels = self._levels
        index = len(levels[0])
        levels[0].append(hashed)
        level, position, current = 0, index, hashed
        while position & 1:
            current = node_hash(levels[level][position - 1], current)
            level += 1
            position >>= 1
            if len(levels) == level:
                levels.append([])
            levels[level].append(current)
        return index

    def subtree_hash(self, level: int, index: int) -> bytes:
        """The hash of the perfect subtree ``(level, index)``; ``IndexError`` if it is not yet
        complete."""
        if level < 0 or index < 0:
            raise IndexError(f"no subtree ({level}, {index})")
        return self._levels[level][index]

    def root(self, size: int | None = None) -> bytes:
        """The head hash of the first ``size`` leaves (default: all)."""
        return tree_hash(self, len(self) if size is None else size)
