"""Pairing for every tournament format (issue 15, part 2; docs/tournaments.md, "Pairing"):
pure functions of the format's settings, the entrants' standing inputs, the round number and
the tournament's ``RandomStream``, so that a verifier recomputes every round from the record.

The public interface: ``Entrant``, the settings (``SwissSettings``, ``RoundRobinSettings``,
``EliminationSettings``), ``Round``, ``PairingError``, ``draw_numbers`` (pairing numbers at
the start), ``pair_round`` (one round of any format) and ``planned_rounds``.
"""

from domain.tournament.pairing.formats import pair_round, planned_rounds
from domain.tournament.pairing.model import (
    EliminationSettings,
    Entrant,
    FormatSettings,
    PairingError,
    Round,
    RoundRobinSettings,
    SwissSettings,
    standing_order,
)
from domain.tournament.pairing.starting import draw_numbers

__all__ = [
    "EliminationSettings",
    "Entrant",
    "FormatSettings",
    "PairingError",
    "Round",
    "RoundRobinSettings",
    "SwissSettings",
    "draw_numbers",
    "pair_round",
    "planned_rounds",
    "standing_order",
]
