"""What the transparency log answers (issue 14, parts 3 and 4; docs/audit.md, "The
transparency log"; docs/api.md, "Transparency log"): signed tree heads, pages of entries,
inclusion and consistency proofs against stored signed heads, a game's checkpoints, and the
``transparency`` field a record carries. Each proof reads its O(log n) subtree hashes in one
query (:func:`application.tlog.prefetched`)."""

from __future__ import annotations

from typing import Any, TypedDict

from application.checkpoints import Checkpoint, Signer, TreeHead
from application.errors import NotFound
from application.reads import serialised
from application.signing import b64url
from application.tlog import LogEntry, LogReader, LogStore, ensure_empty_head, prefetched
from domain.errors import GameError
from domain.merkle import consistency_proof, inclusion_proof

MAX_ENTRIES = 1000
"""The most entries one page of ``GET /log/entries`` holds."""


class LogRequestRefused(GameError):
    """A proof asked for sizes or indexes that cannot have one (422)."""


class Transparency(TypedDict):
    """A record's proof of being logged (docs/audit.md, "Record format": ``transparency``)."""

    checkpoint: Checkpoint
    signature: str
    public_key: str
    leaf_index: int
    tree_head: TreeHead
    inclusion_proof: list[str]


def latest_head(store: LogStore, signer: Signer) -> TreeHead:
    """The latest signed tree head; an empty log's is signed (and kept) on first ask."""
    found = store.latest_head()
    if found is None:
        ensure_empty_head(store, signer.keyring())
        found = store.latest_head()
        assert found is not None
    return found


def stored_head(store: LogStore, signer: Signer, size: int) -> TreeHead:
    """The stored signed head of the tree of ``size`` entries; ``tree-head-not-found`` when
    the log never had that size as a head (a head is stored after each append; the empty
    tree's is signed and kept on first ask)."""
    found = store.head(size)
    if found is None and size == 0:
        ensure_empty_head(store, signer.keyring())
        found = store.head(0)
    if found is None:
        raise NotFound(
            "tree-head-not-found",
            f"The log has no signed tree head of size {size}: a head is stored after each "
            "append; GET /api/v1/log/tree-head gives the latest.",
        )
    return found


def entries_page(reader: LogReader, start: int, limit: int) -> dict[str, Any]:
    """Entries from ``start``, at most ``limit`` (1 to :data:`MAX_ENTRIES`), and where the next
    page starts (``None`` after the last entry)."""
    if not 1 <= limit <= MAX_ENTRIES or start < 0:
        raise ValueError(f"limit must be 1..{MAX_ENTRIES} and start >= 0")  # the API bounds both
    found = reader.entries(start, limit + 1)
    return {
        "items": found[:limit],
        "next_start": start + limit if len(found) > limit else None,
    }


def inclusion(store: LogStore, signer: Signer, leaf_index: int, tree_size: int) -> dict[str, Any]:
    """The inclusion proof of entry ``leaf_index`` in the stored tree of ``tree_size`` entries,
    with that tree's signed head and the entry's leaf hash."""
    head = stored_head(store, signer, tree_size)
    if not 0 <= leaf_index < tree_size:
        raise LogRequestRefused(
            "leaf-not-in-tree",
            f"Entry {leaf_index} is not in the tree of {tree_size} entries (0 to {tree_size - 1}).",
        )
    proof = prefetched(store, lambda source: inclusion_proof(source, leaf_index, tree_size))
    leaf = store.subtree_hashes([(0, leaf_index)])[(0, leaf_index)]
    return {
        "leaf_index": leaf_index,
        "tree_size": tree_size,
        "leaf_hash": leaf.hex(),
        "proof": [p.hex() for p in proof],
        "tree_head": head,
    }


def consistency(store: LogStore, signer: Signer, first: int, second: int) -> dict[str, Any]:
    """The consistency proof from the stored tree of ``first`` entries to that of ``second``,
    with both signed heads."""
    if first > second:
        raise LogRequestRefused(
            "tree-sizes-out-of-order",
            f"A tree of {first} entries cannot be a prefix of one of {second}: first must not "
            "be above second.",
        )
    first_head = stored_head(store, signer, first)
    second_head = stored_head(store, signer, second)
    proof = prefetched(store, lambda source: consistency_proof(source, first, second))
    return {
        "first": first,
        "second": second,
        "proof": [p.hex() for p in proof],
        "first_head": first_head,
        "second_head": second_head,
    }


def game_checkpoints(reader: LogReader, game: str) -> dict[str, list[LogEntry]]:
    """Every checkpoint of a game, oldest first."""
    return {"items": reader.entries_of(game)}


def transparency_of(
    store: LogStore, signer: Signer, game: str, version: int, tree_size: int | None = None
) -> tuple[Transparency | None, TreeHead]:
    """A record's ``transparency`` and the signed tree head it is proved against: the game's
    latest checkpoint of a version up to ``version`` (the record's last event) among the
    entries of that tree — the latest signed tree head, or the stored one of ``tree_size``
    entries (``tree-head-not-found`` without one) — with its inclusion proof and the public
    key that signed it; ``None`` when the game has no such checkpoint (docs/audit.md, "Record
    format")."""
    head = latest_head(store, signer) if tree_size is None else stored_head(
        store, signer, tree_size
    )  # fmt: skip
    size = head["size"]
    entry = store.latest_of(game, version, size)
    if entry is None:
        return None, head
    key_id = entry["checkpoint"]["key_id"]
    keyring = signer.keyring()
    key = next((k for k in keyring.keys() if k.key_id == key_id), None)  # noqa: SIM118
    if key is None:
        return None, head  # a key the keyring lost: nothing anyone could check
    index = entry["leaf_index"]
    proof = prefetched(store, lambda source: inclusion_proof(source, index, size))
    found: Transparency = {
        "checkpoint": entry["checkpoint"],
        "signature": entry["signature"],
        "public_key": b64url(key.public_raw),
        "leaf_index": index,
        "tree_head": head,
        "inclusion_proof": [p.hex() for p in proof],
    }
    return found, head


def with_transparency(record: bytes, transparency: Transparency | None) -> bytes:
    """A serialised record (a JSON object) with its ``transparency`` field added: attached per
    request, never part of the hash chain nor of the finished record kept in the store."""
    if not record.endswith(b"}") or record == b"{}":
        raise ValueError("a record is a JSON object with fields")
    return record[:-1] + b',"transparency":' + serialised(transparency) + b"}"
