"""The RFC 9162 Merkle tree (domain/merkle.py; docs/audit.md, "Transparency log: the Merkle tree").

The fixed vectors are the Certificate Transparency reference ones, copied from
transparency-dev/merkle (Apache-2.0): the eight leaves, every perfect subtree's hash and every
root of sizes 1..8 from ``testonly/constants.go`` (``LeafInputs``, ``NodeHashes``,
``RootHashes``), and the published inclusion and consistency proofs from
``proof/verify_test.go`` (``inclusionProofs``, ``consistencyProofs``; there leaf numbers are
1-based, here indexes are 0-based). RFC 9162 itself has no vector appendix.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.merkle import (
    EMPTY_ROOT,
    MemoryTree,
    consistency_proof,
    inclusion_proof,
    leaf_hash,
    node_hash,
    tree_hash,
    verify_consistency,
    verify_inclusion,
)

h = bytes.fromhex

LEAVES = [
    h(""),
    h("00"),
    h("10"),
    h("2021"),
    h("3031"),
    h("40414243"),
    h("5051525354555657"),
    h("606162636465666768696a6b6c6d6e6f"),
]

NODE_HASHES = [
    [
        h("6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d"),
        h("96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7"),
        h("0298d122906dcfc10892cb53a73992fc5b9f493ea4c9badb27b791b4127a7fe7"),
        h("07506a85fd9dd2f120eb694f86011e5bb4662e5c415a62917033d4a9624487e7"),
        h("bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"),
        h("4271a26be0d8a84f0bd54c8c302e7cb3a3b5d1fa6780a40bcce2873477dab658"),
        h("b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f"),
        h("46f6ffadd3d06a09ff3c5860d2755c8b9819db7df44251788c7d8e3180de8eb1"),
    ],
    [
        h("fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"),
        h("5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e"),
        h("0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a"),
        h("ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0"),
    ],
    [
        h("d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"),
        h("6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"),
    ],
    [h("5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328")],
]

ROOTS = [
    h("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    h("6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d"),
    h("fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"),
    h("aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77"),
    h("d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"),
    h("4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4"),
    h("76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef"),
    h("ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c"),
    h("5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328"),
]
"""Indexed by tree size, 0 (the empty tree) to 8."""

# (leaf index, tree size, proof)
INCLUSION_PROOFS = [
    (
        0,
        8,
        [
            h("96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7"),
            h("5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e"),
            h("6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"),
        ],
    ),
    (
        5,
        8,
        [
            h("bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"),
            h("ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0"),
            h("d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"),
        ],
    ),
    (2, 3, [h("fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125")]),
    (
        1,
        5,
        [
            h("6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d"),
            h("5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e"),
            h("bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"),
        ],
    ),
]

# (old size, new size, proof)
CONSISTENCY_PROOFS = [
    (1, 1, []),
    (
        1,
        8,
        [
            h("96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7"),
            h("5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e"),
            h("6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"),
        ],
    ),
    (
        6,
        8,
        [
            h("0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a"),
            h("ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0"),
            h("d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"),
        ],
    ),
    (
        2,
        5,
        [
            h("5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e"),
            h("bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"),
        ],
    ),
    (
        6,
        7,
        [
            h("0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a"),
            h("b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f"),
            h("d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"),
        ],
    ),
]


def reference_tree(size: int = 8) -> MemoryTree:
    tree = MemoryTree()
    for leaf in LEAVES[:size]:
        tree.append(leaf)
    return tree


def naive_mth(hashes: list[bytes]) -> bytes:
    """MTH straight from RFC 9162 §2.1.1's recursive definition, over leaf hashes."""
    if not hashes:
        return EMPTY_ROOT
    if len(hashes) == 1:
        return hashes[0]
    k = 1
    while k * 2 < len(hashes):
        k *= 2
    return node_hash(naive_mth(hashes[:k]), naive_mth(hashes[k:]))


def naive_path(m: int, hashes: list[bytes]) -> list[bytes]:
    """PATH(m, D[n]) straight from RFC 9162 §2.1.3.1's recursive definition."""
    n = len(hashes)
    if n == 1:
        return []
    k = 1
    while k * 2 < n:
        k *= 2
    if m < k:
        return [*naive_path(m, hashes[:k]), naive_mth(hashes[k:])]
    return [*naive_path(m - k, hashes[k:]), naive_mth(hashes[:k])]


def naive_subproof(m: int, hashes: list[bytes], complete: bool) -> list[bytes]:
    """SUBPROOF(m, D[n], b) straight from RFC 9162 §2.1.4.1's recursive definition."""
    n = len(hashes)
    if m == n:
        return [] if complete else [naive_mth(hashes)]
    k = 1
    while k * 2 < n:
        k *= 2
    if m <= k:
        return [*naive_subproof(m, hashes[:k], complete), naive_mth(hashes[k:])]
    return [*naive_subproof(m - k, hashes[k:], False), naive_mth(hashes[:k])]


def test_empty_tree_hash_is_sha256_of_nothing() -> None:
    assert tree_hash(MemoryTree(), 0) == EMPTY_ROOT == ROOTS[0]


def test_every_perfect_subtree_hash_matches_the_vectors() -> None:
    tree = reference_tree()
    for level, hashes in enumerate(NODE_HASHES):
        for index, expected in enumerate(hashes):
            assert tree.subtree_hash(level, index) == expected
    assert [leaf_hash(leaf) for leaf in LEAVES] == NODE_HASHES[0]


@pytest.mark.parametrize("size", range(9))
def test_every_root_size_0_to_8_matches_the_vectors(size: int) -> None:
    assert reference_tree().root(size) == ROOTS[size]
    assert reference_tree(size).root() == ROOTS[size]


@pytest.mark.parametrize(("index", "size", "proof"), INCLUSION_PROOFS)
def test_published_inclusion_proofs(index: int, size: int, proof: list[bytes]) -> None:
    assert list(inclusion_proof(reference_tree(), index, size)) == proof
    assert verify_inclusion(NODE_HASHES[0][index], index, size, proof, ROOTS[size])


@pytest.mark.parametrize(("old", "new", "proof"), CONSISTENCY_PROOFS)
def test_published_consistency_proofs(old: int, new: int, proof: list[bytes]) -> None:
    assert list(consistency_proof(reference_tree(), old, new)) == proof
    assert verify_consistency(old, new, ROOTS[old], ROOTS[new], proof)


def test_every_inclusion_proof_of_the_reference_tree_verifies() -> None:
    tree = reference_tree()
    for size in range(1, 9):
        for index in range(size):
            proof = inclusion_proof(tree, index, size)
            assert list(proof) == naive_path(index, NODE_HASHES[0][:size])
            assert verify_inclusion(NODE_HASHES[0][index], index, size, proof, ROOTS[size])
            assert not verify_inclusion(NODE_HASHES[0][index], index, size, proof, ROOTS[size - 1])


def test_every_consistency_proof_of_the_reference_tree_verifies() -> None:
    tree = reference_tree()
    for new in range(9):
        for old in range(new + 1):
            proof = consistency_proof(tree, old, new)
            expected = naive_subproof(old, NODE_HASHES[0][:new], True) if 0 < old < new else []
            assert list(proof) == expected
            assert verify_consistency(old, new, ROOTS[old], ROOTS[new], proof)
            if 0 < old < new:
                assert not verify_consistency(old, new, ROOTS[old - 1], ROOTS[new], proof)
                assert not verify_consistency(old, new, ROOTS[old], ROOTS[new - 1], proof)


def test_the_empty_tree_has_one_head() -> None:
    """A tree of size 0 has the hash of nothing as its head: a "size 0" head with another
    hash is no tree at all, and is the prefix of nothing (nor the extension of anything)."""
    other = ROOTS[1]
    assert not verify_consistency(0, 5, other, ROOTS[5], [])
    assert not verify_consistency(0, 0, other, other, [])
    assert not verify_consistency(0, 0, EMPTY_ROOT, other, [])


def test_a_hash_repeated_anywhere_in_a_proof_is_refused() -> None:
    """A proof with one of its hashes (or the leaf, or a root) given twice, at any place, or
    with one left out, proves nothing: every proof of trees up to 33 leaves."""
    tree = MemoryTree()
    for i in range(33):
        tree.append(i.to_bytes(4, "big"))
    for size in range(1, 34):
        root = tree.root(size)
        for index in range(size):
            leaf, proof = tree.subtree_hash(0, index), list(inclusion_proof(tree, index, size))
            for at in range(len(proof) + 1):
                for extra in {*proof, leaf, root}:
                    assert not verify_inclusion(
                        leaf, index, size, [*proof[:at], extra, *proof[at:]], root
                    )
        for old in range(size + 1):
            old_root, proof = tree.root(old), list(consistency_proof(tree, old, size))
            for at in range(len(proof) + 1):
                for extra in {*proof, old_root, root}:
                    repeated = [*proof[:at], extra, *proof[at:]]
                    assert not verify_consistency(old, size, old_root, root, repeated)
                if at < len(proof):
                    dropped = proof[:at] + proof[at + 1 :]
                    assert not verify_consistency(old, size, old_root, root, dropped)


def test_edge_cases_are_refused_not_raised() -> None:
    root = ROOTS[8]
    assert not verify_inclusion(NODE_HASHES[0][0], 0, 0, [], root)
    assert not verify_inclusion(NODE_HASHES[0][0], 8, 8, [], root)
    assert not verify_inclusion(b"short", 0, 1, [], b"short")
    assert verify_inclusion(NODE_HASHES[0][0], 0, 1, [], ROOTS[1])
    assert not verify_consistency(2, 1, ROOTS[2], ROOTS[1], [])
    assert not verify_consistency(1, 2, ROOTS[1], ROOTS[2], [])
    assert not verify_consistency(1, 1, ROOTS[1], ROOTS[2], [])
    assert not verify_consistency(1, 1, ROOTS[1], ROOTS[1], [ROOTS[1]])
    assert verify_consistency(0, 0, EMPTY_ROOT, EMPTY_ROOT, [])
    assert verify_consistency(0, 5, EMPTY_ROOT, ROOTS[5], [])
    assert not verify_consistency(0, 5, EMPTY_ROOT, ROOTS[5], [ROOTS[1]])
    with pytest.raises(ValueError):
        inclusion_proof(reference_tree(), 8, 8)
    with pytest.raises(ValueError):
        consistency_proof(reference_tree(), 5, 4)
    with pytest.raises(ValueError):
        MemoryTree().append_hash(b"not a hash")


# --- properties -------------------------------------------------------------------------------

sizes = st.integers(min_value=1, max_value=300)


def built(size: int) -> tuple[MemoryTree, list[bytes]]:
    tree = MemoryTree()
    for i in range(size):
        tree.append(i.to_bytes(4, "big"))
    return tree, [tree.subtree_hash(0, i) for i in range(size)]


@given(sizes, st.data())
def test_incremental_root_is_the_rfc_mth(size: int, data: st.DataObject) -> None:
    tree, hashes = built(size)
    prefix = data.draw(st.integers(min_value=0, max_value=size))
    assert tree.root(prefix) == naive_mth(hashes[:prefix])


@given(sizes, st.data())
def test_inclusion_proofs_verify_and_tampering_fails(size: int, data: st.DataObject) -> None:
    tree, hashes = built(size)
    index = data.draw(st.integers(min_value=0, max_value=size - 1))
    proof = inclusion_proof(tree, index, size)
    root = tree.root()
    assert list(proof) == naive_path(index, hashes)
    assert verify_inclusion(hashes[index], index, size, proof, root)
    # A changed leaf.
    assert not verify_inclusion(leaf_hash(b"forged"), index, size, proof, root)
    # A wrong index.
    other = data.draw(st.integers(min_value=0, max_value=size - 1).filter(lambda i: i != index))
    if size > 1:
        assert not verify_inclusion(hashes[index], other, size, proof, root)
    # A truncated or lengthened path.
    if proof:
        assert not verify_inclusion(hashes[index], index, size, proof[:-1], root)
        assert not verify_inclusion(hashes[index], index, size, proof[1:], root)
    assert not verify_inclusion(hashes[index], index, size, (*proof, root), root)
    # A flipped bit in any element.
    if proof:
        at = data.draw(st.integers(min_value=0, max_value=len(proof) - 1))
        bad = bytes([proof[at][0] ^ 1]) + proof[at][1:]
        assert not verify_inclusion(
            hashes[index], index, size, (*proof[:at], bad, *proof[at + 1 :]), root
        )


@given(sizes, st.data())
def test_consistency_proofs_verify_and_a_rewritten_log_fails(
    size: int, data: st.DataObject
) -> None:
    tree, hashes = built(size)
    old = data.draw(st.integers(min_value=0, max_value=size))
    proof = consistency_proof(tree, old, size)
    old_root, new_root = tree.root(old), tree.root()
    assert verify_consistency(old, size, old_root, new_root, proof)
    if not 0 < old < size:
        return
    assert list(proof) == naive_subproof(old, hashes, True)
    # A tree head that is not an extension: the old log with one entry rewritten.
    changed = data.draw(st.integers(min_value=0, max_value=old - 1))
    rewritten = list(hashes[:old])
    rewritten[changed] = leaf_hash(b"rewritten")
    assert not verify_consistency(old, size, naive_mth(rewritten), new_root, proof)
    # The new tree with a rewritten entry, old or new.
    moved = data.draw(st.integers(min_value=0, max_value=size - 1))
    forged = list(hashes)
    forged[moved] = leaf_hash(b"rewritten")
    assert not verify_consistency(old, size, old_root, naive_mth(forged), proof)
    # Wrong sizes, a truncated or padded proof.
    assert not verify_consistency(old, size, old_root, new_root, proof[:-1])
    assert not verify_consistency(old, size, old_root, new_root, (*proof, new_root))
    if old + 1 < size:
        assert not verify_consistency(old + 1, size, old_root, new_root, proof)
    if old > 1:
        assert not verify_consistency(old - 1, size, old_root, new_root, proof)


class CountingSource:
    """A stand-in store for a huge log: any perfect subtree's "hash" is made up from its
    position, and every look-up is counted."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.lookups = 0

    def subtree_hash(self, level: int, index: int) -> bytes:
        assert (index + 1) << level <= self.size, "asked for a subtree outside the tree"
        self.lookups += 1
        return leaf_hash(f"{level}:{index}".encode())


@given(st.integers(min_value=2, max_value=10**12), st.integers(min_value=0, max_value=10**12))
def test_proofs_need_logarithmically_many_subtree_hashes(size: int, pick: int) -> None:
    bound = 2 * size.bit_length()
    source = CountingSource(size)
    tree_hash(source, size)
    assert source.lookups <= size.bit_length()
    source.lookups = 0
    assert len(inclusion_proof(source, pick % size, size)) <= size.bit_length()
    assert source.lookups <= bound
    source.lookups = 0
    old = pick % size
    assert len(consistency_proof(source, old, size)) <= size.bit_length() + 1
    assert source.lookups <= bound


def test_a_tree_head_is_its_size_and_its_hash_together() -> None:
    """Documented in docs/audit.md: the hash alone does not fix the size — the RFC's verifier
    accepts this proof for entry 0 under size 3 and under size 4 against the 3-entry root — so
    a signed tree head must sign the size with the hash."""
    tree = reference_tree()
    proof = inclusion_proof(tree, 0, 3)
    assert verify_inclusion(NODE_HASHES[0][0], 0, 3, proof, ROOTS[3])
    assert verify_inclusion(NODE_HASHES[0][0], 0, 4, proof, ROOTS[3])
    assert not verify_inclusion(NODE_HASHES[0][0], 0, 4, proof, ROOTS[4])
