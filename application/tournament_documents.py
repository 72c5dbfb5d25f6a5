"""What the API answers about one tournament (docs/api.md, "Tournaments"): its public document
(application/tournament_views.py) as of every command committed before the request, and the
parts of it each resource shows — rounds, tables, standings, ratings.

**Consistency.** The tournaments read model (application/projections/tournaments.py) follows
the event log, so it may trail a command by a follower's pass. One tournament's reads must not:
an entrant who has just registered, or an organiser who has just started, sees it at once. The
tournament's latest version is read from the event store (one indexed query); while the read
model's row is older, the document is built from the tournament's events instead — the same
function builds both, so the answer is the same either way. The list of tournaments and the
ratings across tournaments are the read model's alone (docs/api.md, "Consistency").
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from application.errors import NotFound
from application.projections.tournaments import TournamentReads
from application.tournament_views import document_of
from application.tournaments import Tournaments


def _not_found(tournament_id: UUID) -> NotFound:
    return NotFound("tournament-not-found", f"There is no tournament {tournament_id}.")


def latest_version(tournaments: Tournaments, tournament_id: UUID) -> int:
    """The version of the tournament's last event in the store; ``tournament-not-found``
    when it has none (an id of a game is a tournament the store does not have either, which
    :func:`current_document` finds out)."""
    try:
        store = tournaments.games.store_of(tournament_id)
    except NotFound:
        raise _not_found(tournament_id) from None
    last = store.recorder.select_events(tournament_id, desc=True, limit=1)
    if not last:
        raise _not_found(tournament_id)
    return int(last[0].originator_version)


def current_document(
    tournaments: Tournaments, reads: TournamentReads, tournament_id: UUID
) -> dict[str, Any]:
    """The tournament's public document as of its latest event (module docstring)."""
    version = latest_version(tournaments, tournament_id)
    try:
        kept = reads.document(tournament_id)
    except NotFound:
        kept = None
    if kept is not None and kept["version"] >= version:
        return kept
    return document_of(tournaments.load(tournament_id))


def rounds_of(document: dict[str, Any]) -> list[dict[str, Any]]:
    """Every round paired so far, first first: its tables (seats, game, result) and byes."""
    rounds: list[dict[str, Any]] = document["rounds_list"]
    return rounds


def round_of(document: dict[str, Any], number: int) -> dict[str, Any]:
    """Round ``number`` (1-based); ``no-such-round`` if it has not been paired."""
    rounds = rounds_of(document)
    if not 1 <= number <= len(rounds):
        raise NotFound(
            "no-such-round",
            f"The tournament has {len(rounds)} round(s) paired; there is no round {number}.",
        )
    return rounds[number - 1]


def tables_of(document: dict[str, Any]) -> list[dict[str, Any]]:
    """Every table of every round, round by round: its round, number, game, seats, result."""
    return [
        {"round": rnd["number"], **table} for rnd in rounds_of(document) for table in rnd["tables"]
    ]


def standings_of(document: dict[str, Any]) -> dict[str, Any]:
    """The standings: one row per entrant with a pairing number in the standing order, the
    arbiter's acts in order (``history``) and, once finished, the final ``ranking``."""
    return {
        "tournament_id": document["tournament_id"],
        "version": document["version"],
        "phase": document["phase"],
        "rounds": document["rounds"],
        "standings": document["standings"],
        "history": document["history"],
        "ranking": document["ranking"],
    }


def ratings_of(document: dict[str, Any]) -> dict[str, Any]:
    """The tournament's OpenSkill ratings (docs/tournaments.md, "Ratings"), best first."""
    return {
        "tournament_id": document["tournament_id"],
        "version": document["version"],
        "game": document["game"],
        "ratings": document["ratings"],
    }
