"""The fixed pure-Python workload every engine benchmark times in the same run, so that its
figures can be reported as ratios (machines here vary by up to ±50% from minute to minute)."""

from __future__ import annotations


def calibration() -> None:
    """Integer arithmetic, list and dict work: about 19 ms on the development machine."""
    total = 0
    table: dict[int, int] = {}
    items = []
    for i in range(100_000):
        total += i * i % 7
        items.append(i & 31)
        table[i & 1023] = total
    assert total > 0 and len(items) == 100_000 and len(table) == 1024
