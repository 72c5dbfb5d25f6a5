"""SQLite's exact change token of the event store is the id of its last event, asked on a
connection of each caller at once (infrastructure/storage.py, ``SQLiteLastEvent``; docs/api.md,
"Consistency"): it moves with every commit of events by any process, and only then; callers at
once never share a connection (nor queue for one), and connections are reused, never more
than callers at once, and never closed while in use."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

import infrastructure.storage
from infrastructure.config import Settings
from infrastructure.container import build_services
from infrastructure.storage import SQLiteLastEvent
from tests.helpers import start_game


def test_the_token_moves_with_events_stored_by_another_process(tmp_path: Path) -> None:
    settings = Settings(
        store="sqlite", sqlite_path=tmp_path / "games.db", embedded_projections=False
    )
    first, second = build_services(settings), build_services(settings)
    try:
        [recorders] = second.storage.shards
        token = recorders.change_token
        assert token is not None
        table = start_game(first.app, players=2)
        before = token()
        assert token() == before  # nothing stored since
        table.step()  # in the other process
        moved = token()
        assert moved != before
        first.app.games.cache.clear()
        first.app.view(table.game_id)  # a read, and a game loaded again: nothing stored
        assert token() == moved
    finally:
        first.close()
        second.close()


class CountingConnect:
    """``sqlite3.connect`` as the store's module calls it, counted."""

    def __init__(self) -> None:
        self.count = 0
        self._connect = sqlite3.connect

    def __call__(self, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        self.count += 1
        return self._connect(*args, **kwargs)


def events_file(tmp_path: Path) -> Path:
    path = tmp_path / "events.db"
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE stored_events (x)")
    return path


def test_callers_at_once_ask_on_connections_of_their_own_and_reuse_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = events_file(tmp_path)
    connect = CountingConnect()
    monkeypatch.setattr(infrastructure.storage.sqlite3, "connect", connect)
    last = SQLiteLastEvent(str(path), "stored_events")
    assert last() == 0  # no event yet
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO stored_events VALUES (1)")
    answers: list[object] = []

    def ask() -> None:
        answers.extend(last() for _ in range(500))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [1] * 2000
    assert 1 <= connect.count <= 5  # one per caller at once, at most
    for _ in range(200):  # a server that starts a thread per request
        thread = threading.Thread(target=last)
        thread.start()
        thread.join()
    assert connect.count <= 5  # the idle ones are used again
    last.close()
    with pytest.raises(sqlite3.ProgrammingError):
        last()


def test_threads_that_ended_leave_no_connection_open(tmp_path: Path) -> None:
    """Found by review: connections kept per thread were never closed while the process ran
    (``gameledger serve`` starts a thread per request: 400 requests, 800 open files)."""
    services = build_services(
        Settings(store="sqlite", sqlite_path=tmp_path / "games.db", embedded_projections=False)
    )
    try:
        table = start_game(services.app, players=2)
        before = len(os.listdir("/proc/self/fd"))
        for _ in range(200):
            thread = threading.Thread(
                target=lambda: services.app.view(table.game_id, table.tokens[0])
            )
            thread.start()
            thread.join()
        assert len(os.listdir("/proc/self/fd")) - before <= 4
    finally:
        services.close()


CLOSE_WHILE_ASKING = """
import sqlite3, sys, threading
from infrastructure.storage import SQLiteLastEvent
path = sys.argv[1]
with sqlite3.connect(path) as c:
    c.execute("PRAGMA journal_mode=WAL"); c.execute("CREATE TABLE stored_events (x)")
    c.executemany("INSERT INTO stored_events VALUES (?)", [(i,) for i in range(1000)])
for _ in range(100):
    last = SQLiteLastEvent(path, "stored_events")
    go = threading.Event()
    def ask():
        try:
            last()
            go.wait()
            for _ in range(2000):
                last()
        except sqlite3.ProgrammingError:
            pass  # closed: an error, never a crash
    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads: t.start()
    go.set()
    last.close()
    for t in threads: t.join()
"""


def test_closing_while_threads_ask_does_not_crash(tmp_path: Path) -> None:
    """Found by review: closing connections other threads were asking on crashed the
    interpreter (SIGSEGV); a connection is now closed only when nobody asks on it."""
    done = subprocess.run(
        [sys.executable, "-c", CLOSE_WHILE_ASKING, str(tmp_path / "e.db")],
        cwd=Path(__file__).parents[2],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr[-500:]!r}"
