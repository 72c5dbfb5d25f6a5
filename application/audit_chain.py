"""The first two checks of a game record (issue 3, part 5; docs/audit.md, "Hash chain" and
"Randomness"): every link of the hash chain recomputed with :mod:`domain.chain`, then the
revealed seed against the commitment made when the game was created."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from application.audit_format import Discrepancy
from domain import chain
from domain.protocol import Event, GameError, Rules, Viewer
from domain.randomness import commitment
from domain.registry import rules_for


def check_chain(record: dict[str, Any]) -> None:
    """Raise :class:`Discrepancy` at the first broken link: versions run 1, 2, 3, … with
    none missing, each ``prev_hash`` is the hash of the event before it (``""`` for the
    first), each ``hash`` is ``SHA-256(prev_hash + "\\n" + canonical(event))`` recomputed from
    the event's type, the game id, its version, timestamp and data, and ``chain_head`` is the
    last hash."""
    check_links(record, record["game"]["id"], lambda item: hashed(record, item))


def check_links(
    record: dict[str, Any],
    subject_id: str,
    hashed_of: Callable[[dict[str, Any]], Any],
    subject: str = "game",
) -> None:
    """The links of a record's ``events`` and its ``chain_head`` (:func:`check_chain`): of a
    game's, or with ``subject="tournament"`` a tournament's (docs/tournaments.md, "Events");
    ``hashed_of`` gives what the chain hashes of an event."""
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
        content = chain.canonical(
            name, subject_id, version, item["timestamp"], hashed_of(item), subject=subject
        )
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


def hashed(record: dict[str, Any], item: dict[str, Any]) -> Any:
    """What the chain hashes of an event: its data or, for a sealed event, the spectator's
    view of it (the game's ``event_view``; anyone can derive it from their own view) with
    the seal (:mod:`domain.chain`)."""
    sealed = item.get("sealed")
    if not sealed:
        return item["data"]
    if not isinstance(sealed, str):
        raise Discrepancy("sealed must be a string or null", item["version"], item["type"])
    try:
        rules: Rules[Any, Any] | None = rules_for(str(record["game"]["kind"]))
    except GameError:
        rules = None
    if rules is None or not rules.hides_information:
        raise Discrepancy(
            "a sealed event in a game that hides nothing", item["version"], item["type"]
        )
    spectator = rules.event_view(Event(item["type"], item["data"]), Viewer.spectator())
    return chain.sealed_content(spectator, sealed)


def check_seals(record: dict[str, Any]) -> None:
    """Once the seed is revealed (the game has ended, and its record shows every hidden
    fact), every seal must be ``SHA-256(seed:version:data)`` of the event's whole data: the
    hidden facts are the ones committed to when they happened."""
    seed = record["seed"]
    if seed is None:
        return
    for item in record["events"]:
        sealed = item.get("sealed")
        if sealed and chain.seal(seed, item["version"], item["data"]) != sealed:
            raise Discrepancy(
                "its data is not what was sealed when it happened (the hidden facts were "
                "changed, or the record does not show them)",
                item["version"],
                item["type"],
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
