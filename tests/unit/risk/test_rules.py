"""Risk through the game protocol (domain/risk/rules.py): options, player counts, who acts
in each phase, refusals out of turn, the invariants catching a broken state, the JSON of a
state reading back, and the bots ending every game."""

from __future__ import annotations

import random

import pytest

from domain.bots import choose_move
from domain.protocol import IllegalMove, InvalidOptions, Viewer
from domain.randomness import RandomStream
from domain.risk import RISK
from domain.risk.moves import Colour, Done, EndInvasions
from domain.risk.state import RiskState


def opened(players: int, seed: str = "rules", **options: object) -> RiskState:
    state = RISK.setup(players, options)
    for event in RISK.begin(state, RandomStream(seed)):
        state = RISK.evolve(state, event)
    return state


def test_options_and_player_counts() -> None:
    fixed = RISK.normalise_options({})
    assert fixed["ruleset"] == "constitution" and fixed["placement_step"] == 3
    assert fixed["stake"] == 1000 and fixed["unit_price"] == 50 and fixed["buy_from_round"] == 3
    bad_options: list[dict[str, object]] = [
        {"ruleset": "hasbro"},
        {"stake": -1},
        {"golden_horse": []},
        {"colour": 1},
    ]
    for bad in bad_options:
        with pytest.raises(InvalidOptions):
            RISK.normalise_options(bad)
    for players in (1, 7):
        with pytest.raises(InvalidOptions):
            RISK.setup(players, {})


def test_who_acts_and_refusals_out_of_turn() -> None:
    state = opened(4)
    first = state.order[0]
    assert RISK.current_players(state) == [first]
    other = state.order[1]
    assert RISK.legal_moves(state, other) == []
    with pytest.raises(IllegalMove) as refused:
        RISK.apply(state, other, Colour("red"), RandomStream("x"))
    assert refused.value.code == "not-your-turn"
    with pytest.raises(IllegalMove) as wrong:
        RISK.apply(state, first, EndInvasions(), RandomStream("x"))
    assert wrong.value.code == "wrong-phase"


def test_state_json_reads_back_and_copies_are_independent() -> None:
    state = opened(3)
    again = RISK.state_from_json(RISK.state_to_json(state))
    assert again == state
    copy = RISK.copy_state(state)
    copy.units["Alaska"] += 5
    assert state.units["Alaska"] != copy.units["Alaska"]


def test_a_risk_2_snapshot_with_a_bank_reads_back_with_that_money_in_the_fund() -> None:
    # Under rules risk-2 the price of bought units went to a "bank"; since risk-3 it is in
    # the prize fund (docs/risk.md, "Money"), so an old snapshot folds it in.
    state = opened(3)
    old = RISK.state_to_json(state)
    old["purse"][0] -= 200
    old["bank"] = 200
    again = RISK.state_from_json(old)
    assert again.fund == state.fund + 200 and again.purse[0] == state.purse[0] - 200
    assert RISK.check_invariants(again) == []


def test_invariants_catch_created_units_cards_and_money() -> None:
    state = opened(3)
    assert RISK.check_invariants(state) == []
    broken = RISK.copy_state(state)
    broken.units["Peru"] += 1
    assert any("units not conserved" in p for p in RISK.check_invariants(broken))
    broken = RISK.copy_state(state)
    broken.hands[0] = ["Peru"]
    broken.hands[1] = ["Peru"]
    assert any("held 2 times" in p for p in RISK.check_invariants(broken))
    broken = RISK.copy_state(state)
    broken.purse[2] += 50
    assert any("money not conserved" in p for p in RISK.check_invariants(broken))


def test_bots_end_every_game_by_settlement_or_conquest() -> None:
    for seed in range(6):
        players = 2 + seed % 5
        state = opened(players, f"bots-{seed}")
        bot = random.Random(seed)
        paid_for_units = 0
        for _ in range(20_000):
            acting = RISK.current_players(state)
            if not acting:
                break
            seat = bot.choice(acting)
            move = choose_move(RISK, state, seat, bot)
            for event in RISK.apply(
                state, seat, move, RandomStream(f"bots-{seed}", state.random_position)
            ):
                paid_for_units += event.data["cost"] if event.type == "UnitsBought" else 0
                state = RISK.evolve(state, event)
        result = RISK.outcome(state)
        assert result is not None, f"game {seed} did not end"
        # the fund shared out: the stakes and the price of every unit bought (docs/risk.md,
        # "Money"); every kopeck is back in a purse
        assert sum(result.scores) == players * 1000 + paid_for_units
        assert sum(state.purse) == players * 2000 and state.fund == 0
        assert result.details["reason"] in ("settlement", "conquest")
        assert RISK.view(state, Viewer.spectator())["phase"] == "over"
        assert Done() not in RISK.legal_moves(state, 0)
