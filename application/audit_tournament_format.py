"""The first checks of a tournament record (issue 15, part 6; docs/tournaments.md, "Verifying
a tournament", 1-3): its shape, the tournament's hash chain recomputed link by link
(:func:`domain.tournament.chain.event_link`'s construction), and the revealed tournament seed
against the commitment its ``Created`` made. Each raises
:class:`application.audit_format.Discrepancy` at the first thing that does not hold."""

from __future__ import annotations

from typing import Any

from application.audit_chain import check_links
from application.audit_format import (
    EVENT_SHAPE,
    Discrepancy,
    check_event_form,
    check_fields,
    check_head,
)
from application.tournament_record_format import FORMAT, FORMAT_VERSION
from domain.randomness import commitment

TOP: dict[str, tuple[type, ...]] = {
    "tournament": (dict,),
    "entrants": (list,),
    "seed_sha256": (str,),
    "seed": (str, type(None)),
    "events": (list,),
    "chain_head": (str,),
    "rounds": (list,),
    "standings": (list,),
    "games": (list,),
}
TOURNAMENT: dict[str, tuple[type, ...]] = {
    "id": (str,),
    "name": (str,),
    "game": (str,),
    "options": (dict,),
    "settings": (dict,),
    "format": (dict,),
    "created_at": (str,),
}


def is_tournament_record(value: Any) -> bool:
    """Whether ``value`` says it is a tournament record (its ``format``), whatever else it
    holds: ``gameledger verify`` tells the two kinds of record apart by this."""
    return isinstance(value, dict) and value.get("format") == FORMAT


def check_shape(record: Any) -> None:
    """The record's shape: the format and its version, every field with its JSON type, the
    tournament's id a UUID in its usual form, at least one event, every event well formed
    (as a game's: whole versions, hashes of 64 lowercase hex digits, the ledger's
    timestamps), every game record a JSON object (each is checked whole later)."""
    check_head(record, "tournament", (FORMAT, FORMAT_VERSION), TOP, TOURNAMENT)
    for index, item in enumerate(record["events"]):
        if not isinstance(item, dict):
            raise Discrepancy(f"events[{index}] is not an object")
        check_fields(item, EVENT_SHAPE, f"events[{index}].")
        check_event_form(item)
        if item.get("sealed") is not None:
            raise Discrepancy(
                "a tournament hides nothing: no event is sealed", item["version"], item["type"]
            )
    for index, game in enumerate(record["games"]):
        if not isinstance(game, dict):
            raise Discrepancy(f"games[{index}] is not an object (a game record)")
    if "transparency" in record and not isinstance(record["transparency"], dict | None):
        raise Discrepancy("transparency must be an object or null")


def check_chain(record: dict[str, Any]) -> None:
    """Every link: versions 1, 2, 3, … with none missing; each ``prev_hash`` the previous
    event's ``hash`` (``""`` first); each ``hash`` recomputed from the event's type, the
    tournament's id (under ``tournament``), version, timestamp and public data; ``chain_head``
    the last hash (docs/tournaments.md, "Events"), as a game's
    (:func:`application.audit_chain.check_links`)."""
    check_links(record, record["tournament"]["id"], lambda item: item["data"], "tournament")


def check_seed(record: dict[str, Any]) -> None:
    """The first event is ``Created``; the record's ``seed_sha256`` is its commitment; the
    seed is revealed (a record is of a finished tournament) and its SHA-256 is the
    commitment (docs/tournaments.md, "Creation")."""
    created = record["events"][0]
    if created["type"] != "Created":
        raise Discrepancy(
            "a tournament's first event is Created", created["version"], created["type"]
        )
    committed = created["data"].get("seed_sha256")
    if record["seed_sha256"] != committed:
        raise Discrepancy(
            f"seed_sha256 recorded {record['seed_sha256']}, "
            f"event 1 (Created) committed to {committed}"
        )
    seed = record["seed"]
    if seed is None:
        raise Discrepancy(
            "the record does not reveal the tournament seed: a tournament record is exported "
            "once the tournament has finished, which reveals it"
        )
    if commitment(seed) != committed:
        raise Discrepancy(
            f"the revealed seed's SHA-256 is {commitment(seed)}, "
            f"but the tournament committed to {committed} when it was created"
        )
