"""Round robin (docs/tournaments.md, "Round robin"): the Berger tables for two players, the
balanced schedule for multi-player tables."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from caissify_pairings.engines.round_robin import berger_schedule

from domain.randomness import RandomStream
from domain.tournament.pairing import Entrant, RoundRobinSettings, pair_round, planned_rounds
from domain.tournament.pairing.round_robin import berger_round, schedule


def field(count: int, withdrawn: int | None = None) -> list[Entrant]:
    return [Entrant(f"e{n}", n, withdrawn=n == withdrawn) for n in range(1, count + 1)]


@pytest.mark.parametrize("count", [2, 4, 6, 8, 10, 14, 20])
def test_berger_tables_are_fides(count: int) -> None:
    """The tables of the FIDE Handbook (C.05, Annex 1), as caissify-pairings prints them."""
    theirs = berger_schedule(count)
    assert [berger_round(count, r + 1) for r in range(count - 1)] == [
        [tuple(t) for t in rnd] for rnd in theirs
    ]


@pytest.mark.parametrize("count", [3, 4, 5, 8, 9, 12])
def test_every_pair_meets_once_a_cycle_with_balanced_seats(count: int) -> None:
    settings = RoundRobinSettings(cycles=2)
    rounds = [
        pair_round(settings, field(count), r, RandomStream("s"))
        for r in range(1, planned_rounds(settings, count) + 1)
    ]
    per_cycle = len(rounds) // 2
    for cycle in (rounds[:per_cycle], rounds[per_cycle:]):
        met = Counter(frozenset(t) for rnd in cycle for t in rnd.tables)
        assert set(met.values()) == {1}
        assert len(met) == count * (count - 1) // 2
        firsts = Counter(t[0] for rnd in cycle for t in rnd.tables)
        games = Counter(e for rnd in cycle for t in rnd.tables for e in t)
        for entrant, played in games.items():
            assert abs(2 * firsts[entrant] - played) <= 1
        byes = Counter(e for rnd in cycle for e in rnd.byes)
        assert set(byes.values()) <= {1}
        assert len(byes) == count % 2 * count
    first = {(t[0], t[1]) for rnd in rounds[:per_cycle] for t in rnd.tables}
    second = {(t[1], t[0]) for rnd in rounds[per_cycle:] for t in rnd.tables}
    assert first == second  # seats swapped in the second cycle


def test_a_withdrawn_entrants_opponent_has_a_bye() -> None:
    rnd = pair_round(RoundRobinSettings(), field(6, withdrawn=6), 1, RandomStream("s"))
    assert rnd.byes == ("e1",)  # e1 meets 6 in round 1
    assert len(rnd.tables) == 2


def test_the_schedule_uses_no_stream() -> None:
    rng = RandomStream("s")
    pair_round(RoundRobinSettings(4, 3), field(13), 2, rng)
    assert rng.position == 0


@pytest.mark.parametrize(
    ("count", "size", "minimum", "most_repeats"),
    [(9, 3, 3, 0), (16, 4, 3, 8), (12, 3, 3, 7), (13, 4, 3, 1), (20, 4, 3, 27)],
)
def test_multi_player_schedule_balances_meetings(
    count: int, size: int, minimum: int, most_repeats: int
) -> None:
    """Everyone once a round; never a pair three times; repeats no worse than measured in
    docs/tournaments.md ("Round robin")."""
    settings = RoundRobinSettings(size, minimum)
    met: Counter[tuple[int, int]] = Counter()
    for tables, byes in schedule(count, settings):
        seated = [n for t in tables for n in t] + list(byes)
        assert sorted(seated) == list(range(1, count + 1))
        assert all(minimum <= len(t) <= size for t in tables)
        met.update(pair for t in tables for pair in itertools.combinations(sorted(t), 2))
    assert max(met.values()) <= 2
    assert sum(v - 1 for v in met.values()) <= most_repeats


def test_multi_player_withdrawal_below_the_minimum_leaves_byes() -> None:
    settings = RoundRobinSettings(3, 3)
    tables, _ = schedule(9, settings)[0]
    gone = tables[0][0]
    rnd = pair_round(settings, field(9, withdrawn=gone), 1, RandomStream("s"))
    assert sorted(rnd.byes) == sorted(f"e{n}" for n in tables[0] if n != gone)
    assert len(rnd.tables) == 2
