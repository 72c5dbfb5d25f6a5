"""Following a game for its streams (docs/api.md, "Live updates"; docs/operations.md,
"Streams"): the pages of the event log that several streams need at once are read once and
are exactly the event log's; a follower gives every event once, in order, and ends after the
last event of a finished game."""

from __future__ import annotations

import random
import threading
from typing import Any
from uuid import UUID

from application.service import GameLedger
from application.streams import Pace, SharedReads, follow_game


class CountingLedger(GameLedger):
    """The service, counting the pages of event logs it reads."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    def event_log(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        self.reads += 1
        return super().event_log(*args, **kwargs)


class Never:
    """A waker that never wakes (the followers below never wait long)."""

    generation = 0

    def wait(self, seen: int, timeout: float | None = None) -> int:
        return self.generation


def a_game(app: GameLedger) -> tuple[UUID, list[str]]:
    game_id = app.create_game("azul", 2, {}, seed="streams")
    return game_id, [app.join(game_id, f"p{n}").token for n in range(2)]


def test_streams_that_need_the_same_page_share_one_read() -> None:
    app = CountingLedger()
    game_id, tokens = a_game(app)
    version = app.whose_turn(game_id)[0]
    reads = SharedReads()
    found: list[list[dict[str, Any]]] = []
    start = threading.Barrier(8)

    def stream(token: str | None) -> None:
        start.wait()
        page = reads.page(app, game_id, token=token, after=0, version=version, batch=100)
        found.append(page)

    threads = [threading.Thread(target=stream, args=(None,)) for _ in range(6)]
    threads += [threading.Thread(target=stream, args=(tokens[0],)) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert app.reads == 2  # one per viewer
    spectator = app.event_log(game_id, None, 0, 100)["items"]
    seat = app.event_log(game_id, tokens[0], 0, 100)["items"]
    assert sorted(map(str, found)) == sorted([str(spectator)] * 6 + [str(seat)] * 2)


def test_a_follower_gives_every_event_once_and_ends_with_the_game() -> None:
    app = GameLedger()
    game_id, tokens = a_game(app)
    bot = random.Random(5)
    while True:
        version, acting = app.whose_turn(game_id)
        if not acting:
            break
        move = app.bot_move(game_id, tokens[acting[0]], bot)
        app.play(game_id, tokens[acting[0]], move, version)
    followed = list(
        follow_game(
            app,
            game_id,
            token=None,
            after=3,
            waker=Never(),
            pace=Pace(heartbeat=60, poll=0.01, batch=7),
            reads=SharedReads(),
        )
    )
    log = []
    after: int | None = 3
    while after is not None:
        page = app.event_log(game_id, None, after, 500)
        log += page["items"]
        after = page["next_after"]
    assert followed == log
    assert followed[-1]["type"] == "GameEnded"
