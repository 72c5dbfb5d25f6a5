"""Errors of the use cases, each with a stable ``code`` (docs/api.md lists them).

Rules errors (:class:`domain.protocol.GameError` and its subclasses) pass through the use
cases unchanged; these are the errors that belong to the service itself. The API turns
each class into one HTTP status (api/errors.py)."""

from __future__ import annotations


class ServiceError(Exception):
    """Base of the use cases' own errors."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class NotFound(ServiceError):
    """No such game (or no such version of it)."""


class InvalidToken(ServiceError):
    """The token given is not the token of any seat of this game."""


class Conflict(ServiceError):
    """The command was decided on a version that is no longer the latest: a stale version
    the client sent, or another command saved first. Nothing was changed."""


class BadRequest(ServiceError):
    """A request whose arguments are out of range (page sizes, versions)."""
