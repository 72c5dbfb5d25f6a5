"""Trophy cards, what both rulesets share (docs/risk.md, "Terms"): one card per territory
showing its unit symbol, its colour (**decision:** the territory's continent) and the wild
cards (``wild-1``, ``wild-2``) that stand for any card; the deck, drawing a card, turning a set
in. Which three cards make a set is each ruleset's own
(:mod:`domain.risk.constitution.golden_horse`, :mod:`domain.risk.classic.cards`).

Cards are drawn at random from the deck when a territory is captured; the deck is every
card in no hand and not traded in (no deck order exists to be leaked; when it is empty the
traded-in cards form the deck again).
"""

from __future__ import annotations

from domain.randomness import RandomStream
from domain.risk.events import CARD_DRAWN, DECK_RESHUFFLED
from domain.risk.state import RiskState
from domain.risk.worldmap import WORLD_MAP, WorldMap
from domain.turn import Turn


def wild_cards(world: WorldMap = WORLD_MAP) -> list[str]:
    """The wild cards' names: ``wild-1``, ``wild-2``, ..."""
    return [f"wild-{n}" for n in range(1, world.wild_cards + 1)]


def all_cards(world: WorldMap = WORLD_MAP) -> list[str]:
    """Every trophy card, territories in map order then the wild cards."""
    return [t.name for t in world.territories] + wild_cards(world)


def is_wild(card: str) -> bool:
    """Whether ``card`` is a wild card."""
    return card.startswith("wild-")


def deck(state: RiskState, world: WorldMap = WORLD_MAP) -> list[str]:
    """The cards that may be drawn now, in catalogue order: every card in no hand and not
    traded in (when none is left, the invasion phase reshuffles the traded-in cards into the
    deck first: ``DeckReshuffled``)."""
    held = {c for hand in state.hands for c in hand}
    return [c for c in all_cards(world) if c not in held and c not in state.discard]


def turn_in(state: RiskState, seat: int, traded: list[str], bonus: int) -> None:
    """A set traded in (both rulesets): the cards leave the hand for the traded-in pile and
    the bonus joins the reserve as units entering play."""
    for card in traded:
        state.hands[seat].remove(card)
        state.discard.append(card)
    state.reserve[seat] += bonus
    state.units_in += bonus


def draw_trophy(turn: Turn[RiskState], seat: int, rng: RandomStream) -> None:
    """A trophy card for ``seat`` (docs/risk.md, "Invasion phase": one per captured territory; the
    classic variant: one per turn with a conquest), drawn uniformly from the deck in
    catalogue order; an empty deck is formed again from the traded-in cards (**decision**),
    and when every card is in a hand none is drawn."""
    if not deck(turn.state) and turn.state.discard:
        turn.emit(DECK_RESHUFFLED({"cards": len(turn.state.discard)}))
    pile = deck(turn.state)
    if pile:
        card = pile[rng.below(len(pile))]
        turn.emit(CARD_DRAWN({"seat": seat, "card": card, "random_position": rng.position}))
