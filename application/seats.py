"""Who a token stands for in a game (docs/api.md, "Conventions": seat tokens; "Lobby"): the
minting of every secret token, the seat a token holds, the viewer it stands for (the arbiter,
a seat, or a spectator), the arbiter's token and the first free seat. Commands and queries of
:mod:`application.service`, :mod:`application.reads` and :mod:`application.lobby` identify
their caller with these functions only; a token is compared by its SHA-256
(:func:`domain.randomness.commitment`), never stored."""

from __future__ import annotations

import secrets

from application.errors import Conflict, InvalidToken
from domain.game import Game
from domain.protocol import Viewer
from domain.randomness import commitment


def new_token() -> str:
    """A secret token, a seat's or an arbiter's: 32 random bytes, URL-safe. Every token is
    minted here; only its SHA-256 (:func:`domain.randomness.commitment`) is ever recorded."""
    return secrets.token_urlsafe(32)


def seat_of(game: Game, token: str) -> int:
    """The seat holding ``token``, else ``invalid-token``."""
    seat = game.seat_of(commitment(token)) if token else None
    if seat is None:
        raise InvalidToken("invalid-token", "That token holds no seat in this game.")
    return seat


def viewer_of(game: Game, token: str | None) -> Viewer:
    """Who ``token`` stands for: the arbiter, a seat, or (no token) a spectator. A resigned
    seat sees what a spectator sees until the game ends (docs/api.md, "Lobby")."""
    if not token:
        return Viewer()
    if game.arbiter_sha256 and commitment(token) == game.arbiter_sha256:
        return Viewer(arbiter=True)
    seat = seat_of(game, token)
    if seat in game.resigned and not game.finished:
        return Viewer()
    return Viewer(seat=seat)


def check_arbiter(game: Game, token: str) -> None:
    """``token`` is the game's arbiter token, else ``invalid-token``."""
    if not game.arbiter_sha256 or commitment(token) != game.arbiter_sha256:
        raise InvalidToken("invalid-token", "That is not this game's arbiter token.")


def first_free(game: Game) -> int:
    """The first seat nobody holds, else ``game-full``."""
    for index, seat in enumerate(game.seats):
        if seat is None:
            return index
    raise Conflict("game-full", "Every seat of this game is taken.")
