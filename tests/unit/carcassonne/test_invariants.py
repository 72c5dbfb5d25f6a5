"""The conservation laws and the independent recount catch a broken state
(domain/carcassonne/invariants.py, domain/carcassonne/recount.py)."""

from __future__ import annotations

from domain.carcassonne import CARCASSONNE, CarcassonneState
from domain.carcassonne.invariants import history
from domain.carcassonne.recount import Placement, recount
from domain.carcassonne.tiles import TYPE_INDEX

from .helpers import played_out, random_game, table


def finished(seed: int = 12, players: int = 3) -> CarcassonneState:
    state = played_out(players, seed)
    assert CARCASSONNE.outcome(state) is not None
    return state


def test_a_sound_finished_game_has_no_problem() -> None:
    state = finished()
    assert CARCASSONNE.check_invariants(state) == []
    scores, problems = recount(state.players, state.farmers, state.small_city, history(state))
    assert problems == [] and scores == state.scores


def test_a_wrong_score_is_caught_by_the_recount() -> None:
    state = finished()
    state.scores[1] += 1
    problems = CARCASSONNE.check_invariants(state)
    assert any("recount" in p for p in problems)


def test_the_recount_depends_on_the_farmer_variant() -> None:
    state = finished(seed=13, players=4)
    steps = history(state)
    totals = {
        variant: recount(4, variant, 4, steps)[0]
        for variant in ("per-field", "per-city", "per-field-once")
    }
    assert totals["per-field"] == state.scores
    assert totals["per-field"] != totals["per-city"]


def test_lost_or_extra_tiles_are_caught() -> None:
    state = table(2)
    state.stack[TYPE_INDEX["U"]] -= 1
    assert CARCASSONNE.check_invariants(state) == ["71 tiles are accounted for, not 72."]
    state.stack[TYPE_INDEX["U"]] += 2
    assert CARCASSONNE.check_invariants(state) == ["73 tiles are accounted for, not 72."]


def test_lost_followers_and_negative_scores_are_caught() -> None:
    state = table(2)
    state.supply[0] = 6
    state.scores[1] = -1
    problems = CARCASSONNE.check_invariants(state)
    assert any("Seat 0 has 6 followers" in p for p in problems)
    assert "Seat 1 has a negative score." in problems


def test_the_recount_reports_illegal_history() -> None:
    start = Placement(0, 0, "D", 0, -1, None)
    steps = [
        start,
        Placement(1, 0, "U", 0, 0, "r0"),
        Placement(2, 0, "U", 0, 1, "r0"),  # the road already holds red's thief
        Placement(5, 5, "U", 0, 1, None),  # touches nothing
        Placement(0, -1, "U", 0, 1, None),  # field against the city
    ]
    _scores, problems = recount(2, "per-field", 4, steps)
    assert len(problems) == 3
    assert "occupied" in problems[0] and "illegally" in problems[1] and "match" in problems[2]


def test_invariants_hold_after_every_event_of_a_game() -> None:
    for state, _step in random_game(5, 14):
        assert CARCASSONNE.check_invariants(state) == []
