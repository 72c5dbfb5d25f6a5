"""The first two checks of a game record (issue 3, part 5; docs/audit.md, "Hash chain" and
"Randomness"): every link of the hash chain recomputed with :mod:`domain.chain`, then the
revealed seed against the commitment made when the game was created."""

from __future__ import annotations

from typing import Any

from application.audit_format import Discrepancy
from domain import chain
from domain.randomness import commitment


def check_chain(record: dict[str, Any]) -> None:
    """Raise :class:`Discrepancy` at the first broken link: versions run 1, 2, 3, … with
    none missing, each ``prev_hash`` is the hash of the event before it (``""`` for the
    first), each ``hash`` is ``SHA-256(prev_hash + "\\n" + canonical(event))`` recomputed from
    the event's type, the game id, its version, timestamp and data, and ``chain_head`` is the
    last hash."""
    game_id = record["game"]["id"]
    previous = chain.GENESIS
    for expected_version, item in enumerate(record["events"], start=1):
        version, name = item["version"], item["type"]
        if version != expected_version:
            raise Discrepancy(
                f"version recorded {version}, the chain expects {expected_version} "
                "(an event is missing, repeated or out of order)",
                version,
                name,
            )
        if item["prev_hash"] != previous:
            raise Discrepancy(
                f"prev_hash recorded {item['prev_hash'] or '(empty)'}, "
                f"the previous event's hash is {previous or '(empty)'}",
                version,
                name,
            )
        content = chain.canonical(name, game_id, version, item["timestamp"], item["data"])
        digest = chain.link(previous, content)
        if item["hash"] != digest:
            raise Discrepancy(
                f"hash recorded {item['hash']}, recomputed {digest} "
                "(the event's content or its hash was changed)",
                version,
                name,
            )
        previous = digest
    if record["chain_head"] != previous:
        raise Discrepancy(
            f"chain_head recorded {record['chain_head']}, the last event's hash is {previous}"
        )


def check_seed(record: dict[str, Any]) -> None:
    """Raise :class:`Discrepancy` unless the record's ``seed_sha256`` is the commitment in
    its ``Created`` event and, once the seed is revealed, ``SHA-256(seed)`` equals it; a
    record with an outcome must reveal it."""
    created = record["events"][0]
    if created["type"] != "Created":
        raise Discrepancy("a game's first event is Created", created["version"], created["type"])
    committed = created["data"].get("seed_sha256")
    if record["seed_sha256"] != committed:
        raise Discrepancy(
            f"seed_sha256 recorded {record['seed_sha256']}, "
            f"event 1 (Created) committed to {committed}"
        )
    seed = record["seed"]
    if seed is None and record["outcome"] is not None:
        raise Discrepancy(
            "the game has ended (it has an outcome), so its record must reveal the seed"
        )
    if seed is not None and commitment(seed) != committed:
        raise Discrepancy(
            f"the revealed seed's SHA-256 is {commitment(seed)}, "
            f"but the game committed to {committed} when it was created"
        )
