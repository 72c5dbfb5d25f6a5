"""Trophy cards (docs/risk.md, "Terms" and "Reinforcement phase" item 2): one card
per territory showing its unit symbol, its colour (**decision:** the territory's continent)
and the wild cards (``wild-1``, ``wild-2``) that stand for any card.

Cards are drawn at random from the deck when a territory is captured; the deck is every
card in no hand and not traded in (no deck order exists to be leaked; when it is empty the
traded-in cards form the deck again).
"""

from __future__ import annotations

from itertools import combinations

from domain.randomness import RandomStream
from domain.risk.state import RiskState
from domain.risk.turn import Turn
from domain.risk.worldmap import WORLD_MAP, WorldMap


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


def is_set(cards: tuple[str, ...] | list[str], world: WorldMap = WORLD_MAP) -> bool:
    """Three cards with the same unit symbol or the same colour; a wild card stands for any
    card (docs/risk.md, "Reinforcement phase" item 2)."""
    if len(cards) != 3 or len(set(cards)) != 3:
        return False
    real = [world.territory(c) for c in cards if not is_wild(c)]
    return len({t.card_symbol for t in real}) <= 1 or len({t.continent for t in real}) <= 1


def sets_in(hand: list[str], world: WorldMap = WORLD_MAP) -> list[tuple[str, str, str]]:
    """Every set of three cards in ``hand`` that may be traded, cards in hand order."""
    return [c for c in combinations(hand, 3) if is_set(c, world)]


def horse_bonus(state: RiskState) -> int:
    """The golden horse's bonus now: the track position's number (rules: 4, 6, 8, 10, 12,
    15, and from 15 back to 4)."""
    track: list[int] = state.options["golden_horse"]
    return track[state.horse % len(track)]


def turn_in(state: RiskState, seat: int, traded: list[str], bonus: int) -> None:
    """A set traded in (both rulesets): the cards leave the hand for the traded-in pile and
    the bonus joins the reserve as units entering play."""
    for card in traded:
        state.hands[seat].remove(card)
        state.discard.append(card)
    state.reserve[seat] += bonus
    state.units_in += bonus


def draw_trophy(turn: Turn, seat: int, rng: RandomStream) -> None:
    """A trophy card for ``seat`` (docs/risk.md, "Invasion phase": one per captured territory; the
    classic variant: one per turn with a conquest), drawn uniformly from the deck in
    catalogue order; an empty deck is formed again from the traded-in cards (**decision**),
    and when every card is in a hand none is drawn."""
    if not deck(turn.state) and turn.state.discard:
        turn.emit("DeckReshuffled", {"cards": len(turn.state.discard)})
    pile = deck(turn.state)
    if pile:
        card = pile[rng.below(len(pile))]
        turn.emit("CardDrawn", {"seat": seat, "card": card, "random_position": rng.position})
