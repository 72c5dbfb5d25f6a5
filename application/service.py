"""The use cases of the service (docs/architecture.md, "Write side"): create a game, join a
seat, make a move, undo, fork, and the queries that read one game — its view now or at any
version, the legal moves of a seat, its event log. Lists of games come from read models
(application/projections/).

Each command is one load (none when the game is cached at the version the client saw), the
command, one save (:mod:`application.games`). A command carries the version the client saw;
a stale version, or another save that wins the race, is a :class:`Conflict` and changes
nothing."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast
from uuid import UUID

import orjson

from application.admission import ExpiryDue, admit, expired_conflict
from application.cache import GameCache
from application.contract import game_contract, ledger_event_schemas
from application.errors import BadRequest, Conflict, InvalidToken, NotFound
from application.games import Games, Saved, check_version
from application.paging import check_page
from application.presenters import present_event, present_game
from application.store import SNAPSHOT_INTERVAL, GameStore
from domain.bots import choose_move
from domain.game import Game, event_topic
from domain.jsonvalue import copy_json
from domain.line import LineNeeded
from domain.lobby import expired
from domain.protocol import Rules, Viewer
from domain.randomness import commitment, new_seed
from domain.registry import games, rules_for
from domain.undo import normalise_settings

__all__ = ["SNAPSHOT_INTERVAL", "GameLedger", "Joined", "Opened", "Played", "new_token"]

DEFAULT_CACHE_BYTES = 64 * 1024 * 1024
"""The games a process keeps in memory, in estimated bytes (docs/operations.md, "Memory")."""


def new_token() -> str:
    """A secret token, a seat's or an arbiter's: 32 random bytes, URL-safe. Every token is
    minted here; only its SHA-256 (:func:`domain.randomness.commitment`) is ever recorded."""
    return secrets.token_urlsafe(32)


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


@dataclass(frozen=True)
class Document:
    """A view serialised as JSON, and the game's version it shows (its entity tag)."""

    version: int
    body: bytes


def serialised(value: Any) -> bytes:
    """``value`` as JSON (UTF-8; keys that are not strings written as strings, as the
    standard library does)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def viewer_key(viewer: Viewer) -> str:
    """Who sees a view, as a key of the views kept: the arbiter, a seat, or a spectator."""
    if viewer.arbiter:
        return "arbiter"
    return "spectator" if viewer.seat is None else f"seat {viewer.seat}"


class GameLedger:
    """Every game of every registered kind, in the parts of one event store."""

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
            _viewer(source, token)
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
    ) -> Joined:
        """Take a seat (the given one, or the first free one) and get its secret token; when
        another seat is taken meanwhile, the seat is chosen again on the new state. The lobby
        decides first (:func:`application.admission.admit`): a private game's ``secret``; a
        game waiting longer than ``expiry_seconds`` (0: never) is expired now — its
        ``GameExpired`` recorded — and refused."""
        token = new_token()
        now = datetime.now(UTC)

        def take(game: Game) -> int:
            admit(game, secret, expiry_seconds, now)
            chosen = seat if seat is not None else _first_free(game)
            game.join(chosen, name, commitment(token))
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
    ) -> Played:
        """The seat holding ``token`` makes a move on the version it saw: ``move`` in its JSON
        form, or (``move`` None) ``notation`` in the game's notation, read here with the one
        load of the game. The move and all its consequences are saved in one transaction, or
        nothing is."""
        if (move is None) == (notation is None):
            raise BadRequest("invalid-request", "Send exactly one of 'move' and 'notation'.")

        def make(game: Game) -> None:
            seat = _seat(game, token)
            check_version(game, expected_version)
            game.play(seat, move, notation=notation)

        return self.games.command(game_id, expected_version, make)[0]

    def request_undo(
        self, game_id: UUID, token: str, turns: int = 1, expected_version: int | None = None
    ) -> Played:
        """The token's seat asks to take back its own last ``turns`` turns (domain/undo.py)."""

        def ask(game: Game) -> None:
            seat = _seat(game, token)
            check_version(game, expected_version)
            game.request_undo(seat, turns)

        return self.games.command(game_id, expected_version, ask, whole_line=True)[0]

    def answer_undo(
        self, game_id: UUID, token: str, accept: bool, expected_version: int | None = None
    ) -> Played:
        """The token's seat accepts or refuses the pending undo request."""

        def answer(game: Game) -> None:
            seat = _seat(game, token)
            check_version(game, expected_version)
            game.answer_undo(seat, accept)

        return self.games.command(game_id, expected_version, answer, whole_line=True)[0]

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
            if not game.arbiter_sha256 or commitment(arbiter_token) != game.arbiter_sha256:
                raise InvalidToken("invalid-token", "That is not this game's arbiter token.")
            check_version(game, expected_version)
            game.arbiter_undo(turn, reason)

        return self.games.command(game_id, expected_version, take_back, whole_line=True)[0]

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
        """The JSON Schemas of a game's events (by type), move, view and options, and of the
        ledger's own events, generated from their one typed definition (docs/api.md, "Game
        types"; :mod:`application.contract`). Raises ``unknown-game``."""
        contract = game_contract(rules_for(name))
        return {
            "game": contract.game,
            "events": contract.events,
            "move": contract.move,
            "view": contract.view,
            "options": contract.options,
            "outcome_details": contract.outcome_details,
            "ledger_events": ledger_event_schemas(),
        }

    def game_at(self, game_id: UUID, version: int) -> Game:
        """The game aggregate as it was at ``version``, a copy of its own (read models
        rebuild from it)."""
        return self.games.at(game_id, version)

    def rules_of(self, game_id: UUID) -> Rules[Any, Any]:
        """The rules of the game's kind."""
        with self.games.reading(game_id) as game:
            return game.rules

    def finished_at(self, game_id: UUID, token: str | None = None) -> tuple[bool, int]:
        """Whether the game has ended, and its version, for a valid viewer (an invalid
        token is refused)."""
        with self.games.reading(game_id) as game:
            _viewer(game, token)
            return game.finished, game.version

    def whose_turn(self, game_id: UUID) -> tuple[int, list[int]]:
        """The game's version and the seats that may act now (none before it starts or
        after it ends)."""
        with self.games.reading(game_id) as game:
            return game.version, game.current_players

    def viewer(self, game_id: UUID, token: str | None) -> Viewer:
        """The viewer a token stands for: its seat, or a spectator without a token."""
        with self.games.reading(game_id) as game:
            return _viewer(game, token)

    def view_after_turn(self, game_id: UUID, turn: int, token: str | None = None) -> dict[str, Any]:
        """The game as it was after ``turn`` of the current line of play (0: before the
        first move), for the token's holder."""
        with self.games.reading(game_id) as game:
            _viewer(game, token)
            version = self._version_after_turn(game, turn)
        return self.view(game_id, token, version)

    def _version_after_turn(self, game: Game, turn: int) -> int:
        """The version after ``turn``; a turn older than the line of play the game keeps
        is found by replaying the game from its first event (:mod:`domain.line`)."""
        if not 0 <= turn <= game.moves:
            raise NotFound("no-such-turn", f"The game has turns 0 to {game.moves}.")
        try:
            return game.version_after_turn(turn)
        except LineNeeded:
            return self.games.at(game.id, game.version, whole_line=True).version_after_turn(turn)

    def view(
        self, game_id: UUID, token: str | None = None, version: int | None = None
    ) -> dict[str, Any]:
        """The game as ``token``'s holder may see it, now or as it was at ``version``."""
        shown: dict[str, Any] = orjson.loads(self.view_document(game_id, token, version).body)
        return shown

    def view_document(
        self, game_id: UUID, token: str | None = None, version: int | None = None
    ) -> Document:
        """:meth:`view` serialised, with the version it shows. The view of the game as it is
        is serialised once per viewer and version and kept with the game (docs/api.md,
        "Conditional requests"); a view at an older version is made each time."""
        with self.games.viewing(game_id, may_lag=not token) as kept:
            latest = kept.game
            viewer = _viewer(latest, token)
            if version is None or version == latest.version:
                key = viewer_key(viewer)
                body = kept.document(key)
                if body is None:
                    body = serialised(present_game(latest, viewer))
                    kept.keep_document(key, body)
                return Document(latest.version, body)
            if not 1 <= version <= latest.version:
                raise NotFound("no-such-version", f"The game has versions 1 to {latest.version}.")
        return Document(version, serialised(present_game(self.games.at(game_id, version), viewer)))

    def legal_moves(self, game_id: UUID, token: str) -> dict[str, Any]:
        """Every move the seat holding ``token`` may make now, in JSON and notation."""
        with self.games.reading(game_id) as game:
            seat = _seat(game, token)
            rules = game.rules
            running = bool(game.current_players) and seat not in game.resigned
            moves = rules.legal_moves(game.state, seat) if running else []
            return {
                "game": game.game,
                "seat": seat,
                "version": game.version,
                "moves": [
                    {"move": rules.move_to_json(m), "notation": rules.notation(m)} for m in moves
                ],
            }

    def bot_move(self, game_id: UUID, token: str, bot: random.Random) -> dict[str, Any]:
        """The move a random bot would make for the seat holding ``token`` now, in JSON
        (:func:`domain.bots.choose_move`: the game's bot policy, else a uniform legal move)."""
        with self.games.reading(game_id) as game:
            seat = _seat(game, token)
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
        with self.games.reading(game_id) as game:
            viewer = _viewer(game, token)
            kind, rules, finished, version = game.game, game.rules, game.finished, game.version
        store = self.games.store_of(game_id)
        if types is not None:  # through the store's index of topics
            topics = [event_topic(kind, type_name) for type_name in sorted(types)]
            found = store.events_of(game_id, topics, after, version, limit)
            items = [present_event(rules, finished, stored, viewer) for stored in found]
            more = len(found) == limit
            next_after = found[-1].originator_version if more else None
            return {"game": kind, "items": items, "next_after": next_after, "version": version}
        events = list(store.events.get(game_id, gt=after, lte=version, limit=limit))
        page = [present_event(rules, finished, cast(Game.Event, e), viewer) for e in events]
        last = events[-1].originator_version if events else after
        more = last < version
        return {
            "game": kind,
            "items": page,
            "next_after": last if more else None,
            "version": version,
        }


def _seat(game: Game, token: str) -> int:
    """The seat holding ``token``, else ``invalid-token``."""
    seat = game.seat_of(commitment(token)) if token else None
    if seat is None:
        raise InvalidToken("invalid-token", "That token holds no seat in this game.")
    return seat


def _viewer(game: Game, token: str | None) -> Viewer:
    """Who ``token`` stands for: the arbiter, a seat, or (no token) a spectator."""
    if not token:
        return Viewer()
    if game.arbiter_sha256 and commitment(token) == game.arbiter_sha256:
        return Viewer(arbiter=True)
    seat = _seat(game, token)
    if seat in game.resigned and not game.finished:
        return Viewer()  # a resigned seat sees what a spectator sees (docs/api.md, "Lobby")
    return Viewer(seat=seat)


def _first_free(game: Game) -> int:
    for index, seat in enumerate(game.seats):
        if seat is None:
            return index
    raise Conflict("game-full", "Every seat of this game is taken.")
