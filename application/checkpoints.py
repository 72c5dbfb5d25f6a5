"""The statements the service signs for its transparency log (issue 14, parts 2 and 3;
docs/audit.md, "Signed checkpoints" and "The transparency log"): a game's **checkpoint** — one
entry of the log — and the log's **signed tree head**. Pure: the keyring is given
(:mod:`application.signing`), the time too where a test needs it.

Everything signed is ``canonical_json(value)``: the JSON of ``value`` with its keys sorted, no
spaces, ASCII only (the hash chain's form, :mod:`domain.chain`). Signatures and keys are
unpadded base64url, hashes lowercase hex.

A checkpoint::

    {"format": "gameledger-checkpoint/1", "game": "<uuid, sha256:<64 hex> or tournament:<uuid>>",
     "version": <int>,
     "chain_head": "<64 hex>", "ended": <bool>, "at": "<UTC ISO 8601, ...Z>",
     "key_id": "<16 hex>"}

names the game by its id, or a private game by the SHA-256 of its id (:func:`log_name`), or a
tournament's chain by ``tournament:`` and its id (:func:`tournament_log_name`), and is signed
with Ed25519 by the key ``key_id``; its leaf in the Merkle log is exactly its canonical bytes
(the leaf hash is ``SHA-256(0x00 || bytes)``, :func:`domain.merkle.leaf_hash`).
The signature is kept beside the entry, not in the leaf.

A signed tree head is ``{"format": "gameledger-tree-head/1", "size", "root_hash", "at",
"key_id"}`` plus ``"signature"``, the Ed25519 signature of the canonical bytes of the five
fields."""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Protocol, TypedDict

from application.signing import Keyring, PublicKey, b64url, now
from domain.merkle import leaf_hash

CHECKPOINT_FORMAT: Final = "gameledger-checkpoint/1"
TREE_HEAD_FORMAT: Final = "gameledger-tree-head/1"

_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_KEY_ID = re.compile(r"^[0-9a-f]{16}$")
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
_DIGEST = re.compile(r"^sha256:[0-9a-f]{64}$")
_TOURNAMENT = re.compile(
    r"^tournament:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
)
_AT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")
_SIGNATURE = re.compile(r"^[A-Za-z0-9_-]{86}$")


class Checkpoint(TypedDict):
    """One entry of the log: a game's chain head at a version, signed (docs/audit.md,
    "Signed checkpoints")."""

    format: str
    game: str
    version: int
    chain_head: str
    ended: bool
    at: str
    key_id: str


class TreeHead(TypedDict):
    """A signed tree head document: the five signed fields and the signature."""

    format: str
    size: int
    root_hash: str
    at: str
    key_id: str
    signature: str


class Signer(Protocol):
    """Where the signing keys come from (``infrastructure.signing_keys.KeyService``)."""

    def keyring(self) -> Keyring:
        """The current keyring."""
        ...


PRIVATE_PREFIX: Final = "sha256:"
"""How a private game's name in the log begins (:func:`log_name`)."""


def log_name(game_id: str, private: bool) -> str:
    """The name of a game in the log, its checkpoints' ``game`` (docs/audit.md, "Signed
    checkpoints": private games): a public game's id, or for a private game
    ``"sha256:"`` + the SHA-256 (hex) of its id as its lowercase string. The log is public and a
    private game is listed nowhere: its id (114 random bits) cannot be found from the digest,
    while whoever holds the id — a player, a verifier with its record — finds its entries."""
    if not private:
        return game_id
    return PRIVATE_PREFIX + hashlib.sha256(game_id.lower().encode("ascii")).hexdigest()


TOURNAMENT_PREFIX: Final = "tournament:"
"""How a tournament's name in the log begins (:func:`tournament_log_name`)."""


def tournament_log_name(tournament_id: str) -> str:
    """The name of a tournament's hash chain in the log (docs/tournaments.md, "The tournament
    record"): ``tournament:`` and its id (tournaments are public). A tournament's chain is
    checkpointed as a game's is, ``ended`` at ``TournamentFinished``."""
    return TOURNAMENT_PREFIX + tournament_id.lower()


def is_game_name(value: Any) -> bool:
    """Whether ``value`` is a name in the log: a game's lowercase UUID, ``sha256:`` and 64
    lowercase hex digits (a private game's), or ``tournament:`` and a lowercase UUID (a
    tournament's chain)."""
    return isinstance(value, str) and bool(
        _UUID.match(value) or _DIGEST.match(value) or _TOURNAMENT.match(value)
    )


def canonical_json(value: Any) -> bytes:
    """The bytes that are signed and logged: keys sorted, no spaces, ASCII only."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode(
        "ascii"
    )


def from_b64url(text: str) -> bytes | None:
    """The bytes of unpadded base64url ``text``; ``None`` for anything else."""
    if not isinstance(text, str) or not re.fullmatch(r"[A-Za-z0-9_-]*", text):
        return None
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None


@dataclass(frozen=True)
class SignedCheckpoint:
    """A checkpoint with its canonical bytes (the leaf), its leaf hash and its signature."""

    checkpoint: Checkpoint
    leaf: bytes
    signature: str

    @property
    def leaf_hash(self) -> bytes:
        """SHA-256(0x00 || leaf) (RFC 9162 §2.1.1)."""
        return leaf_hash(self.leaf)

    @property
    def game(self) -> str:
        """The game's id."""
        return self.checkpoint["game"]

    @property
    def version(self) -> int:
        """The version checkpointed."""
        return self.checkpoint["version"]


def sign_checkpoint(
    keyring: Keyring,
    game: str,
    version: int,
    chain_head: str,
    *,
    ended: bool,
    at: str | None = None,
) -> SignedCheckpoint:
    """The checkpoint of ``game`` at ``version`` (whose event's hash is ``chain_head``), signed
    by the keyring's current key."""
    checkpoint: Checkpoint = {
        "format": CHECKPOINT_FORMAT,
        "game": game,
        "version": version,
        "chain_head": chain_head,
        "ended": ended,
        "at": at or now(),
        "key_id": keyring.key_id,
    }
    leaf = canonical_json(checkpoint)
    _, signature = keyring.sign(leaf)
    return SignedCheckpoint(checkpoint, leaf, b64url(signature))


def sign_tree_head(keyring: Keyring, size: int, root: bytes, at: str | None = None) -> TreeHead:
    """The signed tree head of a log of ``size`` entries whose root hash is ``root``."""
    signed = {
        "format": TREE_HEAD_FORMAT,
        "size": size,
        "root_hash": root.hex(),
        "at": at or now(),
        "key_id": keyring.key_id,
    }
    _, signature = keyring.sign(canonical_json(signed))
    return {**signed, "signature": b64url(signature)}  # type: ignore[typeddict-item]


TREE_HEAD_SIGNED: Final = ("format", "size", "root_hash", "at", "key_id")
"""The fields of a tree head that its ``signature`` covers."""


def checkpoint_bytes(checkpoint: Mapping[str, Any]) -> bytes:
    """A checkpoint's leaf in the log, which is also what its signature covers."""
    return canonical_json(dict(checkpoint))


def tree_head_bytes(head: Mapping[str, Any]) -> bytes:
    """The canonical bytes a tree head's signature covers: its five signed fields
    (:data:`TREE_HEAD_SIGNED`; ``signature`` and anything else left out)."""
    return canonical_json({name: head[name] for name in TREE_HEAD_SIGNED})


def is_checkpoint(value: Any) -> bool:
    """Whether ``value`` has exactly a checkpoint's fields, each of its form."""
    return (
        isinstance(value, dict)
        and set(value) == set(Checkpoint.__annotations__)
        and value["format"] == CHECKPOINT_FORMAT
        and is_game_name(value["game"])
        and _is_count(value["version"])
        and value["version"] >= 1
        and isinstance(value["chain_head"], str)
        and bool(_HEX64.match(value["chain_head"]))
        and isinstance(value["ended"], bool)
        and _common(value)
    )


def is_tree_head(value: Any) -> bool:
    """Whether ``value`` has exactly a signed tree head's fields, each of its form."""
    return (
        isinstance(value, dict)
        and set(value) == set(TreeHead.__annotations__)
        and value["format"] == TREE_HEAD_FORMAT
        and _is_count(value["size"])
        and isinstance(value["root_hash"], str)
        and bool(_HEX64.match(value["root_hash"]))
        and isinstance(value["signature"], str)
        and bool(_SIGNATURE.match(value["signature"]))
        and _common(value)
    )


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _common(value: dict[str, Any]) -> bool:
    return (
        isinstance(value["at"], str)
        and bool(_AT.match(value["at"]))
        and isinstance(value["key_id"], str)
        and bool(_KEY_ID.match(value["key_id"]))
    )


def checkpoint_signed_by(checkpoint: Any, signature: str, key: PublicKey) -> bool:
    """Whether ``signature`` is ``key``'s signature of the checkpoint and the checkpoint names
    that key. Never raises."""
    raw = from_b64url(signature)
    return (
        is_checkpoint(checkpoint)
        and raw is not None
        and checkpoint["key_id"] == key.key_id
        and key.verify(canonical_json(checkpoint), raw)
    )


def tree_head_signed_by(head: Any, key: PublicKey) -> bool:
    """Whether the tree head document is signed by ``key`` and names it. Never raises."""
    if not is_tree_head(head):
        return False
    raw = from_b64url(head["signature"])
    return (
        raw is not None and head["key_id"] == key.key_id and key.verify(tree_head_bytes(head), raw)
    )
