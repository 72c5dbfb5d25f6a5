"""The results manager (issue 15, part 3; docs/tournaments.md, "Results"): a process manager
that follows the event log with tracking, like a read model, and issues commands:

* when a table's game is over (its outcome reached: by the rules, resignations, flags), the
  outcome is recorded in its tournament (:meth:`application.tournaments.Tournaments.
  record_game`); the tournament pairs the next round itself when that was the last table of a
  round and its pairing is ``auto``;
* when a round is paired (``RoundPaired``), its tables' games are created if they are not yet
  (the command that paired it creates them at once; this is for a process that stopped in
  between).

A result the tournament refuses for good (a domain refusal: retrying never helps) is logged
with the game and the tournament and left to the arbiter; it never stops the manager, which
serves every tournament. Anything else (the store down) fails the batch, which the follower
reports and retries (docs/operations.md, "Health").

Restart-safe and never applied twice: the position is recorded after the commands, so a
process that stops in between applies the same events again — and the tournament refuses a
second result for a table (``table-decided``), and a table's game, whose id is fixed, cannot
be created twice.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol
from uuid import UUID

from eventsourcing.persistence import Tracking

from application.checkpointer import is_over
from application.projections.following import (
    CACHE_BYTES,
    FollowingProjection,
    GamesMarked,
    GameSource,
    topics_of,
)
from application.tournaments import Tournaments
from domain.errors import GameError
from domain.game import Game
from domain.tournament.event_base import TournamentEvent
from domain.tournament.play_events import RoundPaired

log = logging.getLogger(__name__)


class TrackingView(Protocol):
    """Where the manager keeps its position (a tracking table of its own)."""

    def track(self, tracking: Tracking) -> None:
        """Record the position; ``IntegrityError`` for a position already recorded."""
        ...

    def max_tracking_id(self, application_name: str) -> int | None:
        """The last notification id applied."""
        ...


class ResultsManager(FollowingProjection):
    """Follows the event log into the tournaments (module docstring)."""

    name = "tournament_results"
    view: TrackingView

    def __init__(
        self,
        view: TrackingView,
        source: GameSource,
        tournaments: Tournaments,
        cache_bytes: int = CACHE_BYTES,
    ) -> None:
        super().__init__(source, cache_bytes)
        self.view = view
        self.tournaments = tournaments
        self._tables = GamesMarked(
            source,
            lambda created: bool(getattr(created, "tournament", "")),
            lambda game: bool(game.tournament),
        )
        """Which games are tournament tables' (only those are followed)."""
        self._pairing = topics_of(RoundPaired)
        self._tournament_event = topics_of(TournamentEvent)

    def may_want(self, originator_id: UUID | str, topic: str) -> bool:
        """Whether an event may pair a round or move a table's game (an event of a game
        known to be no table's, or of a tournament but no pairing: no)."""
        return self._pairing(topic) or (
            not self._tournament_event(topic) and self._tables.may_be(originator_id)
        )

    def wants(self, events: list[Any]) -> bool:
        """Whether the batch pairs a round or moves a table's game (else only the position
        moves: infrastructure/follower.py)."""
        return any(isinstance(e, RoundPaired) for e in events) or bool(self._tables.among(events))

    def process_batch(self, events: list[Any], tracking: Tracking) -> None:
        """Record the results of the tables that ended, create the tables of the rounds
        paired, then record the position. Only tables' games are followed: a game's
        ``Created`` says whether it is one, and a game first met later is looked up once."""
        paired = {e.originator_id for e in events if isinstance(e, RoundPaired)}
        tables = self._tables.among(events)
        ended: dict[UUID, Game] = {}
        for _, game in self.follow(tables):
            if game.tournament and is_over(game):
                ended[game.id] = game
        for game in ended.values():
            try:
                self.tournaments.record_game(game)
            except GameError as refused:  # the tournament will never take it: say so, go on
                log.warning(
                    "tournament %s refused the result of its table's game %s (%s: %s); "
                    "the arbiter may adjudicate the table",
                    game.tournament,
                    game.id,
                    refused.code,
                    refused.message,
                )
        for tournament_id in paired:
            self.tournaments.ensure_tables(tournament_id)
        self.view.track(tracking)

    def forget(self) -> None:
        """Drop the games kept (and what is known of which games are tables)."""
        super().forget()
        self._tables.forget()
