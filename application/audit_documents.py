"""Reading the transparency log's documents for a verifier (issue 14, part 4; docs/audit.md,
"Verifying a record's checkpoint"): a checkpoint, a signed tree head, a saved consistency
proof, and the public keys a user pins (``--key``, ``--keys FILE``). Each reader checks the
shape the spec fixes (application/checkpoints.py) and raises :class:`DocumentError`
naming the field that is wrong; whether the values hold is for
:mod:`application.audit_transparency` and :mod:`application.audit_log`. Pure: no I/O."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

from application.checkpoints import CHECKPOINT_FORMAT, TREE_HEAD_FORMAT, is_game_name
from application.signing import ALGORITHM, KeyringError, PublicKey, from_b64url
from domain import ed25519_keys
from domain.move_signatures import decode_b64url

SIGNATURE_BYTES: Final = 64

_HASH = re.compile(r"[0-9a-f]{64}")
_KEY_ID = re.compile(r"[0-9a-f]{16}")
_AT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")


class DocumentError(ValueError):
    """A document that is not of its format; the message names the field."""


@dataclass(frozen=True)
class TreeHead:
    """A signed tree head (``gameledger-tree-head/1``): the tree's size and root hash, when
    and by which key it was signed, its signature, and the document as given."""

    size: int
    root_hash: str
    at: str
    key_id: str
    signature: bytes
    document: dict[str, Any]

    @property
    def root(self) -> bytes:
        """The root hash as bytes."""
        return bytes.fromhex(self.root_hash)


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise DocumentError(f"{where} is not a JSON object")
    return value


def _field(value: dict[str, Any], name: str, where: str) -> Any:
    if name not in value:
        raise DocumentError(f"{where}.{name} is missing")
    return value[name]


def _whole(value: dict[str, Any], name: str, where: str, least: int) -> int:
    found = _field(value, name, where)
    if not isinstance(found, int) or isinstance(found, bool) or found < least:
        raise DocumentError(f"{where}.{name} must be a whole number of at least {least}")
    return found


def _matching(value: dict[str, Any], name: str, where: str, pattern: re.Pattern[str]) -> str:
    found = _field(value, name, where)
    if not isinstance(found, str) or not pattern.fullmatch(found):
        what = {
            _HASH: "64 lowercase hex digits",
            _KEY_ID: "a key id: 16 lowercase hex digits",
            _AT: "a UTC time to the second ending in Z",
        }[pattern]
        raise DocumentError(f"{where}.{name} must be {what}")
    return found


def _format(value: dict[str, Any], where: str, expected: str) -> None:
    if _field(value, "format", where) != expected:
        raise DocumentError(f"{where}.format must be {expected!r}")


def hash_list(value: Any, where: str) -> tuple[bytes, ...]:
    """A proof: a list of hashes, each 64 lowercase hex digits."""
    if not isinstance(value, list):
        raise DocumentError(f"{where} must be a list of hashes")
    for index, item in enumerate(value):
        if not isinstance(item, str) or not _HASH.fullmatch(item):
            raise DocumentError(f"{where}[{index}] must be 64 lowercase hex digits")
    return tuple(bytes.fromhex(item) for item in value)


def signature(value: Any, where: str) -> bytes:
    """An Ed25519 signature: 64 bytes, unpadded base64url, read strictly (one spelling:
    :func:`domain.move_signatures.decode_b64url`)."""
    raw = decode_b64url(value, SIGNATURE_BYTES)
    if raw is None:
        raise DocumentError(
            f"{where} must be an Ed25519 signature: {SIGNATURE_BYTES} bytes in unpadded "
            "base64url (86 characters of A-Z a-z 0-9 - _, no '=')"
        )
    return raw


def public_key(value: Any, where: str, retired_at: str | None = None) -> PublicKey:
    """An Ed25519 public key: 32 bytes, unpadded base64url, read strictly; a key of small
    order or not canonical is refused (:func:`domain.ed25519_keys.key_refusal`, the rule of a
    player's key: docs/audit.md, "Weak keys")."""
    try:
        raw = from_b64url(value, where)
    except KeyringError as error:
        raise DocumentError(str(error)) from None
    refusal = ed25519_keys.key_refusal(raw)
    if refusal is not None:
        raise DocumentError(f"{where} is not an acceptable Ed25519 public key: {refusal}")
    return PublicKey(raw, created_at="", retired_at=retired_at)


def checkpoint(value: Any, where: str) -> dict[str, Any]:
    """A checkpoint (``gameledger-checkpoint/1``) with every field of its type."""
    found = _object(value, where)
    _format(found, where, CHECKPOINT_FORMAT)
    if not is_game_name(_field(found, "game", where)):
        raise DocumentError(
            f"{where}.game must be a game id (a lowercase UUID), sha256: and 64 lowercase "
            "hex digits (a private game's), or tournament: and a lowercase UUID"
        )
    _whole(found, "version", where, 1)
    _matching(found, "chain_head", where, _HASH)
    if not isinstance(_field(found, "ended", where), bool):
        raise DocumentError(f"{where}.ended must be true or false")
    _matching(found, "at", where, _AT)
    _matching(found, "key_id", where, _KEY_ID)
    return found


def tree_head(value: Any, where: str) -> TreeHead:
    """A signed tree head document (``gameledger-tree-head/1``): its five signed fields and
    ``signature``."""
    found = _object(value, where)
    _format(found, where, TREE_HEAD_FORMAT)
    return TreeHead(
        size=_whole(found, "size", where, 0),
        root_hash=_matching(found, "root_hash", where, _HASH),
        at=_matching(found, "at", where, _AT),
        key_id=_matching(found, "key_id", where, _KEY_ID),
        signature=signature(_field(found, "signature", where), f"{where}.signature"),
        document=found,
    )


@dataclass(frozen=True)
class ConsistencyAnswer:
    """A saved ``GET /log/proofs/consistency`` answer: the sizes, the proof, and the service's
    signed heads of both sizes (when the answer has them)."""

    first: int
    second: int
    proof: tuple[bytes, ...]
    first_head: TreeHead | None
    second_head: TreeHead | None


def consistency_answer(value: Any, where: str) -> ConsistencyAnswer:
    """A consistency-proof answer ``{"first", "second", "proof", "first_head",
    "second_head"}`` (docs/audit.md, "Checking that the log only grew")."""
    found = _object(value, where)
    heads = [
        tree_head(found[name], f"{where}.{name}") if found.get(name) is not None else None
        for name in ("first_head", "second_head")
    ]
    return ConsistencyAnswer(
        first=_whole(found, "first", where, 0),
        second=_whole(found, "second", where, 0),
        proof=hash_list(_field(found, "proof", where), f"{where}.proof"),
        first_head=heads[0],
        second_head=heads[1],
    )


def pinned_keys(value: Any, where: str) -> frozenset[PublicKey]:
    """The keys of a saved ``GET /api/v1/keys`` answer or ``gameledger keys show --json``
    output: ``{"keys": [...]}`` or the list itself, each ``{"public_key", ...}``; a
    ``key_id`` or ``algorithm`` given must be the key's; a ``retired_at`` given (a UTC time
    ending in Z, or null) is when the key was retired: nothing it signed later is accepted
    (docs/audit.md, "The key policy")."""
    documents = value.get("keys") if isinstance(value, dict) else value
    if not isinstance(documents, list):
        raise DocumentError(f"{where} must be a list of public keys or an object with 'keys'")
    if not documents:
        raise DocumentError(
            f"no keys in {where}: nothing to pin (save the service's GET /api/v1/keys answer, "
            "or gameledger keys show --json)"
        )
    keys: set[PublicKey] = set()
    for index, item in enumerate(documents):
        at = f"{where}[{index}]"
        document = _object(item, at)
        retired = document.get("retired_at")
        if retired is not None:
            retired = _matching(document, "retired_at", at, _AT)
        key = public_key(_field(document, "public_key", at), f"{at}.public_key", retired)
        if document.get("algorithm", ALGORITHM) != ALGORITHM:
            raise DocumentError(f"{at}.algorithm must be {ALGORITHM!r}")
        if document.get("key_id", key.key_id) != key.key_id:
            raise DocumentError(f"{at}.key_id is not the id of its public key ({key.key_id})")
        keys.add(key)
    return frozenset(keys)


def pinned_key(text: str) -> PublicKey:
    """One key given on the command line (``--key``): its public key, base64url."""
    return public_key(text, "the key")
