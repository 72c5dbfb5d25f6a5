"""Stored events keep their shape (docs/architecture.md, "Events are the record"): a fixed
script of games (tests/integration/stored_shape.py) stores, byte for byte, the events it
stored before the aggregate moved onto the library's public API — the same topics, the same
fields in the same order, the same hashes. Existing stores and exported records depend on it.

Snapshots are a cache of the events: their shape changed once, on purpose, when they stopped
carrying the whole line of play (issue 12, part 7; :mod:`domain.line`), and is pinned again
from there. A snapshot of the earlier shape, as stores hold them, still loads as the same
game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from application.service import GameLedger
from domain.game import Game
from tests.integration.stored_shape import GOLDEN, pinned, run, script

SNAPSHOT_TOPIC = "domain.game:Game.Snapshot"


def golden() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((Path(__file__).parent / GOLDEN).read_text("utf-8"))
    return loaded


def test_the_stored_events_are_unchanged() -> None:
    expected, now = golden(), run()
    events = [item for item in expected["stored"] if item[0] == "event"]
    assert [item for item in now["stored"] if item[0] == "event"] == events
    for topic, state in expected["examples"].items():
        if topic != SNAPSHOT_TOPIC:
            assert now["examples"].get(topic) == state, topic


def test_the_snapshots_are_as_pinned() -> None:
    expected, now = golden(), run()
    snapshots = [item for item in expected["stored"] if item[0] == "snapshot"]
    assert [item for item in now["stored"] if item[0] == "snapshot"] == snapshots
    assert now["examples"][SNAPSHOT_TOPIC] == expected["examples"][SNAPSHOT_TOPIC]


def test_a_snapshot_of_the_earlier_shape_still_loads() -> None:
    legacy = golden()["legacy_snapshot"]
    assert '"effective":' in legacy["state"] and '"since":' not in legacy["state"]
    with pinned():
        app = GameLedger()
        script(app)
    [store] = app.stores
    game_id, version = UUID(legacy["game"]), legacy["version"]
    stored = StoredEvent(game_id, version, SNAPSHOT_TOPIC, legacy["state"].encode())
    loaded = store.mapper.to_domain_event(stored).mutate(None)
    assert isinstance(loaded, Game) and loaded.version == version
    replayed = store.load(game_id, version, whole_line=True)
    assert loaded.line.complete and loaded.line == replayed.line
    assert loaded.state == replayed.state and loaded.chain_head == replayed.chain_head
    assert loaded.has_prelude is False
