"""The lobby's use cases (issue 13, part 4; docs/api.md, "Lobby"): leave a seat before the
game starts, resign, abort a game that has not started, expire waiting games, and the rematch
of a finished game with the claim of its seats. Each is one command on the game's aggregate,
recorded as a ledger event (:mod:`domain.ledger_events`) that the record carries and
``gameledger verify`` checks (:mod:`application.audit_lobby`). Joining a private game is
:meth:`GameLedger.join <application.service.GameLedger.join>` with its secret
(:mod:`application.admission`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from application.admission import ExpiryDue, expired_conflict
from application.errors import Conflict, InvalidToken, NotFound
from application.flags_first import Late, arrival, flags_first, refuse_late
from application.projections.games_list import GameRow
from application.seats import new_token, seat_of
from application.service import GameLedger, Joined, Played
from domain.errors import SeatUnavailable
from domain.game import Game
from domain.lobby import expired
from domain.randomness import commitment


@dataclass(frozen=True)
class Rematched:
    """A finished game's rematch: its id, and the creator's token when this call made it
    (``None`` when it existed already: the token was shown to whoever made it)."""

    game_id: UUID
    creator_token: str | None


def leave(
    ledger: GameLedger, game_id: UUID, token: str, expected_version: int | None = None
) -> Played:
    """The token's seat leaves the waiting game: the seat is free, the token dead."""

    def go(game: Game) -> None:
        seat = seat_of(game, token)
        game.leave(seat)

    return ledger.games.command(game_id, expected_version, go)[0]


def resign(
    ledger: GameLedger, game_id: UUID, token: str, expected_version: int | None = None
) -> Played:
    """The token's seat resigns (:mod:`domain.lobby`): the game ends when one seat is left
    playing, else the bot plays the seat out, its moves recorded now and after each later
    command. While a flag is due, the flags instead (``out-of-time``,
    :mod:`application.flags_first`)."""

    def give_up(game: Game) -> Late | None:
        now = arrival()
        seat = seat_of(game, token)
        late = flags_first(game, seat, now)
        if late is None:
            game.resign(seat, now)
        return late

    return refuse_late(*ledger.games.command(game_id, expected_version, give_up))


def abort(
    ledger: GameLedger, game_id: UUID, creator_token: str, expected_version: int | None = None
) -> Played:
    """The creator (the token returned at creation) calls off a game that has not started."""

    def call_off(game: Game) -> None:
        if not game.creator_sha256 or commitment(creator_token) != game.creator_sha256:
            raise InvalidToken("invalid-token", "That is not this game's creator token.")
        game.abort()

    return ledger.games.command(game_id, expected_version, call_off)[0]


def waiting_games(rows: Iterable[GameRow]) -> list[UUID]:
    """The games of the games list still waiting for players (the sweeper's candidates; a
    private game, not listed, expires when it is next joined)."""
    return [UUID(row.game_id) for row in rows if row.status == "waiting"]


def expire_due(
    ledger: GameLedger, candidates: Iterable[UUID], expiry_seconds: int, now: datetime
) -> list[UUID]:
    """Expire each candidate game that is still waiting past its expiry (the sweeper of
    ``gameledger lobby expire``); the games expired. Safe to run again, by several processes
    at once: a game already expired or started is left alone."""
    done = []
    for game_id in candidates:
        try:
            if ledger.expire(game_id, expiry_seconds, now):
                done.append(game_id)
        except (Conflict, NotFound):
            continue  # changed meanwhile (a join, another sweeper) or gone: next time
    return done


def rematch(ledger: GameLedger, game_id: UUID, token: str) -> Rematched:
    """A seat of a finished game asks for a rematch: a new game of the same kind, seats,
    options and settings, a new seed, its ``Created`` naming its origin and keeping each
    seat for the holder of that seat's token here (:func:`claim`). The old game records
    ``RematchCreated`` first, so one rematch is made however many ask, and a rematch whose
    creation was cut short is made by the next call. Tournament and analysis games have no
    rematch (``no-rematch``)."""
    with ledger.games.reading(game_id) as old:
        seat_of(old, token)
        if not old.finished:
            raise Conflict("game-not-finished", "Only a finished game has a rematch.")
        if old.analysis is not None or old.settings.get("tournament"):
            raise Conflict(
                "no-rematch", "An analysis or tournament game has no rematch: create a game."
            )
        linked = old.rematch
        kind, players, options, settings = old.game, old.players, old.options, old.settings
        claims = [seat["token_sha256"] if seat else "" for seat in old.seats]
        private = old.private
    if not linked:
        new_id = ledger.games.new_id()

        def link(game: Game) -> str:
            if not game.rematch:
                game.link_rematch(new_id)
            return game.rematch

        linked = ledger.games.command(game_id, None, link)[1]
    rematch_id = UUID(linked)
    try:
        with ledger.games.reading(rematch_id):
            return Rematched(rematch_id, None)
    except NotFound:
        pass
    creator = new_token()
    lobby_fields = {
        "private": private,
        "rematch_of": str(game_id),
        "creator_sha256": commitment(creator),
        "claims": claims,
    }
    try:
        ledger.create_game(
            kind,
            players,
            options,
            settings=settings,
            lobby_fields=lobby_fields,
            game_id=rematch_id,
        )
    except IntegrityError:
        with ledger.games.reading(rematch_id):  # made meanwhile by another call
            return Rematched(rematch_id, None)
    return Rematched(rematch_id, creator)


def claim(
    ledger: GameLedger,
    game_id: UUID,
    old_token: str,
    expiry_seconds: int = 0,
    public_key: str | None = None,
) -> Joined:
    """The holder of a seat's token in the game a rematch replays takes the same seat, under
    the same name, with a new token (shown once); nobody else can take it. A rematch waiting
    past ``expiry_seconds`` (0: never) is expired now and refused, as a join is. A public key
    is not carried over from the replayed game: the claim registers ``public_key`` (the
    seat then signs its moves) or none, as a join does (docs/api.md, "Signed moves")."""
    with ledger.games.reading(game_id) as game:
        origin = game.rematch_of
    if not origin:
        raise Conflict("not-a-rematch", "Only a rematch's seats are claimed; join this game.")
    with ledger.games.reading(UUID(origin)) as old:
        seat = seat_of(old, old_token)
        held = old.seats[seat]
        assert held is not None
        name = held["name"]
    token = new_token()
    now = datetime.now(UTC)

    def take(game: Game) -> None:
        if not game.closed and expired(game.created_on, now, expiry_seconds):
            raise ExpiryDue
        if game.claims[seat] != commitment(old_token):
            raise InvalidToken("invalid-token", "That token held no seat in the replayed game.")
        if game.seats[seat] is not None:
            raise SeatUnavailable("seat-taken", f"Seat {seat} is already claimed.")
        game.join(seat, name, commitment(token), public_key)

    try:
        saved = ledger.games.command(game_id, None, take)[0]
    except ExpiryDue:
        ledger.expire(game_id, expiry_seconds, now)
        raise expired_conflict(game_id) from None
    return Joined(seat=seat, token=token, version=saved.version)
