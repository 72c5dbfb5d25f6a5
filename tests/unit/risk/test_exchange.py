"""The exchange session (docs/risk.md, "Exchange session" and "End of the game";
seed 003, Art. 13): deals proposed, accepted atomically or failing, declined and withdrawn,
settlements of the prize fund, consent to corridors, and the session ending only when every
player is done."""

from __future__ import annotations

from typing import Any

import pytest

from domain.protocol import Event, IllegalMove
from domain.randomness import RandomStream
from domain.risk.constitution import exchange, reinforcement
from domain.risk.invariants import check_invariants
from domain.risk.moves import (
    Accept,
    Decline,
    Done,
    GrantPassage,
    Propose,
    RevokePassage,
    RiskMove,
    Settle,
    Trade,
    Transfer,
    Withdraw,
)
from domain.risk.options import normalise_options
from domain.risk.state import RiskState, copy_state, new_state, state_to_json
from domain.risk.worldmap import WORLD_MAP
from tests.unit.risk.scripted import evolve, play, turn_on

RNG = RandomStream("exchange-tests")


def _state(players: int = 3) -> RiskState:
    """An exchange session just opened after round 2: territories dealt round-robin in map
    order (seat 0 holds Alaska, seat 1 Northwest Territory, ...), 3 units on each, purses
    of 1000 kopecks, the fund of 1000 per player."""
    state = new_state(players, normalise_options({}))
    state.order = list(range(players))
    colours: list[str | None] = ["red", "blue", "green", "black", "pink", "yellow"]
    state.colours = colours[:players]
    state.owner = {t.name: i % players for i, t in enumerate(WORLD_MAP.territories)}
    state.units = {t: 3 for t in state.owner}
    state.units_in = sum(state.units.values())
    state.purse = [1000] * players
    state.fund = 1000 * players
    state.round = 2
    state.turn = players - 1
    turn = turn_on(state)
    exchange.open_session(turn)
    for event in turn.events:
        evolve(state, event)
    return state


def _play(state: RiskState, seat: int, move: RiskMove) -> list[Event]:
    """Play ``move`` and evolve ``state`` by its events (checking play left it alone)."""
    before = state_to_json(state)
    events = play(exchange, state, seat, move, RNG)
    assert state_to_json(state) == before
    for event in events:
        evolve(state, event)
    _check_conservation(state)
    return events


def _refused(state: RiskState, seat: int, move: RiskMove, code: str) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        play(exchange, state, seat, move, RNG)
    assert caught.value.code == code
    return caught.value


def _check_conservation(state: RiskState) -> None:
    """Units, cards and money conserved (the invariants the conformance run checks)."""
    assert check_invariants(state) == []


def _deal(to: tuple[int, ...], *transfers: dict[str, Any]) -> Propose:
    return Propose(to, tuple(Transfer.from_json(t) for t in transfers))


def _types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def test_session_opens_with_everyone_to_act() -> None:
    state = _state()
    assert (state.phase, state.done, state.proposals) == ("exchange", [], [])
    assert exchange.current(state) == [0, 1, 2]
    state.eliminated = [1]
    assert exchange.current(state) == [0, 2]


# -- deals --------------------------------------------------------------------------------


def test_a_deal_changes_nothing_before_every_acceptance() -> None:
    state = _state()
    state.hands[0] = ["Peru"]
    state.hands[2] = ["wild-1"]
    deal = _deal(
        (1, 2),
        {"from": 0, "to": 1, "territories": ["Alaska"], "cards": ["Peru"]},
        {"from": 1, "to": 0, "money": 300},
        {"from": 2, "to": 0, "units": {"Greenland": 2}, "cards": ["wild-1"]},
    )
    (proposed,) = _play(state, 0, deal)
    assert proposed.type == "DealProposed"
    assert proposed.data["id"] == 1
    assert proposed.data["transfers"][0]["card_count"] == 1
    assert "card_count" not in proposed.data["transfers"][1]
    assert exchange.current(state) == [0, 1, 2]
    untouched = state_to_json(state)
    assert _play(state, 2, Accept(1)) == [Event("DealAccepted", {"id": 1, "seat": 2})]
    for key in ("owner", "units", "hands", "purse", "incoming"):
        assert state_to_json(state)[key] == untouched[key]
    events = _play(state, 1, Accept(1))
    assert _types(events) == ["DealAccepted", "DealExecuted"]
    assert events[1].data == {"id": 1, "transfers": proposed.data["transfers"]}
    assert (state.owner["Alaska"], state.units["Alaska"]) == (1, 3)  # with all its units
    assert state.hands == [["wild-1"], ["Peru"], []]
    assert state.purse == [1300, 700, 1000]
    assert (state.units["Greenland"], state.incoming) == (1, [2, 0, 0])
    assert state.proposals == []


def test_units_given_arrive_at_the_next_reinforcement_phase() -> None:
    state = _state()
    _play(state, 1, _deal((0,), {"from": 1, "to": 0, "units": {"Northwest Territory": 2}}))
    _play(state, 0, Accept(1))
    assert state.incoming[0] == 2
    state.turn = 0
    turn = turn_on(state)
    reinforcement.start_reinforcement(turn)
    evolve(state, turn.events[0])
    assert turn.events[0].data["deals"] == 2
    assert turn.events[0].data["total"] == 14 // 3 + 2
    assert (state.incoming[0], state.reserve[0]) == (0, 6)
    _check_conservation(state)


def test_deal_refused_when_the_parties_do_not_fit() -> None:
    state = _state()
    money = {"from": 0, "to": 1, "money": 10}
    _refused(state, 0, _deal((0,), {"from": 0, "to": 1, "money": 10}), "not-a-party")
    _refused(state, 0, _deal((1,), {"from": 0, "to": 2, "money": 10}), "not-a-party")
    _refused(state, 0, _deal((1, 2), money), "not-a-party")  # seat 2 has no part
    _refused(state, 0, _deal((1,), {"from": 2, "to": 1, "money": 10}), "not-a-party")
    state.eliminated = [2]
    _refused(state, 0, _deal((2,), {"from": 0, "to": 2, "money": 10}), "not-a-party")


def test_deal_refused_when_a_giver_does_not_hold_what_it_gives() -> None:
    state = _state()
    cases: list[tuple[dict[str, Any], str]] = [
        ({"from": 0, "to": 1, "territories": ["Northwest Territory"]}, "not-your-territory"),
        ({"from": 1, "to": 0, "territories": ["Alaska"]}, "not-your-territory"),
        ({"from": 0, "to": 1, "units": {"Alaska": 3}}, "must-leave-one"),
        ({"from": 0, "to": 1, "units": {"Greenland": 1}}, "not-your-territory"),
        ({"from": 1, "to": 0, "money": 1001}, "not-enough-money"),
        ({"from": 0, "to": 1, "cards": ["Atlantis"]}, "no-such-card"),
    ]
    for transfer, code in cases:
        _refused(state, 0, _deal((1,), transfer), code)
    twice = _deal(
        (1, 2),
        {"from": 0, "to": 1, "units": {"Alaska": 2}},
        {"from": 0, "to": 2, "units": {"Alaska": 1}},
    )
    _refused(state, 0, twice, "must-leave-one")
    spent = _deal((1, 2), {"from": 0, "to": 1, "money": 600}, {"from": 0, "to": 2, "money": 600})
    _refused(state, 0, spent, "not-enough-money")
    same = _deal(
        (1, 2),
        {"from": 0, "to": 1, "territories": ["Alaska"]},
        {"from": 0, "to": 2, "territories": ["Alaska"]},
    )
    _refused(state, 0, same, "given-twice")


def test_the_proposer_is_told_only_about_its_own_cards() -> None:
    state = _state()
    state.hands[1] = ["Peru"]
    error = _refused(
        state, 0, _deal((1,), {"from": 0, "to": 1, "cards": ["Japan"]}), "not-your-card"
    )
    assert "Japan" in error.message  # the proposer's own hand
    # Asking seat 2 for a card it does not hold is not refused: that would tell seat 0 about
    # seat 2's hand. The deal fails on acceptance, naming no card.
    _play(state, 0, _deal((2,), {"from": 2, "to": 0, "cards": ["Peru"]}))
    events = _play(state, 2, Accept(1))
    assert _types(events) == ["DealAccepted", "DealFailed"]
    assert "Peru" not in events[1].data["reason"]
    assert state.hands == [[], ["Peru"], []]


def test_a_deal_may_not_leave_a_party_without_territory() -> None:
    state = _state(players=2)
    everything = [t for t, s in state.owner.items() if s == 1]
    _refused(
        state,
        0,
        _deal((1,), {"from": 1, "to": 0, "territories": everything}),
        "deal-leaves-no-territory",
    )
    swap = _deal(
        (1,),
        {"from": 1, "to": 0, "territories": everything},
        {"from": 0, "to": 1, "territories": ["Alaska"]},
    )
    _play(state, 0, swap)  # a swap leaves seat 1 with Alaska


def test_a_deal_invalid_at_execution_fails_and_changes_nothing() -> None:
    state = _state()
    _play(state, 0, _deal((1,), {"from": 0, "to": 1, "territories": ["Alaska"], "money": 5}))
    _play(state, 0, _deal((2,), {"from": 0, "to": 2, "territories": ["Alaska"]}))
    _play(state, 2, Accept(2))
    assert state.owner["Alaska"] == 2
    before = state_to_json(state)
    events = _play(state, 1, Accept(1))
    assert _types(events) == ["DealAccepted", "DealFailed"]
    assert events[1].data["id"] == 1
    after = state_to_json(state)
    assert after["proposals"] == []
    for key in ("owner", "units", "hands", "purse", "incoming"):
        assert after[key] == before[key]


def test_answers_to_proposals() -> None:
    state = _state()
    deal = _deal((1, 2), {"from": 0, "to": 1, "money": 5}, {"from": 0, "to": 2, "money": 5})
    _play(state, 0, deal)
    _refused(state, 0, Accept(1), "not-addressed")
    _refused(state, 1, Accept(7), "no-such-proposal")
    _refused(state, 1, Withdraw(1), "not-your-proposal")
    _play(state, 1, Accept(1))
    _refused(state, 1, Accept(1), "already-accepted")
    assert _play(state, 2, Decline(1)) == [Event("DealDeclined", {"id": 1, "seat": 2})]
    assert state.proposals == []
    _play(state, 0, deal)
    assert state.proposals[0]["id"] == 2
    assert _play(state, 0, Withdraw(2)) == [Event("DealWithdrawn", {"id": 2})]
    assert state.purse == [1000, 1000, 1000]


# -- the end of the session ---------------------------------------------------------------


def test_the_session_ends_only_when_everyone_is_done() -> None:
    state = _state()
    assert _play(state, 0, Done()) == [Event("ExchangeDone", {"seat": 0})]
    _refused(state, 0, Done(), "already-done")
    _refused(state, 0, GrantPassage(1), "already-done")
    assert exchange.current(state) == [1, 2]
    _play(state, 2, Done())
    events = _play(state, 1, Done())
    assert _types(events) == [
        "ExchangeDone",
        "ExchangeSessionClosed",
        "RoundStarted",
        "TurnStarted",
    ]
    assert (state.round, state.phase, state.seat, state.done) == (3, "invasion", 0, [])
    assert exchange.current(state) == []


def test_an_open_proposal_keeps_the_session_open() -> None:
    state = _state()
    _play(state, 1, _deal((0,), {"from": 1, "to": 0, "money": 100}))
    _play(state, 0, Done())
    _play(state, 2, Done())
    assert _types(_play(state, 1, Done())) == ["ExchangeDone"]
    assert exchange.current(state) == [0]  # done, but must answer
    assert exchange.legal_moves(state, 0) == [Accept(1), Decline(1)]
    _refused(state, 0, _deal((1,), {"from": 0, "to": 1, "money": 1}), "already-done")
    events = _play(state, 0, Accept(1))
    assert _types(events)[:3] == ["DealAccepted", "DealExecuted", "ExchangeSessionClosed"]
    assert state.purse[:2] == [1100, 900]


# -- settlement ---------------------------------------------------------------------------


def test_a_settlement_accepted_by_all_ends_the_game_and_pays_out() -> None:
    state = _state()
    _refused(state, 0, Settle(((0, 2000), (1, 500))), "shares-do-not-add-up")
    state.eliminated = [2]
    _refused(state, 0, Settle(((0, 2000), (2, 1000))), "no-such-seat")
    state.eliminated = []
    (proposed,) = _play(state, 1, Settle(((0, 1500), (1, 1500))))
    assert proposed == Event(
        "SettlementProposed", {"id": 1, "by": 1, "to": [0, 2], "shares": {"0": 1500, "1": 1500}}
    )
    assert _types(_play(state, 0, Accept(1))) == ["DealAccepted"]
    assert state.phase == "exchange"
    events = _play(state, 2, Accept(1))
    assert _types(events) == ["DealAccepted", "GameEnded"]
    assert events[1].data == {"reason": "settlement", "shares": {"0": 1500, "1": 1500}}
    assert (state.phase, state.fund, state.purse) == ("over", 0, [2500, 2500, 1000])


def test_a_declined_settlement_does_not_end_the_game() -> None:
    state = _state()
    _play(state, 0, Settle(((0, 3000),)))
    _play(state, 1, Accept(1))
    _play(state, 2, Decline(1))
    assert (state.phase, state.fund, state.proposals) == ("exchange", 3000, [])


# -- passage ------------------------------------------------------------------------------


def test_passage_is_granted_and_revoked_explicitly() -> None:
    state = _state()
    assert _play(state, 1, GrantPassage(0)) == [Event("PassageGranted", {"seat": 1, "to": 0})]
    assert state.passage == [[], [0], []]
    _refused(state, 1, GrantPassage(0), "already-granted")
    _refused(state, 1, RevokePassage(2), "not-granted")
    _refused(state, 1, GrantPassage(1), "no-such-seat")
    _refused(state, 1, GrantPassage(5), "no-such-seat")
    assert RevokePassage(0) in exchange.legal_moves(state, 1)
    assert _play(state, 1, RevokePassage(0)) == [Event("PassageRevoked", {"seat": 1, "to": 0})]
    assert state.passage == [[], [], []]


def test_moves_of_another_phase_are_refused() -> None:
    _refused(_state(), 0, Trade(("Alaska", "Alberta", "Argentina")), "wrong-phase")


def test_listed_moves() -> None:
    state = _state()
    state.fund = 3001
    state.purse[0] = 999  # keep the money total for the conservation check
    state.passage[0] = [2]
    moves = exchange.legal_moves(state, 0)
    assert Done() in moves
    assert Settle(((0, 1001), (1, 1000), (2, 1000))) in moves
    assert GrantPassage(1) in moves
    assert RevokePassage(2) in moves
    assert _deal((1,), {"from": 0, "to": 1, "money": 50}) in moves
    assert _deal((2,), {"from": 0, "to": 2, "units": {"Alaska": 1}}) in moves
    for move in moves:
        _play(copy_state(state), 0, move)
    state.purse[0] = 40
    state.units = {t: 1 for t in state.units}
    state.units_in = 42
    assert not any(isinstance(m, Propose) for m in exchange.legal_moves(state, 0))
