"""The classic ruleset (docs/risk.md, "Classic Risk"; domain/risk/classic*.py):
reinforcements of at least 3 plus continents, classic sets worth 4, 6, 8, 10, 12, 15, then
+5, forced trades at 5+ cards and after an elimination at 6+, one roll per attack with the
attacker's chosen dice against the most the defender may roll, occupying with at least the
dice rolled, one fortify move through own territories, one card for a turn with a conquest,
the neutral army of a two-player game, and the end when one player is left; then a random
game checked against the conservation laws after every event."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from types import ModuleType

import pytest

from domain.events import EventKind
from domain.protocol import Event, IllegalMove, InvalidMove
from domain.randomness import RandomStream
from domain.risk import events as shared_events
from domain.risk import rounds, setup
from domain.risk.cards import all_cards
from domain.risk.classic import events as classic_events
from domain.risk.classic import phases as classic
from domain.risk.classic import turn as classic_turn
from domain.risk.classic.bot import classic_bot_move
from domain.risk.classic.cards import is_classic_set, set_value
from domain.risk.constitution import events as constitution_events
from domain.risk.evolve import EVENTS
from domain.risk.invariants import check_invariants
from domain.risk.moves import (
    COLOURS,
    Attack,
    Buy,
    EndAttacks,
    EndTurn,
    Fortify,
    Occupy,
    Place,
    RiskMove,
    Trade,
    move_to_json,
    notation,
    parse_move,
    parse_notation,
)
from domain.risk.options import normalise_options
from domain.risk.state import (
    COLOURS as COLOURS_PHASE,
)
from domain.risk.state import (
    FORTIFY,
    INVASION,
    OVER,
    PLACEMENT,
    REINFORCEMENT,
    RiskState,
    copy_state,
    new_state,
    state_to_json,
)
from domain.risk.worldmap import WORLD_MAP
from domain.turn import Turn
from tests.unit.risk.scripted import Scripted, begin, dice, evolve, play, turn_on

TERRITORIES = [t.name for t in WORLD_MAP.territories]
CARDS = all_cards()
SYMBOL = {t.name: t.card_symbol for t in WORLD_MAP.territories}
INFANTRY = [t for t in TERRITORIES if SYMBOL[t] == "infantry"]
CAVALRY = [t for t in TERRITORIES if SYMBOL[t] == "cavalry"]
ARTILLERY = [t for t in TERRITORIES if SYMBOL[t] == "artillery"]
AUSTRALIA = ["Indonesia", "New Guinea", "Western Australia", "Eastern Australia"]
NEUTRAL = -1


def _world(
    owners: dict[str, int],
    units: dict[str, int] | None = None,
    *,
    players: int = 3,
    rest: int | None = None,
    phase: str = INVASION,
    hands: dict[int, list[str]] | None = None,
    reserve: dict[int, int] | None = None,
) -> RiskState:
    """A classic game in round 1, seat 0 to act in ``phase``; territories not named belong
    to ``rest`` (default the last seat) with 1 unit each unless ``units`` says otherwise."""
    state = new_state(players, normalise_options({"ruleset": "classic"}))
    state.order = list(range(players))
    state.colours = [*COLOURS[:players]]
    other = players - 1 if rest is None else rest
    state.owner = {t: owners.get(t, other) for t in TERRITORIES}
    state.units = {t: (units or {}).get(t, 1) for t in TERRITORIES}
    state.purse = [1000] * players
    state.fund = 1000 * players
    for seat, hand in (hands or {}).items():
        state.hands[seat] = list(hand)
    for seat, n in (reserve or {}).items():
        state.reserve[seat] = n
    state.units_in = sum(state.units.values()) + sum(state.reserve)
    state.phase, state.round, state.turn = phase, 1, 0
    assert check_invariants(state) == []
    return state


def _play(
    state: RiskState, move: RiskMove, draws: Sequence[int] = (), seat: int | None = None
) -> tuple[list[Event], RiskState]:
    """The events of ``move`` and the state they lead to; ``play`` leaves ``state`` alone,
    every scripted draw is used, and the laws hold after every event."""
    before = state_to_json(state)
    rng = Scripted(draws)
    events = play(classic, state, state.seat if seat is None else seat, move, rng)
    assert state_to_json(state) == before
    assert rng.draws == [], "scripted draws left over"
    after = copy_state(state)
    for event in events:
        evolve(after, event)
        assert check_invariants(after) == [], event
    return events, after


def _refused(state: RiskState, move: RiskMove, code: str, seat: int | None = None) -> None:
    with pytest.raises(IllegalMove) as refusal:
        play(classic, state, state.seat if seat is None else seat, move, Scripted([]))
    assert refusal.value.code == code


def _types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


# -- reinforcements -----------------------------------------------------------------------


def _start(state: RiskState, seat: int) -> Turn[RiskState]:
    turn = turn_on(state)
    rounds.start_turn(turn, seat)
    classic_turn.start_turn(turn)  # a classic turn starts with its reinforcements
    return turn


def test_reinforcements_are_at_least_three() -> None:
    state = _world({"Alaska": 0, "Peru": 0}, phase=FORTIFY)
    turn = _start(state, 0)
    assert _types(turn.events) == ["TurnStarted", "ClassicReinforcements"]
    assert turn.events[-1].data == {"seat": 0, "territories": 3, "continents": {}, "total": 3}
    assert turn.state.phase == REINFORCEMENT
    assert turn.state.reserve[0] == 3
    assert check_invariants(turn.state) == []


def test_reinforcements_count_territories_and_whole_continents() -> None:
    owned = AUSTRALIA + TERRITORIES[1:12]  # 15 territories, Australia alone whole
    state = _world(dict.fromkeys(owned, 0), phase=FORTIFY)
    turn = _start(state, 0)
    assert turn.events[-1].data == {
        "seat": 0,
        "territories": 5,
        "continents": {"AU": 2},
        "total": 7,
    }
    assert turn.state.reserve[0] == 7


def test_start_turn_follows_turn_started_only_and_once() -> None:
    state = _world({"Alaska": 0}, phase=FORTIFY)
    idle = turn_on(state)
    classic_turn.start_turn(idle)
    assert idle.events == []
    turn = _start(state, 0)
    classic_turn.start_turn(turn)  # a second call changes nothing
    assert _types(turn.events) == ["TurnStarted", "ClassicReinforcements"]


# -- placing and trading --------------------------------------------------------------------


def test_placing_the_whole_reserve_starts_the_attack_phase() -> None:
    state = _world({"Alaska": 0, "Alberta": 0}, phase=REINFORCEMENT, reserve={0: 5})
    _refused(state, Place((("Peru", 1),)), "not-your-territory")
    _refused(state, Place((("Alaska", 6),)), "reserve-exceeded")
    events, after = _play(state, Place((("Alaska", 2),)))
    assert _types(events) == ["UnitsPlaced"]
    assert after.phase == REINFORCEMENT
    events, after = _play(after, Place((("Alberta", 3),)))
    assert _types(events) == ["UnitsPlaced", "AttackPhaseStarted"]
    assert after.phase == INVASION
    assert (after.units["Alaska"], after.units["Alberta"], after.reserve[0]) == (3, 4, 0)


def test_five_cards_must_be_traded_before_placing() -> None:
    hand = [*INFANTRY[:3], CAVALRY[0], ARTILLERY[0]]
    state = _world({"Alaska": 0}, phase=REINFORCEMENT, hands={0: hand}, reserve={0: 3})
    _refused(state, Place((("Alaska", 3),)), "must-trade")
    legal = classic.legal_moves(state, 0)
    assert legal and all(isinstance(m, Trade) for m in legal)
    assert Trade((INFANTRY[0], INFANTRY[1], INFANTRY[2])) in legal
    events, after = _play(state, Trade((INFANTRY[0], INFANTRY[1], INFANTRY[2])))
    assert events[0].data == {"seat": 0, "cards": INFANTRY[:3], "bonus": 4, "sets": 1}
    assert after.hands[0] == [CAVALRY[0], ARTILLERY[0]]
    assert after.discard == INFANTRY[:3]
    assert (after.reserve[0], after.horse) == (7, 1)
    assert Place((("Alaska", 7),)) in classic.legal_moves(after, 0)


def test_a_set_may_be_traded_with_fewer_cards_in_reinforcement() -> None:
    hand = [INFANTRY[0], CAVALRY[0], "wild-1", ARTILLERY[1]]
    state = _world({"Alaska": 0}, phase=REINFORCEMENT, hands={0: hand}, reserve={0: 3})
    assert Place((("Alaska", 3),)) in classic.legal_moves(state, 0)
    _refused(state, Trade((INFANTRY[0], CAVALRY[0], CAVALRY[1])), "not-your-card")
    events, after = _play(state, Trade((INFANTRY[0], CAVALRY[0], ARTILLERY[1])))
    assert _types(events) == ["ClassicCardsTraded"]
    assert after.hands[0] == ["wild-1"]


def test_a_pair_and_an_odd_card_is_not_a_set() -> None:
    hand = [INFANTRY[0], INFANTRY[1], CAVALRY[0]]
    state = _world({"Alaska": 0}, phase=REINFORCEMENT, hands={0: hand}, reserve={0: 3})
    _refused(state, Trade((INFANTRY[0], INFANTRY[1], CAVALRY[0])), "not-a-set")
    assert not any(isinstance(m, Trade) for m in classic.legal_moves(state, 0))


@pytest.mark.parametrize(
    ("cards", "is_set"),
    [
        ((INFANTRY[0], INFANTRY[1], INFANTRY[2]), True),
        ((CAVALRY[0], CAVALRY[1], CAVALRY[2]), True),
        ((INFANTRY[0], CAVALRY[0], ARTILLERY[0]), True),
        ((INFANTRY[0], INFANTRY[1], "wild-1"), True),
        ((INFANTRY[0], CAVALRY[1], "wild-2"), True),
        ((ARTILLERY[0], "wild-1", "wild-2"), True),
        ((INFANTRY[0], INFANTRY[1], CAVALRY[0]), False),
        ((INFANTRY[0], INFANTRY[0], INFANTRY[1]), False),
        ((INFANTRY[0], INFANTRY[1]), False),
    ],
)
def test_classic_sets(cards: tuple[str, ...], is_set: bool) -> None:
    assert is_classic_set(cards) is is_set


def test_set_values_rise_then_go_up_by_five() -> None:
    assert [set_value(n) for n in range(10)] == [4, 6, 8, 10, 12, 15, 20, 25, 30, 35]


@pytest.mark.parametrize(("traded", "bonus"), [(0, 4), (4, 12), (5, 15), (6, 20), (7, 25)])
def test_a_trade_is_worth_the_value_by_sets_traded_in_the_game(traded: int, bonus: int) -> None:
    hand = INFANTRY[:3]
    state = _world({"Alaska": 0}, phase=REINFORCEMENT, hands={0: hand}, reserve={0: 3})
    state.horse = traded
    events, after = _play(state, Trade((hand[0], hand[1], hand[2])))
    assert events[0].data["bonus"] == bonus
    assert (after.horse, after.reserve[0]) == (traded + 1, 3 + bonus)


# -- attacks ------------------------------------------------------------------------------


def test_an_attack_is_one_roll_of_the_chosen_dice_against_two() -> None:
    state = _world({"Alaska": 0}, {"Alaska": 4, "Kamchatka": 3})
    events, after = _play(state, Attack("Alaska", "Kamchatka", 3), dice(6, 6, 6, 1, 1))
    assert _types(events) == ["AttackRolled"]
    data = events[0].data
    assert (data["attackers"], data["defenders"], data["defender"]) == (3, 2, 2)
    assert (data["attacker_losses"], data["defender_losses"]) == (0, 2)
    assert (after.units["Alaska"], after.units["Kamchatka"]) == (4, 1)
    events, after = _play(after, Attack("Alaska", "Kamchatka", 1), dice(1, 1))
    assert (events[0].data["defenders"], events[0].data["attacker_losses"]) == (1, 1)
    assert (after.units["Alaska"], after.units["Kamchatka"]) == (3, 1)
    assert after.phase == INVASION and after.invasion is None


def test_the_defender_rolls_two_dice_even_against_one() -> None:
    state = _world({"Alaska": 0}, {"Alaska": 2, "Kamchatka": 2})
    events, after = _play(state, Attack("Alaska", "Kamchatka", 1), dice(6, 5, 4))
    assert events[0].data["defenders"] == 2
    assert (after.units["Alaska"], after.units["Kamchatka"]) == (2, 1)


@pytest.mark.parametrize(
    ("move", "units", "code"),
    [
        (Attack("Alaska", "Kamchatka", 4), 5, "wrong-dice"),
        (Attack("Alaska", "Kamchatka", 3), 3, "wrong-dice"),
        (Attack("Alaska", "Kamchatka", 1), 1, "too-few-units"),
        (Attack("Alaska", "Peru", 1), 4, "not-adjacent"),
        (Attack("Alaska", "Alberta", 1), 4, "own-territory"),
        (Attack("Alaska", "Atlantis", 1), 4, "unknown-territory"),
        (Attack("Kamchatka", "Alaska", 1), 4, "not-your-territory"),
    ],
)
def test_attacks_refused(move: Attack, units: int, code: str) -> None:
    state = _world({"Alaska": 0, "Alberta": 0}, {"Alaska": units, "Kamchatka": 3})
    _refused(state, move, code)


def test_attack_moves_list_every_dice_count() -> None:
    state = _world({"Alaska": 0, "Alberta": 0}, {"Alaska": 3})
    legal = classic.legal_moves(state, 0)
    assert Attack("Alaska", "Kamchatka", 1) in legal
    assert Attack("Alaska", "Kamchatka", 2) in legal
    assert Attack("Alaska", "Kamchatka", 3) not in legal
    assert not any(isinstance(m, Attack) and m.source == "Alberta" for m in legal)
    assert legal[-1] == EndAttacks()


def test_a_conquest_must_be_occupied_with_at_least_the_dice_rolled() -> None:
    state = _world({"Alaska": 0}, {"Alaska": 5, "Kamchatka": 1})
    events, after = _play(state, Attack("Alaska", "Kamchatka", 3), dice(6, 6, 6, 1))
    assert _types(events) == ["AttackRolled", "TerritoryConquered"]
    assert events[1].data == {
        "seat": 0,
        "from": "Alaska",
        "to": "Kamchatka",
        "previous_owner": 2,
        "dice": 3,
    }
    assert (after.owner["Kamchatka"], after.units["Kamchatka"]) == (0, 0)
    assert classic.legal_moves(after, 0) == [Occupy(3), Occupy(4)]
    for move in (Attack("Alaska", "Alberta", 1), EndAttacks(), Place((("Alaska", 1),))):
        _refused(after, move, "occupy-first")
    _refused(after, Occupy(2), "wrong-occupation")
    _refused(after, Occupy(5), "wrong-occupation")
    events, after = _play(after, Occupy(4))
    assert _types(events) == ["TerritoryOccupied"]
    assert (after.units["Alaska"], after.units["Kamchatka"], after.invasion) == (1, 4, None)
    _refused(after, Occupy(1), "no-conquest")
    # a territory conquered this turn attacks again, and so may any territory, repeatedly
    assert Attack("Kamchatka", "Yakutsk", 3) in classic.legal_moves(after, 0)
    _, after = _play(after, Attack("Kamchatka", "Yakutsk", 1), dice(1, 6))
    _, after = _play(after, Attack("Kamchatka", "Yakutsk", 1), dice(1, 6))
    assert after.units["Kamchatka"] == 2


# -- cards for a conquest, turn end ----------------------------------------------------------


def test_one_card_for_a_turn_with_conquests_drawn_at_its_end() -> None:
    state = _world({"Alaska": 0}, {"Alaska": 5, "Kamchatka": 1, "Yakutsk": 1})
    _, after = _play(state, Attack("Alaska", "Kamchatka", 3), dice(6, 6, 6, 1))
    _, after = _play(after, Occupy(4))
    _, after = _play(after, Attack("Kamchatka", "Yakutsk", 3), dice(6, 6, 6, 1))
    _, after = _play(after, Occupy(3))
    assert after.hands[0] == []
    events, after = _play(after, EndAttacks())
    assert _types(events) == ["AttackPhaseEnded"] and after.phase == FORTIFY
    events, after = _play(after, EndTurn(), [0])
    assert _types(events) == [
        "CardDrawn",
        "TurnEnded",
        "TurnStarted",
        "ClassicReinforcements",
    ]
    assert events[0].data == {"seat": 0, "card": CARDS[0], "random_position": 1}
    assert after.hands[0] == [CARDS[0]]
    assert (after.seat, after.phase) == (1, REINFORCEMENT)


def test_no_card_without_a_conquest() -> None:
    state = _world({"Alaska": 0}, phase=FORTIFY)
    events, _ = _play(state, EndTurn())
    assert "CardDrawn" not in _types(events)


def test_an_empty_deck_is_formed_from_the_traded_cards() -> None:
    discard = CARDS[:3]
    state = _world({"Alaska": 0}, phase=FORTIFY, hands={1: CARDS[3:]})
    state.discard, state.captured = list(discard), ["Kamchatka"]
    events, after = _play(state, EndTurn(), [2])
    assert _types(events)[:2] == ["DeckReshuffled", "CardDrawn"]
    assert events[1].data["card"] == discard[2]
    assert (after.discard, after.hands[0]) == ([], [discard[2]])


def test_after_the_last_seat_the_next_round_begins_with_the_first_left() -> None:
    state = _world({"Alaska": 0, "Peru": 1}, phase=FORTIFY)
    state.turn = 2
    events, after = _play(state, EndTurn())
    assert _types(events) == ["TurnEnded", "RoundStarted", "TurnStarted", "ClassicReinforcements"]
    assert (after.round, after.seat, after.phase) == (2, 0, REINFORCEMENT)
    state = _world({"Alaska": 0}, phase=FORTIFY)
    state.eliminated = [1]
    _, after = _play(state, EndTurn())
    assert after.seat == 2


# -- elimination, forced trades, the end --------------------------------------------------------


def _elimination(mine: list[str], theirs: list[str]) -> RiskState:
    """Seat 0 (holding ``mine``) has just taken seat 1's last territory, Kamchatka, and
    seat 1's cards ``theirs``; the occupation is made."""
    state = _world({"Alaska": 0, "Kamchatka": 1}, {"Alaska": 4}, hands={0: mine, 1: theirs})
    events, after = _play(state, Attack("Alaska", "Kamchatka", 2), dice(6, 6, 1))
    assert _types(events) == ["AttackRolled", "TerritoryConquered", "PlayerEliminated"]
    assert events[2].data == {"seat": 1, "by": 0, "cards": theirs, "card_count": len(theirs)}
    assert classic.legal_moves(after, 0) == [Occupy(2), Occupy(3)]
    _, after = _play(after, Occupy(2))
    assert after.eliminated == [1] and after.hands[1] == []
    assert after.hands[0] == [*mine, *theirs]
    return after


def test_six_cards_from_an_elimination_are_traded_at_once_and_placed() -> None:
    after = _elimination(INFANTRY[:3], CAVALRY[:3])
    legal = classic.legal_moves(after, 0)
    assert legal and all(isinstance(m, Trade) for m in legal)
    _refused(after, Attack("Alaska", "Northwest Territory", 1), "must-trade")
    _refused(after, EndAttacks(), "must-trade")
    events, after = _play(after, Trade((CAVALRY[0], CAVALRY[1], CAVALRY[2])))
    assert _types(events) == ["ClassicCardsTraded"]
    assert (len(after.hands[0]), after.reserve[0]) == (3, 4)
    _refused(after, Trade((INFANTRY[0], INFANTRY[1], INFANTRY[2])), "no-trade-now")
    _refused(after, Attack("Alaska", "Northwest Territory", 1), "reserve-not-placed")
    assert classic.legal_moves(after, 0)[0] == Place((("Alaska", 1),))
    events, after = _play(after, Place((("Alaska", 4),)))
    assert _types(events) == ["UnitsPlaced"] and after.phase == INVASION
    assert Attack("Alaska", "Northwest Territory", 3) in classic.legal_moves(after, 0)


def test_eight_cards_are_traded_down_to_four_or_fewer() -> None:
    after = _elimination([*INFANTRY[:3], "wild-1"], [*CAVALRY[:3], ARTILLERY[0]])
    _, after = _play(after, Trade((INFANTRY[0], INFANTRY[1], INFANTRY[2])))
    assert len(after.hands[0]) == 5
    assert all(isinstance(m, Trade) for m in classic.legal_moves(after, 0))
    _refused(after, Place((("Alaska", 1),)), "must-trade")
    _, after = _play(after, Trade((CAVALRY[0], CAVALRY[1], CAVALRY[2])))
    assert len(after.hands[0]) == 2 and after.reserve[0] == 4 + 6


def test_five_cards_after_an_elimination_need_no_trade() -> None:
    after = _elimination(INFANTRY[:3], CAVALRY[:2])
    _refused(after, Trade((INFANTRY[0], INFANTRY[1], INFANTRY[2])), "no-trade-now")
    assert EndAttacks() in classic.legal_moves(after, 0)


def test_the_neutral_army_defends_and_is_never_eliminated() -> None:
    owners = {"Alaska": 0, "Peru": 1, **dict.fromkeys(TERRITORIES[20:], 1)}
    state = _world(owners, {"Alaska": 4, "Kamchatka": 2}, players=2, rest=NEUTRAL)
    state.owner["Kamchatka"] = NEUTRAL
    events, after = _play(state, Attack("Alaska", "Kamchatka", 3), dice(6, 6, 6, 1, 1))
    assert (events[0].data["defender"], events[0].data["defenders"]) == (NEUTRAL, 2)
    assert after.units["Kamchatka"] == 0 and after.owner["Kamchatka"] == 0
    assert _types(events) == ["AttackRolled", "TerritoryConquered"]
    assert events[1].data["previous_owner"] == NEUTRAL
    neutral_held = [t for t, s in after.owner.items() if s == NEUTRAL]
    assert neutral_held  # the neutral army still holds land and is no seat to act
    assert after.eliminated == []


def test_the_last_player_left_besides_the_neutral_wins_the_fund() -> None:
    state = _world({"Alaska": 0, "Kamchatka": 1}, {"Alaska": 4}, players=2, rest=NEUTRAL)
    _, after = _play(state, Attack("Alaska", "Kamchatka", 3), dice(6, 6, 6, 1))
    events, after = _play(after, Occupy(3))
    assert _types(events) == ["TerritoryOccupied", "GameEnded"]
    assert events[1].data == {"reason": "conquest", "shares": {"0": 2000}}
    assert (after.phase, after.fund, after.purse) == (OVER, 0, [3000, 1000])
    assert classic.legal_moves(after, 0) == []


def test_the_game_goes_on_while_another_player_is_left() -> None:
    state = _world({"Alaska": 0, "Kamchatka": 1}, {"Alaska": 4})
    _, after = _play(state, Attack("Alaska", "Kamchatka", 3), dice(6, 6, 6, 1))
    events, after = _play(after, Occupy(3))
    assert _types(events) == ["TerritoryOccupied"] and after.phase == INVASION


# -- fortify --------------------------------------------------------------------------------


def test_one_fortify_move_through_own_territories_ends_the_turn() -> None:
    owners = {"Alaska": 0, "Alberta": 0, "Ontario": 0, "Peru": 0}
    state = _world(owners, {"Alaska": 5}, phase=FORTIFY)
    legal = classic.legal_moves(state, 0)
    assert Fortify("Alaska", "Ontario", 4) in legal and Fortify("Alaska", "Ontario", 1) in legal
    assert not any(isinstance(m, Fortify) and m.target == "Peru" for m in legal)
    assert legal[-1] == EndTurn()
    _refused(state, Fortify("Alaska", "Peru", 1), "not-connected")
    _refused(state, Fortify("Alaska", "Ontario", 5), "must-leave-one")
    _refused(state, Fortify("Alaska", "Alaska", 1), "same-territory")
    _refused(state, Fortify("Alaska", "Kamchatka", 1), "not-your-territory")
    events, after = _play(state, Fortify("Alaska", "Ontario", 4))
    assert _types(events) == ["Fortified", "TurnEnded", "TurnStarted", "ClassicReinforcements"]
    assert (after.units["Alaska"], after.units["Ontario"]) == (1, 5)
    assert (after.seat, after.phase) == (1, REINFORCEMENT)


@pytest.mark.parametrize(
    ("phase", "move"),
    [
        (REINFORCEMENT, Attack("Alaska", "Kamchatka", 1)),
        (REINFORCEMENT, Occupy(1)),
        (REINFORCEMENT, EndTurn()),
        (INVASION, Fortify("Alaska", "Alberta", 1)),
        (INVASION, EndTurn()),
        (FORTIFY, Attack("Alaska", "Kamchatka", 1)),
        (FORTIFY, Place((("Alaska", 1),))),
        (FORTIFY, Trade((INFANTRY[0], INFANTRY[1], INFANTRY[2]))),
        (INVASION, Buy(1)),
    ],
)
def test_moves_of_another_phase_are_refused(phase: str, move: RiskMove) -> None:
    state = _world({"Alaska": 0, "Alberta": 0}, {"Alaska": 4}, phase=phase, reserve={0: 3})
    _refused(state, move, "wrong-phase")


def test_only_the_current_seat_acts() -> None:
    state = _world({"Alaska": 0}, {"Alaska": 4})
    _refused(state, EndAttacks(), "not-your-turn", seat=1)
    assert classic.legal_moves(state, 1) == []


def _declared(module: ModuleType) -> set[str]:
    return {kind.name for kind in vars(module).values() if isinstance(kind, EventKind)}


def test_classic_events_have_names_of_their_own() -> None:
    classic_own = _declared(classic_events)
    others = _declared(shared_events) | _declared(constitution_events)
    assert classic_own and not classic_own & others
    assert classic_own | others == set(EVENTS.types)


# -- setup with the neutral army, move formats ----------------------------------------------------


@pytest.mark.parametrize(("ruleset", "piles"), [("classic", 3), ("constitution", 2)])
def test_two_players_deal_a_neutral_pile_in_classic(ruleset: str, piles: int) -> None:
    state = new_state(2, normalise_options({"ruleset": ruleset}))
    for event in begin(state, RandomStream("neutral")):
        evolve(state, event)
    counts = Counter(state.owner.values())
    assert len(counts) == piles and set(counts.values()) == {42 // piles}
    assert (NEUTRAL in counts) is (ruleset == "classic")
    assert state.reserve == [40, 40]
    assert check_invariants(state) == []


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (Attack("North Africa", "Egypt", 3), "attack North_Africa>Egypt=3"),
        (Occupy(2), "occupy 2"),
        (EndAttacks(), "end-attacks"),
        (Fortify("Western United States", "Alberta", 4), "fortify Western_United_States>Alberta=4"),
    ],
)
def test_classic_moves_read_back(move: RiskMove, text: str) -> None:
    assert notation(move) == text
    assert parse_notation(text) == move
    assert parse_move(move_to_json(move)) == move


def test_classic_move_json() -> None:
    assert move_to_json(Attack("Peru", "Brazil", 2)) == {
        "type": "attack",
        "from": "Peru",
        "to": "Brazil",
        "dice": 2,
    }
    assert move_to_json(Fortify("Peru", "Brazil", 2))["type"] == "fortify"
    for bad in (
        {"type": "attack", "from": "Peru", "to": "Brazil", "dice": 0},
        {"type": "occupy"},
        {"type": "fortify", "from": "Peru", "to": "Brazil"},
        {"type": "end-attacks", "dice": 1},
    ):
        with pytest.raises(InvalidMove):
            parse_move(bad)
    with pytest.raises(InvalidMove):
        parse_notation("attack Peru-Brazil=2")


# -- a random game ------------------------------------------------------------------------------


def _apply(state: RiskState, events: list[Event]) -> None:
    for event in events:
        evolve(state, event)
        assert check_invariants(state) == [], event


def _game(players: int, seed: str, bots: Sequence[int]) -> tuple[RiskState, Counter[str]]:
    """A classic game from the deal: the seats ``bots`` play :func:`classic_bot_move`, the
    others random legal moves, until it ends or 20,000 moves are made; the laws checked
    after every event."""
    state = new_state(players, normalise_options({"ruleset": "classic", "placement_step": 10}))
    rng = RandomStream(seed)
    chooser = random.Random(seed)
    _apply(state, begin(state, rng))
    seen: Counter[str] = Counter()
    for _ in range(20_000):
        if state.phase == OVER:
            break
        in_setup = state.phase in (COLOURS_PHASE, PLACEMENT)
        seat = setup.current(state) if in_setup else state.seat
        assert seat is not None
        module = setup if in_setup else classic
        legal = module.legal_moves(state, seat)
        assert legal, f"no legal move in {state.phase}"
        if seat in bots and not in_setup:
            move = classic_bot_move(state, seat, chooser)
            assert move in legal
        else:
            move = chooser.choice(legal)
        events = play(module, state, seat, move, rng)
        _apply(state, events)
        assert state.random_position == rng.position
        seen.update(e.type for e in events)
    assert NEUTRAL not in state.eliminated
    assert seen["ClassicReinforcements"] and seen["AttackRolled"] and seen["TerritoryOccupied"]
    return state, seen


@pytest.mark.parametrize(("players", "seed"), [(2, "classic-2"), (4, "classic-4")])
def test_random_classic_games_keep_the_laws(players: int, seed: str) -> None:
    _, seen = _game(players, seed, bots=())
    assert seen["Fortified"] and seen["CardDrawn"] and seen["ClassicCardsTraded"]
    assert seen["DeckReshuffled"]


@pytest.mark.parametrize(("players", "seed"), [(2, "g2"), (3, "g3"), (4, "g4")])
def test_a_bot_among_random_players_conquers_and_takes_the_fund(players: int, seed: str) -> None:
    state, seen = _game(players, seed, bots=[0])
    assert state.phase == OVER and state.result is not None
    assert state.result == {"reason": "conquest", "shares": {"0": players * 1000}}
    assert state.active() == [0] and state.fund == 0
    assert seen["PlayerEliminated"] == players - 1


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bots_end_classic_games(players: int) -> None:
    state, seen = _game(players, f"bot-{players}-0", bots=range(players))
    assert state.phase == OVER and state.fund == 0
    assert seen["GameEnded"] == 1 and len(state.active()) == 1
