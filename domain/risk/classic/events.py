"""The events of classic Risk's own turn (docs/risk.md, "Classic Risk"): reinforcements,
the attack phase, conquest and occupation, the fortify move and classic card sets. One
``TypedDict`` per event, named as the event, and its :class:`~domain.events.EventKind`.
"""

from __future__ import annotations

from typing_extensions import TypedDict

from domain.events import EventKind


class ClassicReinforcements(TypedDict):
    """A classic turn's reinforcements: max(3, territories / 3) and whole continents."""

    seat: int
    territories: int
    continents: dict[str, int]
    total: int


class AttackPhaseStarted(TypedDict):
    """The reinforcement reserve is placed: the attack phase begins."""

    seat: int


Fortified = TypedDict("Fortified", {"seat": int, "from": str, "to": str, "units": int})
"""The turn's one fortify move."""

AttackRolled = TypedDict(
    "AttackRolled",
    {
        "seat": int,
        "from": str,
        "to": str,
        "defender": int,
        "attackers": int,
        "defenders": int,
        "attacker_dice": list[int],
        "defender_dice": list[int],
        "attacker_losses": int,
        "defender_losses": int,
        "random_position": int,
    },
)
"""One attack: the dice of both sides and the losses."""

TerritoryConquered = TypedDict(
    "TerritoryConquered",
    {"seat": int, "from": str, "to": str, "previous_owner": int, "dice": int},
)
"""An emptied territory is conquered; it awaits its occupation."""

TerritoryOccupied = TypedDict(
    "TerritoryOccupied", {"seat": int, "from": str, "to": str, "units": int}
)
"""Units move into the territory just conquered."""


class AttackPhaseEnded(TypedDict):
    """The attacks are over: the fortify move follows."""

    seat: int


class ClassicCardsTraded(TypedDict):
    """A classic set traded; ``sets`` counts the sets traded in the game so far."""

    seat: int
    cards: list[str]
    bonus: int
    sets: int


CLASSIC_REINFORCEMENTS = EventKind(ClassicReinforcements)
ATTACK_PHASE_STARTED = EventKind(AttackPhaseStarted)
FORTIFIED = EventKind(Fortified)
ATTACK_ROLLED = EventKind(AttackRolled)
TERRITORY_CONQUERED = EventKind(TerritoryConquered)
TERRITORY_OCCUPIED = EventKind(TerritoryOccupied)
ATTACK_PHASE_ENDED = EventKind(AttackPhaseEnded)
CLASSIC_CARDS_TRADED = EventKind(ClassicCardsTraded)
