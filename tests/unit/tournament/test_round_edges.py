"""Edge cases of rounds and results in the tournament aggregate (docs/tournaments.md, "Rounds
and tables", "Results and standings", "Elimination", "The arbiter"): rounds that seat nobody,
corrections in a bracket, a drawn final, forfeits at larger tables."""

from __future__ import annotations

import random

from domain.tournament.invariants import check_invariants
from domain.tournament.rounds import round_over
from tests.unit.tournament.test_rounds import play_round, running


def test_a_round_that_seats_nobody_does_not_stop_an_automatic_tournament() -> None:
    """Round robin of four: two entrants withdraw during round 1, and their round-2 opponents
    both have a bye (a withdrawn entrant keeps its place as an empty seat). That round has no
    table, so no result will ever end it: the tournament goes on to round 3 at once, and
    finishes after its last round, without the organiser."""
    t = running({"kind": "round-robin"}, 4)
    t.withdraw("e0")
    t.withdraw("e1")
    play_round(t, random.Random(1))
    empty = t.rounds[1]
    assert empty["tables"] == [] and sorted(empty["byes"]) == ["e2", "e3"]
    assert t.phase == "finished" or not round_over(t.rounds[-1])
    while t.phase == "running":
        play_round(t, random.Random(2))
        assert t.phase == "finished" or not round_over(t.rounds[-1])
    assert len(t.rounds) == 3 and check_invariants(t) == []
