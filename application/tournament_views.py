"""What anyone may see of a tournament (docs/api.md, "Tournaments"): its public document —
settings, entrants, rounds and tables with their results, standings, the arbiter's acts, the
ratings — built from the aggregate alone, so the tournaments read model
(application/projections/tournaments.py) and any reader compute the same thing.

Never in it: the seed before the end (only its SHA-256), the organiser's and entrants' token
digests, the tables' secret.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.jsonvalue import copy_json
from domain.tournament.aggregate import Tournament
from domain.tournament.ratings import RatedGame, Rating, rate
from domain.tournament.rounds import rounds_planned
from domain.tournament.standings import standing_rows

ENTRANT_FIELDS = ("name", "status", "number", "late", "reason")
"""The public fields of an entrant (its token's digest is not one)."""


def rated_games(tournament: Tournament) -> list[RatedGame]:
    """The tournament's rated games in order (docs/tournaments.md, "Ratings"): the tables
    whose result was played out at the table, round by round, table by table; a corrected
    result counts as corrected."""
    return [
        RatedGame(tuple(table["seats"]), tuple(table["result"]["ranks"]))
        for rnd in tournament.rounds
        for table in rnd["tables"]
        if table["result"] is not None and table["result"]["how"] == "played"
    ]


def ratings_of(
    tournament: Tournament, rated: Mapping[str, Rating] | None = None
) -> list[dict[str, Any]]:
    """Every numbered entrant's OpenSkill rating in this tournament's game kind, best
    ``ordinal`` first (ties by pairing number); ``rated``: the ratings after the tournament's
    rated games, when the caller has them already."""
    rated = rated if rated is not None else rate(rated_games(tournament))
    rows = []
    for key, entrant in tournament.entrants.items():
        if entrant["number"] is None:
            continue
        rating = rated.get(key)
        found: dict[str, Any] | None = rating.to_json() if rating is not None else None
        rows.append(
            {
                "entrant": key,
                "name": entrant["name"],
                "number": entrant["number"],
                "game": tournament.game,
                **(found or {"mu": None, "sigma": None, "ordinal": None, "games": 0}),
            }
        )
    rows.sort(key=lambda r: (r["ordinal"] is None, -(r["ordinal"] or 0.0), r["number"]))
    return rows


def summary_of(tournament: Tournament) -> dict[str, Any]:
    """The tournament's line in the list of tournaments."""
    return {
        "tournament_id": str(tournament.id),
        "name": tournament.name,
        "game": tournament.game,
        "kind": tournament.format["kind"],
        "phase": tournament.phase,
        "entrants": sum(
            1 for e in tournament.entrants.values() if e["status"] in ("registered", "checked-in")
        ),
        "rounds": len(tournament.rounds),
        "rounds_planned": (
            rounds_planned(tournament.format, tournament.entrants)
            if tournament.phase in ("running", "finished")
            else None
        ),
        "version": tournament.version,
        "created_at": tournament.created_on.isoformat(),
        "updated_at": tournament.modified_on.isoformat(),
    }


def document_of(
    tournament: Tournament, rated: Mapping[str, Rating] | None = None
) -> dict[str, Any]:
    """The tournament's public document (module docstring); ``rated`` as for
    :func:`ratings_of`."""
    names = {key: e["name"] for key, e in tournament.entrants.items()}
    rounds = [
        {
            "number": rnd["number"],
            "tables": [
                {
                    "table": table["table"],
                    "game": table["game"],
                    "seats": [{"entrant": e, "name": names[e]} for e in table["seats"]],
                    "result": copy_json(table["result"]),
                }
                for table in rnd["tables"]
            ],
            "byes": [{"entrant": e, "name": names[e]} for e in rnd["byes"]],
        }
        for rnd in tournament.rounds
    ]
    return {
        **summary_of(tournament),
        "options": copy_json(tournament.options),
        "settings": copy_json(tournament.settings),
        "format": copy_json(tournament.format),
        "seed_sha256": tournament.seed_sha256,
        "seed": tournament.seed if tournament.phase == "finished" else None,
        "chain_head": tournament.chain_head,
        "entrants_list": [
            {"entrant": key, **{f: e[f] for f in ENTRANT_FIELDS}}
            for key, e in tournament.entrants.items()
        ],
        "rounds_list": rounds,
        "standings": standing_rows(tournament) if tournament.rounds else [],
        "history": copy_json(tournament.acts),
        "ranking": list(tournament.ranking),
        "ratings": ratings_of(tournament, rated),
    }
