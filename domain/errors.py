"""The refusals of the rules: every error a game raises carries a stable, machine-readable
``code`` (docs/api.md, "Errors")."""

from __future__ import annotations


class GameError(Exception):
    """A move or a request the rules refuse; ``code`` is stable and machine-readable."""

    code: str = "game-error"

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class InvalidMove(GameError):
    """A move that is malformed: it cannot be read as a move of this game at all."""


class IllegalMove(GameError):
    """A well-formed move that the rules do not allow now (wrong turn, does not fit, ...)."""


class InvalidOptions(GameError):
    """Game options or a player count that the game does not support."""


class GameNotReady(GameError):
    """A command the game cannot take yet: a move before every seat is taken, a move or an
    undo while an undo request waits for answers (docs/api.md, "Errors": 409)."""


class SeatUnavailable(GameError):
    """A seat that does not exist or is already taken."""
