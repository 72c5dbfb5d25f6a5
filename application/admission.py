"""Who may take a seat of a waiting game (issue 13, part 4; docs/api.md, "Lobby"): not in a
game called off or expired, not a rematch's seat (each is its old holder's to claim), and in
a private game only with its join secret. The checks of :meth:`GameLedger.join
<application.service.GameLedger.join>`, kept here so the lobby's rules are in one place."""

from __future__ import annotations

from datetime import datetime

from application.errors import Conflict, InvalidToken
from domain import lobby
from domain.errors import SeatUnavailable
from domain.game import Game
from domain.randomness import commitment


class ExpiryDue(Exception):
    """The waiting game is past its expiry: the caller records its ``GameExpired`` and
    refuses the join (``game-expired``)."""


def admit(game: Game, secret: str | None, expiry_seconds: int, now: datetime) -> None:
    """Refuse a join the lobby does not allow (the seat's own checks are the game's)."""
    if game.closed == "aborted":
        raise Conflict("game-aborted", "This game was called off by its creator.")
    if game.closed:
        raise expired_conflict(game.id)
    if not game.started and lobby.expired(game.created_on, now, expiry_seconds):
        raise ExpiryDue
    if game.claims:
        raise SeatUnavailable(
            "seat-reserved",
            "Every seat of a rematch is kept for its player in the game it replays: claim it "
            "with that game's token (POST /games/{id}/claim).",
        )
    if game.join_sha256 and not secret:
        raise InvalidToken("join-secret-required", "This game is private: send its join secret.")
    if game.join_sha256 and commitment(secret or "") != game.join_sha256:
        raise InvalidToken("invalid-join-secret", "That is not this game's join secret.")


def expired_conflict(game_id: object) -> Conflict:
    """The refusal of a join to an expired game."""
    return Conflict("game-expired", f"Game {game_id} expired waiting for players.")
