"""Trophy cards and the golden horse (docs/risk.md, "Reinforcement phase" item 2):
sets by unit symbol or colour (continent), wild cards standing for any card, the track."""

from __future__ import annotations

import pytest

from domain.risk.cards import all_cards, deck
from domain.risk.constitution.golden_horse import horse_bonus, is_set, sets_in
from domain.risk.options import normalise_options
from domain.risk.state import new_state
from domain.risk.worldmap import WORLD_MAP


def test_the_deck_has_a_card_per_territory_and_two_wild_cards() -> None:
    cards = all_cards()
    assert len(cards) == 44
    assert cards[-2:] == ["wild-1", "wild-2"]
    symbols = [WORLD_MAP.territory(c).card_symbol for c in cards[:-2]]
    assert sorted(set(symbols)) == ["artillery", "cavalry", "infantry"]
    assert all(symbols.count(s) == 14 for s in set(symbols))


@pytest.mark.parametrize(
    ("cards", "valid"),
    [
        (("Alaska", "Alberta", "Argentina"), True),  # three infantry (by symbol)
        (("Alaska", "Greenland", "Quebec"), True),  # three North America (by colour)
        (("Alaska", "Greenland", "Peru"), False),  # infantry, cavalry, cavalry; NA, NA, SA
        (("Alaska", "Greenland", "wild-1"), True),  # both North America
        (("Alaska", "Brazil", "wild-1"), False),  # infantry+artillery, NA+SA: wild cannot help
        (("Alaska", "wild-1", "wild-2"), True),
        (("Alaska", "Alaska", "Alberta"), False),
    ],
)
def test_a_set_is_three_cards_of_one_symbol_or_one_colour(
    cards: tuple[str, str, str], valid: bool
) -> None:
    assert WORLD_MAP.territory("Alaska").card_symbol == "infantry"
    assert WORLD_MAP.territory("Brazil").card_symbol == "artillery"
    assert WORLD_MAP.territory("Argentina").card_symbol == "infantry"
    assert is_set(cards) is valid


def test_sets_in_a_hand() -> None:
    hand = ["Alaska", "Greenland", "Argentina", "wild-1"]
    found = sets_in(hand)
    assert ("Alaska", "Greenland", "wild-1") in found  # two North America and a wild card
    assert ("Alaska", "Argentina", "wild-1") in found  # two infantry and a wild card
    assert ("Greenland", "Argentina", "wild-1") not in found  # cavalry/infantry, NA/SA
    assert ("Alaska", "Greenland", "Argentina") not in found


def test_the_golden_horse_track_goes_back_to_4_after_15() -> None:
    state = new_state(3, normalise_options({}))
    bonuses = []
    for position in range(8):
        state.horse = position
        bonuses.append(horse_bonus(state))
    assert bonuses == [4, 6, 8, 10, 12, 15, 4, 6]


def test_the_deck_is_what_no_hand_holds_and_was_not_traded_in() -> None:
    state = new_state(2, normalise_options({}))
    state.hands = [["Alaska"], ["wild-2"]]
    state.discard = ["Peru", "Brazil", "Venezuela"]
    remaining = deck(state)
    assert len(remaining) == 44 - 5
    assert not {"Alaska", "wild-2", "Peru"} & set(remaining)
