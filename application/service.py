"""The use cases of the service (docs/architecture.md, "Write side"): :class:`GameLedger`,
whose commands are here — create a game, join a seat, make a move, undo, fork, expire — and
whose queries of one game (its view now or at any version, the legal moves of a seat, its
event log) are :class:`application.reads.GameReads`; the catalogue of game types is
:mod:`application.catalogue`, who a token stands for :mod:`application.seats`, the lobby's
verbs :mod:`application.lobby`. Lists of games come from read models
(application/projections/).

Each command is one load (none when the game is cached at the version the client saw), the
command, one save (:mod:`application.games`). A command carries the version the client saw;
a stale version, or another save that wins the race, is a :class:`Conflict` and changes
nothing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from application import catalogue
from application.admission import ExpiryDue, admit, expired_conflict
from application.cache import GameCache
from application.errors import BadRequest, Conflict
from application.flags_first import Late, arrival, flags_first, refuse_late
from application.games import Games, Saved, check_version
from application.reads import Document, GameReads, serialised, viewer_key
from application.seats import check_arbiter, first_free, new_token, seat_of, viewer_of
from application.store import SNAPSHOT_INTERVAL, GameStore
from domain.game import Game
from domain.jsonvalue import copy_json
from domain.lobby import expired
from domain.randomness import commitment, new_seed
from domain.registry import rules_for
from domain.undo import normalise_settings

__all__ = [
    "SNAPSHOT_INTERVAL",
    "Document",
    "GameLedger",
    "Joined",
    "Opened",
    "Played",
    "new_token",
    "serialised",
    "viewer_key",
]

DEFAULT_CACHE_BYTES = 64 * 1024 * 1024
"""The games a process keeps in memory, in estimated bytes (docs/operations.md, "Memory")."""


@dataclass(frozen=True)
class Joined:
    """A seat taken: its number, the secret token that moves for it, the game's version."""

    seat: int
    token: str
    version: int


@dataclass(frozen=True)
class Opened:
    """A game created for a client: its id, a tournament game's arbiter token, the creator's
    token (which may abort it before it starts) and a private game's join secret, each shown
    once (docs/api.md, "Lobby")."""

    game_id: UUID
    arbiter_token: str | None
    creator_token: str = ""
    join_secret: str | None = None


Played = Saved
"""A command accepted: the version of the game after it and the events it caused."""


class GameLedger(GameReads):
    """Every game of every registered kind, in the parts of one event store: the commands
    here, the queries of one game inherited from :class:`application.reads.GameReads`."""

    def __init__(
        self, stores: Sequence[GameStore] | None = None, cache_bytes: int = DEFAULT_CACHE_BYTES
    ) -> None:
        """The games of ``stores`` (one in-memory part when omitted), keeping up to
        ``cache_bytes`` (estimated) of them in memory."""
        self.games = Games(stores or [GameStore()], GameCache(cache_bytes))

    @property
    def stores(self) -> list[GameStore]:
        """The parts of the event store."""
        return self.games.stores

    def close(self) -> None:
        """Close every part of the event store."""
        for store in self.stores:
            store.close()

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
        lobby_fields: dict[str, Any] | None = None,
        game_id: UUID | None = None,
    ) -> UUID:
        """Create a game of a registered kind with its seats, options and ledger settings
        (undo policy, tournament) fixed; a secret seed is made now and only its SHA-256
        commitment is public. A tournament game needs the arbiter's token. A scenario (the
        rules' ``is_scenario``, e.g. a Carcassonne game with a given stack) is created as an
        analysis game, never a result. (``seed`` is for tools that replay known games, such
        as ``simulate --seed``; the API never takes one.) ``lobby_fields``: the lobby's fields of
        the ``Created`` event (:meth:`domain.game.Game.create`).
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
            arbiter_sha256=commitment(arbiter_token) if arbiter_token else "",
            analysis={"scenario": True} if rules.is_scenario(fixed) else None,
            game_id=game_id or self.games.new_id(),
            lobby_fields=lobby_fields,
        )
        self.games.add(aggregate)
        return aggregate.id

    def open_game(
        self,
        game: str,
        players: int,
        options: dict[str, Any] | None = None,
        settings: dict[str, Any] | None = None,
        *,
        private: bool = False,
    ) -> Opened:
        """Create a game as a client asks for one (docs/api.md): a tournament game's arbiter
        token, the creator's token and a private game's join secret are minted here and
        returned once; only their SHA-256 is recorded."""
        tournament = normalise_settings(settings)["tournament"]
        arbiter = new_token() if tournament else None
        creator = new_token()
        secret = new_token() if private else None
        lobby_fields = {
            "private": private,
            "creator_sha256": commitment(creator),
            "join_sha256": commitment(secret) if secret else "",
        }
        game_id = self.create_game(
            game,
            players,
            options,
            settings=settings,
            arbiter_token=arbiter,
            lobby_fields=lobby_fields,
        )
        return Opened(game_id, arbiter, creator, secret)

    def fork(self, game_id: UUID, turn: int, token: str | None = None) -> UUID:
        """Start an analysis game from ``game_id``'s state after ``turn``: same kind, seats,
        options; the rules' events of the line of play so far as its prelude; a new seed (so
        the source's future draws stay secret); linked to its source and never a result. A
        game that hides information (its rules' ``hides_information``) is forked only once it
        has ended: the prelude is public and would show every hand."""
        with self.games.reading(game_id) as source:
            viewer_of(source, token)
            if source.rules.hides_information and not source.finished:
                raise Conflict(
                    "hidden-information",
                    "This game hides information (hands of cards) while it runs, and a fork's "
                    "opening would show it to everyone: fork it once it has ended.",
                )
            kind, players, options = source.game, source.players, copy_json(source.options)
            version = self._version_after_turn(source, turn)
        at = self.games.at(game_id, version, whole_line=True)
        seed = new_seed()
        aggregate = Game.create(
            game=kind,
            players=players,
            options=options,
            settings={"undo": "free", "tournament": False},
            seed=seed,
            seed_sha256=commitment(seed),
            analysis={"source": str(game_id), "turn": turn, "version": version},
            prelude=[[type_name, data] for _, type_name, data in at.line.effective],
            game_id=self.games.new_id(),
        )
        self.games.add(aggregate)
        return aggregate.id

    def join(
        self,
        game_id: UUID,
        name: str,
        seat: int | None = None,
        *,
        secret: str | None = None,
        expiry_seconds: int = 0,
        public_key: str | None = None,
    ) -> Joined:
        """Take a seat (the given one, or the first free one) and get its secret token; when
        another seat is taken meanwhile, the seat is chosen again on the new state. The lobby
        decides first (:func:`application.admission.admit`): a private game's ``secret``; a
        game waiting longer than ``expiry_seconds`` (0: never) is expired now — its
        ``GameExpired`` recorded — and refused. ``public_key``: the player's Ed25519 key
        (unpadded base64url), recorded in ``SeatJoined``; the seat then signs every move
        (docs/api.md, "Signed moves"; ``bad-public-key`` when it is not one)."""
        token = new_token()
        now = datetime.now(UTC)

        def take(game: Game) -> int:
            admit(game, secret, expiry_seconds, now)
            chosen = seat if seat is not None else first_free(game)
            game.join(chosen, name, commitment(token), public_key)
            return chosen

        try:
            saved, chosen = self.games.command(game_id, None, take)
        except ExpiryDue:
            self.expire(game_id, expiry_seconds, now)
            raise expired_conflict(game_id) from None
        return Joined(seat=chosen, token=token, version=saved.version)

    def expire(self, game_id: UUID, expiry_seconds: int, now: datetime) -> bool:
        """Record that a waiting game has expired, if it is past its expiry and still
        waiting (docs/api.md, "Lobby"); whether it was expired now. Safe to repeat."""

        def due(game: Game) -> bool:
            if game.closed or game.started:
                return False
            if not expired(game.created_on, now, expiry_seconds):
                return False
            game.expire(expiry_seconds)
            return True

        return self.games.command(game_id, None, due)[1]

    def play(
        self,
        game_id: UUID,
        token: str,
        move: Any,
        expected_version: int,
        *,
        notation: str | None = None,
        signature: str | None = None,
    ) -> Played:
        """The seat holding ``token`` makes a move on the version it saw: ``move`` in its JSON
        form, or (``move`` None) ``notation`` in the game's notation, read here with the one
        load of the game. The move and all its consequences are saved in one transaction, or
        nothing is. A seat that registered a public key signs the move as decided on
        ``expected_version`` (``signature``; docs/api.md, "Signed moves"): the version is
        checked to be the game's before the signature is
        (:func:`domain.move_signatures.check_move_signature`, called by the game).

        In a game with a clock the move's time is measured from its arrival here, under the
        game's lock (docs/api.md, "Clocks"); a move that arrives after the seat's time ran
        out — or any seat's — flags it instead (``SeatFlagged``, saved) and is answered
        ``out-of-time`` (:mod:`application.flags_first`)."""
        if (move is None) == (notation is None):
            raise BadRequest("invalid-request", "Send exactly one of 'move' and 'notation'.")

        def make(game: Game) -> Late | None:
            now = arrival()
            seat = seat_of(game, token)
            check_version(game, expected_version)
            late = flags_first(game, seat, now)
            if late is None:
                game.play(seat, move, notation=notation, signature=signature, now=now)
            return late

        return refuse_late(*self.games.command(game_id, expected_version, make))

    def request_undo(
        self, game_id: UUID, token: str, turns: int = 1, expected_version: int | None = None
    ) -> Played:
        """The token's seat asks to take back its own last ``turns`` turns (domain/undo.py);
        while a flag is due, the flags instead (``out-of-time``, :mod:`application.flags_first`)."""

        def ask(game: Game) -> Late | None:
            now = arrival()
            seat = seat_of(game, token)
            check_version(game, expected_version)
            late = flags_first(game, seat, now)
            if late is None:
                game.request_undo(seat, turns, now)
            return late

        return refuse_late(*self.games.command(game_id, expected_version, ask, whole_line=True))

    def answer_undo(
        self, game_id: UUID, token: str, accept: bool, expected_version: int | None = None
    ) -> Played:
        """The token's seat accepts or refuses the pending undo request; while a flag is due,
        the flags instead, which end the request (``out-of-time``,
        :mod:`application.flags_first`)."""

        def answer(game: Game) -> Late | None:
            now = arrival()
            seat = seat_of(game, token)
            check_version(game, expected_version)
            late = flags_first(game, seat, now)
            if late is None:
                game.answer_undo(seat, accept, now)
            return late

        return refuse_late(*self.games.command(game_id, expected_version, answer, whole_line=True))

    def arbiter_undo(
        self,
        game_id: UUID,
        arbiter_token: str,
        turn: int,
        reason: str,
        expected_version: int | None = None,
    ) -> Played:
        """The arbiter takes the game back to the end of ``turn``, with a reason."""

        def take_back(game: Game) -> None:
            check_arbiter(game, arbiter_token)
            check_version(game, expected_version)
            game.arbiter_undo(turn, reason)

        return self.games.command(game_id, expected_version, take_back, whole_line=True)[0]

    # Queries

    @staticmethod
    def game_types() -> list[dict[str, Any]]:
        """Every registered game as a client needs it to create one
        (:func:`application.catalogue.game_types`)."""
        return catalogue.game_types()

    @staticmethod
    def game_schemas(name: str) -> dict[str, Any]:
        """The JSON Schemas of a game and of the ledger's events
        (:func:`application.catalogue.game_schemas`). Raises ``unknown-game``."""
        return catalogue.game_schemas(name)
