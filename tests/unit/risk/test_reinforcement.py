"""The reinforcement phase (docs/risk.md, "Reinforcement phase" and "Moving units"; seed 003,
Art. 12): reinforcements received, cards traded on the golden horse track, units bought
(their price paid into the prize fund), placed and moved along chains of own and consenting
allies' territories, and the turn passing on."""

from __future__ import annotations

import itertools
import random

import pytest

from domain.protocol import Event, IllegalMove
from domain.randomness import RandomStream
from domain.risk.constitution import corridor, exchange, reinforcement
from domain.risk.invariants import check_invariants
from domain.risk.moves import (
    Accept,
    Buy,
    EndTurn,
    GrantPassage,
    Move,
    Place,
    RevokePassage,
    RiskMove,
    Roll,
    Settle,
    Trade,
)
from domain.risk.options import normalise_options
from domain.risk.state import RiskState, copy_state, new_state, state_to_json
from domain.risk.worldmap import WORLD_MAP
from tests.unit.risk.scripted import evolve, play, turn_on

RNG = RandomStream("reinforcement-tests")
SOUTH_AMERICA = ["Venezuela", "Peru", "Brazil", "Argentina"]
AUSTRALIA = ["Indonesia", "New Guinea", "Western Australia", "Eastern Australia"]


def _state(
    holdings: dict[int, list[str]] | None = None, players: int = 3, round_number: int = 1
) -> RiskState:
    """Seat 0's reinforcement phase: every territory not in ``holdings`` belongs to the last
    seat; 2 units everywhere; purses of 1000 kopecks, the fund of 1000 per player."""
    state = new_state(players, normalise_options({}))
    state.order = list(range(players))
    colours: list[str | None] = ["red", "blue", "green", "black", "pink", "yellow"]
    state.colours = colours[:players]
    state.owner = {t.name: players - 1 for t in WORLD_MAP.territories}
    for seat, names in (holdings or {}).items():
        for name in names:
            state.owner[name] = seat
    state.units = {t: 2 for t in state.owner}
    state.units_in = sum(state.units.values())
    state.purse = [1000] * players
    state.fund = 1000 * players
    state.phase = "reinforcement"
    state.round = round_number
    state.turn = 0
    return state


def _play(state: RiskState, move: RiskMove, seat: int = 0) -> list[Event]:
    """Play ``move`` and evolve ``state`` by its events (checking play left it alone)."""
    before = state_to_json(state)
    events = play(reinforcement, state, seat, move, RNG)
    assert state_to_json(state) == before
    for event in events:
        evolve(state, event)
    _check_conservation(state)
    return events


def _units(state: RiskState, territory: str, n: int) -> None:
    """Put ``n`` units on ``territory``, counting them as having entered play."""
    state.units_in += n - state.units[territory]
    state.units[territory] = n


def _refused(state: RiskState, move: RiskMove, code: str, seat: int = 0) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        play(reinforcement, state, seat, move, RNG)
    assert caught.value.code == code
    return caught.value


def _check_conservation(state: RiskState) -> None:
    """Units, cards and money conserved (the invariants the conformance run checks)."""
    assert check_invariants(state) == []


def _receive(state: RiskState) -> Event:
    turn = turn_on(state)
    reinforcement.start_reinforcement(turn)
    for event in turn.events:
        evolve(state, event)
    _check_conservation(state)
    (event,) = turn.events
    return event


# -- reinforcements received ------------------------------------------------------------


def test_reinforcements_count_territories_continents_and_deals() -> None:
    mine = [*SOUTH_AMERICA, *AUSTRALIA, "Alaska", "Iceland", "Japan"]  # 11 territories
    state = _state({0: mine})
    state.phase = "invasion"
    state.incoming[0] = 4
    state.units_in += 4
    event = _receive(state)
    assert event == Event(
        "ReinforcementsReceived",
        {"seat": 0, "territories": 3, "continents": {"SA": 2, "AU": 2}, "deals": 4, "total": 11},
    )
    assert state.phase == "reinforcement"
    assert state.reserve[0] == 11
    assert state.incoming[0] == 0


def test_no_minimum_of_three_reinforcements() -> None:
    state = _state({0: ["Alaska", "Japan"]})
    event = _receive(state)
    assert event.data["territories"] == 0
    assert event.data["total"] == 0
    assert state.reserve[0] == 0


def test_continent_bonus_needs_the_whole_continent() -> None:
    state = _state({0: SOUTH_AMERICA[:3] + AUSTRALIA})
    assert _receive(state).data["continents"] == {"AU": 2}


def test_every_continent_bonus() -> None:
    state = _state({0: [t.name for t in WORLD_MAP.territories[:-1]]}, players=2)
    event = _receive(state)
    assert event.data["continents"] == {"NA": 5, "SA": 2, "EU": 5, "AF": 3, "AS": 7}
    assert event.data["territories"] == 41 // 3


# -- trading cards ------------------------------------------------------------------------


def test_golden_horse_track_goes_back_to_four_after_fifteen() -> None:
    state = _state({0: ["Alaska"]})
    bonuses = []
    for _ in range(7):
        state.hands[0] = ["Alaska", "Alberta", "Argentina"]  # three infantry
        (event,) = _play(state, Trade(("Alaska", "Alberta", "Argentina")))
        bonuses.append(event.data["bonus"])
        state.discard = []
    assert bonuses == [4, 6, 8, 10, 12, 15, 4]
    assert state.horse == 1
    assert state.reserve[0] == sum(bonuses)


def test_trade_moves_cards_to_the_discard_and_bonus_to_the_reserve() -> None:
    state = _state()
    state.hands[0] = ["Peru", "Alaska", "Brazil", "Argentina"]
    events = _play(state, Trade(("Peru", "Brazil", "Argentina")))  # South America
    assert events == [
        Event(
            "CardsTraded",
            {"seat": 0, "cards": ["Peru", "Brazil", "Argentina"], "bonus": 4, "horse": 1},
        )
    ]
    assert state.hands[0] == ["Alaska"]
    assert state.discard == ["Peru", "Brazil", "Argentina"]
    assert state.reserve[0] == 4


@pytest.mark.parametrize(
    "hand",
    [
        ("Alaska", "Alberta", "Argentina"),  # same symbol (infantry), three continents
        ("Peru", "Brazil", "Argentina"),  # same colour (South America), mixed symbols
        ("wild-1", "Alaska", "Japan"),  # wild + two infantry
        ("wild-1", "Peru", "Venezuela"),  # wild + two South American cards
        ("wild-1", "wild-2", "Ural"),  # two wilds stand for anything
    ],
)
def test_sets_by_symbol_colour_and_wild_cards(hand: tuple[str, str, str]) -> None:
    state = _state()
    state.hands[0] = list(hand)
    assert reinforcement.legal_moves(state, 0)[0] == Trade(hand)
    _play(state, Trade(hand))
    assert state.hands[0] == []


@pytest.mark.parametrize(
    "hand",
    [
        ("Alaska", "Peru", "Ural"),  # infantry, cavalry, cavalry; NA, SA, AS
        ("wild-1", "Alaska", "Peru"),  # the two real cards share nothing
    ],
)
def test_non_sets_are_refused(hand: tuple[str, str, str]) -> None:
    state = _state()
    state.hands[0] = list(hand)
    _refused(state, Trade(hand), "not-a-set")
    assert not any(isinstance(m, Trade) for m in reinforcement.legal_moves(state, 0))


def test_only_own_cards_are_traded() -> None:
    state = _state()
    state.hands[0] = ["Alaska", "Alberta"]
    state.hands[1] = ["Argentina"]
    error = _refused(state, Trade(("Alaska", "Alberta", "Argentina")), "not-your-card")
    assert "Argentina" in error.message  # the player's own hand, never another's


def test_several_sets_in_one_phase() -> None:
    state = _state()
    state.hands[0] = ["Alaska", "Alberta", "Argentina", "Peru", "Brazil", "Venezuela"]
    _play(state, Trade(("Alaska", "Alberta", "Argentina")))
    _play(state, Trade(("Peru", "Brazil", "Venezuela")))
    assert state.reserve[0] == 4 + 6
    assert state.horse == 2


# -- buying -------------------------------------------------------------------------------


@pytest.mark.parametrize("round_number", [1, 2])
def test_buying_is_refused_before_round_three(round_number: int) -> None:
    state = _state(round_number=round_number)
    _refused(state, Buy(1), "buying-not-yet")
    assert not any(isinstance(m, Buy) for m in reinforcement.legal_moves(state, 0))


def test_buying_from_round_three_costs_fifty_kopecks_a_unit() -> None:
    state = _state(round_number=3)
    events = _play(state, Buy(4))
    assert events == [Event("UnitsBought", {"seat": 0, "units": 4, "cost": 200})]
    assert (state.purse[0], state.fund, state.reserve[0]) == (800, 3000 + 200, 4)


def test_the_price_of_bought_units_is_shared_out_by_the_settlement() -> None:
    # docs/risk.md, "Money": the price goes into the prize fund, which a settlement divides.
    state = _state({0: ["Alaska"]}, round_number=3)
    state.order, state.turn = [1, 2, 0], 2
    _play(state, Buy(4))
    _play(state, Place((("Alaska", 4),)))
    _play(state, EndTurn())
    assert (state.phase, state.fund, state.purse) == ("exchange", 3200, [800, 1000, 1000])
    with pytest.raises(IllegalMove) as caught:
        play(exchange, state, 0, Settle(((0, 1500), (1, 1500))), RNG)
    assert caught.value.code == "shares-do-not-add-up"
    for seat, move in [(0, Settle(((0, 1600), (1, 1600)))), (1, Accept(1)), (2, Accept(1))]:
        for event in play(exchange, state, seat, move, RNG):
            evolve(state, event)
        _check_conservation(state)
    assert (state.phase, state.fund, state.purse) == ("over", 0, [2400, 2600, 1000])


def test_buying_beyond_the_purse_is_refused() -> None:
    state = _state(round_number=3)
    state.purse[0], state.fund = 120, state.fund + 880  # keep the money total
    _refused(state, Buy(3), "not-enough-money")
    assert [m for m in reinforcement.legal_moves(state, 0) if isinstance(m, Buy)] == [
        Buy(1),
        Buy(2),
    ]
    _play(state, Buy(2))
    assert state.purse[0] == 20


# -- placing ------------------------------------------------------------------------------


def test_place_on_own_territories_within_the_reserve() -> None:
    state = _state({0: ["Alaska", "Peru"]})
    state.reserve[0] = 5
    state.units_in += 5
    _refused(state, Place((("Japan", 1),)), "not-your-territory")
    _refused(state, Place((("Alaska", 3), ("Peru", 3))), "reserve-exceeded")
    events = _play(state, Place((("Alaska", 3), ("Peru", 1))))
    assert events == [Event("UnitsPlaced", {"seat": 0, "units": {"Alaska": 3, "Peru": 1}})]
    assert (state.units["Alaska"], state.units["Peru"], state.reserve[0]) == (5, 3, 1)


# -- moving -------------------------------------------------------------------------------


def test_move_across_a_border() -> None:
    state = _state({0: ["Alaska", "Alberta"]})
    _units(state, "Alaska", 5)
    events = _play(state, Move("Alaska", "Alberta", 3))
    assert events == [
        Event(
            "UnitsMoved",
            {
                "seat": 0,
                "from": "Alaska",
                "to": "Alberta",
                "units": 3,
                "path": ["Alaska", "Alberta"],
            },
        )
    ]
    assert (state.units["Alaska"], state.units["Alberta"]) == (2, 5)


def test_a_territory_keeps_one_unit() -> None:
    state = _state({0: ["Alaska", "Alberta"]})
    _refused(state, Move("Alaska", "Alberta", 2), "must-leave-one")


def test_a_unit_moves_once_per_turn() -> None:
    state = _state({0: ["Alaska", "Alberta", "Ontario"]})
    _units(state, "Alaska", 4)
    _play(state, Move("Alaska", "Alberta", 3))  # Alberta: 2 units of its own + 3 moved in
    _refused(state, Move("Alberta", "Ontario", 2), "unit-moves-once")
    _play(state, Move("Alberta", "Ontario", 1))  # its own spare unit may still go
    _refused(state, Move("Alberta", "Ontario", 1), "unit-moves-once")
    moves = reinforcement.legal_moves(state, 0)
    assert not any(isinstance(m, Move) and m.source == "Alberta" for m in moves)


def test_moving_needs_own_territories_and_a_route() -> None:
    state = _state({0: ["Alaska", "Greenland"]})
    _units(state, "Alaska", 5)
    _refused(state, Move("Alaska", "Japan", 1), "not-your-territory")
    _refused(state, Move("Japan", "Alaska", 1), "not-your-territory")
    _refused(state, Move("Alaska", "Alaska", 1), "same-territory")
    _refused(state, Move("Alaska", "Greenland", 1), "no-route")


def test_corridor_through_a_consenting_ally() -> None:
    state = _state({0: ["Alaska", "Greenland"], 1: ["Northwest Territory"]})
    _units(state, "Alaska", 5)
    _refused(state, Move("Alaska", "Greenland", 2), "no-route")
    state.passage[1] = [0]
    events = _play(state, Move("Alaska", "Greenland", 2))
    assert events[0].data["path"] == ["Alaska", "Northwest Territory", "Greenland"]
    assert (state.units["Alaska"], state.units["Greenland"]) == (3, 4)
    assert state.units["Northwest Territory"] == 2


def test_consent_of_another_player_does_not_open_a_corridor() -> None:
    state = _state({0: ["Alaska", "Greenland"], 1: ["Northwest Territory"]})
    _units(state, "Alaska", 5)
    state.passage[1] = [2]  # seat 1 lets seat 2 through, not seat 0
    state.passage[2] = [0]  # seat 2 holds the rest of the map around it
    path = _play(state, Move("Alaska", "Greenland", 1))[0].data["path"]
    assert "Northwest Territory" not in path
    assert path == ["Alaska", "Alberta", "Ontario", "Greenland"]  # seat 2's corridor


def test_corridor_refused_after_revocation() -> None:
    state = _state({0: ["Alaska", "Greenland"], 1: ["Northwest Territory"]})
    _units(state, "Alaska", 5)
    state.phase = "exchange"
    for move in (GrantPassage(0), RevokePassage(0)):
        for event in play(exchange, state, 1, move, RNG):
            evolve(state, event)
    assert state.passage[1] == []
    state.phase = "reinforcement"
    _refused(state, Move("Alaska", "Greenland", 1), "no-route")


def test_shortest_corridor_with_ties_in_map_order() -> None:
    # Alaska -> Ontario: via Northwest Territory or Alberta (both seat 1's): map order wins.
    state = _state({0: ["Alaska", "Ontario"], 1: ["Northwest Territory", "Alberta"]})
    state.passage[1] = [0]
    path = _play(state, Move("Alaska", "Ontario", 1))[0].data["path"]
    assert path == ["Alaska", "Northwest Territory", "Ontario"]


def test_alaska_to_greenland_through_own_northwest_territory() -> None:
    # Seed 003, Art. 12: units move "along neighbouring territories"; one's own chain is a
    # corridor as much as a consenting ally's (docs/risk.md, "Moving units").
    state = _state({0: ["Alaska", "Northwest Territory", "Greenland"]})
    _units(state, "Alaska", 5)
    events = _play(state, Move("Alaska", "Greenland", 3))
    assert events[0].data["path"] == ["Alaska", "Northwest Territory", "Greenland"]
    assert (state.units["Alaska"], state.units["Northwest Territory"]) == (2, 2)
    assert state.units["Greenland"] == 5
    assert Move("Alaska", "Greenland", 1) in reinforcement.legal_moves(state, 0)


def test_own_chain_reaches_as_far_as_an_allys_corridor() -> None:
    # Alaska to Argentina through six own territories: the same reach an ally's corridor has.
    chain = ["Alaska", "Alberta", "Western United States", "Central America", "Venezuela"]
    state = _state({0: [*chain, "Brazil", "Argentina"]})
    _units(state, "Alaska", 4)
    path = _play(state, Move("Alaska", "Argentina", 3))[0].data["path"]
    assert path == [*chain, "Brazil", "Argentina"]
    assert state.units["Argentina"] == 5


def test_a_route_mixes_own_and_consenting_allies_territories() -> None:
    # Alaska (own) -> Northwest Territory (seat 1's) -> Ontario (own) -> Quebec (own).
    state = _state({0: ["Alaska", "Ontario", "Quebec"], 1: ["Northwest Territory"]})
    _units(state, "Alaska", 5)
    _refused(state, Move("Alaska", "Quebec", 1), "no-route")
    state.passage[1] = [0]
    path = _play(state, Move("Alaska", "Quebec", 2))[0].data["path"]
    assert path == ["Alaska", "Northwest Territory", "Ontario", "Quebec"]


def test_a_player_who_has_not_consented_blocks_an_own_chain() -> None:
    # Greenland is seat 0's, but every way from Alaska crosses seat 1 or seat 2, neither of
    # whom consented.
    state = _state({0: ["Alaska", "Alberta", "Greenland"], 1: ["Northwest Territory"]})
    _units(state, "Alaska", 5)
    _refused(state, Move("Alaska", "Greenland", 1), "no-route")
    assert Move("Alaska", "Alberta", 1) in reinforcement.legal_moves(state, 0)


@pytest.mark.parametrize("seed", range(20))
def test_the_listed_targets_are_those_a_route_reaches(seed: int) -> None:
    # corridor.reachable (for the legal-move list) agrees with corridor.routes_from (for play)
    # on random maps of three players and random consents.
    pick = random.Random(seed)
    state = _state()
    state.owner = {t: pick.randrange(3) for t in state.owner}
    state.passage = [
        [s for s in (0, 1, 2) if s != ally and pick.random() < 0.5] for ally in (0, 1, 2)
    ]
    targets = corridor.reachable(state, 0)
    for source in state.territories_of(0):
        routes = corridor.routes_from(state, 0, source)
        assert targets[source] == sorted(routes, key=list(state.owner).index)
        for target, path in routes.items():
            assert path[0] == source and path[-1] == target
            assert all(WORLD_MAP.adjacent(a, b) for a, b in itertools.pairwise(path))
            assert all(state.owner[t] == 0 or 0 in state.passage[state.owner[t]] for t in path)


def test_the_shortest_own_route_is_taken_ties_in_map_order() -> None:
    # Alaska -> Ontario: via Northwest Territory or Alberta (both own): map order wins.
    state = _state({0: ["Alaska", "Northwest Territory", "Alberta", "Ontario"]})
    path = _play(state, Move("Alaska", "Ontario", 1))[0].data["path"]
    assert path == ["Alaska", "Northwest Territory", "Ontario"]


# -- ending the turn ----------------------------------------------------------------------


def test_end_turn_needs_the_reserve_placed() -> None:
    state = _state({0: ["Alaska"]})
    state.reserve[0] = 2
    state.units_in += 2
    _refused(state, EndTurn(), "reserve-not-placed")
    assert EndTurn() not in reinforcement.legal_moves(state, 0)
    _play(state, Place((("Alaska", 2),)))
    assert EndTurn() in reinforcement.legal_moves(state, 0)


def test_end_turn_passes_to_the_next_player_in_the_game() -> None:
    state = _state({0: ["Alaska"], 2: ["Peru"]}, players=4)
    state.order = [3, 0, 1, 2]
    state.turn = 1
    state.eliminated = [1]
    state.owner = {t: (2 if s == 1 else s) for t, s in state.owner.items()}
    state.moved = {"Alaska": 1}
    events = _play(state, EndTurn())
    assert [e.type for e in events] == ["TurnEnded", "TurnStarted"]
    assert events[1].data == {"seat": 2, "round": 1}
    assert (state.seat, state.phase, state.moved) == (2, "invasion", {})


def test_after_the_last_player_the_exchange_session_opens() -> None:
    state = _state({0: ["Alaska"]})
    state.order = [1, 2, 0]
    state.turn = 2
    events = _play(state, EndTurn())
    assert events == [
        Event("TurnEnded", {"seat": 0}),
        Event("ExchangeSessionOpened", {"round": 1}),
    ]
    assert state.phase == "exchange"
    assert exchange.current(state) == [0, 1, 2]


def test_moves_of_another_phase_are_refused() -> None:
    _refused(_state(), Roll(), "wrong-phase")


def test_every_listed_move_is_legal() -> None:
    state = _state({0: ["Alaska", "Alberta", "Greenland"], 1: ["Northwest Territory"]}, 3, 4)
    state.passage[1] = [0]
    state.reserve[0] = 3
    state.units_in += 3
    state.hands[0] = ["Alaska", "Alberta", "Argentina", "wild-1"]
    moves = reinforcement.legal_moves(state, 0)
    assert Move("Alaska", "Greenland", 1) in moves
    assert Place((("Alaska", 3),)) in moves
    assert len([m for m in moves if isinstance(m, Trade)]) == 4
    assert len([m for m in moves if isinstance(m, Buy)]) == 20
    for move in moves:
        _play(copy_state(state), move)
