"""The Constitution's card sets and the golden horse (docs/risk.md, "Reinforcement phase"
item 2): three cards with one unit symbol or one colour make a set (a wild card stands for
any), and a set traded gives the golden horse's bonus, the horse moving on along its track."""

from __future__ import annotations

from itertools import combinations

from domain.risk.cards import is_wild
from domain.risk.state import RiskState
from domain.risk.worldmap import WORLD_MAP, WorldMap


def is_set(cards: tuple[str, ...] | list[str], world: WorldMap = WORLD_MAP) -> bool:
    """Three cards with the same unit symbol or the same colour; a wild card stands for any
    card (docs/risk.md, "Reinforcement phase" item 2)."""
    if len(cards) != 3 or len(set(cards)) != 3:
        return False
    real = [world.by_name[c] for c in cards if not is_wild(c)]
    return len({t.card_symbol for t in real}) <= 1 or len({t.continent for t in real}) <= 1


def sets_in(hand: list[str], world: WorldMap = WORLD_MAP) -> list[tuple[str, str, str]]:
    """Every set of three cards in ``hand`` that may be traded, cards in hand order."""
    return [c for c in combinations(hand, 3) if is_set(c, world)]


def horse_bonus(state: RiskState) -> int:
    """The golden horse's bonus now: the track position's number (rules: 4, 6, 8, 10, 12,
    15, and from 15 back to 4)."""
    track: list[int] = state.options["golden_horse"]
    return track[state.horse % len(track)]
