"""Setting up Risk (docs/risk.md, "Setup"; seed 003, Arts. 5-9): turn order by dice
with ties re-rolled, territories dealt in turn order, starting units, the prize fund, colours
chosen in turn order and the starting units placed a step at a time."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from domain.protocol import Event, IllegalMove
from domain.randomness import RandomStream
from domain.risk import setup
from domain.risk.moves import COLOURS, Colour, Invade, Place, RiskMove
from domain.risk.options import STARTING_UNITS, normalise_options
from domain.risk.state import (
    INVASION,
    PLACEMENT,
    RiskState,
    copy_state,
    new_state,
    state_to_json,
)
from domain.risk.worldmap import WORLD_MAP
from tests.unit.risk.scripted import Scripted, begin, dice, evolve, play

TERRITORIES = [t.name for t in WORLD_MAP.territories]


def _fresh(players: int, **options: Any) -> RiskState:
    return new_state(players, normalise_options(options))


def _replayed(state: RiskState, events: list[Event]) -> RiskState:
    out = new_state(state.players, state.options)
    for event in events:
        evolve(out, event)
    return out


def _begun(players: int, draws: list[int], **options: Any) -> tuple[RiskState, list[Event]]:
    state = _fresh(players, **options)
    events = begin(state, Scripted(draws, then_last=True))
    return _replayed(state, events), events


def _play(state: RiskState, seat: int, move: RiskMove) -> tuple[RiskState, list[Event]]:
    events = play(setup, state, seat, move, RandomStream("unused"))
    after = copy_state(state)
    for event in events:
        evolve(after, event)
    return after, events


def _placement(reserve: list[int], step: int = 3) -> RiskState:
    """Every colour chosen, order 0..n-1, territory k held by seat k mod n."""
    players = len(reserve)
    state = _fresh(players, placement_step=step)
    state.order = list(range(players))
    state.colours = [*COLOURS[:players]]
    state.owner = {t: k % players for k, t in enumerate(TERRITORIES)}
    state.units = dict.fromkeys(TERRITORIES, 1)
    state.reserve = list(reserve)
    state.units_in = len(TERRITORIES) + sum(reserve)
    state.phase = PLACEMENT
    return state


# -- turn order -----------------------------------------------------------------------


def test_every_seat_rolls_once_in_seat_order_and_the_highest_goes_first() -> None:
    _, events = _begun(4, dice(2, 6, 3, 5))
    assert events[0] == Event(
        "OrderRolled", {"rolls": [[0, 2], [1, 6], [2, 3], [3, 5]], "random_position": 4}
    )
    assert events[1] == Event("TurnOrderDecided", {"order": [1, 3, 2, 0]})


def test_tied_seats_roll_again_among_themselves_until_decided() -> None:
    # seats 0 and 2 tie on 5, tie again on 3, then 2 beats 0 with 4 against 1
    state, events = _begun(4, dice(5, 6, 5, 2, 3, 3, 1, 4))
    rolls = [e.data["rolls"] for e in events if e.type == "OrderRolled"]
    assert rolls == [[[0, 5], [1, 6], [2, 5], [3, 2]], [[0, 3], [2, 3]], [[0, 1], [2, 4]]]
    assert state.order == [1, 2, 0, 3]


def test_separate_ties_are_rolled_off_separately_highest_first() -> None:
    # 0 and 1 tie on 4 (re-roll 1 v 6), 2 and 3 tie on 2 (re-roll 5 v 3)
    state, events = _begun(4, dice(4, 4, 2, 2, 1, 6, 5, 3))
    rolls = [e.data["rolls"] for e in events if e.type == "OrderRolled"]
    assert rolls[1:] == [[[0, 1], [1, 6]], [[2, 5], [3, 3]]]
    assert state.order == [1, 0, 2, 3]


def test_order_roll_events_record_the_stream_position() -> None:
    rng = RandomStream("a seed")
    state = _fresh(3)
    events = begin(state, rng)
    positions = [e.data["random_position"] for e in events if "random_position" in e.data]
    assert positions == sorted(positions)
    assert positions[-1] == rng.position
    assert _replayed(state, events).random_position == rng.position


def test_a_real_stream_gives_an_order_consistent_with_the_first_roll() -> None:
    for seed in ("one", "two", "three", "four"):
        state = _fresh(5)
        events = begin(state, RandomStream(seed))
        first = dict(map(tuple, events[0].data["rolls"]))
        order = _replayed(state, events).order
        assert sorted(order) == [0, 1, 2, 3, 4]
        assert [first[s] for s in order] == sorted(first.values(), reverse=True)


def test_begin_changes_nothing_in_the_state_it_is_given() -> None:
    state = _fresh(3)
    before = state_to_json(state)
    begin(state, RandomStream("x"))
    assert state_to_json(state) == before


# -- dealing, starting units and money ------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_territories_are_dealt_one_at_a_time_in_turn_order(players: int) -> None:
    # descending dice: the order is 0, 1, ...; then the shuffle keeps map order
    state, events = _begun(players, dice(*range(6, 6 - players, -1)))
    assert state.order == list(range(players))
    dealt = next(e for e in events if e.type == "TerritoriesDealt")
    assert list(dealt.data["owners"]) == TERRITORIES
    assert state.owner == {t: k % players for k, t in enumerate(TERRITORIES)}
    counts = Counter(state.owner.values())
    extra = 42 % players
    assert [counts[s] for s in state.order] == [
        42 // players + (1 if k < extra else 0) for k in range(players)
    ]
    assert set(state.units.values()) == {1}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_starting_units_money_and_bookkeeping(players: int) -> None:
    state = _fresh(players)
    state = _replayed(state, begin(state, RandomStream(f"seed {players}")))
    assert state.reserve == [STARTING_UNITS[players]] * players
    assert state.units_in == 42 + players * STARTING_UNITS[players]
    assert sum(state.units.values()) + sum(state.reserve) == state.units_in
    assert state.purse == [1000] * players
    assert state.fund == 1000 * players
    assert sum(state.purse) + state.fund == players * (1000 + 1000)
    assert state.phase == "colours"


def test_the_deal_is_the_streams_shuffle_in_turn_order() -> None:
    state = _fresh(3)
    events = begin(state, RandomStream("deal"))
    order = _replayed(state, events).order
    # re-derive: the same stream after the order rolls shuffles the map order
    rolled = [e for e in events if e.type == "OrderRolled"][-1]
    rng = RandomStream("deal", rolled.data["random_position"])
    shuffled = rng.shuffle(TERRITORIES)
    expected = {t: order[k % 3] for k, t in enumerate(shuffled)}
    assert events[-2].data["owners"] == expected
    assert events[-2].data["random_position"] == rng.position


def test_options_change_the_table_and_the_money() -> None:
    state, events = _begun(3, dice(6, 5, 4), starting_units=7, stake=500, purse=200)
    assert events[-1] == Event("PrizeFundPaid", {"stake": 500, "purse": 200})
    assert state.reserve == [7, 7, 7]
    assert (state.fund, state.purse) == (1500, [200, 200, 200])


# -- colours --------------------------------------------------------------------------


def test_colours_are_chosen_in_turn_order_each_once() -> None:
    state, _ = _begun(3, dice(2, 6, 4))  # order 1, 2, 0
    assert setup.legal_moves(state, 1) == [Colour(c) for c in COLOURS]
    assert setup.legal_moves(state, 2) == []
    state, events = _play(state, 1, Colour("red"))
    assert events == [Event("ColourChosen", {"seat": 1, "colour": "red"})]
    assert Colour("red") not in setup.legal_moves(state, 2)
    assert len(setup.legal_moves(state, 2)) == 5
    with pytest.raises(IllegalMove) as taken:
        _play(state, 2, Colour("red"))
    assert taken.value.code == "colour-taken"
    with pytest.raises(IllegalMove) as unknown:
        _play(state, 2, Colour("purple"))
    assert unknown.value.code == "unknown-colour"
    with pytest.raises(IllegalMove) as turn:
        _play(state, 0, Colour("blue"))
    assert turn.value.code == "not-your-turn"
    with pytest.raises(IllegalMove) as phase:
        _play(state, 2, Place((("Alaska", 3),)))
    assert phase.value.code == "wrong-phase"


def test_after_the_last_colour_the_first_in_order_places() -> None:
    state, _ = _begun(3, dice(2, 6, 4))
    for seat, colour in ((1, "red"), (2, "blue"), (0, "green")):
        state, _ = _play(state, seat, Colour(colour))
    assert state.colours == ["green", "red", "blue"]
    assert (state.phase, state.turn, state.seat) == (PLACEMENT, 0, 1)


def test_with_no_starting_units_round_one_follows_the_colours() -> None:
    state, _ = _begun(2, dice(6, 1), starting_units=0)
    state, _ = _play(state, 0, Colour("red"))
    state, events = _play(state, 1, Colour("blue"))
    assert [e.type for e in events] == ["ColourChosen", "RoundStarted", "TurnStarted"]
    assert (state.phase, state.round, state.seat) == (INVASION, 1, 0)


# -- placement ------------------------------------------------------------------------


def test_placement_lists_the_whole_step_on_each_own_territory() -> None:
    state = _placement([10, 10, 10])
    assert setup.legal_moves(state, 0) == [
        Place(((t, 3),)) for t in TERRITORIES if state.owner[t] == 0
    ]
    assert setup.legal_moves(state, 1) == []


def test_placing_the_step_passes_to_the_next_seat() -> None:
    state = _placement([10, 10, 10])
    after, events = _play(state, 0, Place((("Alaska", 3),)))
    assert events == [
        Event("UnitsPlaced", {"seat": 0, "units": {"Alaska": 3}}),
        Event("PlacementTurn", {"seat": 1}),
    ]
    assert (after.units["Alaska"], after.reserve[0], after.seat) == (4, 7, 1)


def test_the_step_may_be_split_over_own_territories() -> None:
    state = _placement([10, 10, 10])
    own = state.territories_of(0)
    after, _ = _play(state, 0, Place(((own[0], 1), (own[1], 2))))
    assert (after.units[own[0]], after.units[own[1]], after.reserve[0]) == (2, 3, 7)


@pytest.mark.parametrize(
    ("units", "code"),
    [
        ((("Alaska", 2),), "wrong-total"),
        ((("Alaska", 4),), "wrong-total"),
        ((("Alaska", 1), ("Greenland", 2)), "not-your-territory"),  # Greenland: seat 2
        ((("Atlantis", 3),), "unknown-territory"),
    ],
)
def test_placement_refusals(units: tuple[tuple[str, int], ...], code: str) -> None:
    state = _placement([10, 10, 10])
    with pytest.raises(IllegalMove) as refused:
        _play(state, 0, Place(units))
    assert refused.value.code == code


def test_placement_refuses_other_phase_moves_and_other_seats() -> None:
    state = _placement([10, 10, 10])
    with pytest.raises(IllegalMove) as phase:
        _play(state, 0, Colour("red"))
    assert phase.value.code == "wrong-phase"
    with pytest.raises(IllegalMove) as phase2:
        _play(state, 0, Invade("Alaska", "Kamchatka"))
    assert phase2.value.code == "wrong-phase"
    with pytest.raises(IllegalMove) as turn:
        _play(state, 1, Place((("Northwest Territory", 3),)))
    assert turn.value.code == "not-your-turn"


def test_the_last_units_of_a_reserve_are_placed_when_fewer_than_the_step() -> None:
    state = _placement([2, 5, 0])
    assert setup.legal_moves(state, 0)[0] == Place((("Alaska", 2),))
    with pytest.raises(IllegalMove):
        _play(state, 0, Place((("Alaska", 3),)))
    after, events = _play(state, 0, Place((("Alaska", 2),)))
    assert events[-1] == Event("PlacementTurn", {"seat": 1})
    # seat 2 has nothing left and seat 0 is done: seat 1 places again
    after, events = _play(after, 1, Place((("Northwest Territory", 3),)))
    assert events[-1] == Event("PlacementTurn", {"seat": 1})
    after, events = _play(after, 1, Place((("Northwest Territory", 2),)))
    assert [e.type for e in events] == ["UnitsPlaced", "RoundStarted", "TurnStarted"]
    assert events[1].data == {"round": 1}
    assert (after.phase, after.round, after.seat) == (INVASION, 1, 0)


def test_a_larger_step_is_a_game_option() -> None:
    state = _placement([10, 10], step=5)
    assert setup.legal_moves(state, 0)[0] == Place((("Alaska", 5),))
    with pytest.raises(IllegalMove):
        _play(state, 0, Place((("Alaska", 3),)))


def test_a_whole_setup_places_every_starting_unit() -> None:
    state, _ = _begun(3, dice(6, 5, 4), starting_units=7)
    for seat, colour in zip(state.order, ("red", "blue", "green"), strict=True):
        state, _ = _play(state, seat, Colour(colour))
    moves = 0
    while state.phase == PLACEMENT:
        state, _ = _play(state, state.seat, setup.legal_moves(state, state.seat)[0])
        moves += 1
    assert moves == 3 * 3  # 7 units: 3 + 3 + 1 for each of three seats
    assert state.reserve == [0, 0, 0]
    assert sum(state.units.values()) == 42 + 3 * 7 == state.units_in
    assert (state.phase, state.round, state.seat) == (INVASION, 1, state.order[0])


def test_play_changes_nothing_in_the_state_it_is_given() -> None:
    state = _placement([10, 10, 10])
    before = state_to_json(state)
    play(setup, state, 0, Place((("Alaska", 3),)), RandomStream("x"))
    assert state_to_json(state) == before
