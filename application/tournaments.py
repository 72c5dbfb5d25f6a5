"""The use cases of tournaments (docs/tournaments.md, "Running a tournament"; docs/api.md,
"Tournaments"): create, register, withdraw, check in, start, pair, finish, the arbiter's acts,
results, and who a token stands for. Each command is one load of the tournament, the
aggregate's decision, one save; a save that loses a race is decided again on the tournament
as the store now has it (tournament commands carry no expected version: each is checked
against the tournament's state, so deciding again is always safe).

Tokens: the organiser token is minted at creation and shown once; an entrant's at
registration, shown once. Only their SHA-256 is recorded. Commands are authorised here; the
aggregate decides the rest.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError

from application.errors import Conflict, InvalidToken, NotFound
from application.games import Games
from application.seats import new_token
from application.tournament_tables import arbiter_token, ensure_tables, seat_token
from domain.game import Game
from domain.randomness import commitment, new_seed
from domain.tournament.aggregate import Tournament
from domain.tournament.errors import ResultRefused
from domain.tournament.play_events import TableForfeited

T = TypeVar("T")

ATTEMPTS = 5
"""How often a command is decided again when other saves of the tournament win."""

SNAPSHOT_INTERVAL = 50
"""A snapshot of a tournament at least every 50 events (a load replays at most 49)."""


@dataclass(frozen=True)
class TournamentCreated:
    """A new tournament: its id and the organiser's token (shown once)."""

    tournament_id: UUID
    organiser_token: str


@dataclass(frozen=True)
class Registered:
    """An entrant registered: its id, its token (shown once), the tournament's version."""

    entrant: str
    token: str
    version: int


@dataclass(frozen=True)
class Changed:
    """A command accepted: the tournament's version after it."""

    version: int


class Tournaments:
    """Every tournament, in the same event store as the games (``games``)."""

    def __init__(self, games: Games) -> None:
        self.games = games

    # Loading and saving

    def load(self, tournament_id: UUID, version: int | None = None) -> Tournament:
        """The tournament (at ``version``); ``tournament-not-found``."""
        found: Any = None
        try:
            store = self.games.store_of(tournament_id)
            found = store.repository.get(tournament_id, version=version)
        except (AggregateNotFoundError, NotFound):
            pass
        if not isinstance(found, Tournament):
            raise NotFound("tournament-not-found", f"There is no tournament {tournament_id}.")
        return found

    def command(self, tournament_id: UUID, decide: Callable[[Tournament], T]) -> tuple[int, T]:
        """Run ``decide`` on the tournament now and save what it triggered; the version after
        it and what ``decide`` gave. The tables of a newly paired round are created after
        the save (:func:`application.tournament_tables.ensure_tables`)."""
        store = self.games.store_of(tournament_id)
        for _ in range(ATTEMPTS):
            tournament = self.load(tournament_id)
            before = tournament.version
            rounds_before = len(tournament.rounds)
            answer = decide(tournament)
            try:
                store.save(tournament)
            except IntegrityError:
                continue
            if tournament.version // SNAPSHOT_INTERVAL > before // SNAPSHOT_INTERVAL:
                with contextlib.suppress(IntegrityError):  # another process took it first
                    store.take_snapshot(tournament.id)
            if len(tournament.rounds) > rounds_before:
                ensure_tables(self.games, tournament)
            return tournament.version, answer
        raise Conflict("concurrent-update", "The tournament kept changing; try again.")

    # Who is asking

    def check_organiser(self, tournament: Tournament, token: str | None) -> None:
        """``token`` is the organiser's, else ``invalid-token``."""
        if not token or not tournament.is_organiser(commitment(token)):
            raise InvalidToken("invalid-token", "That is not this tournament's organiser token.")

    def entrant_of(self, tournament: Tournament, token: str | None) -> str:
        """The entrant ``token`` stands for, else ``invalid-token``."""
        found = tournament.entrant_of(commitment(token)) if token else None
        if found is None:
            raise InvalidToken("invalid-token", "That is not an entrant token of this tournament.")
        return found

    # Commands

    def create(
        self,
        game: str,
        options: dict[str, Any] | None,
        settings: dict[str, Any] | None,
        format: dict[str, Any],
        name: str,
        *,
        seed: str | None = None,
    ) -> TournamentCreated:
        """Create a tournament; the organiser token is minted here and shown once. (``seed``
        is for tools such as ``tournament simulate --seed``; the API never takes one.)"""
        organiser = new_token()
        seed = seed or new_seed()
        tournament = Tournament.create(
            game=game,
            options=options or {},
            settings=settings,
            format=format,
            name=name,
            seed=seed,
            seed_sha256=commitment(seed),
            organiser_sha256=commitment(organiser),
            table_secret=new_seed(),
            tournament_id=self.games.new_id(),
        )
        self.games.store_of(tournament.id).save(tournament)
        return TournamentCreated(tournament.id, organiser)

    def register(
        self, tournament_id: UUID, name: str, *, entrant_id: str | None = None
    ) -> Registered:
        """Register an entrant (a late entry after the start where the format takes one).
        (``entrant_id`` is for tools that replay runs, such as ``tournament simulate
        --seed``; the API never takes one: ids are random.)"""
        token = new_token()
        version, entrant = self.command(
            tournament_id, lambda t: t.register(name, commitment(token), entrant_id)
        )
        return Registered(entrant, token, version)

    def withdraw(self, tournament_id: UUID, token: str, entrant: str | None = None) -> Changed:
        """An entrant withdraws with its own token; or the organiser withdraws ``entrant``."""

        def decide(t: Tournament) -> None:
            t.withdraw(self._entrant_or_organiser(t, token, entrant))

        return Changed(self.command(tournament_id, decide)[0])

    def _entrant_or_organiser(self, t: Tournament, token: str, entrant: str | None) -> str:
        if entrant is not None:
            own = t.entrant_of(commitment(token))
            if own == entrant:
                return entrant
            self.check_organiser(t, token)
            return entrant
        return self.entrant_of(t, token)

    def check_in(self, tournament_id: UUID, token: str) -> Changed:
        """An entrant checks in with its own token."""
        return Changed(
            self.command(tournament_id, lambda t: t.check_in(self.entrant_of(t, token)))[0]
        )

    def organiser(
        self, tournament_id: UUID, token: str, act: Callable[[Tournament], Any]
    ) -> Changed:
        """One of the organiser's commands (``act`` on the tournament), with its token."""

        def decide(t: Tournament) -> None:
            self.check_organiser(t, token)
            act(t)

        return Changed(self.command(tournament_id, decide)[0])

    def decide_table(
        self, tournament_id: UUID, token: str, game_id: str, act: Callable[[Tournament], Any]
    ) -> Changed:
        """The arbiter forfeits or adjudicates a table (``act``): refused once the table's
        game has ended (409 ``table-game-ended``: its own outcome decides the table, and the
        results manager records it), and a forfeit naming an entrant who has made a move at
        the table (409 ``no-show-moved``: the verifier would refuse the record; the bot's moves
        for a flagged or resigned seat are not the entrant's). A game that ends, or a move
        made, while the act is being saved is the only way around them; the verifier then
        reports it (docs/tournaments.md, "The arbiter")."""
        try:
            with self.games.reading(UUID(game_id)) as game:
                ended = bool(game.closed) or game.finished
            moved = self._players_who_moved(UUID(game_id))
        except (NotFound, ValueError):
            ended, moved = False, set()  # not a table's game: no-such-table, or not created
        if ended:
            raise Conflict(
                "table-game-ended",
                "That table's game has ended: its outcome decides the table (it is recorded "
                "by the results manager). Correct the result instead if it is wrong.",
            )

        def decide(t: Tournament) -> None:
            act(t)
            for event in t.pending_events:
                if isinstance(event, TableForfeited):
                    seats = t.rounds[event.round - 1]["tables"][event.table - 1]["seats"]
                    if any(seats.index(entrant) in moved for entrant in event.absent):
                        raise Conflict(
                            "no-show-moved",
                            "An entrant named a no-show has made a move at the table: a forfeit "
                            "is for no-shows. Adjudicate the game instead.",
                        )

        return self.organiser(tournament_id, token, decide)

    def _players_who_moved(self, game_id: UUID) -> set[int]:
        """The seats of a game that made a move themselves: not the moves the service's bot
        makes for a seat once it resigned or was flagged (docs/api.md, "Clocks")."""
        moved: set[int] = set()
        out: set[int] = set()
        for stored in self.games.store_of(game_id).events.get(game_id):
            if isinstance(stored, Game.SeatResigned | Game.SeatFlagged):
                out.add(stored.seat)
            elif isinstance(stored, Game.MoveMade) and stored.seat not in out:
                moved.add(stored.seat)
        return moved

    def record_game(self, game: Game) -> bool:
        """Record the result of a finished table's game in its tournament (the results
        manager's command, application/tournament_results.py); whether it was recorded now —
        a table already decided (by an earlier run, or by the arbiter) is left as it is."""
        outcome = game.outcome
        if not game.tournament or outcome is None:
            return False

        def decide(t: Tournament) -> bool:
            try:
                t.record_result(
                    str(game.id),
                    list(outcome.ranks),
                    [int(s) for s in outcome.scores],
                    game.version,
                    game.chain_head,
                )
            except ResultRefused:
                return False
            return True

        return self.command(UUID(game.tournament), decide)[1]

    def ensure_tables(self, tournament_id: UUID) -> int:
        """Create the last round's tables' games that are missing (after a crash)."""
        return ensure_tables(self.games, self.load(tournament_id))

    # Queries that need a token

    def my_tables(self, tournament_id: UUID, token: str) -> list[dict[str, Any]]:
        """The tables of the entrant ``token`` stands for, every round, each with the seat's
        token of its game (docs/api.md, "Tournaments": how an entrant reaches its seats)."""
        t = self.load(tournament_id)
        entrant = self.entrant_of(t, token)
        found = []
        for rnd in t.rounds:
            for table in rnd["tables"]:
                if entrant in table["seats"]:
                    seat = table["seats"].index(entrant)
                    found.append(
                        {
                            "round": rnd["number"],
                            "table": table["table"],
                            "game": table["game"],
                            "seat": seat,
                            "token": seat_token(t.table_secret, table["game"], seat),
                            "decided": table["result"] is not None,
                        }
                    )
        return found

    def arbiter_tokens(self, tournament_id: UUID, token: str) -> list[dict[str, Any]]:
        """The arbiter's token of every table's game, for the organiser (arbiter undo)."""
        t = self.load(tournament_id)
        self.check_organiser(t, token)
        return [
            {
                "round": rnd["number"],
                "table": table["table"],
                "game": table["game"],
                "arbiter_token": arbiter_token(t.table_secret, table["game"]),
            }
            for rnd in t.rounds
            for table in rnd["tables"]
        ]
