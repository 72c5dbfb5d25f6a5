"""One read of the event log for every follower of a process (infrastructure/log_reading.py),
on real SQLite and PostgreSQL stores: followers that read the same new notifications ask the
store once, and whatever the order of reads and commits each follower sees every notification
of the log, in order, once."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from eventsourcing.persistence import Notification

from infrastructure.container import Services
from infrastructure.log_reading import LogReading
from tests.helpers import Table, start_game

both_stores = pytest.mark.parametrize(
    "store", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)


class CountedRecorder:
    """The store's own recorder, counting the reads of notifications made through it."""

    def __init__(self, recorder: Any) -> None:
        self.recorder = recorder
        self.reads = 0

    def select_notifications(self, start: int, limit: int) -> Sequence[Notification]:
        self.reads += 1
        found: Sequence[Notification] = self.recorder.select_notifications(start, limit)
        return found


class Log:
    """A log seen through a counted recorder (``name`` and ``recorder``, as a follower uses)."""

    def __init__(self, services: Services) -> None:
        store = services.app.stores[0]
        self.name = store.name
        self.recorder = CountedRecorder(store.recorder)
        self.store = store

    def every_id(self) -> list[int]:
        return [n.id for n in self.store.recorder.select_notifications(1, 100_000)]


def ids(notifications: Sequence[Notification]) -> list[int]:
    return [n.id for n in notifications]


@both_stores
def test_followers_reading_the_same_notifications_ask_the_store_once(
    services: Services,
) -> None:
    log = Log(services)
    table = start_game(services.app, players=2, seed="one read")
    for _ in range(3):
        table.step()
    reading = LogReading()
    app: Any = log
    first = reading.read(app, 1, 500)
    assert ids(first) == log.every_id() != []
    for _ in range(5):  # the other followers, woken by the same commits
        assert ids(reading.read(app, 1, 500)) == ids(first)
    assert log.recorder.reads == 1
    middle = first[len(first) // 2].id
    assert ids(reading.read(app, middle, 2)) == [middle, middle + 1]
    assert log.recorder.reads == 1

    table.step()  # new notifications: read once, after the kept ones
    after = first[-1].id + 1
    new = ids(reading.read(app, after, 500))
    assert new == log.every_id()[len(first) :] != []
    assert ids(reading.read(app, after, 500)) == new
    assert log.recorder.reads == 2
    assert ids(reading.read(app, new[-1] + 1, 500)) == []  # nothing newer: the store says so
    assert log.recorder.reads == 3


@both_stores
def test_every_follower_sees_the_whole_log_whatever_the_order_of_reads_and_commits(
    services: Services,
) -> None:
    """Followers at different places, with different batch lengths, reading in a random
    order between commits, through a reading that keeps few notifications."""
    log = Log(services)
    app: Any = log
    reading = LogReading(keep=7)
    chance = random.Random(12)
    tables: list[Table] = []
    batches = [1, 3, 5, 500]
    seen: list[list[int]] = [[] for _ in batches]
    for _ in range(40):
        if not tables or chance.random() < 0.3:
            tables.append(start_game(services.app, players=2, seed=f"t{len(tables)}"))
        else:
            chance.choice(tables).step()
        for follower in chance.sample(range(len(batches)), k=chance.randint(1, len(batches))):
            start = seen[follower][-1] + 1 if seen[follower] else 1
            seen[follower] += ids(reading.read(app, start, batches[follower]))
    for follower, batch in enumerate(batches):  # each catches up to the end
        while found := reading.read(app, seen[follower][-1] + 1, batch):
            seen[follower] += ids(found)
    every = log.every_id()
    assert all(follower == every for follower in seen)
    assert len(every) > 40


@both_stores
def test_without_keeping_every_read_asks_the_store(services: Services) -> None:
    log = Log(services)
    app: Any = log
    start_game(services.app, players=2, seed="direct")
    reading = LogReading(keep=0)
    assert ids(reading.read(app, 1, 500)) == ids(reading.read(app, 1, 500)) == log.every_id()
    assert log.recorder.reads == 2
