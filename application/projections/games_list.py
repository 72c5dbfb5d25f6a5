"""The games-list projection (docs/architecture.md, "Read side"): one row per game — kind, status,
seats, whose turn, scores, version, last activity — kept by following the event log.

Each event is applied exactly once: the view writes the row and the event's tracking
position in one transaction, and refuses a position it has already recorded. Rows depend
only on the events (``last_activity`` is the event's own timestamp), so a rebuild from zero
gives the same rows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID

from eventsourcing.persistence import Tracking

from application.presenters import seats_of, status_of
from application.projections.following import CACHE_BYTES, FollowingProjection, GameSource
from application.projections.storable import storable
from domain.game import Game

STATUSES = ("waiting", "active", "finished")


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


class GamesListView(Protocol):
    """Where the games list is kept (SQLite or PostgreSQL tables, infrastructure/)."""

    def upsert_games(self, rows: list[GameRow], tracking: Tracking) -> None:
        """Write the rows and record the tracking position, in one transaction; raise
        ``IntegrityError`` for a position already recorded (nothing is written)."""
        ...

    def list_games(
        self, *, status: str | None, game: str | None, limit: int, offset: int
    ) -> tuple[list[GameRow], int]:
        """A page of rows, most recently active first, and the total matching."""
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


def row_of(game: Game, last_activity: str) -> GameRow:
    """The games-list row of a game as it is."""
    summary = game.rules.summary(game.state)
    return GameRow(
        game_id=str(game.id),
        game=game.game,
        status=status_of(game),
        players=game.players,
        seats=storable(seats_of(game)),
        current_players=game.rules.current_players(game.state) if game.started else [],
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
        rows: dict[UUID, GameRow] = {}
        for stored, game in self.follow(events):
            rows[game.id] = row_of(game, stored.timestamp.isoformat())
        self.view.upsert_games(list(rows.values()), tracking)
