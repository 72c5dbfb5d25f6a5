"""The games-list projection (docs/architecture.md, "Read side"): one row per game — kind, status,
seats, whose turn, scores, version, last activity — kept by following the event log.

Each event is applied exactly once: the view writes the row and the event's tracking
position in one transaction, and refuses a position it has already recorded. Rows depend
only on the events (``last_activity`` is the event's own timestamp), so a rebuild from zero
gives the same rows.

Each row is kept as the JSON document the API sends, so that a page of the list is read and
sent with no decoding or encoding of its rows; pages are found by the position of their last
row (keyset pagination: most recent activity first, then game id), never by counting or
skipping rows (docs/api.md, "The games list")."""

from __future__ import annotations

import base64
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID

import orjson
from eventsourcing.persistence import Tracking

from application.errors import BadRequest
from application.presenters import seats_of, status_of
from application.projections.following import CACHE_BYTES, FollowingProjection, GameSource
from application.projections.storable import storable
from domain.game import Game

STATUSES = ("waiting", "active", "finished", "aborted", "expired")


@dataclass(frozen=True)
class GameRow:
    """One row of the games list."""

    game_id: str
    game: str
    status: str
    players: int
    seats: list[dict[str, Any]]
    current_players: list[int]
    analysis: bool
    scores: list[int]
    round: int | None
    version: int
    created_at: str
    last_activity: str

    @property
    def position(self) -> Position:
        """Where the row is in the list."""
        return Position(self.last_activity, self.game_id)

    def document(self) -> str:
        """The row as the JSON document the list sends."""
        return orjson.dumps(self.to_json()).decode()

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRow:
        """A row from its JSON form."""
        return cls(
            game_id=data["id"],
            game=data["game"],
            status=data["status"],
            players=data["players"],
            seats=data["seats"],
            current_players=data["current_players"],
            analysis=data["analysis"],
            scores=data["scores"],
            round=data["round"],
            version=data["version"],
            created_at=data["created_at"],
            last_activity=data["last_activity"],
        )

    def to_json(self) -> dict[str, Any]:
        """The row as JSON-ready primitives."""
        return {
            "id": self.game_id,
            "game": self.game,
            "status": self.status,
            "players": self.players,
            "seats": self.seats,
            "current_players": self.current_players,
            "analysis": self.analysis,
            "scores": self.scores,
            "round": self.round,
            "version": self.version,
            "created_at": self.created_at,
            "last_activity": self.last_activity,
        }


@dataclass(frozen=True, order=True)
class Position:
    """A row's place in the list, which runs from the most recent activity down (ties: the
    larger game id first)."""

    last_activity: str
    game_id: str

    def cursor(self) -> str:
        """The position as an opaque cursor (URL-safe)."""
        raw = orjson.dumps([self.last_activity, self.game_id])
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    @classmethod
    def from_cursor(cls, cursor: str) -> Position:
        """The position a cursor stands for; ``invalid-cursor`` if it is not one this service
        made."""
        try:
            raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
            last_activity, game_id = orjson.loads(raw)
        except (ValueError, TypeError, orjson.JSONDecodeError):
            raise BadRequest("invalid-cursor", "That is not a cursor of the games list.") from None
        if not isinstance(last_activity, str) or not isinstance(game_id, str):
            raise BadRequest("invalid-cursor", "That is not a cursor of the games list.")
        return cls(last_activity, game_id)


@dataclass(frozen=True)
class Page:
    """A page of the games list: its rows as JSON documents, and the cursor of the next page
    (``None`` on the last)."""

    documents: list[str]
    next_cursor: str | None


class GamesListView(Protocol):
    """Where the games list is kept (SQLite or PostgreSQL tables, infrastructure/)."""

    def upsert_games(self, rows: list[GameRow], tracking: Tracking) -> None:
        """Write the rows and record the tracking position, in one transaction; raise
        ``IntegrityError`` for a position already recorded (nothing is written)."""
        ...

    def list_games(
        self, *, status: str | None, game: str | None, limit: int, after: Position | None
    ) -> list[tuple[Position, str]]:
        """At most ``limit`` rows matching the filters that come after position ``after``
        (from the top without one), in list order: each row's position and JSON document."""
        ...

    def all_rows(self) -> list[GameRow]:
        """Every row, ordered by game id (for comparisons after a rebuild)."""
        ...

    def clear(self, application_name: str) -> None:
        """Delete every row and the tracking position: the start of a rebuild."""
        ...

    def max_tracking_id(self, application_name: str) -> int | None:
        """The last notification id applied."""
        ...


def games_page(
    view: GamesListView,
    *,
    status: str | None = None,
    game: str | None = None,
    limit: int = 50,
    cursor: str | None = None,
) -> Page:
    """A page of the games list (docs/api.md, "The games list"): at most ``limit`` rows after
    the row ``cursor`` names, and the cursor of the next page."""
    after = None if cursor is None else Position.from_cursor(cursor)
    rows = view.list_games(status=status, game=game, limit=limit + 1, after=after)
    more = len(rows) > limit
    rows = rows[:limit]
    return Page([document for _, document in rows], rows[-1][0].cursor() if more else None)


class ListPages:
    """Pages of the games list as the JSON the API sends, kept until the list changes
    (docs/api.md, "The games list"): ``changed`` gives a token that changes whenever the
    read model commits (SQLite's ``data_version`` of its file; on PostgreSQL, the NOTIFY its
    follower sends with every change), read before the rows are, so a page kept under a token
    holds every change made before it. Without a token (``None``) nothing is kept."""

    def __init__(self, view: GamesListView, changed: Callable[[], object], keep: int = 256) -> None:
        self.view = view
        self.changed = changed
        self.keep = keep
        self._pages: OrderedDict[tuple[Any, ...], tuple[object, bytes]] = OrderedDict()
        self._lock = threading.Lock()

    def page(
        self, *, status: str | None, game: str | None, limit: int, cursor: str | None
    ) -> bytes:
        """A page (:func:`games_page`) as JSON: ``items``, ``next_cursor``, ``limit``."""
        token = self.changed()
        key = (status, game, limit, cursor)
        if token is not None:
            with self._lock:
                kept = self._pages.get(key)
                if kept is not None and kept[0] == token:
                    self._pages.move_to_end(key)
                    return kept[1]
        found = games_page(self.view, status=status, game=game, limit=limit, cursor=cursor)
        body = page_document(found, limit)
        if token is not None:
            with self._lock:
                self._pages[key] = (token, body)
                self._pages.move_to_end(key)
                while len(self._pages) > self.keep:
                    self._pages.popitem(last=False)
        return body


def page_document(page: Page, limit: int) -> bytes:
    """A page as the JSON the API sends, made from the rows' documents without decoding them."""
    tail = orjson.dumps({"next_cursor": page.next_cursor, "limit": limit})
    return b'{"items":[' + ",".join(page.documents).encode() + b"]," + tail[1:]


def row_of(game: Game, last_activity: str) -> GameRow:
    """The games-list row of a game as it is."""
    summary = game.rules.summary(game.state)
    return GameRow(
        game_id=str(game.id),
        game=game.game,
        status=status_of(game),
        players=game.players,
        seats=storable(seats_of(game)),
        current_players=game.current_players,
        analysis=game.analysis is not None,
        scores=[int(s) for s in summary.get("scores", [])],
        round=summary.get("round"),
        version=game.version,
        created_at=game.created_on.isoformat(),
        last_activity=last_activity,
    )


class GamesListProjection(FollowingProjection):
    """Turns each event of a game into that game's new row."""

    name = "games_list"
    view: GamesListView

    def __init__(
        self, view: GamesListView, source: GameSource, cache_bytes: int = CACHE_BYTES
    ) -> None:
        super().__init__(source, cache_bytes)
        self.view = view

    def process_batch(self, events: list[Any], tracking: Tracking) -> None:
        """Apply consecutive stored events ending at ``tracking``: each game's newest row
        and the last position are written in one transaction (all or nothing)."""
        newest: dict[UUID, tuple[Game, Any]] = {}
        for stored, game in self.follow(events):
            if game.private:
                continue  # a private game is not listed (docs/api.md, "Lobby")
            newest[game.id] = (game, stored.timestamp)
        # A game's row once, as it is after its last event of the batch (the game kept is
        # changed in place by its later events, and no other game's event changes it).
        rows = [row_of(game, at.isoformat()) for game, at in newest.values()]
        self.view.upsert_games(rows, tracking)
