"""The pairing interface's values and refusals (docs/tournaments.md, "Pairing", "Pairing
numbers", "Table sizes", "Pairing errors")."""

from __future__ import annotations

import pytest

from domain.randomness import RandomStream
from domain.tournament.pairing import (
    EliminationSettings,
    Entrant,
    PairingError,
    Round,
    RoundRobinSettings,
    SwissSettings,
    draw_numbers,
    pair_round,
    planned_rounds,
    standing_order,
)
from domain.tournament.pairing.model import pairing_order
from domain.tournament.pairing.sizes import split


def entrants(count: int, **points: float) -> list[Entrant]:
    return [Entrant(f"e{n}", n, points=points.get(f"e{n}", 0.0)) for n in range(1, count + 1)]


def test_round_json_round_trips() -> None:
    rnd = Round(3, (("a", "b"), ("c", "d", "e")), ("f",))
    data = rnd.to_json()
    assert data == {"number": 3, "tables": [["a", "b"], ["c", "d", "e"]], "byes": ["f"]}
    assert Round.from_json(data) == rnd


def test_draw_numbers_orders_by_seed_and_ignores_the_input_order() -> None:
    ids = [f"id{k}" for k in range(20)]
    seeds = {i: float(k // 5) for k, i in enumerate(ids)}  # four groups of equal seeds
    first = draw_numbers(ids, RandomStream("seed"), seeds)
    again = draw_numbers(list(reversed(ids)), RandomStream("seed"), seeds)
    assert first == again
    assert sorted(first.values()) == list(range(1, 21))
    top = {i for i, n in first.items() if n <= 5}
    assert top == {f"id{k}" for k in range(15, 20)}  # the greatest seed value first
    other = draw_numbers(ids, RandomStream("another seed"), seeds)
    assert other != first  # ties are drawn by lot
    assert {i for i, n in other.items() if n <= 5} == top


def test_draw_numbers_refuses_a_repeated_id() -> None:
    with pytest.raises(PairingError) as caught:
        draw_numbers(["a", "a"], RandomStream("s"))
    assert caught.value.code == "duplicate-entrant"


@pytest.mark.parametrize(
    ("count", "target", "minimum", "sizes", "byes"),
    [
        (12, 4, 3, (4, 4, 4), 0),
        (13, 4, 3, (4, 3, 3, 3), 0),
        (14, 4, 3, (4, 4, 3, 3), 0),
        (5, 4, 3, (4,), 1),
        (5, 4, 4, (4,), 1),
        (11, 5, 4, (5, 5), 1),  # 5+3+3 would go below the minimum
        (2, 4, 3, (), 2),
        (9, 2, 2, (2, 2, 2, 2), 1),
        (7, 3, 2, (3, 2, 2), 0),
    ],
)
def test_split(count: int, target: int, minimum: int, sizes: tuple[int, ...], byes: int) -> None:
    shape = split(count, target, minimum)
    assert shape.sizes == sizes
    assert shape.byes == byes
    assert sum(shape.sizes) + shape.byes == count
    assert all(minimum <= s <= target for s in shape.sizes)
    assert all(target - s <= 1 for s in shape.sizes)


def test_standing_and_pairing_orders() -> None:
    a = Entrant("a", 3, points=2, tie_breaks=(5.0,))
    b = Entrant("b", 1, points=2, tie_breaks=(4.0,))
    c = Entrant("c", 2, points=3, tie_breaks=(0.0,))
    assert [e.id for e in standing_order([a, b, c])] == ["c", "a", "b"]
    assert [e.id for e in pairing_order([a, b, c])] == ["c", "b", "a"]


@pytest.mark.parametrize(
    ("settings", "people", "code"),
    [
        (SwissSettings(), [Entrant("a", 1), Entrant("a", 2)], "duplicate-entrant"),
        (SwissSettings(), [Entrant("a", 1), Entrant("b", 1)], "bad-pairing-number"),
        (SwissSettings(), [Entrant("a", 0), Entrant("b", 1)], "bad-pairing-number"),
        (
            SwissSettings(),
            [Entrant("a", 1, tie_breaks=(1.0,)), Entrant("b", 2)],
            "bad-tie-breaks",
        ),
        (SwissSettings(), [Entrant("a", 1, byes=-1), Entrant("b", 2)], "bad-history"),
        (SwissSettings(), [Entrant("a", 1, floats=(2,)), Entrant("b", 2)], "bad-history"),
        (SwissSettings(7, 2), entrants(8), "bad-table-size"),
        (SwissSettings(3, 4), entrants(8), "bad-table-size"),
        (SwissSettings(1, 1), entrants(8), "bad-table-size"),
        (SwissSettings(), entrants(1), "too-few-entrants"),
        (SwissSettings(4, 3), entrants(2), "too-few-entrants"),
        (RoundRobinSettings(), [Entrant("a", 1), Entrant("b", 3)], "bad-pairing-number"),
        (RoundRobinSettings(cycles=0), entrants(4), "bad-settings"),
        (EliminationSettings(4, 3, advance=3), entrants(12), "bad-settings"),
        (EliminationSettings(), [Entrant("a", 1), Entrant("b", 3)], "bad-pairing-number"),
    ],
)
def test_refusals(settings: SwissSettings, people: list[Entrant], code: str) -> None:
    with pytest.raises(PairingError) as caught:
        pair_round(settings, people, 1, RandomStream("s"))
    assert caught.value.code == code


@pytest.mark.parametrize(
    ("settings", "round_number"),
    [(RoundRobinSettings(), 4), (EliminationSettings(), 3), (SwissSettings(), 0)],
)
def test_no_such_round(settings: SwissSettings, round_number: int) -> None:
    with pytest.raises(PairingError) as caught:
        pair_round(settings, entrants(4), round_number, RandomStream("s"))
    assert caught.value.code == "no-such-round"


def test_planned_rounds() -> None:
    assert planned_rounds(SwissSettings(), 10) is None
    assert planned_rounds(RoundRobinSettings(), 10) == 9
    assert planned_rounds(RoundRobinSettings(), 9) == 9
    assert planned_rounds(RoundRobinSettings(cycles=2), 4) == 6
    assert planned_rounds(RoundRobinSettings(4, 3), 16) == 5
    assert planned_rounds(RoundRobinSettings(4, 3, rounds=3), 16) == 3
    assert planned_rounds(EliminationSettings(), 16) == 4
    assert planned_rounds(EliminationSettings(), 17) == 5
    assert planned_rounds(EliminationSettings(4, 3), 16) is None


def test_withdrawn_and_eliminated_entrants_are_not_seated() -> None:
    people = [*entrants(6), Entrant("w", 7, withdrawn=True), Entrant("x", 8, eliminated=True)]
    rnd = pair_round(SwissSettings(), people, 1, RandomStream("s"))
    seated = [e for table in rnd.tables for e in table] + list(rnd.byes)
    assert sorted(seated) == sorted(e.id for e in people[:6])
