"""Which part of the event store holds a game (docs/operations.md, "Shards").

The event store may be split into parts — shards — each an ``eventsourcing`` application with
its own table, table lock and notification log, in one database or several, so that saves of
games in different parts never wait for each other. A game lives in one part for its whole
life, and its id says which: a new game's id is a UUID of version 8 (RFC 9562, custom) whose
last byte is its part. Ids made before the store had parts are UUIDs of other versions and
live in part 0. So an id, a record and the API are the same whatever the number of parts, and
parts can be added to a running store: the games already made stay where their ids say.

>>> game_id = new_game_id(3)
>>> game_id.version, shard_of(game_id)
(8, 3)
>>> shard_of(UUID("9f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b"))  # a version 4 id: part 0
0
>>> store_name(0), store_name(2)
('gameledger', 'gameledger_s2')
"""

from __future__ import annotations

import secrets
from uuid import UUID

MAX_SHARDS = 256
"""Parts an id can name (its last byte)."""

FIRST = "gameledger"
"""The name of part 0, and the stem of the others' (PostgreSQL tables are named after it)."""

_VERSION_MASK = 0xF << 76
_VARIANT_MASK = 0b11 << 62


def new_game_id(shard: int) -> UUID:
    """A new random game id of part ``shard``: 114 random bits, the version (8) and variant
    bits of RFC 9562, and the part in the last byte."""
    if not 0 <= shard < MAX_SHARDS:
        raise ValueError(f"a part is numbered 0 to {MAX_SHARDS - 1}")
    value = secrets.randbits(128)
    value = (value & ~_VERSION_MASK) | (8 << 76)
    value = (value & ~_VARIANT_MASK) | (0b10 << 62)
    return UUID(int=(value & ~0xFF) | shard)


def shard_of(game_id: UUID) -> int:
    """The part that holds ``game_id``: the last byte of a version 8 id, else part 0."""
    if game_id.version == 8:
        return game_id.int & 0xFF
    return 0


def store_name(shard: int) -> str:
    """The application name of part ``shard`` (its tables' and its log's name)."""
    return FIRST if shard == 0 else f"{FIRST}_s{shard}"
