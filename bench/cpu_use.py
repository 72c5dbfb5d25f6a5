"""Where the processor's time goes while an HTTP benchmark measures (issue 12, part 10): the
CPU seconds, user and system, of the server under test (gunicorn's master, its workers and
the ``projections run`` beside them), of the database server (every process of the local
PostgreSQL, idle or not) and of the clients this benchmark started and waited for (wrk, the
Python client's processes), read before and after one measurement.

Divided by the requests answered, these say what one request costs each process: the
server's own cost per request against the hello world's is the ratio a machine with a core
free for every process would show, where the rates of a machine of two cores also count what
the client, the runner and the database take from the server.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

import psutil

DATABASE_NAMES = frozenset({"postgres", "postmaster"})


@dataclass(frozen=True)
class CpuUse:
    """CPU seconds (user + system) used so far by each party of a run."""

    server: float
    database: float
    clients: float
    runner: float = 0.0
    """The part of ``server`` that is the runner's (``projections run``), if there is one."""

    def __sub__(self, other: CpuUse) -> CpuUse:
        return CpuUse(
            self.server - other.server,
            self.database - other.database,
            self.clients - other.clients,
            self.runner - other.runner,
        )

    def per_request_us(self, requests: float) -> dict[str, float]:
        """Microseconds of each party per request answered."""
        parties = {
            "server": self.server,
            "database": self.database,
            "clients": self.clients,
            "runner": self.runner,
        }
        if requests <= 0:
            return dict.fromkeys(parties, 0.0)
        return {name: round(seconds / requests * 1e6, 1) for name, seconds in parties.items()}


def _seconds(process: psutil.Process) -> float:
    try:
        times = process.cpu_times()
    except psutil.Error:  # ended since it was listed
        return 0.0
    return float(times.user + times.system)


def tree_seconds(roots: Iterable[int]) -> float:
    """CPU seconds of the processes ``roots`` and every process below them."""
    total = 0.0
    for pid in roots:
        try:
            root = psutil.Process(pid)
            family = [root, *root.children(recursive=True)]
        except psutil.Error:
            continue
        total += sum(_seconds(process) for process in family)
    return total


def database_seconds() -> float:
    """CPU seconds of the local PostgreSQL server's processes (0 where there is none)."""
    total = 0.0
    for process in psutil.process_iter(["name"]):
        if process.info["name"] in DATABASE_NAMES:
            total += _seconds(process)
    return total


def clients_seconds() -> float:
    """CPU seconds of this process's children that have ended and been waited for."""
    times = os.times()
    return times.children_user + times.children_system


def snapshot(server_pids: Iterable[int], runner_pid: int | None = None) -> CpuUse:
    """The CPU seconds used so far by the server ``server_pids`` (of which the runner
    ``runner_pid``), the database and the clients."""
    runner = tree_seconds([runner_pid]) if runner_pid is not None else 0.0
    return CpuUse(tree_seconds(server_pids), database_seconds(), clients_seconds(), runner)
