"""Signed checkpoints and signed tree heads (issue 14, parts 2 and 3; docs/audit.md, "Signed
checkpoints" and "The transparency log"): their canonical bytes, their signatures, and how the
log's tree grows from its right edge alone (application/tlog.py) — checked against
domain/merkle.py's reference tree."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from application.checkpoints import (
    CHECKPOINT_FORMAT,
    TREE_HEAD_FORMAT,
    canonical_json,
    checkpoint_signed_by,
    from_b64url,
    is_checkpoint,
    is_tree_head,
    sign_checkpoint,
    sign_tree_head,
    tree_head_bytes,
    tree_head_signed_by,
)
from application.signing import Keyring
from application.tlog import Key, frontier_keys, grow, prefetched, root_of
from domain.merkle import (
    EMPTY_ROOT,
    MemoryTree,
    consistency_proof,
    inclusion_proof,
    leaf_hash,
)
from infrastructure.config import ConfigurationError, Settings

GAME = "0b8e4a4e-6f0c-4d8e-9a3e-2f1f3c5d6e7f"
HEAD = "ab" * 32


@pytest.fixture(scope="module")
def keyring() -> Keyring:
    return Keyring.generate()


def test_canonical_json_is_the_hash_chains_form() -> None:
    assert canonical_json({"b": 1, "a": [True, None, "é"]}) == b'{"a":[true,null,"\\u00e9"],"b":1}'


def test_a_checkpoint_is_its_fields_and_its_leaf_is_their_canonical_bytes(
    keyring: Keyring,
) -> None:
    signed = sign_checkpoint(keyring, GAME, 42, HEAD, ended=True, at="2026-01-02T03:04:05Z")
    assert signed.checkpoint == {
        "format": CHECKPOINT_FORMAT,
        "game": GAME,
        "version": 42,
        "chain_head": HEAD,
        "ended": True,
        "at": "2026-01-02T03:04:05Z",
        "key_id": keyring.key_id,
    }
    assert signed.leaf == (
        b'{"at":"2026-01-02T03:04:05Z","chain_head":"' + HEAD.encode() + b'","ended":true,'
        b'"format":"gameledger-checkpoint/1","game":"'
        + GAME.encode()
        + b'","key_id":"'
        + keyring.key_id.encode()
        + b'","version":42}'
    )
    assert signed.leaf_hash == hashlib.sha256(b"\x00" + signed.leaf).digest()
    raw = from_b64url(signed.signature)
    assert raw is not None and len(raw) == 64 and "=" not in signed.signature
    assert keyring.current.verify(signed.leaf, raw)
    assert is_checkpoint(json.loads(signed.leaf))
    assert checkpoint_signed_by(signed.checkpoint, signed.signature, keyring.current)


def test_a_checkpoint_changed_or_signed_by_another_key_does_not_verify(keyring: Keyring) -> None:
    signed = sign_checkpoint(keyring, GAME, 7, HEAD, ended=False)
    other = Keyring.generate()
    assert not checkpoint_signed_by(signed.checkpoint, signed.signature, other.current)
    for field, value in [("version", 8), ("ended", True), ("chain_head", "cd" * 32)]:
        changed: Any = {**signed.checkpoint, field: value}
        assert not checkpoint_signed_by(changed, signed.signature, keyring.current), field
    resigned = sign_checkpoint(other, GAME, 7, HEAD, ended=False, at=signed.checkpoint["at"])
    # re-signed by another key: it names that key, so it is not this key's
    assert not checkpoint_signed_by(resigned.checkpoint, resigned.signature, keyring.current)
    assert not checkpoint_signed_by(signed.checkpoint, "not base64!", keyring.current)
    extra: Any = {**signed.checkpoint, "x": 1}
    assert not checkpoint_signed_by(extra, signed.signature, keyring.current)


@pytest.mark.parametrize(
    "change",
    [
        {"version": 0},
        {"version": True},
        {"ended": 1},
        {"game": GAME.upper()},
        {"chain_head": HEAD[:-1]},
        {"at": "2026-01-02T03:04:05+00:00"},
        {"key_id": "ABCDEF0123456789"},
        {"format": "gameledger-checkpoint/2"},
    ],
)
def test_a_checkpoint_of_the_wrong_form_is_refused(
    keyring: Keyring, change: dict[str, Any]
) -> None:
    signed = sign_checkpoint(keyring, GAME, 7, HEAD, ended=False)
    assert is_checkpoint(signed.checkpoint)
    assert not is_checkpoint({**signed.checkpoint, **change})


def test_a_tree_head_signs_its_five_fields(keyring: Keyring) -> None:
    root = hashlib.sha256(b"root").digest()
    head = sign_tree_head(keyring, 12, root, at="2026-01-02T03:04:05Z")
    assert head["format"] == TREE_HEAD_FORMAT and head["size"] == 12
    assert head["root_hash"] == root.hex() and head["key_id"] == keyring.key_id
    five = {k: v for k, v in head.items() if k != "signature"}
    assert tree_head_bytes(head) == canonical_json(five)
    assert keyring.current.verify(canonical_json(five), from_b64url(head["signature"]) or b"")
    assert is_tree_head(head) and tree_head_signed_by(head, keyring.current)
    for field, value in [("size", 13), ("root_hash", "00" * 32), ("at", "2027-01-02T03:04:05Z")]:
        assert not tree_head_signed_by({**head, field: value}, keyring.current), field
    assert not tree_head_signed_by(head, Keyring.generate().current)
    empty = sign_tree_head(keyring, 0, EMPTY_ROOT)
    assert empty["root_hash"] == hashlib.sha256(b"").hexdigest()
    assert tree_head_signed_by(empty, keyring.current)


def test_the_right_edge_is_one_subtree_per_bit_of_the_size() -> None:
    assert frontier_keys(0) == []
    assert frontier_keys(1) == [(0, 0)]
    assert frontier_keys(6) == [(2, 0), (1, 2)]
    assert frontier_keys(7) == [(2, 0), (1, 2), (0, 6)]
    assert frontier_keys(8) == [(3, 0)]


@pytest.mark.parametrize("batches", [[1] * 20, [3, 5, 1, 8, 2, 13], [64], [1, 31, 33, 7]])
def test_growing_from_the_right_edge_is_the_reference_tree(batches: list[int]) -> None:
    """Appending in batches with only the right edge in hand stores exactly the reference
    tree's subtree hashes, and its root is the reference root at every size."""
    reference = MemoryTree()
    stored: dict[Key, bytes] = {}
    size = 0
    for count in batches:
        leaves = [leaf_hash(f"entry {size + n}".encode()) for n in range(count)]
        edge = {level: stored[(level, index)] for level, index in frontier_keys(size)}
        nodes, edge = grow(size, edge, leaves)
        for leaf in leaves:
            reference.append_hash(leaf)
        for level, index, hashed in nodes:
            assert (level, index) not in stored  # written once, never changed
            assert reference.subtree_hash(level, index) == hashed
            stored[(level, index)] = hashed
        size += count
        assert root_of(edge) == reference.root(size)
        assert root_of({level: stored[(level, i)] for level, i in frontier_keys(size)}) == (
            reference.root(size)
        )
    # every perfect subtree the reference holds was stored
    for level, index in [(0, n) for n in range(size)]:
        assert stored[(level, index)] == reference.subtree_hash(level, index)
    assert root_of({}) == EMPTY_ROOT


class CountingReader:
    """A log reader over a reference tree that counts its queries."""

    def __init__(self, tree: MemoryTree) -> None:
        self.tree = tree
        self.queries = 0
        self.asked: list[Key] = []

    def subtree_hashes(self, keys: list[Key]) -> dict[Key, bytes]:
        self.queries += 1
        self.asked += keys
        return {key: self.tree.subtree_hash(*key) for key in keys}


def test_a_proof_reads_its_subtree_hashes_in_one_query() -> None:
    tree = MemoryTree()
    for n in range(1000):
        tree.append(f"entry {n}".encode())
    for index, size in [(0, 1000), (999, 1000), (512, 777), (3, 4)]:
        reader = CountingReader(tree)
        proof = prefetched(reader, lambda s, i=index, n=size: inclusion_proof(s, i, n))
        assert proof == inclusion_proof(tree, index, size)
        assert reader.queries == 1 and len(reader.asked) <= 2 * 10
    for old, new in [(1, 1000), (500, 999), (777, 778)]:
        reader = CountingReader(tree)
        proof = prefetched(reader, lambda s, m=old, n=new: consistency_proof(s, m, n))
        assert proof == consistency_proof(tree, old, new)
        assert reader.queries == 1 and len(reader.asked) <= 2 * 10


def test_the_schedule_is_configured_by_the_environment() -> None:
    assert Settings.from_env({}).checkpoint_interval == 60
    assert Settings.from_env({"GAMELEDGER_CHECKPOINT_INTERVAL": "0"}).checkpoint_interval == 0
    assert Settings.from_env({"GAMELEDGER_CHECKPOINT_INTERVAL": "0.5"}).checkpoint_interval == 0.5
    for bad in ("-1", "soon", "nan", "inf"):
        with pytest.raises(ConfigurationError):
            Settings.from_env({"GAMELEDGER_CHECKPOINT_INTERVAL": bad})
