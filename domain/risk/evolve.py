"""How every Risk event changes the state (docs/risk.md, "Events"; docs/architecture.md,
"Typed events, moves and views"): :data:`EVENTS`, the one catalogue binding each event's
kind to its handler. Replay runs only this. The handlers live with the rules that cause their
events: the shared ones in :mod:`domain.risk.setup`, :mod:`domain.risk.rounds` and
:mod:`domain.risk.cards`, the Constitution's in :mod:`domain.risk.constitution`, classic Risk's
in :mod:`domain.risk.classic`. Events are declared in the order the game meets them (the
order ``event_types`` lists)."""

from __future__ import annotations

from domain.events import EventCatalogue
from domain.risk import cards, rounds, setup
from domain.risk import events as shared
from domain.risk.classic import battle as classic_battle
from domain.risk.classic import cards as classic_cards
from domain.risk.classic import events as classic
from domain.risk.classic import turn as classic_turn
from domain.risk.constitution import corridor, exchange, invasion, reinforcement
from domain.risk.constitution import events as constitution
from domain.risk.state import RiskState

EVENTS = EventCatalogue[RiskState]("Risk")
"""Every Risk event with its typed data and its handler."""

# Setup (docs/risk.md, "Setup")
EVENTS.on(shared.ORDER_ROLLED, setup.order_rolled)
EVENTS.on(shared.TURN_ORDER_DECIDED, setup.turn_order_decided)
EVENTS.on(shared.TERRITORIES_DEALT, setup.territories_dealt)
EVENTS.on(shared.PRIZE_FUND_PAID, setup.prize_fund_paid)
EVENTS.on(shared.COLOUR_CHOSEN, setup.colour_chosen)
EVENTS.on(shared.PLACEMENT_TURN, setup.placement_turn)
# Rounds and turns (docs/risk.md, "A player's turn", "End of the game")
EVENTS.on(shared.ROUND_STARTED, rounds.round_started)
EVENTS.on(shared.TURN_STARTED, rounds.turn_started)
EVENTS.on(shared.UNITS_PLACED, rounds.units_placed)
EVENTS.on(shared.GAME_ENDED, rounds.game_ended)
# The invasion phase (docs/risk.md, "Invasion phase")
EVENTS.on(constitution.INVASION_STARTED, invasion.invasion_started)
EVENTS.on(constitution.DICE_ROLLED, invasion.dice_rolled)
EVENTS.on(constitution.BATTLE_RESOLVED, invasion.battle_resolved)
EVENTS.on(constitution.TERRITORY_CAPTURED, invasion.territory_captured)
EVENTS.on(shared.DECK_RESHUFFLED, cards.deck_reshuffled)
EVENTS.on(shared.CARD_DRAWN, cards.card_drawn)
EVENTS.on(shared.PLAYER_ELIMINATED, rounds.player_eliminated)
EVENTS.on(constitution.INVASION_STOPPED, invasion.invasion_stopped)
# The reinforcement phase (docs/risk.md, "Reinforcement phase", "Moving units")
EVENTS.on(constitution.REINFORCEMENTS_RECEIVED, reinforcement.reinforcements_received)
EVENTS.on(constitution.CARDS_TRADED, reinforcement.cards_traded)
EVENTS.on(constitution.UNITS_BOUGHT, reinforcement.units_bought)
EVENTS.on(constitution.UNITS_MOVED, reinforcement.units_moved)
EVENTS.on(shared.TURN_ENDED, rounds.turn_ended)
# The exchange session (docs/risk.md, "Exchange session")
EVENTS.on(constitution.EXCHANGE_SESSION_OPENED, exchange.exchange_session_opened)
EVENTS.on(constitution.DEAL_PROPOSED, exchange.deal_proposed)
EVENTS.on(constitution.SETTLEMENT_PROPOSED, exchange.settlement_proposed)
EVENTS.on(constitution.DEAL_ACCEPTED, exchange.deal_accepted)
EVENTS.on(constitution.DEAL_EXECUTED, exchange.deal_executed)
EVENTS.on(constitution.DEAL_FAILED, exchange.deal_failed)
EVENTS.on(constitution.DEAL_DECLINED, exchange.deal_declined)
EVENTS.on(constitution.DEAL_WITHDRAWN, exchange.deal_withdrawn)
EVENTS.on(constitution.PASSAGE_GRANTED, corridor.passage_granted)
EVENTS.on(constitution.PASSAGE_REVOKED, corridor.passage_revoked)
EVENTS.on(constitution.EXCHANGE_DONE, exchange.exchange_done)
EVENTS.on(constitution.EXCHANGE_SESSION_CLOSED, exchange.exchange_session_closed)
# Classic Risk (docs/risk.md, "Classic Risk")
EVENTS.on(classic.CLASSIC_REINFORCEMENTS, classic_turn.classic_reinforcements)
EVENTS.on(classic.ATTACK_PHASE_STARTED, classic_turn.attack_phase_started)
EVENTS.on(classic.FORTIFIED, classic_turn.fortified)
EVENTS.on(classic.ATTACK_ROLLED, classic_battle.attack_rolled)
EVENTS.on(classic.TERRITORY_CONQUERED, classic_battle.territory_conquered)
EVENTS.on(classic.TERRITORY_OCCUPIED, classic_battle.territory_occupied)
EVENTS.on(classic.ATTACK_PHASE_ENDED, classic_battle.attack_phase_ended)
EVENTS.on(classic.CLASSIC_CARDS_TRADED, classic_cards.classic_cards_traded)
