"""Stored events keep their shape (docs/architecture.md, "Events are the record"): a fixed
script of games (tests/integration/stored_shape.py) stores, byte for byte, the events and
snapshots it stored before the aggregate moved onto the library's public API — the same
topics, the same fields in the same order, the same hashes. Existing stores and exported
records depend on it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.integration.stored_shape import GOLDEN, run


def test_the_stored_events_and_snapshots_are_unchanged() -> None:
    golden = json.loads((Path(__file__).parent / GOLDEN).read_text(encoding="utf-8"))
    now = run()
    for topic, state in golden["examples"].items():
        assert now["examples"].get(topic) == state, topic
    assert now["stored"] == golden["stored"]
