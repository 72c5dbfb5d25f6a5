"""Our two-player Swiss against the FIDE Dutch system as caissify-pairings implements it
(tests/dutch_compare.py; docs/tournaments.md, "Compared with the FIDE Dutch system"),
bounded: a few dozen tournaments."""

from __future__ import annotations

import pytest

from domain.randomness import RandomStream
from domain.tournament.pairing import Entrant, Round, SwissSettings
from domain.tournament.pairing.swiss_pairs import pair_swiss_two
from tests.dutch_compare import KINDS, compare, dutch_round
from tests.tournament_sim import Simulation


@pytest.mark.parametrize("count", [2, 3, 7, 8, 15, 16, 33, 64])
def test_round_one_is_the_dutch_round_one(count: int) -> None:
    sim = Simulation(SwissSettings(), count, seed=count)
    ours = sim.pair()
    # the Dutch engine draws its initial colour from sim.random: try both
    theirs = set()
    for seed in range(20):
        sim.random.seed(seed)
        theirs.add(dutch_round(sim, 5))
    assert ours in theirs


def score_cost(sim: Simulation, rnd: Round) -> int:
    """Tier 3 of swiss_pairs: squared score-group distances, the bye below the last group."""
    points = sorted({r.points for r in sim.records.values()}, reverse=True)
    group = {i: points.index(r.points) for i, r in sim.records.items()}
    cost = sum((group[a] - group[b]) ** 2 for a, b in rnd.tables)
    return cost + sum((len(points) - group[e]) ** 2 for e in rnd.byes)


def test_never_further_from_the_score_groups_than_dutch() -> None:
    """Where the Dutch round is legal for us too (no rematch, one bye to an entrant without
    one), our global matching keeps the score groups at least as well."""
    compared = 0
    for seed in range(10):
        sim = Simulation(SwissSettings(), 8 + 2 * seed, seed, draw_rate=0.3)
        for _ in range(6):
            ours, theirs = sim.pair(), dutch_round(sim, 7)
            records = sim.records
            legal = len(theirs.byes) <= 1 and all(
                records[a].opponents[b] == 0 for a, b in theirs.tables
            )
            legal = legal and all(records[e].byes == 0 for e in theirs.byes)
            if legal:
                compared += 1
                assert all(records[a].opponents[b] == 0 for a, b in ours.tables)
                assert score_cost(sim, ours) <= score_cost(sim, theirs)
            sim.play(ours)
    assert compared >= 40


def test_the_kinds_of_difference() -> None:
    """The share of rounds paired exactly as Dutch (or with other seats only) stays at least
    what docs/tournaments.md reports for this run; every round falls in a documented kind."""
    tally = compare(8, seed=2)
    assert set(tally.kinds) <= set(KINDS)
    same = tally.kinds["identical"] + tally.kinds["same pairs, other seats"]
    assert same / tally.rounds >= 0.3
    assert (
        tally.quality["ours rematches"]
        <= tally.quality["dutch rematches"] + tally.kinds["dutch leaves more than one unpaired"]
    )


def test_higher_ranked_by_score_wins_rule_e4() -> None:
    """A documented difference: for E.4 we rank by score, then pairing number (C.04.3 A.2);
    caissify-pairings by pairing number alone."""
    a = Entrant("a", 2, points=1.5, seats=((1, 2), (0, 2)))  # wants to move second, mildly
    b = Entrant("b", 1, points=1.0, seats=((1, 2), (0, 2)))
    rnd = pair_swiss_two([a, b], 3, RandomStream("s"))
    assert rnd.tables == (("b", "a"),)
