"""A game's stream woken for a move sends it at once (application/streams.py), on SQLite
where the process's change token comes from its watcher's looks: the stream's wake-up may
read the log before the watcher's next look, so a woken stream reads its game exactly."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from application.streams import Pace, follow_game
from infrastructure.config import Settings
from infrastructure.container import build_services
from infrastructure.game_wakeups import GameWakeups
from tests.helpers import start_game


def test_on_sqlite_a_stream_woken_for_a_move_sends_it(tmp_path: Path) -> None:
    settings = Settings(
        store="sqlite",
        sqlite_path=tmp_path / "streamed.db",
        embedded_projections=False,
        follow_interval=30.0,  # the watcher's looks are played by hand (wake) below
    )
    writer, reader = build_services(settings), build_services(settings)
    stop = threading.Event()
    sent: list[int] = []
    stream: threading.Thread | None = None
    wakeups: GameWakeups | None = None
    try:
        table = start_game(writer.app, players=2)
        table.step()
        reader.watcher.start()
        reader.watcher.interval = 0.0  # the wake-ups read the log every `poll` seconds
        wakeups = GameWakeups(reader.app.stores, reader.watcher, poll=0.3)
        after = reader.app.view(table.game_id)["version"]
        following = wakeups.following(table.game_id)

        def follow() -> None:
            with following as waker:
                for item in follow_game(
                    reader.app,
                    table.game_id,
                    token=None,
                    after=after,
                    waker=waker,
                    pace=Pace(heartbeat=60, poll=3.0),
                    stopped=stop.is_set,
                ):
                    if isinstance(item, dict):
                        sent.append(item["version"])

        stream = threading.Thread(target=follow)
        stream.start()
        time.sleep(0.3)
        table.step()  # another process's move, which the watcher is then shown
        first = writer.app.view(table.game_id)["version"]
        reader.watcher.wake()
        assert sent_by(sent, first, 2.0)
        table.step()  # the next: the wake-ups read it before the watcher looks
        latest = writer.app.view(table.game_id)["version"]
        time.sleep(0.5)
        reader.watcher.wake()
        assert sent_by(sent, latest, 1.0), f"version {latest} not sent within 1 s: {sent}"
    finally:
        stop.set()
        if wakeups is not None:
            wakeups.wake_all()
        if stream is not None:
            stream.join(5)
        reader.watcher.wake()  # the wake-ups thread ends once no stream is left
        time.sleep(0.5)
        reader.close()
        writer.close()


def sent_by(sent: list[int], version: int, seconds: float) -> bool:
    """Whether the stream has sent ``version`` within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if sent and sent[-1] >= version:
            return True
        time.sleep(0.01)
    return bool(sent) and sent[-1] >= version
