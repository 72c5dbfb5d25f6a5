"""Elimination (docs/tournaments.md, "Elimination")."""

from __future__ import annotations

import pytest

from domain.randomness import RandomStream
from domain.tournament.pairing import (
    EliminationSettings,
    Entrant,
    PairingError,
    pair_round,
)
from domain.tournament.pairing.elimination import bracket
from tests.tournament_sim import Simulation


def test_standard_seeding() -> None:
    assert bracket(2) == [1, 2]
    assert bracket(4) == [1, 4, 2, 3]
    assert bracket(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


def pairs(rnd_tables: tuple[tuple[str, ...], ...]) -> list[tuple[int, ...]]:
    return [tuple(sorted(int(e[1:]) for e in t)) for t in rnd_tables]


def test_byes_to_the_top_seeds_then_the_bracket_holds() -> None:
    people = [Entrant(f"e{n}", n) for n in range(1, 7)]
    first = pair_round(EliminationSettings(), people, 1, RandomStream("s"))
    assert pairs(first.tables) == [(4, 5), (3, 6)]
    assert first.byes == ("e1", "e2")
    # 5 and 3 win
    out = {4, 6}
    people = [Entrant(f"e{n}", n, eliminated=n in out) for n in range(1, 7)]
    second = pair_round(EliminationSettings(), people, 2, RandomStream("s"))
    assert pairs(second.tables) == [(1, 5), (2, 3)]
    out |= {5, 3}
    people = [Entrant(f"e{n}", n, eliminated=n in out) for n in range(1, 7)]
    final = pair_round(EliminationSettings(), people, 3, RandomStream("s"))
    assert pairs(final.tables) == [(1, 2)]


def test_a_withdrawal_gives_a_walkover() -> None:
    people = [Entrant(f"e{n}", n, withdrawn=n == 8) for n in range(1, 9)]
    rnd = pair_round(EliminationSettings(), people, 1, RandomStream("s"))
    assert rnd.byes == ("e1",)
    assert pairs(rnd.tables) == [(4, 5), (2, 7), (3, 6)]


def test_a_round_before_the_last_one_has_results_is_refused() -> None:
    people = [Entrant(f"e{n}", n) for n in range(1, 9)]
    with pytest.raises(PairingError) as caught:
        pair_round(EliminationSettings(), people, 2, RandomStream("s"))
    assert caught.value.code == "round-not-finished"


def test_nothing_left_to_play() -> None:
    people = [Entrant("a", 1), Entrant("b", 2, eliminated=True)]
    with pytest.raises(PairingError) as caught:
        pair_round(EliminationSettings(), people, 1, RandomStream("s"))
    assert caught.value.code == "tournament-finished"


def test_multi_player_snake_seeding_and_a_final_table() -> None:
    settings = EliminationSettings(4, 3, advance=1)
    people = [Entrant(f"e{n}", n) for n in range(1, 13)]
    rnd = pair_round(settings, people, 1, RandomStream("s"))
    assert [sorted(int(e[1:]) for e in t) for t in rnd.tables] == [
        [1, 6, 7, 12],
        [2, 5, 8, 11],
        [3, 4, 9, 10],
    ]
    sim = Simulation(settings, 40, seed=1)
    sizes = []
    while True:
        active = [r for r in sim.records.values() if not r.eliminated]
        if len(active) == 1:
            break
        rnd = sim.pair()
        sizes.append(len(rnd.tables))
        sim.play(rnd)
    assert sizes == [10, 3, 1]  # 40 -> 10 -> 3 -> the final table


@pytest.mark.parametrize(("size", "smallest", "count"), [(6, 4, 4), (6, 3, 4), (5, 3, 3)])
def test_multi_player_final_table_of_any_size_from_the_minimum(
    size: int, smallest: int, count: int
) -> None:
    # At most table_size left (and at least the minimum): one final table of them all, even
    # where split() has no table of that size (target or one less).
    settings = EliminationSettings(size, smallest, advance=1)
    people = [Entrant(f"e{n}", n) for n in range(1, count + 1)]
    rnd = pair_round(settings, people, 3, RandomStream("s"))
    assert len(rnd.tables) == 1 and sorted(rnd.tables[0]) == sorted(e.id for e in people)
    assert rnd.byes == ()
