"""The tournament record's format (issue 15, part 6; docs/tournaments.md, "The tournament
record"): its name and version, and the parts that the exporter (:mod:`application.
tournament_records`) and the verifier (:mod:`application.audit_tournament`) both derive from a
tournament — an event as its log presents it, the pairing inputs of a round, the summary of
what ``Created`` fixed, the entrants. Pure: no store."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from domain.jsonvalue import copy_json
from domain.tournament.aggregate import Tournament
from domain.tournament.event_base import TournamentEvent
from domain.tournament.pairing import Entrant
from domain.tournament.play_events import RoundPaired
from domain.tournament.standings import pairing_inputs

FORMAT: Final = "gameledger-tournament-record"
FORMAT_VERSION: Final = 1

ENTRANT_FIELDS: Final = ("name", "number", "status", "late", "reason")
"""An entrant's public fields in the record's ``entrants``."""


def present(event: TournamentEvent) -> dict[str, Any]:
    """One tournament event as its log presents it: envelope, public data, chain links."""
    return {
        "version": event.originator_version,
        "type": type(event).__name__,
        "timestamp": event.timestamp.isoformat(),
        "data": event.public_data(),
        "prev_hash": event.prev_hash,
        "hash": event.hash,
    }


def entrant_json(entrant: Entrant) -> dict[str, Any]:
    """A pairing input (``domain.tournament.pairing.Entrant``) as JSON, every field."""
    return {
        "id": entrant.id,
        "number": entrant.number,
        "points": entrant.points,
        "tie_breaks": list(entrant.tie_breaks),
        "opponents": dict(sorted(entrant.opponents.items())),
        "seats": [list(seat) for seat in entrant.seats],
        "byes": entrant.byes,
        "floats": list(entrant.floats),
        "withdrawn": entrant.withdrawn,
        "eliminated": entrant.eliminated,
    }


def round_inputs(tournament: Tournament) -> dict[str, Any]:
    """The next round's pairing inputs as the record carries them: the round's number, the
    stream's position before it and every numbered entrant's standing inputs by number."""
    inputs = sorted(pairing_inputs(tournament), key=lambda e: e.number)
    return {
        "round": len(tournament.rounds) + 1,
        "random_position": tournament.random_position,
        "entrants": [entrant_json(e) for e in inputs],
    }


def replayed(events: Iterable[TournamentEvent]) -> tuple[Tournament, list[dict[str, Any]]]:
    """The tournament rebuilt from its events, and the pairing inputs of each round taken
    just before its ``RoundPaired``."""
    tournament: Any = None
    rounds: list[dict[str, Any]] = []
    for event in events:
        if isinstance(event, RoundPaired):
            rounds.append(round_inputs(tournament))
        tournament = event.mutate(tournament)
    assert isinstance(tournament, Tournament)
    return tournament, rounds


def summary(tournament: Tournament) -> dict[str, Any]:
    """The record's ``tournament`` field: what ``Created`` fixed."""
    return {
        "id": str(tournament.id),
        "name": tournament.name,
        "game": tournament.game,
        "options": copy_json(tournament.options),
        "settings": copy_json(tournament.settings),
        "format": copy_json(tournament.format),
        "created_at": tournament.created_on.isoformat(),
    }


def entrants_of(tournament: Tournament) -> list[dict[str, Any]]:
    """The record's ``entrants``: every entrant in registration order, public fields only."""
    return [
        {"entrant": key, **{name: entrant[name] for name in ENTRANT_FIELDS}}
        for key, entrant in tournament.entrants.items()
    ]
