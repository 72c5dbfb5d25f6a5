"""The game-record format and what its readers share (issue 3, part 4; docs/audit.md,
"Record format"): the format's name and version, the ledger's own event types, the
:class:`Discrepancy` a verifier reports, the first difference between two JSON values, the
list of moves derived from the events, and the structural check of a record."""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any
from uuid import UUID

FORMAT = "gameledger-record"
FORMAT_VERSION = 1

LEDGER_FIELDS: dict[str, frozenset[str]] = {
    "Created": frozenset(
        {"game", "players", "options", "settings", "seed_sha256", "analysis", "prelude"}
    ),
    "SeatJoined": frozenset({"seat", "name"}),
    "MoveMade": frozenset({"seat", "move", "notation"}),
    "UndoRequested": frozenset({"seat", "to_version", "turns", "waiting"}),
    "UndoAnswered": frozenset({"seat", "accepted"}),
    "TurnsUndone": frozenset({"to_version", "turns", "by", "seat", "reason"}),
    "SeatLeft": frozenset({"seat"}),
    "SeatResigned": frozenset({"seat"}),
    "SeatFlagged": frozenset({"seat", "by", "claimant"}),
    "GameAborted": frozenset({"by"}),
    "GameExpired": frozenset({"after_seconds"}),
    "RematchCreated": frozenset({"rematch"}),
}
"""The ledger's own event types and the fields their public data has (the game's own events
are everything else)."""

OPTIONAL_FIELDS: dict[str, frozenset[str]] = {
    "Created": frozenset({"private", "rematch_of", "tournament"}),
    "SeatJoined": frozenset({"public_key"}),
    "MoveMade": frozenset({"signature", "elapsed_ms"}),
}
"""Fields a ledger event has only sometimes: a private game's and a rematch's ``Created``
(docs/api.md, "Lobby"); a seat's public key and its moves' signatures (docs/api.md, "Signed
moves"); a timed move's ``elapsed_ms`` (docs/api.md, "Clocks")."""

_HASH = re.compile(r"[0-9a-f]{64}")
_SHOWN = 80


class Discrepancy(Exception):
    """The first thing in a record that does not hold: the event it is found at (version and
    type; ``None`` for the record's own fields) and what differs."""

    def __init__(self, message: str, version: int | None = None, type_name: str | None = None):
        super().__init__(message)
        self.message = message
        self.version = version
        self.type_name = type_name

    def __str__(self) -> str:
        if self.version is None:
            return f"record: {self.message}"
        return f"event {self.version} ({self.type_name}): {self.message}"


def canonical_json(value: Any) -> str:
    """``value`` as JSON with sorted keys: equal strings mean exactly equal JSON values
    (``true`` is not ``1``, ``1`` is not ``1.0``)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def show(value: Any) -> str:
    """A JSON value as a short text for a message."""
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def first_difference(
    path: str, recorded: Any, expected: Any, source: str = "the rules give"
) -> str | None:
    """Where two JSON values first differ, as ``data.points recorded 5, the rules give 4``;
    ``None`` when they are exactly equal."""
    if canonical_json(recorded) == canonical_json(expected):
        return None
    if isinstance(recorded, dict) and isinstance(expected, dict):
        for key in sorted(set(recorded) | set(expected)):
            where = f"{path}.{key}"
            if key not in recorded:
                return f"{where} is missing, {source} {show(expected[key])}"
            if key not in expected:
                return f"{where} recorded {show(recorded[key])}, {source} no such field"
            found = first_difference(where, recorded[key], expected[key], source)
            if found:
                return found
    if isinstance(recorded, list) and isinstance(expected, list):
        for index, (mine, theirs) in enumerate(zip(recorded, expected, strict=False)):
            found = first_difference(f"{path}[{index}]", mine, theirs, source)
            if found:
                return found
        return f"{path} has {len(recorded)} items, {source} {len(expected)}"
    return f"{path} recorded {show(recorded)}, {source} {show(expected)}"


def moves_of(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every ``MoveMade`` of a game's events in log order: its turn on the line of play when
    it was made (1-based), version, seat, move, notation and time; a move later taken back is
    marked ``undone`` with the version of the ``TurnsUndone`` that did it (``undone_by``)."""
    moves: list[dict[str, Any]] = []
    line: list[dict[str, Any]] = []
    for item in events:
        data = item["data"]
        if item["type"] == "MoveMade":
            entry = {
                "turn": len(line) + 1,
                "version": item["version"],
                "seat": data["seat"],
                "move": data["move"],
                "notation": data["notation"],
                "at": item["timestamp"],
                "undone": False,
                "undone_by": None,
            }
            moves.append(entry)
            line.append(entry)
        elif item["type"] == "TurnsUndone":
            for entry in line:
                if entry["version"] > data["to_version"]:
                    entry["undone"] = True
                    entry["undone_by"] = item["version"]
            line = [entry for entry in line if not entry["undone"]]
    return moves


_TOP: dict[str, tuple[type, ...]] = {
    "game": (dict,),
    "seats": (list,),
    "seed_sha256": (str,),
    "seed": (str, type(None)),
    "moves": (list,),
    "events": (list,),
    "chain_head": (str,),
    "outcome": (dict, type(None)),
}
_GAME: dict[str, tuple[type, ...]] = {
    "id": (str,),
    "kind": (str,),
    "rules_version": (str,),
    "players": (int,),
    "options": (dict,),
    "settings": (dict,),
    "analysis": (dict, type(None)),
    "created_at": (str,),
}
EVENT_SHAPE: dict[str, tuple[type, ...]] = {
    "version": (int,),
    "type": (str,),
    "timestamp": (str,),
    "data": (dict,),
    "prev_hash": (str,),
    "hash": (str,),
}


def check_structure(record: Any) -> None:
    """Raise :class:`Discrepancy` unless ``record`` has the shape of a game record: the
    format and its version, every field with its JSON type, and well-formed events (whole
    versions, hashes of 64 lowercase hex digits, timestamps in the ledger's ISO 8601 form).
    Whether the values hold is for the other checks."""
    check_head(record, "game", (FORMAT, FORMAT_VERSION), _TOP, _GAME)
    for index, item in enumerate(record["events"], start=1):
        if not isinstance(item, dict):
            raise Discrepancy(f"events[{index - 1}] is not an object")
        check_fields(item, EVENT_SHAPE, f"events[{index - 1}].")
        check_event_form(item)


def check_head(
    record: Any,
    subject: str,
    version: tuple[str, int],
    top: dict[str, tuple[type, ...]],
    fields: dict[str, tuple[type, ...]],
) -> None:
    """What a game's and a tournament's record share (``subject``: ``game`` or
    ``tournament``): a JSON object of the format and format version ``version``, every field
    of ``top`` with its JSON type, the subject's fields (``fields``) likewise, the subject's id
    a UUID in its usual lowercase form, and at least one event."""
    if not isinstance(record, dict):
        raise Discrepancy(f"a {subject} record is a JSON object")
    name, number = version
    if record.get("format") != name or record.get("format_version") != number:
        raise Discrepancy(f"not a {name} of format_version {number}")
    check_fields(record, top, "")
    check_fields(record[subject], fields, f"{subject}.")
    try:
        subject_id = str(UUID(record[subject]["id"]))
    except ValueError:
        subject_id = None
    if subject_id != record[subject]["id"]:
        raise Discrepancy(f"{subject}.id is not a UUID in its usual lowercase form")
    if not record["events"]:
        raise Discrepancy("the record has no events")


def check_fields(value: dict[str, Any], shape: dict[str, tuple[type, ...]], prefix: str) -> None:
    """Raise :class:`Discrepancy` unless ``value`` has every field of ``shape`` with one of
    its JSON types (named ``prefix`` + field in the message)."""
    for key, types in shape.items():
        if key not in value:
            raise Discrepancy(f"{prefix}{key} is missing")
        field = value[key]
        if not isinstance(field, types) or (int in types and isinstance(field, bool)):
            names = " or ".join("null" if t is type(None) else t.__name__ for t in types)
            raise Discrepancy(f"{prefix}{key} must be {names}, not {show(field)}")


def check_event_form(item: dict[str, Any]) -> None:
    """Raise :class:`Discrepancy` unless the event's hashes are 64 lowercase hex digits and
    its timestamp is in the ledger's form (its fields' types are checked already)."""
    version: int = item["version"]
    name: str = item["type"]
    if not _HASH.fullmatch(item["hash"]):
        raise Discrepancy("hash is not 64 lowercase hex digits", version, name)
    if item["prev_hash"] and not _HASH.fullmatch(item["prev_hash"]):
        raise Discrepancy("prev_hash is not 64 lowercase hex digits", version, name)
    sealed = item.get("sealed")
    if sealed is not None and not (isinstance(sealed, str) and _HASH.fullmatch(sealed)):
        raise Discrepancy("sealed is not null or 64 lowercase hex digits", version, name)
    try:
        stamp = datetime.fromisoformat(item["timestamp"])
    except ValueError:
        stamp = None
    if stamp is None or stamp.tzinfo is None or stamp.isoformat() != item["timestamp"]:
        raise Discrepancy(
            f"timestamp {show(item['timestamp'])} is not in the ledger's form "
            "(ISO 8601 with its UTC offset, as Python's isoformat writes it)",
            version,
            name,
        )
