"""A controlled clock for tests of game clocks (docs/api.md, "Clocks"): the events' timestamps
and the service's reading of the time both come from it, so a test says exactly how long a
seat thought, without sleeping."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from domain.game import Game

START = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
STEP = timedelta(microseconds=100)
"""How far the clock moves by itself at each event (an event is recorded after the service
read the time, never at the same instant)."""


class FakeTime:
    """The time now, moved on by :meth:`advance` (and a little by each event)."""

    def __init__(self) -> None:
        self.at = START

    def advance(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)

    def timestamp(self) -> datetime:
        self.at += STEP
        return self.at


def install(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    """Make the events' timestamps and the use cases' ``datetime.now`` read a
    :class:`FakeTime`."""
    fake = FakeTime()

    class FakeDatetime(datetime):
        @classmethod
        def now(cls, tz: Any = None) -> Any:
            return fake.at

    monkeypatch.setattr(Game.Event, "create_timestamp", classmethod(lambda cls: fake.timestamp()))
    monkeypatch.setattr("application.clocks.datetime", FakeDatetime)
    monkeypatch.setattr("application.service.datetime", FakeDatetime)
    monkeypatch.setattr("application.flags_first.datetime", FakeDatetime)
    return fake
