"""Swiss pairing of two-player tables (docs/tournaments.md, "Swiss, two players") and the
colour rules (docs/tournaments.md, "Seat balance")."""

from __future__ import annotations

from domain.randomness import RandomStream
from domain.tournament.pairing import Entrant, SwissSettings, pair_round, swiss_pairs
from domain.tournament.pairing.colours import ABSOLUTE, MILD, STRONG, Lot, order_two, preference
from domain.tournament.pairing.swiss_pairs import pair_swiss_two, tiers
from tests.tournament_sim import Simulation


def numbers(rnd_tables: tuple[tuple[str, ...], ...]) -> list[tuple[int, ...]]:
    return [tuple(int(e[1:]) for e in table) for table in rnd_tables]


def field(count: int) -> list[Entrant]:
    return [Entrant(f"e{n}", n) for n in range(1, count + 1)]


def test_round_one_is_top_half_against_bottom_half_with_alternating_colours() -> None:
    rnd = pair_swiss_two(field(8), 1, RandomStream("s"))
    pairs = numbers(rnd.tables)
    assert [tuple(sorted(p)) for p in pairs] == [(1, 5), (2, 6), (3, 7), (4, 8)]
    top_first = [p[0] == min(p) for p in pairs]
    assert top_first in ([True, False, True, False], [False, True, False, True])
    assert rnd.byes == ()


def test_the_initial_colour_is_the_only_draw_of_round_one() -> None:
    seen = set()
    for seed in ("a", "b", "c", "d", "e", "f"):
        rng = RandomStream(seed)
        rnd = pair_swiss_two(field(8), 1, rng)
        assert rng.position == 1
        seen.add(rnd.tables[0][0])
    assert seen == {"e1", "e5"}


def test_bye_to_the_lowest_ranked_and_never_twice_while_avoidable() -> None:
    people = [Entrant(f"e{n}", n, points=1.0 if n <= 4 else 0.0) for n in range(1, 8)]
    rnd = pair_swiss_two(people, 2, RandomStream("s"))
    assert rnd.byes == ("e7",)
    people[6] = Entrant("e7", 7, byes=1)
    rnd = pair_swiss_two(people, 2, RandomStream("s"))
    assert rnd.byes == ("e6",)


def test_the_bye_goes_to_the_lowest_score_group_even_above_the_last_number() -> None:
    people = [Entrant(f"e{n}", n, points=0.0 if n == 2 else 1.0) for n in range(1, 6)]
    assert pair_swiss_two(people, 2, RandomStream("s")).byes == ("e2",)


def test_no_rematch_while_one_is_avoidable() -> None:
    met = {"e1": {"e2": 1}, "e2": {"e1": 1}, "e3": {"e4": 1}, "e4": {"e3": 1}}
    people = [Entrant(f"e{n}", n, points=1.0, opponents=met[f"e{n}"]) for n in range(1, 5)]
    pairs = {frozenset(t) for t in pair_swiss_two(people, 2, RandomStream("s")).tables}
    assert frozenset({"e1", "e2"}) not in pairs
    assert frozenset({"e3", "e4"}) not in pairs


def test_a_rematch_only_when_unavoidable() -> None:
    people = [
        Entrant("a", 1, opponents={"b": 1}),
        Entrant("b", 2, opponents={"a": 1}),
    ]
    assert {frozenset(t) for t in pair_swiss_two(people, 2, RandomStream("s")).tables} == {
        frozenset({"a", "b"})
    }


def test_seat_balance_comes_before_the_lowest_ranked_bye() -> None:
    # e1, e2, e4 must move first, e3 and e5 second: with the bye to e5 two first-movers
    # would meet; with the bye to e4 (the lowest of those who keep everyone's wish), none.
    wants_first, wants_second = two(1, 1), two(0, 0)
    people = [
        Entrant("e1", 1, seats=wants_first),
        Entrant("e2", 2, seats=wants_first),
        Entrant("e3", 3, seats=wants_second),
        Entrant("e4", 4, seats=wants_first),
        Entrant("e5", 5, seats=wants_second),
    ]
    rnd = pair_swiss_two(people, 3, RandomStream("s"))
    assert rnd.byes == ("e4",)
    assert sorted(rnd.tables) == [("e1", "e3"), ("e2", "e5")]


def test_who_floats_down_avoids_floating_twice_in_a_row() -> None:
    # Group 1.0 has three: one must float down to the 0.0 group. e3 (the lowest) would,
    # but it floated down last round: e2 floats instead.
    people = [
        Entrant("e1", 1, points=1.0, floats=(0,)),
        Entrant("e2", 2, points=1.0, floats=(0,)),
        Entrant("e3", 3, points=1.0, floats=(-1,)),
        Entrant("e4", 4, points=0.0, floats=(0,)),
    ]
    rnd = pair_swiss_two(people, 2, RandomStream("s"))
    assert {frozenset(t) for t in rnd.tables} == {frozenset({"e1", "e3"}), frozenset({"e2", "e4"})}
    people[2] = Entrant("e3", 3, points=1.0, floats=(0,))
    rnd = pair_swiss_two(people, 2, RandomStream("s"))
    assert {frozenset(t) for t in rnd.tables} == {frozenset({"e1", "e2"}), frozenset({"e3", "e4"})}


def test_score_groups_come_before_seat_balance() -> None:
    # Two leaders both must move second (absolute), the others could balance them: the
    # leaders still meet each other.
    seats = ((0, 2), (0, 2))
    people = [
        Entrant("a", 1, points=2.0, seats=seats),
        Entrant("b", 2, points=2.0, seats=seats),
        Entrant("c", 3, points=0.0, seats=((1, 2), (1, 2))),
        Entrant("d", 4, points=0.0, seats=((1, 2), (1, 2))),
    ]
    rnd = pair_swiss_two(people, 3, RandomStream("s"))
    assert {frozenset(t) for t in rnd.tables} == {frozenset("ab"), frozenset("cd")}


def test_seat_balance_decides_within_a_score_group() -> None:
    # 1 and 2 both had the first seat twice; 3 and 4 the second: pairing 1-3 and 2-4 gives
    # everyone their wish, as the Dutch system's transposition would.
    first, second = ((0, 2), (0, 2)), ((1, 2), (1, 2))
    people = [
        Entrant("e1", 1, seats=first),
        Entrant("e2", 2, seats=first),
        Entrant("e3", 3, seats=second),
        Entrant("e4", 4, seats=second),
    ]
    rnd = pair_swiss_two(people, 3, RandomStream("s"))
    assert sorted(numbers(rnd.tables)) == [(3, 1), (4, 2)]


def test_preferences() -> None:
    def with_seats(*seats: int) -> Entrant:
        return Entrant("x", 1, seats=tuple((s, 2) for s in seats))

    assert preference(with_seats()).strength == 0
    assert (preference(with_seats(0)).wish, preference(with_seats(0)).strength) == (-1, STRONG)
    assert (preference(with_seats(0, 1)).wish, preference(with_seats(0, 1)).strength) == (1, MILD)
    assert (preference(with_seats(1, 1)).wish, preference(with_seats(1, 1)).strength) == (
        1,
        ABSOLUTE,
    )
    assert preference(with_seats(0, 1, 0, 0, 1, 0)).strength == ABSOLUTE  # difference +2
    # A middle seat at a table of three counts as neither colour.
    assert preference(Entrant("x", 1, seats=((1, 3),))).strength == 0


def two(*seats: int) -> tuple[tuple[int, int], ...]:
    return tuple((s, 2) for s in seats)


def test_colour_rules_e1_to_e5() -> None:
    lot = Lot(RandomStream("s"))
    wants_second = Entrant("a", 1, seats=two(1, 0))
    wants_first = Entrant("b", 2, seats=two(0, 1))
    assert [e.id for e in order_two(wants_second, wants_first, lot)] == ["b", "a"]  # E.1
    strong = Entrant("s", 2, seats=two(0))  # wants second, strongly
    mild = Entrant("m", 1, seats=two(1, 0))  # wants second, mildly
    assert [e.id for e in order_two(mild, strong, lot)] == ["m", "s"]  # E.2
    # Both mildly want the first seat; the last game where they differ: d first, c second.
    d = Entrant("d", 1, seats=two(1, 0, 0, 1))
    c = Entrant("c", 2, seats=two(0, 1, 0, 1))
    assert preference(d).strength == preference(c).strength == MILD
    assert [e.id for e in order_two(d, c, lot)] == ["c", "d"]  # E.3, not E.4
    hi, lo = Entrant("h", 3, seats=two(0, 1)), Entrant("l", 4, seats=two(0, 1))
    assert [e.id for e in order_two(hi, lo, lot)] == ["h", "l"]  # E.4: both want first
    assert lot._bit is None  # no draw until E.5
    first = order_two(Entrant("o", 1), Entrant("v", 2), lot)[0].id
    assert lot._bit is not None
    second = order_two(Entrant("v", 2), Entrant("w", 9), lot)[0].id
    assert (first == "o") == (second == "w")  # E.5: an even number has the other colour


def test_tiers_dominate() -> None:
    units = tiers([3, 1, 9, 16, 40], tables=10)
    lower = [units[t + 1] * m * 10 for t, m in enumerate([1, 9, 16, 40])]
    for t in range(4):
        assert units[t] > sum(lower[t:])


def test_large_fields_use_the_window_and_still_avoid_rematches() -> None:
    sim = Simulation(SwissSettings(), 150, seed=3, draw_rate=0.2)
    for _ in range(7):
        rnd = sim.pair()
        for a, b in rnd.tables:
            assert sim.records[a].opponents[b] == 0
        assert all(sim.records[e].byes == 0 for e in rnd.byes)
        sim.play(rnd)


def test_same_inputs_same_round() -> None:
    sim = Simulation(SwissSettings(), 31, seed=5, draw_rate=0.3)
    sim.run(4)
    people = sim.entrants()
    one = pair_round(SwissSettings(), people, 5, RandomStream("x", 7))
    two = pair_round(SwissSettings(), list(reversed(people)), 5, RandomStream("x", 7))
    assert one == two


def tier_totals(ranked: list, tables: list[tuple[int, int]], bye: int | None) -> list[int]:  # type: ignore[type-arg]
    costs = [swiss_pairs._costs(ranked[i], ranked[j]) for i, j in tables]
    if bye is not None:
        costs.append(swiss_pairs._bye_costs(ranked[bye], ranked[-1].group + 1, len(ranked)))
    return [sum(c[t] for c in costs) for t in range(7)]


def test_the_window_loses_nothing_on_the_first_four_tiers() -> None:
    """docs/tournaments.md, "Swiss, two players", "Speed": above 80 entrants the graph is a
    window; here it finds rounds as good as the complete graph's on tiers 1-4."""
    sim = Simulation(SwissSettings(), 91, seed=8, draw_rate=0.2)
    for _ in range(4):
        ranked = swiss_pairs._rank([e for e in sim.entrants() if e.active])
        window = tier_totals(ranked, *swiss_pairs._match(ranked, swiss_pairs.WINDOW))
        complete = tier_totals(ranked, *swiss_pairs._match(ranked, len(ranked)))
        assert window[:4] == complete[:4]
        sim.play(sim.pair())
