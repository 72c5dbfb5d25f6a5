"""The rate limits' counts in a process's memory (api/ratelimit.py, ``MemoryWindows``;
docs/operations.md, "Rate limits"): fixed windows, counted exactly by requests at once, and
forgotten once over."""

from __future__ import annotations

import threading

import pytest

from api import ratelimit
from api.ratelimit import MemoryWindows


class Clock:
    """A clock the test moves (``time.time`` of the module)."""

    def __init__(self, now: float) -> None:
        self.now = now

    def time(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock(1_000_000.5)
    monkeypatch.setattr(ratelimit.time, "time", fake.time)
    return fake


def test_a_window_counts_from_one_and_ends_on_a_multiple_of_its_length(clock: Clock) -> None:
    windows = MemoryWindows()
    assert windows.hit("a", 60) == (1, 1_000_020.0)  # 1,000,020 = 16,667 times 60
    assert windows.hit("a", 60) == (2, 1_000_020.0)
    assert windows.hit("b", 60) == (1, 1_000_020.0)  # each key its own count
    assert windows.hit("a", 1) == (1, 1_000_001.0)  # and each length
    clock.now = 1_000_020.0
    assert windows.hit("a", 60) == (1, 1_000_080.0)  # a new window, counted anew


def test_windows_over_are_forgotten(clock: Clock) -> None:
    windows = MemoryWindows()
    for key in "abc":
        windows.hit(key, 60)
    clock.now += 120
    windows.hit("d", 60)
    assert len(windows._counters) == 1


def test_requests_at_once_are_each_counted_once() -> None:
    windows = MemoryWindows()
    threads, hits = 8, 5000

    def hammer() -> None:
        for _ in range(hits):
            windows.hit("one caller", 3600)

    workers = [threading.Thread(target=hammer) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    count, _ = windows.hit("one caller", 3600)
    assert count in (threads * hits + 1, 1)  # 1: the hour ended during the test
