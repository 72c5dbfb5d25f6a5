"""The events of the Constitution's own phases (docs/risk.md, "Events"): the invasion
phase, the reinforcement phase and the exchange session. One ``TypedDict`` per event, named as
the event, and its :class:`~domain.events.EventKind`.

A deal's transfers are recorded as :class:`~domain.risk.move_json.TransferRecord`; the cards
it gives are shown to the deal's parties only, the others see
``card_count`` (docs/risk.md, "Hidden information"), so ``cards`` is ``NotRequired``.
"""

from __future__ import annotations

from typing_extensions import TypedDict

from domain.events import EventKind
from domain.risk.move_json import TransferRecord

InvasionStarted = TypedDict(
    "InvasionStarted", {"seat": int, "from": str, "to": str, "defender": int}
)
"""An invasion of ``to`` from ``from`` begins."""

DiceRolled = TypedDict(
    "DiceRolled",
    {
        "seat": int,
        "from": str,
        "to": str,
        "attackers": int,
        "defenders": int,
        "attacker_dice": list[int],
        "defender_dice": list[int],
        "attacker_losses": int,
        "defender_losses": int,
        "random_position": int,
    },
)
"""One roll of the open invasion's battle, with the engaged units."""

BattleResolved = TypedDict(
    "BattleResolved",
    {"from": str, "to": str, "attacker_losses": int, "defender_losses": int},
)
"""A battle is over: one side's engaged units are gone; the losses of the whole battle."""

TerritoryCaptured = TypedDict(
    "TerritoryCaptured", {"seat": int, "from": str, "to": str, "previous_owner": int}
)
"""A territory captured: exactly one unit moves in."""

InvasionStopped = TypedDict("InvasionStopped", {"seat": int, "from": str, "to": str, "reason": str})
"""The open invasion ends without capture (``stopped`` or ``exhausted``)."""


class ReinforcementsReceived(TypedDict):
    """A seat's reinforcements: territories / 3, whole continents, units from deals."""

    seat: int
    territories: int
    continents: dict[str, int]
    deals: int
    total: int


class CardsTraded(TypedDict):
    """A set traded for the golden horse's bonus; ``horse`` is its next position."""

    seat: int
    cards: list[str]
    bonus: int
    horse: int


class UnitsBought(TypedDict):
    """Units bought; the cost is paid into the prize fund."""

    seat: int
    units: int
    cost: int


UnitsMoved = TypedDict(
    "UnitsMoved",
    {"seat": int, "from": str, "to": str, "units": int, "path": list[str]},
)
"""Units moved along a route of own and consenting allies' territories."""


class ExchangeSessionOpened(TypedDict):
    """The exchange session of a round opens."""

    round: int


class DealProposed(TypedDict):
    """A deal proposed by ``by`` to the seats ``to``."""

    id: int
    by: int
    to: list[int]
    transfers: list[TransferRecord]


class SettlementProposed(TypedDict):
    """A division of the prize fund proposed by ``by`` to every other player in the game."""

    id: int
    by: int
    to: list[int]
    shares: dict[str, int]


class DealAccepted(TypedDict):
    """A proposal accepted by one addressee."""

    id: int
    seat: int


class DealExecuted(TypedDict):
    """A deal accepted by every addressee is carried out."""

    id: int
    transfers: list[TransferRecord]


class DealFailed(TypedDict):
    """A deal accepted by every addressee could not be carried out; nothing changed."""

    id: int
    reason: str


class DealDeclined(TypedDict):
    """A proposal declined by an addressee: it is closed."""

    id: int
    seat: int


class DealWithdrawn(TypedDict):
    """A proposal withdrawn by its proposer."""

    id: int


class PassageGranted(TypedDict):
    """``seat`` lets seat ``to`` move units through its territories."""

    seat: int
    to: int


class PassageRevoked(TypedDict):
    """``seat`` withdraws the passage it gave seat ``to``."""

    seat: int
    to: int


class ExchangeDone(TypedDict):
    """A seat is done for this exchange session."""

    seat: int


class ExchangeSessionClosed(TypedDict):
    """The exchange session of a round closes."""

    round: int


INVASION_STARTED = EventKind(InvasionStarted)
DICE_ROLLED = EventKind(DiceRolled)
BATTLE_RESOLVED = EventKind(BattleResolved)
TERRITORY_CAPTURED = EventKind(TerritoryCaptured)
INVASION_STOPPED = EventKind(InvasionStopped)
REINFORCEMENTS_RECEIVED = EventKind(ReinforcementsReceived)
CARDS_TRADED = EventKind(CardsTraded)
UNITS_BOUGHT = EventKind(UnitsBought)
UNITS_MOVED = EventKind(UnitsMoved)
EXCHANGE_SESSION_OPENED = EventKind(ExchangeSessionOpened)
DEAL_PROPOSED = EventKind(DealProposed)
SETTLEMENT_PROPOSED = EventKind(SettlementProposed)
DEAL_ACCEPTED = EventKind(DealAccepted)
DEAL_EXECUTED = EventKind(DealExecuted)
DEAL_FAILED = EventKind(DealFailed)
DEAL_DECLINED = EventKind(DealDeclined)
DEAL_WITHDRAWN = EventKind(DealWithdrawn)
PASSAGE_GRANTED = EventKind(PassageGranted)
PASSAGE_REVOKED = EventKind(PassageRevoked)
EXCHANGE_DONE = EventKind(ExchangeDone)
EXCHANGE_SESSION_CLOSED = EventKind(ExchangeSessionClosed)
