"""The invasion phase (docs/risk.md, "Invasion phase"; seed 003, Arts. 10-11): one
invasion per territory per turn, none from a territory captured this turn, no resuming a
stopped invasion, battles with the engaged units, capture with exactly 1 unit, a trophy card
per capture (the deck reshuffled when empty), elimination passing the cards on, conquest."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest

from domain.protocol import Event, IllegalMove
from domain.risk.cards import all_cards
from domain.risk.constitution import invasion
from domain.risk.moves import (
    COLOURS,
    Colour,
    EndInvasions,
    EndTurn,
    Fight,
    Invade,
    Place,
    RiskMove,
    Roll,
    Stop,
)
from domain.risk.options import normalise_options
from domain.risk.state import (
    INVASION,
    OVER,
    REINFORCEMENT,
    RiskState,
    copy_state,
    new_state,
    state_to_json,
)
from domain.risk.worldmap import WORLD_MAP
from tests.unit.risk.scripted import Scripted, dice, evolve, play

TERRITORIES = [t.name for t in WORLD_MAP.territories]
CARDS = all_cards()


def _world(
    owners: dict[str, int], units: dict[str, int], players: int = 3, rest: int | None = None
) -> RiskState:
    """Seat 0 to invade in round 1; territories not named belong to ``rest`` (default the
    last seat) with 1 unit each."""
    state = new_state(players, normalise_options({}))
    state.order = list(range(players))
    state.colours = [*COLOURS[:players]]
    other = players - 1 if rest is None else rest
    state.owner = {t: owners.get(t, other) for t in TERRITORIES}
    state.units = {t: units.get(t, 1) for t in TERRITORIES}
    state.purse = [1000] * players
    state.fund = 1000 * players
    state.units_in = sum(state.units.values())
    state.phase, state.round, state.turn = INVASION, 1, 0
    return state


def _check_books(state: RiskState) -> None:
    """The conservation laws of units and cards (the lead's invariants)."""
    on_board = sum(state.units.values()) + sum(state.reserve) + sum(state.incoming)
    assert on_board == state.units_in - state.units_lost
    held = [c for hand in state.hands for c in hand] + state.discard
    assert max(Counter(held).values(), default=1) == 1
    assert set(held) <= set(CARDS)
    assert all(n >= 1 for n in state.units.values())


def _play(
    state: RiskState, move: RiskMove, draws: Sequence[int] = (), seat: int = 0
) -> tuple[RiskState, list[Event]]:
    rng = Scripted(list(draws))
    before = state_to_json(state)
    events = play(invasion, state, seat, move, rng)
    assert state_to_json(state) == before, "play changed the state it was given"
    assert not rng.draws, "scripted draws left over"
    after = copy_state(state)
    for event in events:
        evolve(after, event)
    assert after.random_position == (rng.position if rng.position else state.random_position)
    _check_books(after)
    return after, events


def _refused(state: RiskState, move: RiskMove, seat: int = 0) -> str:
    with pytest.raises(IllegalMove) as refused:
        play(invasion, state, seat, move, Scripted([]))
    return refused.value.code


def _alaska(alaska: int, kamchatka: int) -> RiskState:
    """Seat 0 holds Alaska, seat 1 Kamchatka and Japan, seat 2 the rest."""
    return _world(
        {"Alaska": 0, "Kamchatka": 1, "Japan": 1}, {"Alaska": alaska, "Kamchatka": kamchatka}
    )


# -- starting an invasion -------------------------------------------------------------


def test_legal_moves_are_every_allowed_invasion_then_the_end() -> None:
    state = _world(
        {"Alaska": 0, "Northwest Territory": 0, "Alberta": 0, "Kamchatka": 1},
        {"Alaska": 3, "Northwest Territory": 2, "Alberta": 1},
    )
    # own sources in map order, targets in border order; Alberta has 1 unit only
    assert invasion.legal_moves(state, 0) == [
        Invade("Alaska", "Kamchatka"),
        Invade("Northwest Territory", "Greenland"),
        Invade("Northwest Territory", "Ontario"),
        EndInvasions(),
    ]
    assert invasion.legal_moves(state, 1) == []


def test_an_invasion_opens_against_the_targets_owner() -> None:
    after, events = _play(_alaska(3, 2), Invade("Alaska", "Kamchatka"))
    assert events == [
        Event("InvasionStarted", {"seat": 0, "from": "Alaska", "to": "Kamchatka", "defender": 1})
    ]
    assert after.invasion is not None
    assert (after.invasion["from"], after.invasion["to"]) == ("Alaska", "Kamchatka")
    assert (after.invasion["attackers"], after.invasion["defenders"]) == (0, 0)
    assert after.launched == ["Alaska"]
    assert invasion.legal_moves(after, 0) == [Roll(), Fight(), Stop()]


@pytest.mark.parametrize(
    ("move", "code"),
    [
        (Invade("Kamchatka", "Alaska"), "not-your-territory"),
        (Invade("Atlantis", "Alaska"), "unknown-territory"),
        (Invade("Alaska", "Atlantis"), "unknown-territory"),
        (Invade("Alberta", "Western United States"), "too-few-units"),
        (Invade("Alaska", "Greenland"), "not-adjacent"),
        (Invade("Alaska", "Alberta"), "own-territory"),
        (Roll(), "no-open-invasion"),
        (Fight(), "no-open-invasion"),
        (Stop(), "no-open-invasion"),
        (Colour("red"), "wrong-phase"),
        (Place((("Alaska", 1),)), "wrong-phase"),
        (EndTurn(), "wrong-phase"),
    ],
)
def test_refusals_without_an_open_invasion(move: RiskMove, code: str) -> None:
    state = _world({"Alaska": 0, "Alberta": 0, "Kamchatka": 1}, {"Alaska": 3})
    assert _refused(state, move) == code


def test_only_the_current_seat_invades() -> None:
    state = _alaska(3, 1)
    assert _refused(state, Invade("Kamchatka", "Alaska"), seat=1) == "not-your-turn"


def test_no_second_invasion_and_no_end_while_one_is_open() -> None:
    state = _world({"Alaska": 0, "Northwest Territory": 0}, {"Alaska": 3, "Northwest Territory": 3})
    after, _ = _play(state, Invade("Alaska", "Kamchatka"))
    assert _refused(after, Invade("Northwest Territory", "Greenland")) == "invasion-open"
    assert _refused(after, EndInvasions()) == "invasion-open"


# -- battles ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "target", "attackers", "defenders"),
    [
        (2, 1, 1, 1),
        (3, 1, 2, 1),
        (4, 1, 3, 1),
        (9, 1, 3, 1),
        (4, 2, 3, 2),
        (4, 7, 3, 2),
        (2, 5, 1, 2),
    ],
)
def test_a_battle_engages_3_2_1_attackers_and_2_1_defenders(
    source: int, target: int, attackers: int, defenders: int
) -> None:
    opened, _ = _play(_alaska(source, target), Invade("Alaska", "Kamchatka"))
    # attacker's dice (all 1) are drawn before the defender's (all 6): ties and worse lose
    _, events = _play(opened, Roll(), dice(*[1] * attackers, *[6] * defenders))
    rolled = events[0].data
    assert (rolled["attackers"], rolled["defenders"]) == (attackers, defenders)
    assert rolled["attacker_dice"] == [1] * attackers
    assert rolled["defender_dice"] == [6] * defenders
    assert (rolled["attacker_losses"], rolled["defender_losses"]) == (min(attackers, defenders), 0)
    assert rolled["random_position"] == attackers + defenders


def test_later_rolls_use_the_surviving_engaged_units() -> None:
    state, _ = _play(_alaska(10, 5), Invade("Alaska", "Kamchatka"))
    state, events = _play(state, Roll(), dice(1, 1, 1, 6, 6))  # attacker loses 2
    assert [e.type for e in events] == ["DiceRolled"]
    assert state.invasion is not None
    assert (state.invasion["attackers"], state.invasion["defenders"]) == (1, 2)
    assert (state.units["Alaska"], state.units["Kamchatka"]) == (8, 5)
    state, events = _play(state, Roll(), dice(6, 5, 5))  # 1 attacker although 8 units
    assert (events[0].data["attackers"], events[0].data["defenders"]) == (1, 2)
    assert events[0].data["defender_losses"] == 1
    state, events = _play(state, Roll(), dice(1, 6))  # 1 v 1: the attacker's last dies
    assert events[1] == Event(
        "BattleResolved",
        {"from": "Alaska", "to": "Kamchatka", "attacker_losses": 3, "defender_losses": 1},
    )
    assert (state.units["Alaska"], state.units["Kamchatka"]) == (7, 4)
    assert state.invasion is not None  # the invasion goes on with a new battle
    _, events = _play(state, Roll(), dice(1, 1, 1, 6, 6))
    assert (events[0].data["attackers"], events[0].data["defenders"]) == (3, 2)


def test_fight_rolls_until_the_battle_is_resolved_and_no_further() -> None:
    state, _ = _play(_alaska(10, 5), Invade("Alaska", "Kamchatka"))
    state, events = _play(state, Fight(), dice(1, 1, 1, 6, 6, 6, 5, 5, 1, 6))
    assert [e.type for e in events] == ["DiceRolled"] * 3 + ["BattleResolved"]
    assert events[-1].data["attacker_losses"] == 3
    # the defender's 2 engaged units die at once: the battle ends with units still there
    state, events = _play(state, Fight(), dice(6, 6, 6, 1, 1))
    assert [e.type for e in events] == ["DiceRolled", "BattleResolved"]
    assert state.units["Kamchatka"] == 2
    assert state.invasion is not None
    assert state.units_lost == 3 + 1 + 2


def test_a_source_left_with_one_unit_ends_the_invasion() -> None:
    state, _ = _play(_alaska(2, 3), Invade("Alaska", "Kamchatka"))
    state, events = _play(state, Fight(), dice(1, 6, 6))
    assert events[-1] == Event(
        "InvasionStopped",
        {"seat": 0, "from": "Alaska", "to": "Kamchatka", "reason": "exhausted"},
    )
    assert state.invasion is None
    assert state.units["Alaska"] == 1


def test_a_stopped_invasion_may_not_resume() -> None:
    state = _world(
        {"Alaska": 0, "Northwest Territory": 0, "Kamchatka": 1},
        {"Alaska": 10, "Northwest Territory": 3, "Kamchatka": 5},
    )
    state, _ = _play(state, Invade("Alaska", "Kamchatka"))
    state, _ = _play(state, Roll(), dice(1, 1, 1, 6, 6))  # stopped in mid-battle
    state, events = _play(state, Stop())
    assert events == [
        Event(
            "InvasionStopped",
            {"seat": 0, "from": "Alaska", "to": "Kamchatka", "reason": "stopped"},
        )
    ]
    assert state.invasion is None
    assert _refused(state, Invade("Alaska", "Kamchatka")) == "already-invaded"
    assert _refused(state, Invade("Alaska", "Alberta")) == "already-invaded"
    sources = {m.source for m in invasion.legal_moves(state, 0) if isinstance(m, Invade)}
    assert sources == {"Northwest Territory"}


# -- capture, cards, elimination, conquest ----------------------------------------------


def test_a_capture_moves_exactly_one_unit_and_draws_a_card() -> None:
    state, _ = _play(_alaska(6, 1), Invade("Alaska", "Kamchatka"))
    # 3 attackers engaged and alive, yet only 1 unit moves in; card 43 of 44 is wild-2
    state, events = _play(state, Roll(), [*dice(6, 2, 2, 1), 43])
    assert [e.type for e in events] == [
        "DiceRolled",
        "BattleResolved",
        "TerritoryCaptured",
        "CardDrawn",
    ]
    assert events[2].data == {
        "seat": 0,
        "from": "Alaska",
        "to": "Kamchatka",
        "previous_owner": 1,
    }
    assert events[3].data == {"seat": 0, "card": "wild-2", "random_position": 5}
    assert (state.units["Alaska"], state.units["Kamchatka"]) == (5, 1)
    assert state.owner["Kamchatka"] == 0
    assert state.captured == ["Kamchatka"]
    assert state.invasion is None
    assert state.hands[0] == ["wild-2"]
    assert 1 not in state.eliminated  # seat 1 still holds Japan


def test_one_invasion_per_territory_even_after_a_capture() -> None:
    state, _ = _play(_alaska(6, 1), Invade("Alaska", "Kamchatka"))
    state, _ = _play(state, Fight(), [*dice(6, 2, 2, 1), 0])
    assert _refused(state, Invade("Alaska", "Alberta")) == "already-invaded"


def test_a_territory_captured_this_turn_may_not_attack() -> None:
    state, _ = _play(_alaska(6, 1), Invade("Alaska", "Kamchatka"))
    state, _ = _play(state, Fight(), [*dice(6, 2, 2, 1), 0])
    state.units["Kamchatka"] = 4  # enough units: only the capture forbids it
    state.units_in += 3
    assert _refused(state, Invade("Kamchatka", "Japan")) == "captured-this-turn"
    assert invasion.legal_moves(state, 0) == [EndInvasions()]


def test_the_card_is_drawn_from_cards_in_no_hand_and_not_traded_in() -> None:
    state = _alaska(4, 1)
    state.hands[1] = ["Alaska"]
    state.discard = ["Northwest Territory"]
    state, _ = _play(state, Invade("Alaska", "Kamchatka"))
    state, events = _play(state, Roll(), [*dice(6, 2, 2, 1), 0])
    assert events[-1].data["card"] == "Greenland"  # the first card left in catalogue order


def test_an_empty_deck_is_reshuffled_from_the_traded_in_cards() -> None:
    state = _alaska(4, 1)
    state.hands[2] = CARDS[:41]
    state.discard = CARDS[41:]  # Eastern Australia, wild-1, wild-2
    state, _ = _play(state, Invade("Alaska", "Kamchatka"))
    state, events = _play(state, Roll(), [*dice(6, 2, 2, 1), 1])
    assert events[-2:] == [
        Event("DeckReshuffled", {"cards": 3}),
        Event("CardDrawn", {"seat": 0, "card": "wild-1", "random_position": 5}),
    ]
    assert state.discard == []
    assert state.hands[0] == ["wild-1"]


def test_no_card_when_every_card_is_held() -> None:
    state = _alaska(4, 1)
    state.hands[2] = list(CARDS)
    state, _ = _play(state, Invade("Alaska", "Kamchatka"))
    state, events = _play(state, Roll(), dice(6, 2, 2, 1))  # no draw for a card
    assert events[-1].type == "TerritoryCaptured"
    assert state.hands[0] == []


def test_an_eliminated_players_cards_go_to_the_conqueror() -> None:
    state = _world({"Alaska": 0, "Kamchatka": 1}, {"Alaska": 4})
    state.hands[1] = ["Peru", "wild-1"]
    state.incoming[1] = 4  # units given to seat 1 in a deal, never placed
    state.units_in += 4
    state, _ = _play(state, Invade("Alaska", "Kamchatka"))
    state, events = _play(state, Roll(), [*dice(6, 2, 2, 1), 0])
    assert [e.type for e in events][-2:] == ["CardDrawn", "PlayerEliminated"]
    assert events[-2].data["card"] == "Alaska"
    assert events[-1].data == {"seat": 1, "by": 0, "cards": ["Peru", "wild-1"], "card_count": 2}
    assert state.hands == [["Alaska", "Peru", "wild-1"], [], []]
    assert state.eliminated == [1]
    assert state.incoming[1] == 0
    assert state.units_lost == 1 + 4
    assert state.phase == INVASION


def test_holding_every_territory_ends_the_game_with_the_fund() -> None:
    state = _world({"Kamchatka": 1}, {"Alaska": 4}, players=2, rest=0)
    state, _ = _play(state, Invade("Alaska", "Kamchatka"))
    state, events = _play(state, Roll(), [*dice(6, 2, 2, 1), 0])
    assert [e.type for e in events][-3:] == ["CardDrawn", "PlayerEliminated", "GameEnded"]
    assert events[-1].data == {"reason": "conquest", "shares": {"0": 2000}}
    assert state.phase == OVER
    assert (state.purse, state.fund) == ([3000, 1000], 0)


# -- the end of the phase ----------------------------------------------------------------


def test_ending_the_invasions_goes_on_to_reinforcement() -> None:
    state = _alaska(3, 1)
    state, events = _play(state, EndInvasions())
    assert events[0].type == "ReinforcementsReceived"
    assert events[0].data["seat"] == 0
    assert state.phase == REINFORCEMENT


def test_the_invasion_ends_after_a_stopped_one_but_not_during_one() -> None:
    state, _ = _play(_alaska(5, 2), Invade("Alaska", "Kamchatka"))
    assert _refused(state, EndInvasions()) == "invasion-open"
    assert EndInvasions() not in invasion.legal_moves(state, 0)
    state, _ = _play(state, Stop())
    assert invasion.legal_moves(state, 0)[-1] == EndInvasions()
    state, _ = _play(state, EndInvasions())
    assert state.phase == REINFORCEMENT
