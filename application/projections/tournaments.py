"""The tournaments read model (issue 15, part 3; docs/tournaments.md, "Standings and ratings
read model"): one row per tournament — its summary for the list, and its public document
(application/tournament_views.py: entrants, rounds, results, standings, the arbiter's
history) — and one rating row per entrant (OpenSkill, in the tournament's game kind), kept by
following the event log.

Rows depend only on the tournament's events (each row is computed from the tournament at the
version of its last event in the batch), so a rebuild from zero gives the same rows; an event
is applied exactly once (the rows and the tracking position are written in one transaction).
Standings are therefore a read model, rebuildable from zero, as the issue asks; the standings'
signed tree head is added when a reader asks (api/resources/tournaments.py), from the
transparency log as it is then.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID

import orjson
from eventsourcing.persistence import Tracking

from application.errors import BadRequest, NotFound
from application.projections.following import topics_of
from application.tournament_views import document_of, rated_games, ratings_of, summary_of
from domain.tournament.aggregate import Tournament
from domain.tournament.event_base import TournamentEvent
from domain.tournament.ratings import RatedGame, Rating, rate

PHASES = ("registration", "check-in", "running", "finished")


@dataclass(frozen=True)
class TournamentRow:
    """One tournament's row: list columns and its JSON documents."""

    tournament_id: str
    game: str
    phase: str
    created_at: str
    updated_at: str
    """The time of its last event (the lobby stream follows the tournaments changed last)."""
    version: int
    summary: str
    """The summary (JSON text) the list sends."""
    document: str
    """The whole public document (JSON text)."""
    ratings: list[RatingRow]


@dataclass(frozen=True)
class RatingRow:
    """One entrant's rating in one tournament."""

    tournament_id: str
    entrant: str
    game: str
    ordinal: float | None
    document: str


def row_of(tournament: Tournament, rated: Mapping[str, Rating] | None = None) -> TournamentRow:
    """The read model's rows of a tournament as it is (``rated``: its ratings, when known)."""
    ratings = [
        RatingRow(
            str(tournament.id),
            rating["entrant"],
            tournament.game,
            rating["ordinal"],
            orjson.dumps({**rating, "tournament_id": str(tournament.id)}).decode(),
        )
        for rating in ratings_of(tournament, rated)
    ]
    summary = summary_of(tournament)
    return TournamentRow(
        tournament_id=str(tournament.id),
        game=tournament.game,
        phase=tournament.phase,
        created_at=summary["created_at"],
        updated_at=summary["updated_at"],
        version=tournament.version,
        summary=orjson.dumps(summary).decode(),
        document=orjson.dumps(document_of(tournament, rated)).decode(),
        ratings=ratings,
    )


class TournamentsView(Protocol):
    """Where the tournaments read model is kept (SQLite or PostgreSQL, infrastructure/)."""

    def apply_tournaments(self, rows: list[TournamentRow], tracking: Tracking) -> None:
        """Write ``rows`` (each replacing its tournament's row and rating rows) and the
        position, in one transaction; ``IntegrityError`` for a position already recorded."""
        ...

    def document(self, tournament_id: str) -> str | None:
        """A tournament's public document (JSON text), if the read model has it."""
        ...

    def summaries(
        self, limit: int, after: tuple[str, str] | None, game: str | None, phase: str | None
    ) -> list[tuple[str, str, str]]:
        """At most ``limit`` rows ``(created_at, tournament_id, summary)``, newest first,
        after the position ``after`` (``(created_at, tournament_id)``), filtered."""
        ...

    def ratings(self, game: str, limit: int) -> list[str]:
        """The best ``limit`` rating documents of a game kind across tournaments."""
        ...

    def recent(self, limit: int) -> list[str]:
        """The summaries of the ``limit`` tournaments changed last, most recent first."""
        ...

    def max_tracking_id(self, application_name: str) -> int | None:
        """The last notification id applied."""
        ...


class TournamentSource(Protocol):
    """How the projection loads a tournament."""

    def load(self, tournament_id: UUID, version: int | None = None) -> Tournament:
        """The tournament at ``version``."""
        ...


class TournamentsProjection:
    """Turns the tournaments' events into their rows (module docstring)."""

    name = "tournaments"

    def __init__(self, view: TournamentsView, source: TournamentSource) -> None:
        self.view = view
        self._source = source
        self._cache: dict[UUID, Tournament] = {}
        self._rated: dict[UUID, tuple[list[RatedGame], dict[str, Rating]]] = {}
        self._tournament_event = topics_of(TournamentEvent)

    def may_want(self, originator_id: UUID | str, topic: str) -> bool:
        """Whether an event may be a tournament's (by its topic alone)."""
        return self._tournament_event(topic)

    def wants(self, events: list[Any]) -> bool:
        """Whether a tournament moved in the batch (else only the position moves:
        infrastructure/follower.py)."""
        return any(isinstance(e, TournamentEvent) for e in events)

    def process_batch(self, events: list[Any], tracking: Tracking) -> None:
        """Each tournament's rows as the batch's last event of it leaves it, and the
        position, in one transaction."""
        latest: dict[UUID, Tournament] = {}
        for stored in events:
            if isinstance(stored, TournamentEvent):
                latest[stored.originator_id] = self._advance(stored)
        self.view.apply_tournaments(
            [row_of(t, self._ratings(t)) for t in latest.values()], tracking
        )

    def _ratings(self, tournament: Tournament) -> dict[str, Rating]:
        """The tournament's ratings, rating only the games rated since the last time when
        the earlier ones are unchanged (a correction rates them all again)."""
        games = rated_games(tournament)
        known, ratings = self._rated.get(tournament.id, ([], {}))
        unchanged = games[: len(known)] == known
        ratings = rate(games[len(known) :], ratings) if unchanged else rate(games)
        if len(self._rated) > 256:
            self._rated.clear()
        self._rated[tournament.id] = (games, ratings)
        return ratings

    def forget(self) -> None:
        """Drop the tournaments kept (after a rebuild)."""
        self._cache.clear()
        self._rated.clear()

    def _advance(self, stored: TournamentEvent) -> Tournament:
        key = stored.originator_id
        cached = self._cache.get(key)
        found: Any = None
        if stored.originator_version == 1:
            found = stored.mutate(None)
        elif cached is not None and cached.version == stored.originator_version - 1:
            found = stored.mutate(cached)
        if not isinstance(found, Tournament):
            found = self._source.load(key, stored.originator_version)
        if len(self._cache) > 256:
            self._cache.clear()
        kept: Tournament = found
        self._cache[key] = kept
        return kept


class TournamentReads:
    """The queries the API answers from the read model (docs/api.md, "Tournaments")."""

    def __init__(self, view: TournamentsView) -> None:
        self.view = view

    def document(self, tournament_id: UUID) -> dict[str, Any]:
        """A tournament's public document; ``tournament-not-found``."""
        found = self.view.document(str(tournament_id))
        if found is None:
            raise NotFound("tournament-not-found", f"There is no tournament {tournament_id}.")
        document: dict[str, Any] = orjson.loads(found)
        return document

    def page(
        self, limit: int, cursor: str | None, game: str | None = None, phase: str | None = None
    ) -> tuple[list[dict[str, Any]], str | None]:
        """A page of the list of tournaments, newest first, and the cursor of the next page
        (None: the last page)."""
        if phase is not None and phase not in PHASES:
            raise BadRequest("invalid-request", f"'phase' must be one of {', '.join(PHASES)}.")
        rows = self.view.summaries(limit + 1, _position(cursor), game, phase)
        items = [orjson.loads(summary) for _, _, summary in rows[:limit]]
        following = None
        if len(rows) > limit:
            created_at, tournament_id, _ = rows[limit - 1]
            following = base64.urlsafe_b64encode(orjson.dumps([created_at, tournament_id])).decode()
        return items, following

    def top_ratings(self, game: str, limit: int) -> list[dict[str, Any]]:
        """The best ratings of a game kind across tournaments, each with its tournament's
        id."""
        return [orjson.loads(text) for text in self.view.ratings(game, limit)]

    def recent(self, limit: int) -> list[dict[str, Any]]:
        """The summaries of the tournaments changed last, most recent first (the lobby
        stream's, docs/api.md "Live updates")."""
        return [orjson.loads(text) for text in self.view.recent(limit)]


def _position(cursor: str | None) -> tuple[str, str] | None:
    """The position a list cursor names; ``invalid-cursor``."""
    if cursor is None:
        return None
    try:
        created_at, tournament_id = orjson.loads(base64.urlsafe_b64decode(cursor.encode()))
        UUID(tournament_id)
    except (ValueError, TypeError, orjson.JSONDecodeError):
        raise BadRequest("invalid-cursor", "That cursor is not one the service made.") from None
    return str(created_at), str(tournament_id)
