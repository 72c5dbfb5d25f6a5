"""The tamper-evident hash chain of a game's events (issue 3; docs/audit.md, "Hash chain").

Every event of a game carries ``prev_hash`` (the ``hash`` of the event before it; ``""`` for
the creation event) and ``hash``::

    hash = SHA-256( prev_hash + "\\n" + canonical(event) )      (lowercase hex)

where ``canonical(event)`` is the UTF-8 JSON, keys sorted, no spaces, ASCII only, of::

    {"type": <event type>, "game": <game id>, "version": <n>, "timestamp": <ISO 8601>,
     "data": <the event's public data>}

An event that hides something from spectators (a card drawn, a deal's cards: the rules'
``event_view``) is hashed as the spectator sees it plus ``"sealed"``, a commitment to the
whole data salted by the secret seed::

    sealed = SHA-256( seed + ":" + str(version) + ":" + canonical JSON of the whole data )

so every reader can recompute every link from what they are shown, and once the seed is
revealed at the end anyone can check the hidden facts against their seals.

The public data is what the event log shows: secret fields (the seed in ``Created``, a seat's
token digest) are left out of it — the seed is bound by its ``seed_sha256`` commitment, which
is in. Anyone holding a game record can recompute every link; changing, dropping or
reordering any event breaks the chain from there on.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any
from uuid import UUID

from domain.protocol import Event, Rules, Viewer

GENESIS = ""
"""The ``prev_hash`` of a game's first event."""

SECRET_FIELDS: dict[str, frozenset[str]] = {
    "Created": frozenset({"seed", "arbiter_sha256", "creator_sha256", "join_sha256", "claims"}),
    "SeatJoined": frozenset({"token_sha256"}),
}
"""Fields of ledger events that no reader of the event log is shown (nor hashed)."""

CHAIN_FIELDS = frozenset({"prev_hash", "hash", "sealed"})
"""The chain's own fields of a stored event: never part of the data hashed."""

ENVELOPE_FIELDS = frozenset(
    {"originator_id", "originator_version", "timestamp", "originator_topic"}
)
"""The stored event's envelope (the library's): hashed as the link's envelope, not as data."""


def canonical_json(value: Any) -> bytes:
    """The canonical bytes of a JSON value, as the chain hashes and everything signed is
    written (docs/audit.md, "Hash chain"): keys sorted, no spaces, ASCII only (every other
    character as a ``\\uXXXX`` escape).

    >>> canonical_json({"b": [1, "é"], "a": True})
    b'{"a":true,"b":[1,"\\\\u00e9"]}'
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode(
        "ascii"
    )


def canonical(
    type_name: str, game_id: str, version: int, timestamp: str, data: Any, *, subject: str = "game"
) -> bytes:
    """The canonical bytes of an event's content; the aggregate's id is under ``subject``
    (``game``, or ``tournament`` for a tournament's chain, docs/tournaments.md)."""
    content = {
        "type": type_name,
        subject: game_id,
        "version": version,
        "timestamp": timestamp,
        "data": data,
    }
    return canonical_json(content)


def link(prev_hash: str, content: bytes) -> str:
    """The hash of an event whose canonical content is ``content``."""
    return hashlib.sha256(prev_hash.encode("ascii") + b"\n" + content).hexdigest()


def seal(seed: str, version: int, data: Any) -> str:
    """The commitment to an event's whole data, salted by the game's secret seed: nobody can
    test guesses of a hidden card against it before the seed is revealed."""
    body = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(f"{seed}:{version}:{body}".encode()).hexdigest()


def sealed_content(spectator_data: dict[str, Any], sealed: str) -> dict[str, Any]:
    """The data the chain hashes for a sealed event: the spectator's view and the seal."""
    return {**spectator_data, "sealed": sealed}


def hashed_fields(type_name: str, fields: dict[str, Any]) -> dict[str, Any]:
    """The public data of a ledger event of ``type_name`` made of ``fields``: all but its
    secret fields (:data:`SECRET_FIELDS`) and the chain's own (:data:`CHAIN_FIELDS`)."""
    hidden = SECRET_FIELDS.get(type_name, frozenset()) | CHAIN_FIELDS
    return {k: v for k, v in fields.items() if k not in hidden}


def event_link(
    prev_hash: str,
    envelope: tuple[str, UUID, int, datetime],
    data: Any,
    subject: str = "game",
) -> str:
    """The hash of an event: ``envelope`` is its type name, aggregate id, version and time
    (the id hashed under ``subject``, see :func:`canonical`)."""
    name, aggregate_id, version, timestamp = envelope
    content = canonical(
        name, str(aggregate_id), version, timestamp.isoformat(), data, subject=subject
    )
    return link(prev_hash, content)


def sealed_for_spectators(
    rules: Rules[Any, Any], seed: str, name: str, version: int, data: dict[str, Any]
) -> tuple[dict[str, Any], str]:
    """What the chain hashes of a move or game event, and its seal: for an event that hides
    something from spectators (rules that ``hides_information``; their ``event_view``), the
    spectator's view plus ``sealed``, a commitment to the whole data salted by the secret seed
    (:func:`seal`); else the data itself and no seal."""
    if not rules.hides_information:
        return data, ""
    spectator = rules.event_view(Event(name, data), Viewer.spectator())
    if spectator == data:
        return data, ""
    sealed = seal(seed, version, data)
    return sealed_content(spectator, sealed), sealed
