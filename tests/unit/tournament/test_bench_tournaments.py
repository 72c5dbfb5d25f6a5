"""The tournaments benchmark's code (bench/tournaments.py, docs/tournaments.md "Measured") run
on tiny sizes, so it cannot rot between the on-demand runs: every format played to its end
through the aggregate, the figures it reports, and the speed path on small Swisses. No timing
is asserted."""

from __future__ import annotations

import io
from fractions import Fraction

from bench.tournaments import Spec, measure, run, spearman
from domain.tournament.standings import standing_rows
from tests.tournament_play import start

SWISS_TWO = Spec("Swiss, 2 players", {"kind": "swiss", "rounds": 3}, 10, "3")
SWISS_FOUR = Spec(
    "Swiss, 4 players (min 3)",
    {"kind": "swiss", "table_size": 4, "min_table_size": 3, "rounds": 3},
    13,
    "3",
)
ROBIN = Spec("Round robin, 2 players", {"kind": "round-robin"}, 6, "5")
BRACKET = Spec("Elimination, 2 players", {"kind": "elimination"}, 7, "3")
HEATS = Spec(
    "Elimination, 4 players (min 3), top 1",
    {"kind": "elimination", "table_size": 4, "min_table_size": 3, "advance": 1},
    16,
    "to the final",
)


def test_spearman_is_one_for_the_order_of_strength_and_minus_one_reversed() -> None:
    strength = {"a": 2.0, "b": 1.5, "c": -0.3, "d": -1.0}
    assert spearman(strength, ["a", "b", "c", "d"]) == 1
    assert spearman(strength, ["d", "c", "b", "a"]) == -1
    assert spearman(strength, ["b", "a", "c", "d"]) == 1 - 6 * 2 / (4 * 15)


def test_a_played_tournament_records_results_that_agree_with_its_standings() -> None:
    play = start(SWISS_FOUR.format, 13, "agree")
    play.play_out()
    t = play.tournament
    assert t.phase == "finished" and len(t.rounds) == 3
    rows = standing_rows(t)
    assert t.ranking == [r["entrant"] for r in rows]
    # 13 at tables of 4 (min 3): 4+3+3+3, so each round gives 60+40+20+0 + 3 * (60+30+0).
    assert sum(Fraction(r["points"]) for r in rows) == 3 * (120 + 3 * 90)
    # Round 1 is paired before any result: every table's spread is 0.
    assert play.spreads[:4] == [0, 0, 0, 0] and len(play.spreads) == 12
    for rnd in t.rounds:
        for table in rnd["tables"]:
            ranks, scores = table["result"]["ranks"], table["result"]["scores"]
            by_rank = [s for _, s in sorted(zip(ranks, scores, strict=True))]
            assert by_rank == sorted(by_rank, reverse=True)


def test_the_figures_are_deterministic_by_seed() -> None:
    first, again = measure(SWISS_TWO, 2, "same"), measure(SWISS_TWO, 2, "same")
    other = measure(SWISS_TWO, 2, "other")
    assert first == again
    assert (first.spreads, first.spearman) != (other.spreads, other.spearman)


def test_the_quick_path_plays_every_format_to_its_end_on_tiny_sizes() -> None:
    out = io.StringIO()
    specs = [SWISS_TWO, SWISS_FOUR, ROBIN, BRACKET, HEATS]
    speeds = [
        ("tiny Swiss at tables of 4", SWISS_FOUR.format | {"rounds": 8}, 14),
        ("tiny two-player Swiss", SWISS_TWO.format | {"rounds": 8}, 16),
    ]
    swiss_two, swiss_four, robin, bracket, heats = run(
        specs, speeds, tournaments=3, repeat=1, seed="smoke", out=out
    )
    for figures in (swiss_two, swiss_four, robin, bracket, heats):
        assert figures.tournaments == figures.finished == 3
        assert figures.problems == []
        assert all(-1 <= rho <= 1 for rho in figures.spearman)
        assert 0 <= figures.strongest_first <= 3
    assert swiss_two.rounds == 3 * 3 and swiss_two.repeats == [0, 0, 0]
    assert swiss_four.rounds == 3 * 3 and len(swiss_four.spreads) == 3 * 3 * 4
    assert robin.rounds == 3 * 5 and robin.repeats == [0, 0, 0]
    assert bracket.rounds == 3 * 3 and bracket.repeats == [0, 0, 0]
    # 16 at tables of 4, the top 1 of each goes on: 4 heats, then the final table.
    assert heats.rounds == 3 * 2 and heats.repeats == [0, 0, 0]
    # Only winners meet again, and they all have the same points: the final's spread is 0.
    assert max(heats.spreads) == 0
    # Two-player seats are read as colours, the others as shares and debts.
    assert len(swiss_two.imbalance) == 3 * 10 and not swiss_two.overshare
    assert len(swiss_four.overshare) == len(swiss_four.debts) == 3 * 13
    assert all(d <= 1 for d in swiss_four.debts)
    text = out.getvalue()
    assert text.count("| yes |") == 2
    for spec in specs:
        assert f"| {spec.name} | {spec.entrants:,}, {spec.rounds} | 3 (3 finished) |" in text
    assert "INVARIANT" not in text
