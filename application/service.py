"""The use cases of the service (docs/architecture.md, "Write side"): create a game, join a
seat, make a move, and the queries that read one game — its view now or at any version, the
legal moves of a seat, its event log. Lists of games come from read models
(application/projections/).

Each command is get → command → save. A command carries the version the client saw; a stale
version, or another save that wins the race, is a :class:`Conflict` and changes nothing."""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import (
    AggregateRecorder,
    ApplicationRecorder,
    EventStore,
    IntegrityError,
)

from application.contract import game_contract
from application.errors import BadRequest, Conflict, InvalidToken, NotFound
from application.paging import check_page
from application.presenters import event_type, present_event, present_game
from domain.bots import choose_move
from domain.game import Game, register_game_events
from domain.protocol import Rules, Viewer
from domain.randomness import commitment, new_seed
from domain.registry import games, rules_for
from domain.undo import normalise_settings

SNAPSHOT_INTERVAL = 50
"""A snapshot every 50 events: a view at any version replays at most 49 events."""


def new_token() -> str:
    """A secret token, a seat's or an arbiter's: 32 random bytes, URL-safe. Every token is
    minted here; only its SHA-256 (:func:`token_digest`) is ever recorded."""
    return secrets.token_urlsafe(32)


token_digest = commitment
"""The SHA-256 under which a token is recorded (the token itself never is): the same digest
as a seed's public commitment (:func:`domain.randomness.commitment`)."""


@dataclass(frozen=True)
class Joined:
    """A seat taken: its number, the secret token that moves for it, the game's version."""

    seat: int
    token: str
    version: int


@dataclass(frozen=True)
class Opened:
    """A game created for a client: its id, and a tournament game's arbiter token (shown
    once)."""

    game_id: UUID
    arbiter_token: str | None


@dataclass(frozen=True)
class EventStorage:
    """Where the games' events and snapshots are recorded (built by infrastructure/)."""

    events: ApplicationRecorder
    snapshots: AggregateRecorder


@dataclass(frozen=True)
class Played:
    """A move accepted: the version of the game after it and the events it caused."""

    version: int
    events: int


class GameLedger(Application[UUID]):
    """Every game of every registered kind, in one event store."""

    name = "gameledger"  # pinned: PostgreSQL tables are named after it
    snapshotting_intervals: ClassVar[dict[Any, int]] = {Game: SNAPSHOT_INTERVAL}

    def __init__(
        self, storage: EventStorage | None = None, env: dict[str, str] | None = None
    ) -> None:
        """The games on ``storage`` (the library's in-memory recorders when omitted);
        ``env`` holds the library's settings (the aggregate cache)."""
        self._storage = storage
        super().__init__(
            {"PERSISTENCE_MODULE": "eventsourcing.popo", "IS_SNAPSHOTTING_ENABLED": "y"}
            | (env or {})
        )
        for rules in games().values():
            register_game_events(rules)

    def construct_recorder(self) -> ApplicationRecorder:
        """The events' recorder given by the storage (the library's extension point)."""
        if self._storage is None:
            return super().construct_recorder()
        return self._storage.events

    def construct_snapshot_store(self) -> EventStore[UUID]:
        """The snapshots' store, on the storage's recorder."""
        if self._storage is None:
            return super().construct_snapshot_store()
        return EventStore(mapper=self.mapper, recorder=self._storage.snapshots)

    # Commands

    def create_game(
        self,
        game: str,
        players: int,
        options: dict[str, Any] | None = None,
        *,
        settings: dict[str, Any] | None = None,
        arbiter_token: str | None = None,
        seed: str | None = None,
    ) -> UUID:
        """Create a game of a registered kind with its seats, options and ledger settings
        (undo policy, tournament) fixed; a secret seed is made now and only its SHA-256
        commitment is public. A tournament game needs the arbiter's token. A scenario (the
        rules' ``is_scenario``, e.g. a Carcassonne game with a given stack) is created as an
        analysis game, never a result. (``seed`` is for tools that replay known games, such
        as ``simulate --seed``; the API never takes one.)
        """
        rules = rules_for(game)
        fixed = rules.normalise_options(options or {})
        ledger = normalise_settings(settings)
        if ledger["tournament"] and not arbiter_token:
            raise BadRequest("arbiter-required", "A tournament game needs an arbiter token.")
        seed = seed or new_seed()
        aggregate = Game.create(
            game=game,
            players=players,
            options=fixed,
            settings=ledger,
            seed=seed,
            seed_sha256=commitment(seed),
            arbiter_sha256=token_digest(arbiter_token) if arbiter_token else "",
            analysis={"scenario": True} if rules.is_scenario(fixed) else None,
        )
        self.save(aggregate)
        return aggregate.id

    def open_game(
        self,
        game: str,
        players: int,
        options: dict[str, Any] | None = None,
        settings: dict[str, Any] | None = None,
    ) -> Opened:
        """Create a game as a client asks for one (docs/api.md): a tournament game's arbiter
        token is minted here and returned once."""
        tournament = normalise_settings(settings)["tournament"]
        arbiter = new_token() if tournament else None
        game_id = self.create_game(game, players, options, settings=settings, arbiter_token=arbiter)
        return Opened(game_id, arbiter)

    def fork(self, game_id: UUID, turn: int, token: str | None = None) -> UUID:
        """Start an analysis game from ``game_id``'s state after ``turn``: same kind, seats,
        options; the rules' events of the line of play so far as its prelude; a new seed (so
        the source's future draws stay secret); linked to its source and never a result. A
        game that hides information (its rules' ``hides_information``) is forked only once it
        has ended: the prelude is public and would show every hand."""
        source = self._game(game_id)
        self._viewer(source, token)
        if source.rules.hides_information and not source.finished:
            raise Conflict(
                "hidden-information",
                "This game hides information (hands of cards) while it runs, and a fork's "
                "opening would show it to everyone: fork it once it has ended.",
            )
        version = self._version_after_turn(source, turn)
        at = self._game(game_id, version) if version != source.version else source
        seed = new_seed()
        analysis = {"source": str(game_id), "turn": turn, "version": version}
        aggregate = Game.create(
            game=source.game,
            players=source.players,
            options=source.options,
            settings={"undo": "free", "tournament": False},
            seed=seed,
            seed_sha256=commitment(seed),
            analysis=analysis,
            prelude=[[type_name, data] for _, type_name, data in at.effective],
        )
        self.save(aggregate)
        return aggregate.id

    def join(self, game_id: UUID, name: str, seat: int | None = None) -> Joined:
        """Take a seat (the given one, or the first free one) and get its secret token."""
        token = new_token()
        for _attempt in range(5):
            game = self._game(game_id)
            chosen = seat if seat is not None else _first_free(game)
            game.join(chosen, name, token_digest(token))
            try:
                self.save(game)
            except IntegrityError:
                continue  # another seat was taken meanwhile: decide again on the new state
            return Joined(seat=chosen, token=token, version=game.version)
        raise Conflict("concurrent-update", "The game kept changing; try again.")

    def play(
        self,
        game_id: UUID,
        token: str,
        move: Any,
        expected_version: int,
        *,
        notation: str | None = None,
    ) -> Played:
        """The seat holding ``token`` makes a move on the version it saw: ``move`` in its JSON
        form, or (``move`` None) ``notation`` in the game's notation, read here with the one
        load of the game. The move and all its consequences are saved in one transaction, or
        nothing is."""
        if (move is None) == (notation is None):
            raise BadRequest("invalid-request", "Send exactly one of 'move' and 'notation'.")
        game = self._game(game_id)
        seat = self._seat(game, token)
        _check_version(game, expected_version)
        game.play(seat, move, notation=notation)
        return self._save_command(game)

    def _save_command(self, game: Game) -> Played:
        count = len(game.pending_events)
        try:
            self.save(game)
        except IntegrityError:
            raise Conflict(
                "stale-version", "Another command was saved first; reload and try again."
            ) from None
        return Played(version=game.version, events=count)

    def request_undo(
        self, game_id: UUID, token: str, turns: int = 1, expected_version: int | None = None
    ) -> Played:
        """The token's seat asks to take back its own last ``turns`` turns (domain/undo.py)."""
        game = self._game(game_id)
        seat = self._seat(game, token)
        _check_version(game, expected_version)
        game.request_undo(seat, turns)
        return self._save_command(game)

    def answer_undo(
        self, game_id: UUID, token: str, accept: bool, expected_version: int | None = None
    ) -> Played:
        """The token's seat accepts or refuses the pending undo request."""
        game = self._game(game_id)
        seat = self._seat(game, token)
        _check_version(game, expected_version)
        game.answer_undo(seat, accept)
        return self._save_command(game)

    def arbiter_undo(
        self,
        game_id: UUID,
        arbiter_token: str,
        turn: int,
        reason: str,
        expected_version: int | None = None,
    ) -> Played:
        """The arbiter takes the game back to the end of ``turn``, with a reason."""
        game = self._game(game_id)
        if not game.arbiter_sha256 or token_digest(arbiter_token) != game.arbiter_sha256:
            raise InvalidToken("invalid-token", "That is not this game's arbiter token.")
        _check_version(game, expected_version)
        game.arbiter_undo(turn, reason)
        return self._save_command(game)

    # Queries

    @staticmethod
    def game_types() -> list[dict[str, Any]]:
        """Every registered game as a client needs it to create one (docs/api.md, "Game
        types"): the rules version, the player range per set of options (the first is the
        defaults'), every option with its values and default, the event types."""
        return [
            {
                "name": rules.name,
                "rules_version": rules.rules_version,
                "min_players": min(r.min_players for r in rules.player_ranges),
                "max_players": max(r.max_players for r in rules.player_ranges),
                "player_ranges": [
                    {
                        "options": r.options,
                        "min_players": r.min_players,
                        "max_players": r.max_players,
                    }
                    for r in rules.player_ranges
                ],
                "options": [option.to_json() for option in rules.options_info],
                "event_types": list(rules.event_types),
                "capabilities": {
                    "simultaneous_moves": rules.simultaneous_moves,
                    "hides_information": rules.hides_information,
                    "open_moves": rules.open_moves,
                },
            }
            for rules in games().values()
        ]

    @staticmethod
    def game_schemas(name: str) -> dict[str, Any]:
        """The JSON Schemas of a game's events (by type), move, view and options, generated
        from their one typed definition (docs/api.md, "Game types"; :mod:`application.contract`).
        Raises ``unknown-game``."""
        contract = game_contract(rules_for(name))
        return {
            "game": contract.game,
            "events": contract.events,
            "move": contract.move,
            "view": contract.view,
            "options": contract.options,
        }

    def game_at(self, game_id: UUID, version: int) -> Game:
        """The game aggregate as it was at ``version`` (read models rebuild from it)."""
        return self._game(game_id, version)

    def rules_of(self, game_id: UUID) -> Rules[Any, Any]:
        """The rules of the game's kind."""
        return self._game(game_id).rules

    def whose_turn(self, game_id: UUID) -> tuple[int, list[int]]:
        """The game's version and the seats that may act now (none before it starts or
        after it ends)."""
        game = self._game(game_id)
        players = game.rules.current_players(game.state) if game.started else []
        return game.version, players

    def viewer(self, game_id: UUID, token: str | None) -> Viewer:
        """The viewer a token stands for: its seat, or a spectator without a token."""
        return self._viewer(self._game(game_id), token)

    def view_after_turn(self, game_id: UUID, turn: int, token: str | None = None) -> dict[str, Any]:
        """The game as it was after ``turn`` of the current line of play (0: before the
        first move), for the token's holder."""
        game = self._game(game_id)
        self._viewer(game, token)
        return self.view(game_id, token, self._version_after_turn(game, turn))

    @staticmethod
    def _version_after_turn(game: Game, turn: int) -> int:
        if not 0 <= turn <= game.moves:
            raise NotFound("no-such-turn", f"The game has turns 0 to {game.moves}.")
        if turn == game.moves:
            return game.version
        return game.turns[turn][0] - 1

    def view(
        self, game_id: UUID, token: str | None = None, version: int | None = None
    ) -> dict[str, Any]:
        """The game as ``token``'s holder may see it, now or as it was at ``version``."""
        latest = self._game(game_id)
        viewer = self._viewer(latest, token)
        if version is None or version == latest.version:
            return present_game(latest, viewer)
        if not 1 <= version <= latest.version:
            raise NotFound("no-such-version", f"The game has versions 1 to {latest.version}.")
        return present_game(self._game(game_id, version), viewer)

    def legal_moves(self, game_id: UUID, token: str) -> dict[str, Any]:
        """Every move the seat holding ``token`` may make now, in JSON and notation."""
        game = self._game(game_id)
        seat = self._seat(game, token)
        rules = game.rules
        moves = rules.legal_moves(game.state, seat) if game.started else []
        return {
            "seat": seat,
            "version": game.version,
            "moves": [
                {"move": rules.move_to_json(m), "notation": rules.notation(m)} for m in moves
            ],
        }

    def bot_move(self, game_id: UUID, token: str, bot: random.Random) -> dict[str, Any]:
        """The move a random bot would make for the seat holding ``token`` now, in JSON
        (:func:`domain.bots.choose_move`: the game's bot policy, else a uniform legal move)."""
        game = self._game(game_id)
        seat = self._seat(game, token)
        return game.rules.move_to_json(choose_move(game.rules, game.state, seat, bot))

    def event_log(
        self,
        game_id: UUID,
        token: str | None = None,
        after: int = 0,
        limit: int = 100,
        types: frozenset[str] | None = None,
    ) -> dict[str, Any]:
        """A page of the game's events after version ``after``, as the viewer may see them,
        optionally only of the given types."""
        check_page(after, limit)
        game = self._game(game_id)
        viewer = self._viewer(game, token)
        items: list[dict[str, Any]] = []
        last = after
        for stored in self.repository.event_store.get(game_id, gt=after):
            assert isinstance(stored, Game.Event)
            last = stored.originator_version
            if types is None or event_type(stored) in types:
                items.append(present_event(game, stored, viewer))
                if len(items) == limit:
                    break
        more = last < game.version
        return {"items": items, "next_after": last if more else None, "version": game.version}

    # Helpers

    def _game(self, game_id: UUID, version: int | None = None) -> Game:
        """The game now (from the aggregate cache, brought up to date from the store) or at a
        version. Every caller gets its own copy: the cached one may be fast-forwarded by
        another thread at any moment."""
        try:
            game: Game = self.repository.get(game_id, version=version, projector_func=project_game)
        except AggregateNotFoundError:
            raise NotFound("game-not-found", f"There is no game {game_id}.") from None
        if not isinstance(game, Game):
            raise NotFound("game-not-found", f"There is no game {game_id}.")
        return game

    @staticmethod
    def _seat(game: Game, token: str) -> int:
        seat = game.seat_of(token_digest(token)) if token else None
        if seat is None:
            raise InvalidToken("invalid-token", "That token holds no seat in this game.")
        return seat

    def _viewer(self, game: Game, token: str | None) -> Viewer:
        if not token:
            return Viewer()
        if game.arbiter_sha256 and token_digest(token) == game.arbiter_sha256:
            return Viewer(arbiter=True)
        return Viewer(seat=self._seat(game, token))


def project_game(game: Game | None, events: Iterable[Any]) -> Game | None:
    """Apply stored events in order. (The library's default projector checks each event
    against a runtime protocol, which costs more than applying it.)"""
    for stored in events:
        game = stored.mutate(game)
    return game


def _check_version(game: Game, expected_version: int | None) -> None:
    """A command decided on an older version than the game's is a conflict."""
    if expected_version is not None and expected_version != game.version:
        raise Conflict(
            "stale-version",
            f"The command was decided on version {expected_version}, "
            f"but the game is at version {game.version}.",
        )


def _first_free(game: Game) -> int:
    for index, seat in enumerate(game.seats):
        if seat is None:
            return index
    raise Conflict("game-full", "Every seat of this game is taken.")
