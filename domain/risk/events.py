"""The events both rulesets record (docs/risk.md, "Events"; docs/architecture.md, "Typed
events, moves and views"): the opening and the setup, rounds and turns, units placed from a
reserve, trophy cards drawn, a player eliminated and the end of the game. One ``TypedDict``
per event, named as the event, and its :class:`~domain.events.EventKind`; the Constitution's
own events are in :mod:`domain.risk.constitution.events`, classic Risk's in
:mod:`domain.risk.classic.events`.

Fields some viewers do not see (docs/risk.md, "Hidden information") are ``NotRequired``: the
drawn card (``CardDrawn.card``) and an eliminated player's hand (``PlayerEliminated.cards``).
Keys that are Python keywords (``from``) use the functional ``TypedDict`` form.
"""

from __future__ import annotations

from typing import Literal, NotRequired

from typing_extensions import TypedDict

from domain.events import EventKind


class OrderRolled(TypedDict):
    """Setup: one die per seat still to be ordered, ``[seat, die]`` each."""

    rolls: list[list[int]]
    random_position: int


class TurnOrderDecided(TypedDict):
    """Setup: the seats in turn order."""

    order: list[int]


class TerritoriesDealt(TypedDict):
    """Setup: each territory's owner (-1 the neutral army of a two-player classic game)."""

    owners: dict[str, int]
    random_position: int


class PrizeFundPaid(TypedDict):
    """Setup: each player's stake paid into the fund and the purse each keeps (kopecks)."""

    stake: int
    purse: int


class ColourChosen(TypedDict):
    """Setup: a seat's army colour."""

    seat: int
    colour: str


class PlacementTurn(TypedDict):
    """Setup: the seat that places starting units next."""

    seat: int


class UnitsPlaced(TypedDict):
    """Units placed from a seat's reserve, by territory (setup and reinforcement alike)."""

    seat: int
    units: dict[str, int]


class RoundStarted(TypedDict):
    """A round begins."""

    round: int


class TurnStarted(TypedDict):
    """A seat's turn begins."""

    seat: int
    round: int


class TurnEnded(TypedDict):
    """A seat's turn ends (a record only)."""

    seat: int


class DeckReshuffled(TypedDict):
    """The traded-in cards form the deck again; ``cards`` is how many."""

    cards: int


class CardDrawn(TypedDict):
    """A trophy card drawn; ``card`` is shown to the drawer only."""

    seat: int
    card: NotRequired[str]
    random_position: int


class PlayerEliminated(TypedDict):
    """A seat without territory is out; its hand (``cards``, shown to the two players
    concerned only) goes to the seat ``by``."""

    seat: int
    by: int
    cards: NotRequired[list[str]]
    card_count: int


class GameEnded(TypedDict):
    """The end: a conquest or an accepted settlement, and each seat's share of the fund."""

    reason: Literal["conquest", "settlement"]
    shares: dict[str, int]


ORDER_ROLLED = EventKind(OrderRolled)
TURN_ORDER_DECIDED = EventKind(TurnOrderDecided)
TERRITORIES_DEALT = EventKind(TerritoriesDealt)
PRIZE_FUND_PAID = EventKind(PrizeFundPaid)
COLOUR_CHOSEN = EventKind(ColourChosen)
PLACEMENT_TURN = EventKind(PlacementTurn)
UNITS_PLACED = EventKind(UnitsPlaced)
ROUND_STARTED = EventKind(RoundStarted)
TURN_STARTED = EventKind(TurnStarted)
TURN_ENDED = EventKind(TurnEnded)
DECK_RESHUFFLED = EventKind(DeckReshuffled)
CARD_DRAWN = EventKind(CardDrawn)
PLAYER_ELIMINATED = EventKind(PlayerEliminated)
GAME_ENDED = EventKind(GameEnded)
