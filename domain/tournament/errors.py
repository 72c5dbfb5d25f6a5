"""The refusals of the tournament aggregate (issue 15, part 1; docs/tournaments.md, "The
tournament aggregate", "Refusals"): every one carries a stable, machine-readable ``code``, as a
game's do (domain/errors.py). The class says what kind of refusal it is, so the API can map
it to a status without reading the code."""

from __future__ import annotations

from domain.errors import GameError


class TournamentError(GameError):
    """A tournament command refused; ``code`` is stable and machine-readable."""


class InvalidTournament(TournamentError):
    """A tournament's creation data that cannot be used: an unknown format, a table size the
    game does not allow, a bad option (422)."""


class TournamentPhase(TournamentError):
    """A command the tournament cannot take in its present phase: registering after the
    start without late entry, checking in before check-in opens, starting twice (409)."""


class EntrantRefused(TournamentError):
    """A registration or an entrant's command refused: a name taken, a full tournament, an
    entrant who has left (409)."""


class NoSuchEntrant(TournamentError):
    """An entrant id the tournament does not know (404)."""


class ResultRefused(TournamentError):
    """A result or an arbiter's act the table's state does not allow: a table already
    decided, or not decided yet (409)."""


class BadResult(TournamentError):
    """A result or an arbiter's act with values that cannot be recorded: ranks that are not a
    ranking, scores that are not one integer per seat, no-shows who are not at the table, a
    penalty that is no positive number (422)."""


class NoSuchTable(TournamentError):
    """A game that is not one of the tournament's tables (404)."""


class RoundRefused(TournamentError):
    """A round that cannot be paired now, or a tournament that cannot finish now: the last
    round not over, the rounds all played (409)."""
