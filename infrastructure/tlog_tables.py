"""The transparency log's tables, the same on SQLite and PostgreSQL (docs/audit.md, "The
transparency log"; docs/operations.md, "Transparency log"):

* ``tlog_entries`` — one row per checkpoint: ``leaf_index``, the game and version, the
  checkpoint's canonical bytes (the leaf), its signature and its leaf hash; a game's version
  is logged at most once (a unique index, which also finds a game's checkpoints);
* ``tlog_nodes`` — every perfect subtree's hash once it completes, ``(level, idx, hash)``,
  the leaf hashes at level 0 (what :class:`domain.merkle.MemoryTree` keeps);
* ``tlog_heads`` — the signed tree head stored after each append, by size;
* ``tlog_pending`` — the running games whose chain head moved since their last checkpoint;
* ``tlog_schedule`` — when the schedule last ran;
* ``tlog_tracking`` — how far the checkpointer has followed each part of the event log."""

from __future__ import annotations

from typing import Final

from application.checkpoints import TREE_HEAD_FORMAT, TreeHead

ENTRIES: Final = "tlog_entries"
NODES: Final = "tlog_nodes"
HEADS: Final = "tlog_heads"
PENDING: Final = "tlog_pending"
SCHEDULE: Final = "tlog_schedule"
TRACKING: Final = "tlog_tracking"

TABLES: Final = (ENTRIES, NODES, HEADS, PENDING, SCHEDULE, TRACKING)


def head_document(size: int, root: bytes, at: str, key_id: str, signature: str) -> TreeHead:
    """A stored head as the signed tree head document."""
    return {
        "format": TREE_HEAD_FORMAT,
        "size": int(size),
        "root_hash": root.hex(),
        "at": str(at),
        "key_id": str(key_id),
        "signature": str(signature),
    }
