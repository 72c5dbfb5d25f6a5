"""A transparency log for tests (issue 14; docs/audit.md, "Transparency log"): signed
checkpoints of records appended to a real ``domain.merkle.MemoryTree`` with a real
``Keyring``, signed tree heads of any size, and each record's ``transparency`` field exactly
as the spec's record export gives it — so the verifier is tested on the formats, without the
service's log storage."""

from __future__ import annotations

import hashlib
import random
import uuid
from dataclasses import dataclass, field
from typing import Any

from application.audit_transparency import AFTER_THE_END, OVER_WITHOUT_OUTCOME
from application.checkpoints import (
    CHECKPOINT_FORMAT,
    TREE_HEAD_FORMAT,
    checkpoint_bytes,
    log_name,
    tree_head_bytes,
)
from application.records import export_record
from application.signing import Keyring, b64url
from domain.merkle import MemoryTree, consistency_proof, inclusion_proof
from infrastructure.config import Settings
from infrastructure.container import build_services
from tests.helpers import Table

AT = "2026-11-22T12:00:00Z"

ROTATED = (
    "if the service rotated its key since the keys were saved, fetch GET /api/v1/keys again (or "
    "gameledger keys show --json) and pin the new list"
)
"""The end of the message for a signature by a key that is not pinned."""


def end_of(record: dict[str, Any]) -> int | None:
    """The version at which the record's game ended (None: it runs)."""
    events = record["events"]
    last = len(events)
    while last > 1 and events[last - 1]["type"] in AFTER_THE_END:
        last -= 1
    over = record["outcome"] is not None or events[last - 1]["type"] in OVER_WITHOUT_OUTCOME
    return last if over else None


def checkpoint_of(
    record: dict[str, Any],
    keyring: Keyring,
    version: int | None = None,
    ended: bool | None = None,
) -> dict[str, Any]:
    """The checkpoint the service makes of a record's game at ``version`` (default: its end,
    or its last event while it runs; ``ended`` by default: at its end), signed by ``keyring``'s
    current key."""
    end = end_of(record)
    at = version or end or len(record["events"])
    return {
        "format": CHECKPOINT_FORMAT,
        "game": log_name(record["game"]["id"], record["events"][0]["data"].get("private") is True),
        "version": at,
        "chain_head": record["events"][at - 1]["hash"],
        "ended": at == end if ended is None else ended,
        "at": AT,
        "key_id": keyring.key_id,
    }


def filler(keyring: Keyring, n: int) -> dict[str, Any]:
    """The checkpoint of some other game."""
    return {
        "format": CHECKPOINT_FORMAT,
        "game": str(uuid.UUID(int=n + 1)),
        "version": 10 + n,
        "chain_head": hashlib.sha256(f"other {n}".encode()).hexdigest(),
        "ended": n % 2 == 0,
        "at": AT,
        "key_id": keyring.key_id,
    }


def sign(keyring: Keyring, data: bytes) -> str:
    """The current key's signature, base64url."""
    return b64url(keyring.sign(data)[1])


@dataclass
class Log:
    """A log of checkpoints in a ``MemoryTree``, signed by ``keyring`` (which may be rotated:
    ``keyring`` signs what is appended and every tree head made from then on)."""

    keyring: Keyring
    tree: MemoryTree = field(default_factory=MemoryTree)
    entries: list[tuple[dict[str, Any], str]] = field(default_factory=list)
    at: str = AT
    """The time its tree heads are signed at."""

    def append(self, checkpoint: dict[str, Any]) -> int:
        """Log a checkpoint; its leaf index."""
        self.entries.append((checkpoint, sign(self.keyring, checkpoint_bytes(checkpoint))))
        return self.tree.append(checkpoint_bytes(checkpoint))

    def fill(self, count: int) -> None:
        """Log ``count`` checkpoints of other games."""
        for _ in range(count):
            self.append(filler(self.keyring, len(self.entries)))

    def head(self, size: int | None = None) -> dict[str, Any]:
        """The signed tree head of the first ``size`` entries (default: all)."""
        n = len(self.tree) if size is None else size
        head: dict[str, Any] = {
            "format": TREE_HEAD_FORMAT,
            "size": n,
            "root_hash": self.tree.root(n).hex(),
            "at": self.at,
            "key_id": self.keyring.key_id,
        }
        return {**head, "signature": sign(self.keyring, tree_head_bytes(head))}

    def transparency(self, index: int, size: int | None = None) -> dict[str, Any]:
        """A record's ``transparency`` for entry ``index``, proved in the tree of ``size``."""
        checkpoint, signature = self.entries[index]
        n = len(self.tree) if size is None else size
        keys = (self.keyring.current, *self.keyring.retired)
        signer = next(k for k in keys if k.key_id == checkpoint["key_id"])
        return {
            "checkpoint": checkpoint,
            "signature": signature,
            "public_key": b64url(signer.public_raw),
            "leaf_index": index,
            "tree_head": self.head(n),
            "inclusion_proof": [h.hex() for h in inclusion_proof(self.tree, index, n)],
        }

    def consistency(self, first: int, second: int) -> dict[str, Any]:
        """The ``GET /log/proofs/consistency`` answer for two sizes."""
        proof = consistency_proof(self.tree, first, second)
        return {
            "first": first,
            "second": second,
            "proof": [h.hex() for h in proof],
            "first_head": self.head(first),
            "second_head": self.head(second),
        }


def logged(record: dict[str, Any], log: Log, before: int = 3, after: int = 2) -> dict[str, Any]:
    """A copy of ``record`` with its checkpoint logged between others, and its
    ``transparency`` field attached (proved against the whole log)."""
    log.fill(before)
    index = log.append(checkpoint_of(record, log.keyring))
    log.fill(after)
    return {**record, "transparency": log.transparency(index)}


def forge(real: dict[str, Any], bot_seed: int = 1234) -> dict[str, Any]:
    """Issue 14's forgery: another legal game played by random bots from the real game's
    revealed seed, under its id, with its kind, options and players' names, exported from a
    store of the forger's own — what anyone can make once a game has ended."""
    forged_in = build_services(Settings(store="memory", embedded_projections=False))
    try:
        app, game = forged_in.app, real["game"]
        game_id = uuid.UUID(game["id"])
        app.create_game(game["kind"], game["players"], game["options"], seed=real["seed"],
                        game_id=game_id)  # fmt: skip
        tokens = [app.join(game_id, seat["name"], seat["seat"]).token for seat in real["seats"]]
        Table(app, game_id, tokens, bot=random.Random(bot_seed)).play_out()
        return export_record(app, game_id)
    finally:
        forged_in.close()
