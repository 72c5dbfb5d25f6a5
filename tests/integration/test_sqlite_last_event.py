"""SQLite's exact change token of the event store is the id of its last event, asked on a
connection of each thread (infrastructure/storage.py, ``SQLiteLastEvent``; docs/api.md,
"Consistency"): it moves with every commit of events by any process, and only then, and the
threads of a server never share a connection (nor queue for one)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

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


def test_each_thread_asks_on_a_connection_of_its_own(tmp_path: Path) -> None:
    path = tmp_path / "events.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE stored_events (x)")
    last = SQLiteLastEvent(str(path), "stored_events")
    assert last() == 0  # no event yet
    connections: set[int] = set()

    def ask() -> None:
        last()
        connections.add(id(last._local.conn))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(connections) == 4 and len(last._opened) == 5
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO stored_events VALUES (1)")
    assert last() == 1
    last.close()
    with pytest.raises(sqlite3.ProgrammingError):
        last()
