"""Following a game's event log, and the games list, as they grow (docs/api.md, "Live
updates"): the use cases behind the Server-Sent Events streams of api/resources/streams.py
(a tournament table's game stream and the lobby stream carry tournaments' changes too:
application/tournament_streams.py).

A follower never holds a connection of the store while it waits: it waits on a
:class:`Waker` (the process's :class:`infrastructure.watcher.LogWatcher`: a PostgreSQL
NOTIFY, a save of this process, or its polling interval on SQLite), then reads what came
after the last item it gave, through the same use case and presenter as the event log
(:meth:`application.service.GameLedger.event_log`), so a stream shows a viewer exactly what
the event log shows it. Each wake-up that finds nothing new costs a look at the game the
process keeps (on PostgreSQL no query while no notification arrived)."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol
from uuid import UUID

import orjson

from application.errors import BadRequest
from application.projections.games_list import ListPages, Position
from application.service import GameLedger
from application.tournament_streams import LobbyTournaments, TournamentNews

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


@dataclass
class _Read:
    """A page being read by one stream for the others that need the same."""

    done: threading.Event = field(default_factory=threading.Event)
    items: list[dict[str, Any]] | None = None


class SharedReads:
    """Pages of event logs read once for every stream of a process that needs the same page:
    the same game, viewer (token), starting point and version of the game (docs/operations.md,
    "Streams"). When a move wakes every stream of a game, the first to ask reads the page and
    the others wait for it and take it: one read per viewer and starting point instead of one
    per stream. A page is what :meth:`GameLedger.event_log` gives, so nothing but the number
    of reads changes; the last ``keep`` pages are kept."""

    def __init__(self, keep: int = 256) -> None:
        self.keep = keep
        self._reads: OrderedDict[tuple[Any, ...], _Read] = OrderedDict()
        self._lock = threading.Lock()

    def page(
        self,
        app: GameLedger,
        game_id: UUID,
        *,
        token: str | None,
        after: int,
        version: int,
        batch: int,
    ) -> list[dict[str, Any]]:
        """The event log's items after ``after`` (the game at ``version`` at least)."""
        key = (game_id, token, after, version, batch)
        with self._lock:
            read = self._reads.get(key)
            mine = read is None
            if read is None:
                read = self._reads[key] = _Read()
                while len(self._reads) > self.keep:
                    self._reads.popitem(last=False)
            else:
                self._reads.move_to_end(key)
        if not mine:
            read.done.wait()
            if read.items is not None:
                return read.items
            return list(app.event_log(game_id, token, after, batch)["items"])
        try:
            read.items = app.event_log(game_id, token, after, batch)["items"]
        except BaseException:
            with self._lock:
                self._reads.pop(key, None)
            raise
        finally:
            read.done.set()
        return read.items


class Side(Protocol):
    """What a game's stream carries besides its events (a tournament table's:
    :class:`application.tournament_streams.TableFollower`)."""

    def news(self) -> list[TournamentNews]:
        """The messages to send now."""
        ...

    def settled(self) -> bool:
        """Whether the stream may end once the game has ended."""
        ...


def follow_game(
    app: GameLedger,
    game_id: UUID,
    *,
    token: str | None,
    after: int,
    waker: Waker,
    pace: Pace,
    stopped: Callable[[], bool] = lambda: False,
    reads: SharedReads | None = None,
    side: Side | None = None,
) -> Iterator[dict[str, Any] | TournamentNews | None]:
    """The game's events after version ``after`` as its event log shows them to the
    token's holder, in order, each once, then each new one as it is saved; ``None``
    (:data:`Heartbeat`) after ``pace.heartbeat`` seconds without one. Ends once the game
    has finished and its last event was given (docs/api.md, "Live updates"), or when
    ``stopped()``. The token is checked before the first item (403, 404 as the event log).
    ``reads``: the process's :class:`SharedReads`, to share pages with other streams.
    ``side``: a tournament table's news, given once the events so far are (and then as they
    come); the stream then ends only once ``side.settled()`` too."""
    last_sent = time.monotonic()
    looked: int | None = None
    while not stopped():
        seen = waker.generation  # before reading: a save after the read wakes the wait
        # Woken for this game (or first): read it exactly — the wake-up may have come from
        # the log before the process's change token moved; a look after a timeout may lag.
        finished, version = _latest(app, game_id, may_lag=seen == looked)
        looked = seen
        if version > after:
            if reads is None:
                items = app.event_log(game_id, token, after, pace.batch)["items"]
            else:
                items = reads.page(
                    app, game_id, token=token, after=after, version=version, batch=pace.batch
                )
            for item in items:
                yield item
                after = item["version"]
            if items:
                last_sent = time.monotonic()
                continue
        news = side.news() if side is not None else []
        yield from news
        if news:
            last_sent = time.monotonic()
            continue
        if finished and (side is None or side.settled()):
            return
        idle = time.monotonic() - last_sent
        if idle >= pace.heartbeat:
            yield Heartbeat
            last_sent = time.monotonic()
            continue
        waker.wait(seen, min(pace.poll, pace.heartbeat - idle))


def _latest(app: GameLedger, game_id: UUID, *, may_lag: bool = True) -> tuple[bool, int]:
    """Whether the game has ended, and its version: as the store has it, or, ``may_lag``, as
    the process knows it — from the game it keeps while no notification (PostgreSQL) or look
    (SQLite) says the store has changed (a spectator's read, docs/api.md, "Consistency")."""
    with app.games.viewing(game_id, may_lag=may_lag) as kept:
        return kept.game.finished, kept.game.version


def tournament_of(app: GameLedger, game_id: UUID) -> UUID | None:
    """The tournament whose table the game is, if it is one."""
    with app.games.viewing(game_id, may_lag=True) as kept:
        found = kept.game.tournament
    return UUID(found) if found else None


def stream_finished(app: GameLedger, game_id: UUID, token: str | None, after: int) -> bool:
    """Whether a stream from ``after`` would have nothing to send ever: the game has ended
    and its last event is at ``after`` (the token checked, as the event log). A resume point
    past the game's last event is no message this game's stream ever sent (versions only
    grow: an undo is an event too), so it is refused 400 ``invalid-last-event-id`` rather
    than answered by a silent stream — or, on a finished game, by a 204 that would tell the
    client the game is over (docs/api.md, "Live updates")."""
    finished, version = app.finished_at(game_id, token)
    if after > version:
        raise BadRequest(
            "invalid-last-event-id",
            f"The game's last event is version {version}: no message of its stream has "
            f"the id {after}. Resume from an id the stream sent.",
        )
    return finished and after == version


LIST_HEAD = 50
"""The rows of the top of the games list a lobby stream watches."""

LOOKBACK = timedelta(seconds=5)
"""How far before its cursor a resumed lobby stream looks (docs/api.md, "Live updates"): a
row's time is its event's, taken before the commit, so a row committed after the cursor's
may carry an earlier time; a resume sends such rows again rather than miss one."""


@dataclass(frozen=True)
class ListChange:
    """A row of the games list that changed (its JSON as the list shows it), and the
    position to resume after (the newest given so far, as a cursor)."""

    row: dict[str, Any]
    resume: str


def _looking_back(cursor: Position) -> Position:
    """The place :data:`LOOKBACK` before ``cursor`` (the cursor itself if its time cannot be
    read, or lies less than that after the earliest time there is)."""
    try:
        then = datetime.fromisoformat(cursor.last_activity) - LOOKBACK
    except (ValueError, OverflowError):
        return cursor
    return Position(then.isoformat(), "")


def follow_list(
    pages: ListPages,
    *,
    after: str | None,
    waker: Waker,
    pace: Pace,
    stopped: Callable[[], bool] = lambda: False,
    head: int = LIST_HEAD,
    tournaments: Callable[[int], list[dict[str, Any]]] | None = None,
) -> Iterator[ListChange | TournamentNews | None]:
    """The games list's changes (docs/api.md, "Live updates"): a game created, joined,
    moved in or finished is given again as its row is now, oldest change first. From the
    top ``head`` rows of the list (most recent activity first): at the start the rows after
    the cursor ``after`` less :data:`LOOKBACK` (a resume: a row already received may come
    again, with the same id and version), or without one the whole head; then every row whose
    version is not the one given last. ``None`` (:data:`Heartbeat`) after ``pace.heartbeat``
    seconds without a change. ``tournaments``: the summaries of the tournaments changed last
    (the tournaments read model's ``recent``), given the same way after the games
    (:class:`application.tournament_streams.LobbyTournaments`)."""
    newest = None if after is None else Position.from_cursor(after)
    since = None if newest is None else _looking_back(newest)
    lobby = None
    if tournaments is not None:
        lobby = LobbyTournaments(tournaments, None if since is None else since.last_activity)
    given: dict[str, int] = {}
    read = b""
    first = True
    last_sent = time.monotonic()
    while not stopped():
        seen = waker.generation
        body = pages.page(status=None, game=None, limit=head, cursor=None)
        rows = [] if body == read else orjson.loads(body)["items"]  # unchanged: nothing new
        read = body
        changed = []
        for row in reversed(rows):  # oldest first
            place = Position(row["last_activity"], row["id"])
            if first:
                fresh = since is None or place > since
            else:
                fresh = given.get(row["id"]) != row["version"]
            if fresh:
                changed.append((place, row))
        if rows or first:
            given = {row["id"]: row["version"] for row in rows}
        first = False
        for place, row in changed:
            newest = place if newest is None or place > newest else newest
            yield ListChange(row, newest.cursor())
        news = lobby.changes() if lobby is not None else []
        yield from news
        if changed or news:
            last_sent = time.monotonic()
        idle = time.monotonic() - last_sent
        if idle >= pace.heartbeat:
            yield Heartbeat
            last_sent = time.monotonic()
            continue
        waker.wait(seen, min(pace.poll, pace.heartbeat - idle))
