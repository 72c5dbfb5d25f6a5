"""The stored events of a verified game record (issue 3, part 4; docs/audit.md,
"Importing"): each record entry becomes the library event it was — the ledger's own events
(``Game.Created`` and the other event classes of ``Game``, found by their topics, e.g.
``domain.game:Game.SeatJoined``) and the game's events
(:func:`domain.game.played_event_class`) — with the same id, version, timestamp and hashes.

The secret fields come back as an archive has them: ``Created`` gets the revealed seed and
no arbiter (``arbiter_sha256 = ""``), every seat no token (``token_sha256 = ""``), so no
token can ever move, answer or undo in an imported game."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, cast
from uuid import UUID

from eventsourcing.utils import get_topic, resolve_topic

from application.audit_format import LEDGER_FIELDS
from domain.game import Game, played_event_class
from domain.jsonvalue import copy_json

EventFactory = Callable[..., Game.Event]


def stored_events(record: dict[str, Any]) -> list[Game.Event]:
    """The library events of a verified, finished record, in order."""
    game_id = UUID(record["game"]["id"])
    kind: str = record["game"]["kind"]
    events: list[Game.Event] = []
    for item in record["events"]:
        envelope = {
            "originator_id": game_id,
            "originator_version": item["version"],
            "timestamp": datetime.fromisoformat(item["timestamp"]),
            "prev_hash": item["prev_hash"],
            "hash": item["hash"],
        }
        name: str = item["type"]
        data = copy_json(item["data"])
        if name not in LEDGER_FIELDS:
            factory = cast(EventFactory, played_event_class(kind, name))
            events.append(factory(**envelope, data=data, sealed=item.get("sealed") or ""))
            continue
        fields = {**envelope, **data, **_secrets(name, record)}
        if name == "MoveMade":
            fields["sealed"] = item.get("sealed") or ""
        if name == "Created":
            fields["originator_topic"] = get_topic(Game)
        factory = cast(EventFactory, resolve_topic(f"{get_topic(Game)}.{name}"))
        events.append(factory(**fields))
    return events


def _secrets(name: str, record: dict[str, Any]) -> dict[str, Any]:
    """The secret fields of a ledger event, as an imported archive holds them."""
    if name == "Created":
        return {"seed": record["seed"], "arbiter_sha256": ""}
    if name == "SeatJoined":
        return {"token_sha256": ""}
    return {}
