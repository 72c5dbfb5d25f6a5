"""The one entry point the tournament aggregate calls (docs/tournaments.md, "Pairing"):
``pair_round`` chooses the format's pairing function by the settings' type and table size.

Every pairing function is pure: the same settings, entrants, round number and stream state
give the same round, and the stream's ``position`` afterwards tells the aggregate where the
next draw starts. Where the stream is used is listed in docs/tournaments.md ("Randomness").
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.randomness import RandomStream
from domain.tournament.pairing.elimination import (
    pair_elimination_tables,
    pair_elimination_two,
)
from domain.tournament.pairing.elimination import planned_rounds as elimination_rounds
from domain.tournament.pairing.model import (
    EliminationSettings,
    Entrant,
    FormatSettings,
    PairingError,
    Round,
    RoundRobinSettings,
    SwissSettings,
    check_table_sizes,
)
from domain.tournament.pairing.round_robin import pair_round_robin
from domain.tournament.pairing.round_robin import planned_rounds as round_robin_rounds
from domain.tournament.pairing.swiss_pairs import pair_swiss_two
from domain.tournament.pairing.swiss_tables import pair_swiss_tables


def pair_round(
    settings: FormatSettings,
    entrants: Sequence[Entrant],
    round_number: int,
    rng: RandomStream,
) -> Round:
    """Round ``round_number`` (1-based) of the format ``settings`` names."""
    check_table_sizes(settings.table_size, settings.min_table_size)
    if round_number < 1:
        raise PairingError("no-such-round", "rounds are numbered from 1")
    if isinstance(settings, SwissSettings):
        if settings.table_size == 2:
            return pair_swiss_two(entrants, round_number, rng)
        return pair_swiss_tables(settings, entrants, round_number, rng)
    if isinstance(settings, RoundRobinSettings):
        return pair_round_robin(settings, entrants, round_number)
    if settings.table_size == 2:
        return pair_elimination_two(entrants, round_number, rng)
    return pair_elimination_tables(settings, entrants, round_number, rng)


def planned_rounds(settings: FormatSettings, count: int) -> int | None:
    """How many rounds the format has for ``count`` entrants at the start: fixed for a round
    robin and a two-player bracket; None where the organiser (Swiss) or the results
    (multi-player elimination) decide."""
    if isinstance(settings, RoundRobinSettings):
        return round_robin_rounds(settings, count)
    if isinstance(settings, EliminationSettings):
        return elimination_rounds(settings, count)
    return None
