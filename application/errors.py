"""Errors of the use cases, each with a stable ``code`` (docs/api.md lists them).

There is one error class with a code, :class:`domain.errors.GameError`: the rules' refusals
pass through the use cases unchanged, and the errors that belong to the service itself are
its subclasses here. The API turns each class into one HTTP status (api/errors.py), the
more specific classes first."""

from __future__ import annotations

from domain.errors import GameError


class NotFound(GameError):
    """No such game (or no such version of it)."""


class InvalidToken(GameError):
    """The token given is not the token of any seat of this game."""


class Conflict(GameError):
    """The command was decided on a version that is no longer the latest: a stale version
    the client sent, or another command saved first. Nothing was changed."""


class BadRequest(GameError):
    """A request whose arguments are out of range (page sizes, versions)."""
