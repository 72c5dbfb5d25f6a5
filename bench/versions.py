"""The view of a game at any version: snapshots against a full replay (issue 3, part 8).

Builds a long game on a SQLite file — a 4-player gray-wall Azul game, lengthened by free undo
and replay cycles to the requested number of events — then times ``view(version=v)`` for
versions spread over the whole game, once through the service (a snapshot every 50 events)
and once through the same service class with snapshots switched off (a full replay from
the first event), in the same run.

    .venv/bin/python bench/versions.py [--events 3000] [--samples 40]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from eventsourcing.popo import POPOAggregateRecorder

from application.service import EventStorage, GameLedger
from infrastructure import schema
from infrastructure.config import Settings
from infrastructure.storage import Storage


def long_game(app: GameLedger, events: int) -> Any:
    """A game of at least ``events`` events: random moves, with every 8 moves the last
    mover taking back their own last turn (free undo: at once, nobody else's turn)."""
    game_id = app.create_game("azul", 4, {"wall": "gray"}, settings={"undo": "free"}, seed="b")
    tokens = [app.join(game_id, f"p{n}", n).token for n in range(4)]
    bot = random.Random(3)
    mover = 0
    while app.view(game_id)["version"] < events:
        for _ in range(8):
            version, acting = app.whose_turn(game_id)
            if not acting:
                return game_id
            mover = bot.choice(acting)
            moves = app.legal_moves(game_id, tokens[mover])["moves"]
            app.play(game_id, tokens[mover], bot.choice(moves)["move"], version)
        if app.whose_turn(game_id)[1]:
            app.request_undo(game_id, tokens[mover])
    return game_id


def timed(app: GameLedger, game_id: Any, versions: list[int]) -> float:
    started = time.perf_counter()
    for version in versions:
        app.view(game_id, version=version)
    return (time.perf_counter() - started) / len(versions)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=3000)
    parser.add_argument("--samples", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        storage = Storage(Settings(store="sqlite", sqlite_path=Path(tmp) / "v.db"))
        schema.upgrade(storage)
        events = storage.recorders.events
        with_snapshots = GameLedger(EventStorage(events, storage.recorders.snapshots))
        game_id = long_game(with_snapshots, args.events)
        last = with_snapshots.view(game_id)["version"]
        versions = sorted(random.Random(1).sample(range(1, last + 1), args.samples))
        # The same events with an empty snapshot store: every view replays from the first.
        full = GameLedger(EventStorage(events, POPOAggregateRecorder()))
        assert all(
            full.view(game_id, version=v) == with_snapshots.view(game_id, version=v)
            for v in versions[:5]
        )
        replay = timed(full, game_id, versions)
        snapshot = timed(with_snapshots, game_id, versions)
        latest = timed(with_snapshots, game_id, [last] * args.samples)
    print(f"game of {last} events; view at {args.samples} versions spread over it")
    print(f"  full replay from the first event  {replay * 1000:8.2f} ms/view   1.0x")
    print(
        f"  from the nearest snapshot         {snapshot * 1000:8.2f} ms/view   "
        f"{replay / snapshot:.1f}x faster"
    )
    print(
        f"  latest version (aggregate cache)  {latest * 1000:8.2f} ms/view   "
        f"{replay / latest:.1f}x faster"
    )


if __name__ == "__main__":
    main()
