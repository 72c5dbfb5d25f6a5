"""Trophy cards in the classic ruleset (docs/risk.md, "Classic Risk"; the option
``ruleset: "classic"``).

* A set is three cards of one unit symbol or one of each of the three symbols; a wild card
  stands for any card. **decision:** these are the classic sets (not the Constitution's "one
  symbol or one colour"), so that any five cards hold a set and a player who must trade
  always can.
* A set is worth 4, 6, 8, 10, 12, 15, then 5 more for each later set (20, 25, ...), by the
  number of sets traded so far in the whole game (kept in ``state.horse``; there is no
  golden horse in the classic ruleset).
* A player holding 5 or more cards must trade before placing any reinforcement
  (**decision:** trades come first while 5+ are held). A player who takes an eliminated
  player's cards and then holds 6 or more must trade at once, in the attack phase, until 4
  or fewer are left, and place the units so received before attacking on.
* One card is drawn at the end of a turn in which the player conquered at least one
  territory, uniformly from the deck in catalogue order (:func:`domain.risk.cards.deck`);
  an empty deck is formed again from the traded-in cards.

Events: ``ClassicCardsTraded``; the draw reuses ``DeckReshuffled`` and ``CardDrawn`` (shared,
:mod:`domain.risk.cards`; :mod:`domain.risk.view` hides the drawn card).
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

from domain.protocol import IllegalMove
from domain.risk import cards
from domain.risk.classic.events import CLASSIC_CARDS_TRADED
from domain.risk.state import INVASION, REINFORCEMENT, RiskState
from domain.risk.worldmap import WORLD_MAP
from domain.turn import Turn

SET_VALUES: Final = (4, 6, 8, 10, 12, 15)
"""The first sets' values in a game (docs/risk.md, "Classic Risk")."""
LATER_STEP: Final = 5
"""Each set after the last of :data:`SET_VALUES` is worth this much more than the one before."""
MUST_TRADE_AT_START: Final = 5
"""Holding this many cards in the reinforcement phase forces a trade before placing."""
MUST_TRADE_AFTER_ELIMINATION: Final = 6
"""Holding this many cards in the attack phase (taken from an eliminated player) forces
trading down to :data:`TRADE_DOWN_TO` or fewer."""
TRADE_DOWN_TO: Final = 4


def is_classic_set(traded: tuple[str, ...] | list[str]) -> bool:
    """docs/risk.md, "Classic Risk" (card sets): three different cards, all of one unit symbol or
    one of each symbol; a wild card stands for any card."""
    if len(traded) != 3 or len(set(traded)) != 3:
        return False
    symbols = [WORLD_MAP.territory(c).card_symbol for c in traded if not cards.is_wild(c)]
    return len(symbols) < 3 or len(set(symbols)) in (1, 3)  # wilds complete any pair


def classic_sets_in(hand: list[str]) -> list[tuple[str, str, str]]:
    """Every classic set in ``hand``, cards in hand order (docs/risk.md, "Classic Risk")."""
    return [c for c in combinations(hand, 3) if is_classic_set(c)]


def set_value(traded_before: int) -> int:
    """docs/risk.md, "Classic Risk": the value of the set traded after ``traded_before`` sets in
    this game: 4, 6, 8, 10, 12, 15, then +5 each (20, 25, ...)."""
    if traded_before < len(SET_VALUES):
        return SET_VALUES[traded_before]
    return SET_VALUES[-1] + LATER_STEP * (traded_before - len(SET_VALUES) + 1)


def must_trade(state: RiskState, seat: int) -> bool:
    """Whether ``seat`` must trade a set before doing anything else (docs/risk.md, "Classic
    variant"): 5+ cards in the reinforcement phase; in the attack phase 6+ cards, or 5+
    while units from an earlier trade of the same trading-down are still to be placed
    (only a trade-down leaves a reserve in the attack phase)."""
    held = len(state.hands[seat])
    if state.phase == REINFORCEMENT:
        return held >= MUST_TRADE_AT_START
    if state.phase == INVASION:
        return held >= MUST_TRADE_AFTER_ELIMINATION or (
            held > TRADE_DOWN_TO and state.reserve[seat] > 0
        )
    return False


def may_trade(state: RiskState, seat: int) -> bool:
    """Sets are traded in the reinforcement phase, and in the attack phase only when an
    elimination forces it (docs/risk.md, "Classic Risk")."""
    return state.phase == REINFORCEMENT or must_trade(state, seat)


def trade(turn: Turn[RiskState], seat: int, traded: tuple[str, str, str]) -> None:
    """docs/risk.md, "Classic Risk": three own cards forming a classic set give the next set
    value as reinforcements; the count of sets traded in the game moves on."""
    state = turn.state
    if not may_trade(state, seat):
        raise IllegalMove("no-trade-now", "Cards are traded in the reinforcement phase.")
    for card in traded:
        if card not in state.hands[seat]:
            raise IllegalMove("not-your-card", f"You do not hold the card {card}.")
    if not is_classic_set(traded):
        raise IllegalMove(
            "not-a-set",
            "A set is three cards of one symbol or one of each symbol (wild cards count).",
        )
    turn.emit(
        CLASSIC_CARDS_TRADED(
            {
                "seat": seat,
                "cards": list(traded),
                "bonus": set_value(state.horse),
                "sets": state.horse + 1,
            }
        )
    )
