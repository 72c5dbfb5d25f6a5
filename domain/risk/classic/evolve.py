"""How classic Risk's own events change the state (docs/risk.md, "Classic Risk"; docs/risk.md,
"Rooms"): one handler per event of :mod:`domain.risk.classic.events`;
:data:`domain.risk.evolve.EVENTS` binds them. The rules that cause the events (phases, turn,
battle, cards) only emit them.
"""

from __future__ import annotations

from domain.risk import cards
from domain.risk.classic.events import (
    AttackPhaseEnded,
    AttackPhaseStarted,
    AttackRolled,
    ClassicCardsTraded,
    ClassicReinforcements,
    Fortified,
    TerritoryConquered,
    TerritoryOccupied,
)
from domain.risk.state import FORTIFY, INVASION, REINFORCEMENT, OpenInvasion, RiskState

# Cards (docs/risk.md, "Classic Risk": sets)


def classic_cards_traded(state: RiskState, data: ClassicCardsTraded) -> None:
    """docs/risk.md, "Classic Risk": the set turned in; one more set traded in the game."""
    cards.turn_in(state, data["seat"], data["cards"], data["bonus"])
    state.horse = data["sets"]


# Attacks, conquest, occupation (docs/risk.md, "Classic Risk")


def attack_rolled(state: RiskState, data: AttackRolled) -> None:
    """docs/risk.md, "Classic Risk": the losses of one attack; an emptied territory awaits its
    conqueror's occupation."""
    a_loss, d_loss = data["attacker_losses"], data["defender_losses"]
    state.units[data["from"]] -= a_loss
    state.units[data["to"]] -= d_loss
    state.units_lost += a_loss + d_loss
    if state.units[data["to"]] == 0:
        state.invasion = _due(data["from"], data["to"], data["attackers"])


def _due(source: str, target: str, rolled: int) -> OpenInvasion:
    return {"from": source, "to": target, "attackers": 0, "defenders": 0, "dice": rolled}


def territory_conquered(state: RiskState, data: TerritoryConquered) -> None:
    """docs/risk.md, "Classic Risk": the territory changes owner, empty until occupied."""
    state.owner[data["to"]] = data["seat"]
    state.captured.append(data["to"])
    state.invasion = _due(data["from"], data["to"], data["dice"])


def territory_occupied(state: RiskState, data: TerritoryOccupied) -> None:
    """docs/risk.md, "Classic Risk": the conquering units move in."""
    state.units[data["from"]] -= data["units"]
    state.units[data["to"]] += data["units"]
    state.invasion = None


def attack_phase_ended(state: RiskState, data: AttackPhaseEnded) -> None:
    """docs/risk.md, "Classic Risk": the fortify move follows."""
    del data
    state.phase = FORTIFY


# The turn: reinforcements, the attack phase, the fortify move (docs/risk.md, "Classic Risk")


def classic_reinforcements(state: RiskState, data: ClassicReinforcements) -> None:
    """docs/risk.md, "Classic Risk": the reinforcement phase begins with the units received."""
    state.phase = REINFORCEMENT
    state.reserve[data["seat"]] += data["total"]
    state.units_in += data["total"]


def attack_phase_started(state: RiskState, data: AttackPhaseStarted) -> None:
    """docs/risk.md, "Classic Risk": the reserve is placed, the attacks may begin."""
    del data
    state.phase = INVASION


def fortified(state: RiskState, data: Fortified) -> None:
    """docs/risk.md, "Classic Risk": the fortify move's units change territory."""
    state.units[data["from"]] -= data["units"]
    state.units[data["to"]] += data["units"]
