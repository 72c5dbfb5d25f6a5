"""How every Risk event changes the state (docs/risk.md, "Events" and "Rooms";
docs/architecture.md, "Typed events, moves and views"): the handlers of the events both
rulesets record, and :data:`EVENTS`, the one catalogue binding each event's kind to its handler
-- these, the Constitution's (:mod:`domain.risk.constitution.evolve`) and classic Risk's
(:mod:`domain.risk.classic.evolve`). Replay runs only this. The rules that cause the events
only emit them. Events are declared in the order the game meets them (the order
``event_types`` lists).
"""

from __future__ import annotations

from domain.events import EventCatalogue
from domain.risk import events as shared
from domain.risk import options
from domain.risk.classic import events as classic
from domain.risk.classic import evolve as on_classic
from domain.risk.constitution import events as constitution
from domain.risk.constitution import evolve as on_constitution
from domain.risk.events import (
    CardDrawn,
    ColourChosen,
    DeckReshuffled,
    GameEnded,
    OrderRolled,
    PlacementTurn,
    PlayerEliminated,
    PrizeFundPaid,
    RoundStarted,
    TerritoriesDealt,
    TurnEnded,
    TurnOrderDecided,
    TurnStarted,
    UnitsPlaced,
)
from domain.risk.state import INVASION, OVER, PLACEMENT, RiskState
from domain.risk.worldmap import WORLD_MAP

# Setup (docs/risk.md, "Setup", "Money")


def order_rolled(state: RiskState, data: OrderRolled) -> None:
    """The dice only decide the order (``TurnOrderDecided``); nothing else changes."""
    del state, data


def turn_order_decided(state: RiskState, data: TurnOrderDecided) -> None:
    """docs/risk.md, "Setup": the turn order, for the whole game."""
    state.order = list(data["order"])


def territories_dealt(state: RiskState, data: TerritoriesDealt) -> None:
    """docs/risk.md, "Setup": one unit on each dealt territory, the starting units in reserve."""
    owners: dict[str, int] = data["owners"]
    state.owner = {t.name: owners[t.name] for t in WORLD_MAP.territories if t.name in owners}
    state.units = {t: 1 for t in state.owner}
    start = options.starting_units(state.options, state.players)
    state.reserve = [start] * state.players
    state.units_in += len(state.owner) + start * state.players


def prize_fund_paid(state: RiskState, data: PrizeFundPaid) -> None:
    """docs/risk.md, "Money": every purse filled, every stake in the fund."""
    state.purse = [data["purse"]] * state.players
    state.fund = data["stake"] * state.players


def colour_chosen(state: RiskState, data: ColourChosen) -> None:
    """docs/risk.md, "Setup": after the last colour the placement begins."""
    state.colours[data["seat"]] = data["colour"]
    if all(c is not None for c in state.colours):
        state.phase = PLACEMENT
        state.turn = 0


def placement_turn(state: RiskState, data: PlacementTurn) -> None:
    """docs/risk.md, "Setup": the next seat with units left places."""
    state.turn = state.order.index(data["seat"])


# Rounds, turns, placing, elimination, the end (docs/risk.md, "A player's turn", "End of the game")


def round_started(state: RiskState, data: RoundStarted) -> None:
    """docs/risk.md, "A player's turn": a new round; the exchange session's marks are reset."""
    state.round = data["round"]
    state.done = []
    state.proposals = []


def turn_started(state: RiskState, data: TurnStarted) -> None:
    """docs/risk.md, "A player's turn": the seat's turn opens with its invasion phase (a
    classic turn's reinforcements change the phase next)."""
    state.turn = state.order.index(data["seat"])
    state.phase = INVASION
    state.launched = []
    state.captured = []
    state.invasion = None
    state.moved = {}


def units_placed(state: RiskState, data: UnitsPlaced) -> None:
    """docs/risk.md, "Setup" and "Reinforcement phase": units leave the reserve for the map."""
    seat = data["seat"]
    for territory, n in data["units"].items():
        state.units[territory] += n
        state.reserve[seat] -= n


def turn_ended(state: RiskState, data: TurnEnded) -> None:
    """The turn's record closes; the next ``TurnStarted`` or ``ExchangeSessionOpened``
    changes the phase (docs/risk.md, "A player's turn")."""
    del state, data


def player_eliminated(state: RiskState, data: PlayerEliminated) -> None:
    """docs/risk.md, "Invasion phase": the hand goes to the conqueror, the reserve and the
    units still to come are lost."""
    out = data["seat"]
    state.hands[data["by"]].extend(data["cards"])
    state.hands[out] = []
    state.eliminated.append(out)
    state.units_lost += state.incoming[out] + state.reserve[out]
    state.incoming[out] = 0
    state.reserve[out] = 0


def game_ended(state: RiskState, data: GameEnded) -> None:
    """docs/risk.md, "End of the game": the fund is paid out by the shares."""
    for seat, amount in data["shares"].items():
        state.purse[int(seat)] += amount
        state.fund -= amount
    state.phase = OVER
    state.invasion = None
    state.proposals = []
    state.result = {"reason": data["reason"], "shares": dict(data["shares"])}


# Trophy cards (docs/risk.md, "Invasion phase": capture)


def deck_reshuffled(state: RiskState, data: DeckReshuffled) -> None:
    """docs/risk.md, "Invasion phase" (**decision**): the traded-in cards are the deck again."""
    del data
    state.discard = []


def card_drawn(state: RiskState, data: CardDrawn) -> None:
    """docs/risk.md, "Invasion phase": the drawn card joins the drawer's hand."""
    state.hands[data["seat"]].append(data["card"])


EVENTS = EventCatalogue[RiskState]("Risk")
"""Every Risk event with its typed data and its handler."""

# Setup (docs/risk.md, "Setup")
EVENTS.on(shared.ORDER_ROLLED, order_rolled)
EVENTS.on(shared.TURN_ORDER_DECIDED, turn_order_decided)
EVENTS.on(shared.TERRITORIES_DEALT, territories_dealt)
EVENTS.on(shared.PRIZE_FUND_PAID, prize_fund_paid)
EVENTS.on(shared.COLOUR_CHOSEN, colour_chosen)
EVENTS.on(shared.PLACEMENT_TURN, placement_turn)
# Rounds and turns (docs/risk.md, "A player's turn", "End of the game")
EVENTS.on(shared.ROUND_STARTED, round_started)
EVENTS.on(shared.TURN_STARTED, turn_started)
EVENTS.on(shared.UNITS_PLACED, units_placed)
EVENTS.on(shared.GAME_ENDED, game_ended)
# The invasion phase (docs/risk.md, "Invasion phase")
EVENTS.on(constitution.INVASION_STARTED, on_constitution.invasion_started)
EVENTS.on(constitution.DICE_ROLLED, on_constitution.dice_rolled)
EVENTS.on(constitution.BATTLE_RESOLVED, on_constitution.battle_resolved)
EVENTS.on(constitution.TERRITORY_CAPTURED, on_constitution.territory_captured)
EVENTS.on(shared.DECK_RESHUFFLED, deck_reshuffled)
EVENTS.on(shared.CARD_DRAWN, card_drawn)
EVENTS.on(shared.PLAYER_ELIMINATED, player_eliminated)
EVENTS.on(constitution.INVASION_STOPPED, on_constitution.invasion_stopped)
# The reinforcement phase (docs/risk.md, "Reinforcement phase", "Moving units")
EVENTS.on(constitution.REINFORCEMENTS_RECEIVED, on_constitution.reinforcements_received)
EVENTS.on(constitution.CARDS_TRADED, on_constitution.cards_traded)
EVENTS.on(constitution.UNITS_BOUGHT, on_constitution.units_bought)
EVENTS.on(constitution.UNITS_MOVED, on_constitution.units_moved)
EVENTS.on(shared.TURN_ENDED, turn_ended)
# The exchange session (docs/risk.md, "Exchange session")
EVENTS.on(constitution.EXCHANGE_SESSION_OPENED, on_constitution.exchange_session_opened)
EVENTS.on(constitution.DEAL_PROPOSED, on_constitution.deal_proposed)
EVENTS.on(constitution.SETTLEMENT_PROPOSED, on_constitution.settlement_proposed)
EVENTS.on(constitution.DEAL_ACCEPTED, on_constitution.deal_accepted)
EVENTS.on(constitution.DEAL_EXECUTED, on_constitution.deal_executed)
EVENTS.on(constitution.DEAL_FAILED, on_constitution.deal_failed)
EVENTS.on(constitution.DEAL_DECLINED, on_constitution.deal_declined)
EVENTS.on(constitution.DEAL_WITHDRAWN, on_constitution.deal_withdrawn)
EVENTS.on(constitution.PASSAGE_GRANTED, on_constitution.passage_granted)
EVENTS.on(constitution.PASSAGE_REVOKED, on_constitution.passage_revoked)
EVENTS.on(constitution.EXCHANGE_DONE, on_constitution.exchange_done)
EVENTS.on(constitution.EXCHANGE_SESSION_CLOSED, on_constitution.exchange_session_closed)
# Classic Risk (docs/risk.md, "Classic Risk")
EVENTS.on(classic.CLASSIC_REINFORCEMENTS, on_classic.classic_reinforcements)
EVENTS.on(classic.ATTACK_PHASE_STARTED, on_classic.attack_phase_started)
EVENTS.on(classic.FORTIFIED, on_classic.fortified)
EVENTS.on(classic.ATTACK_ROLLED, on_classic.attack_rolled)
EVENTS.on(classic.TERRITORY_CONQUERED, on_classic.territory_conquered)
EVENTS.on(classic.TERRITORY_OCCUPIED, on_classic.territory_occupied)
EVENTS.on(classic.ATTACK_PHASE_ENDED, on_classic.attack_phase_ended)
EVENTS.on(classic.CLASSIC_CARDS_TRADED, on_classic.classic_cards_traded)
