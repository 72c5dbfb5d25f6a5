"""Cost of the RFC 9162 Merkle tree (domain/merkle.py; issue 14, part 3), as ratios to one plain
SHA-256 of a leaf (a 200-byte stand-in for a signed checkpoint), timed in the same run.

Measured at ``--leaves`` leaves (default 100 000), in memory (``MemoryTree``):

- build: appending every leaf (its leaf hash and the perfect subtrees it completes), per leaf;
- tree head: ``tree_hash`` of the whole tree (O(log n) subtree look-ups and hashes);
- inclusion proof: ``inclusion_proof`` of a random leaf; and its ``verify_inclusion``;
- consistency proof: ``consistency_proof`` from a random older size; and its
  ``verify_consistency``.

    .venv/bin/python bench/merkle.py [--leaves 100000] [--proofs 2000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import hashlib
import random
import time
from collections.abc import Callable

from domain.merkle import (
    MemoryTree,
    consistency_proof,
    inclusion_proof,
    tree_hash,
    verify_consistency,
    verify_inclusion,
)

LEAF = bytes(range(200))


def best(repeat: int, run: Callable[[], int]) -> float:
    """Best seconds per operation over ``repeat`` runs; ``run`` returns its operation count."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        count = run()
        times.append((time.perf_counter() - start) / count)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leaves", type=int, default=100_000)
    parser.add_argument("--proofs", type=int, default=2_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n, proofs = args.leaves, args.proofs
    leaves = [i.to_bytes(8, "big") + LEAF for i in range(n)]

    def plain() -> int:
        for leaf in leaves:
            hashlib.sha256(leaf).digest()
        return n

    tree = MemoryTree()

    def build() -> int:
        nonlocal tree
        tree = MemoryTree()
        for leaf in leaves:
            tree.append(leaf)
        return n

    picks = random.Random(14)
    indexes = [picks.randrange(n) for _ in range(proofs)]
    olds = [picks.randrange(1, n) for _ in range(proofs)]

    sha = best(args.repeat, plain)
    build_time = best(args.repeat, build)
    root = tree.root()
    leaf_hashes = [tree.subtree_hash(0, i) for i in indexes]
    inclusions = [inclusion_proof(tree, i, n) for i in indexes]
    old_roots = [tree.root(m) for m in olds]
    consistencies = [consistency_proof(tree, m, n) for m in olds]

    def heads() -> int:
        for _ in range(proofs):
            tree_hash(tree, n)
        return proofs

    def make_inclusion() -> int:
        for i in indexes:
            inclusion_proof(tree, i, n)
        return proofs

    def check_inclusion() -> int:
        for i, leaf, proof in zip(indexes, leaf_hashes, inclusions, strict=True):
            assert verify_inclusion(leaf, i, n, proof, root)
        return proofs

    def make_consistency() -> int:
        for m in olds:
            consistency_proof(tree, m, n)
        return proofs

    def check_consistency() -> int:
        for m, old_root, proof in zip(olds, old_roots, consistencies, strict=True):
            assert verify_consistency(m, n, old_root, root, proof)
        return proofs

    rows = [
        ("build, per leaf", build_time),
        ("tree head", best(args.repeat, heads)),
        ("inclusion proof", best(args.repeat, make_inclusion)),
        ("verify inclusion", best(args.repeat, check_inclusion)),
        ("consistency proof", best(args.repeat, make_consistency)),
        ("verify consistency", best(args.repeat, check_consistency)),
    ]
    print(f"{n} leaves; plain SHA-256 of a {len(leaves[0])}-byte leaf: {sha * 1e6:.2f} µs")
    print(f"{'operation':<20} {'µs':>8} {'x SHA-256':>10}")
    for name, seconds in rows:
        print(f"{name:<20} {seconds * 1e6:>8.2f} {seconds / sha:>10.1f}")


if __name__ == "__main__":
    main()
