"""Following a game's event log, and the games list, as they grow (docs/api.md, "Live
updates"): the use cases behind the Server-Sent Events streams of api/resources/streams.py.

A follower never holds a connection of the store while it waits: it waits on a
:class:`Waker` (the process's :class:`infrastructure.watcher.LogWatcher`: a PostgreSQL
NOTIFY, a save of this process, or its polling interval on SQLite), then reads what came
after the last item it gave, through the same use case and presenter as the event log
(:meth:`application.service.GameLedger.event_log`), so a stream shows a viewer exactly what
the event log shows it. Each wake-up that finds nothing new costs a look at the game the
process keeps (on PostgreSQL no query while no notification arrived)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID

import orjson

from application.projections.games_list import ListPages, Position
from application.service import GameLedger

Heartbeat = None
"""What a follower yields when nothing happened for a heartbeat's time."""


class Waker(Protocol):
    """Something that says when a log may have grown (LogWatcher)."""

    @property
    def generation(self) -> int:
        """A number that grows with every wake-up."""
        ...

    def wait(self, seen: int, timeout: float | None = None) -> int:
        """Block until the generation has moved past ``seen``, or ``timeout``; the
        generation now."""
        ...


@dataclass(frozen=True)
class Pace:
    """How a follower waits: at most ``poll`` seconds between looks at the store (it looks
    at once when woken), a heartbeat after ``heartbeat`` seconds without a message, and at
    most ``batch`` events per read."""

    heartbeat: float = 15.0
    poll: float = 1.0
    batch: int = 100


def follow_game(
    app: GameLedger,
    game_id: UUID,
    *,
    token: str | None,
    after: int,
    waker: Waker,
    pace: Pace,
    stopped: Callable[[], bool] = lambda: False,
) -> Iterator[dict[str, Any] | None]:
    """The game's events after version ``after`` as its event log shows them to the
    token's holder, in order, each once, then each new one as it is saved; ``None``
    (:data:`Heartbeat`) after ``pace.heartbeat`` seconds without one. Ends once the game
    has finished and its last event was given (docs/api.md, "Live updates"), or when
    ``stopped()``. The token is checked before the first item (403, 404 as the event log)."""
    last_sent = time.monotonic()
    while not stopped():
        seen = waker.generation  # before reading: a save after the read wakes the wait
        finished, version = _latest(app, game_id)
        if version > after:
            items = app.event_log(game_id, token, after, pace.batch)["items"]
            for item in items:
                yield item
                after = item["version"]
            if items:
                last_sent = time.monotonic()
                continue
        if finished:
            return
        idle = time.monotonic() - last_sent
        if idle >= pace.heartbeat:
            yield Heartbeat
            last_sent = time.monotonic()
            continue
        waker.wait(seen, min(pace.poll, pace.heartbeat - idle))


def _latest(app: GameLedger, game_id: UUID) -> tuple[bool, int]:
    """Whether the game has ended, and its version, as the process knows it: on PostgreSQL
    from the game it keeps while no notification says the store has changed (a spectator's
    read, docs/api.md, "Consistency")."""
    with app.games.viewing(game_id, may_lag=True) as kept:
        return kept.game.finished, kept.game.version


def stream_finished(app: GameLedger, game_id: UUID, token: str | None, after: int) -> bool:
    """Whether a stream from ``after`` would have nothing to send ever: the game has ended
    and its last event is at or before ``after`` (the token checked, as the event log)."""
    finished, version = app.finished_at(game_id, token)
    return finished and after >= version


LIST_HEAD = 50
"""The rows of the top of the games list a lobby stream watches."""


@dataclass(frozen=True)
class ListChange:
    """A row of the games list that changed (its JSON as the list shows it), and the
    position to resume after (the newest given so far, as a cursor)."""

    row: dict[str, Any]
    resume: str


def follow_list(
    pages: ListPages,
    *,
    after: str | None,
    waker: Waker,
    pace: Pace,
    stopped: Callable[[], bool] = lambda: False,
    head: int = LIST_HEAD,
) -> Iterator[ListChange | None]:
    """The games list's changes (docs/api.md, "Live updates"): a game created, joined,
    moved in or finished is given again as its row is now, oldest change first. From the
    top ``head`` rows of the list (most recent activity first): at the start the rows after
    the cursor ``after`` (a resume), or without one the whole head; then every row whose
    version is not the one given last. ``None`` (:data:`Heartbeat`) after ``pace.heartbeat``
    seconds without a change."""
    newest = None if after is None else Position.from_cursor(after)
    given: dict[str, int] = {}
    first = True
    last_sent = time.monotonic()
    while not stopped():
        seen = waker.generation
        body = pages.page(status=None, game=None, limit=head, cursor=None)
        rows = orjson.loads(body)["items"]
        changed = []
        for row in reversed(rows):  # oldest first
            place = Position(row["last_activity"], row["id"])
            if first:
                fresh = newest is None or place > newest
            else:
                fresh = given.get(row["id"]) != row["version"]
            if fresh:
                changed.append((place, row))
        given = {row["id"]: row["version"] for row in rows}
        first = False
        for place, row in changed:
            newest = place if newest is None or place > newest else newest
            yield ListChange(row, newest.cursor())
        if changed:
            last_sent = time.monotonic()
        idle = time.monotonic() - last_sent
        if idle >= pace.heartbeat:
            yield Heartbeat
            last_sent = time.monotonic()
            continue
        waker.wait(seen, min(pace.poll, pace.heartbeat - idle))
