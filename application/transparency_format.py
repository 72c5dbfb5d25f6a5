"""The byte forms the transparency log signs and hashes (issue 14; docs/audit.md, "Verifying
a record's checkpoint", "The documents"), shared by the service that makes them and the
verifier that checks them:

* everything signed or hashed is :func:`canonical_json` of a JSON value — the hash chain's
  form (:mod:`domain.chain`): keys sorted, no spaces, non-ASCII escaped, ASCII bytes;
* a **checkpoint** (``gameledger-checkpoint/1``) is one log entry: the leaf of the Merkle tree
  is exactly ``canonical_json(checkpoint)``, and its Ed25519 signature is over the same bytes
  (kept beside the entry, not in the leaf);
* a **signed tree head** (``gameledger-tree-head/1``) is signed over ``canonical_json`` of its
  five fields :data:`TREE_HEAD_SIGNED`; the document adds ``signature``.

Signatures and keys are unpadded base64url (:func:`application.signing.b64url`); hashes are
lowercase hex."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

CHECKPOINT_FORMAT: Final = "gameledger-checkpoint/1"
TREE_HEAD_FORMAT: Final = "gameledger-tree-head/1"

CHECKPOINT_FIELDS: Final = ("format", "game", "version", "chain_head", "ended", "at", "key_id")
"""Every field of a checkpoint; the signature covers them all."""

TREE_HEAD_SIGNED: Final = ("format", "size", "root_hash", "at", "key_id")
"""The fields of a tree head that its ``signature`` covers."""


def canonical_json(value: Any) -> bytes:
    """The canonical bytes of a JSON value: ``json.dumps(value, sort_keys=True,
    separators=(",", ":"), ensure_ascii=True)`` as ASCII (docs/audit.md, "Hash chain")."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return text.encode("ascii")


def checkpoint_bytes(checkpoint: Mapping[str, Any]) -> bytes:
    """A checkpoint's leaf in the log, which is also what its signature covers."""
    return canonical_json(dict(checkpoint))


def tree_head_bytes(head: Mapping[str, Any]) -> bytes:
    """What a tree head's signature covers: its five signed fields (``signature`` left out)."""
    return canonical_json({name: head[name] for name in TREE_HEAD_SIGNED})
