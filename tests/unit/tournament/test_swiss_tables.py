"""Swiss pairing of multi-player tables (docs/tournaments.md, "Swiss, multi-player tables")
and their seat order (docs/tournaments.md, "Seat balance")."""

from __future__ import annotations

import itertools

from domain.randomness import RandomStream
from domain.tournament.pairing import Entrant, SwissSettings, pair_round
from domain.tournament.pairing.grouping import table_cost
from domain.tournament.pairing.model import pairing_order
from domain.tournament.pairing.seating import debt, order_table
from domain.tournament.pairing.swiss_tables import REACH, pair_swiss_tables, score_groups
from tests.tournament_sim import Simulation


def test_round_one_groups_by_pairing_number_with_short_tables_at_the_bottom() -> None:
    people = [Entrant(f"e{n}", n) for n in range(1, 15)]
    rnd = pair_swiss_tables(SwissSettings(4, 3), people, 1, RandomStream("s"))
    assert [sorted(int(e[1:]) for e in t) for t in rnd.tables] == [
        [1, 2, 3, 4],
        [5, 6, 7, 8],
        [9, 10, 11],
        [12, 13, 14],
    ]
    assert rnd.byes == ()


def test_byes_only_where_no_split_keeps_the_minimum() -> None:
    people = [Entrant(f"e{n}", n, byes=1 if n == 5 else 0) for n in range(1, 6)]
    rnd = pair_swiss_tables(SwissSettings(4, 4), people, 1, RandomStream("s"))
    assert rnd.byes == ("e4",)  # the lowest ranked without a bye
    assert sorted(rnd.tables[0]) == ["e1", "e2", "e3", "e5"]


def test_repeated_meetings_are_swapped_away() -> None:
    # Round 2 after a round 1 of [1-4], [5-8]: grouping by standing alone would repeat them.
    met = {
        n: {f"e{m}": 1 for m in range(1, 9) if (m - 1) // 4 == (n - 1) // 4 and m != n}
        for n in range(1, 9)
    }
    people = [Entrant(f"e{n}", n, opponents=met[n]) for n in range(1, 9)]
    rnd = pair_swiss_tables(SwissSettings(2 * 2, 3), people, 2, RandomStream("s"))
    for table in rnd.tables:
        numbers = [int(e[1:]) for e in table]
        assert len({(n - 1) // 4 for n in numbers}) == 2  # at most two who met before


def test_the_result_is_a_local_optimum() -> None:
    sim = Simulation(SwissSettings(4, 3), 41, seed=2)
    sim.run(4)
    people = sim.entrants()
    rnd = sim.pair()
    seated = [e for e in pairing_order([p for p in people if p.active]) if e.id not in rnd.byes]
    index = {e.id: k for k, e in enumerate(seated)}
    groups = score_groups(seated)
    unit = (groups[-1] ** 2) * len(seated) * 4 + 1

    def cost(i: int, j: int) -> int:
        return seated[i].met(seated[j].id) * unit + (groups[i] - groups[j]) ** 2

    tables = [[index[e] for e in t] for t in rnd.tables]
    for t, u in itertools.combinations(range(len(tables)), 2):
        if u - t > REACH:
            continue
        before = table_cost(tables[t], cost) + table_cost(tables[u], cost)
        for x, y in itertools.product(range(len(tables[t])), range(len(tables[u]))):
            a, b = list(tables[t]), list(tables[u])
            a[x], b[y] = b[y], a[x]
            assert table_cost(a, cost) + table_cost(b, cost) >= before


def test_seat_order_puts_the_most_indebted_first() -> None:
    early = ((0, 4), (0, 4))
    late = ((3, 4), (3, 4))
    people = [
        Entrant("early", 1, seats=early),
        Entrant("late", 2, seats=late),
        Entrant("mid", 3, seats=((1, 4), (2, 4))),
        Entrant("new", 4),
    ]
    order = [e.id for e in order_table(people, RandomStream("s"))]
    assert order[0] == "late"
    assert order[-1] == "early"
    assert sorted(debt(e) for e in people) == [-60, 0, 0, 60]


def test_round_one_seat_order_is_drawn() -> None:
    people = [Entrant(f"e{n}", n) for n in range(1, 5)]
    orders = {order_table(people, RandomStream(str(k)))[0].id for k in range(30)}
    assert orders == {"e1", "e2", "e3", "e4"}


def test_same_inputs_same_round() -> None:
    sim = Simulation(SwissSettings(5, 3), 37, seed=4)
    sim.run(3)
    people = sim.entrants()
    one = pair_round(SwissSettings(5, 3), people, 4, RandomStream("x", 3))
    two = pair_round(SwissSettings(5, 3), people[::-1], 4, RandomStream("x", 3))
    assert one == two
