"""The games of a tournament's tables (docs/tournaments.md, "Tables"): each table of a round is
a game of the tournament's kind, options and settings, created by the service with every seat
already taken by its entrant, so play starts at once.

Nothing about a table's game is chosen freely, so it can be created again after a crash and
checked by anyone:

* its id is fixed by the tournament, the round and the table
  (:func:`domain.tournament.rounds.table_game_id`); creating it twice is refused by the event
  store, which is how :func:`ensure_tables` is safe to repeat;
* its seed is ``HMAC-SHA256(tournament seed, "<game id>/seed")`` in hex: secret until the
  game ends, like any game's, and checkable once the tournament's seed is revealed;
* its seat tokens and its arbiter token are ``HMAC-SHA256(table secret, "<game id>/seat/<n>")``
  and ``…/arbiter`` in unpadded base64url: the service gives an entrant the tokens of its own
  seats (``GET /tournaments/{id}/tables/mine``) and the organiser the arbiter's, and stores
  only their digests in the game, like every token. The table secret is a secret field of the
  tournament's ``Created`` event and is never revealed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Mapping
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from application.games import Games
from domain.game import Game
from domain.randomness import commitment
from domain.tournament.aggregate import Tournament


def _mac(secret: str, message: str) -> bytes:
    return hmac.new(secret.encode("utf-8"), message.encode("utf-8"), hashlib.sha256).digest()


def table_seed(tournament_seed: str, game_id: str) -> str:
    """The seed of a table's game (module docstring)."""
    return _mac(tournament_seed, f"{game_id}/seed").hex()


def _token(secret: str, message: str) -> str:
    return base64.urlsafe_b64encode(_mac(secret, message)).rstrip(b"=").decode("ascii")


def seat_token(table_secret: str, game_id: str, seat: int) -> str:
    """The secret token of seat ``seat`` of a table's game (module docstring)."""
    return _token(table_secret, f"{game_id}/seat/{seat}")


def arbiter_token(table_secret: str, game_id: str) -> str:
    """The arbiter's token of a table's game: the organiser's (module docstring)."""
    return _token(table_secret, f"{game_id}/arbiter")


def table_game(tournament: Tournament, table: Mapping[str, Any]) -> Game:
    """The new game of ``table`` (``{"game", "seats"}``), every seat taken by its entrant."""
    game_id = str(table["game"])
    seed = table_seed(tournament.seed, game_id)
    game = Game.create(
        game=tournament.game,
        players=len(table["seats"]),
        options=dict(tournament.options),
        settings=dict(tournament.settings),
        seed=seed,
        seed_sha256=commitment(seed),
        arbiter_sha256=commitment(arbiter_token(tournament.table_secret, game_id)),
        game_id=UUID(game_id),
        lobby_fields={"tournament": str(tournament.id)},
    )
    for seat, entrant in enumerate(table["seats"]):
        name = tournament.entrants[entrant]["name"]
        game.join(seat, name, commitment(seat_token(tournament.table_secret, game_id, seat)))
    return game


def ensure_tables(games: Games, tournament: Tournament) -> int:
    """Create the games of the tournament's last round that do not exist yet; how many were
    created (a game another process created first is left as it is)."""
    if not tournament.rounds:
        return 0
    created = 0
    for table in tournament.rounds[-1]["tables"]:
        store = games.store_of(UUID(table["game"]))
        if store.recorder.select_events(UUID(table["game"]), limit=1):
            continue
        try:
            games.add(table_game(tournament, table))
        except IntegrityError:
            continue
        created += 1
    return created
