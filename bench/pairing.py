"""Pairing: speed and quality (issue 15, part 8; docs/tournaments.md, "Measured").

Speed: one round of a 1,000-entrant Swiss at tables of four and of a 256-entrant two-player
Swiss, each after four simulated rounds (round 1 is easy), as seconds and as ratios to a
baseline timed in the same run: sorting the entrants into the standing order.

Quality, over ``--tournaments`` simulated tournaments (random results, tests/tournament_sim.py)
of every format: repeated meetings (pairs that meet again), seat imbalance (two players: the
difference first - second seats; more: an entrant's first seats above its share, and its seat
debt in tables' spreads, docs/tournaments.md "Seat balance"), and score spread at the tables
(the points between the best and the worst placed at a table, before the round).

    .venv/bin/python bench/pairing.py [--tournaments 100] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.randomness import RandomStream
from domain.tournament.pairing import (
    EliminationSettings,
    FormatSettings,
    RoundRobinSettings,
    SwissSettings,
    pair_round,
    planned_rounds,
    standing_order,
)
from domain.tournament.pairing.colours import colours
from domain.tournament.pairing.seating import debt
from tests.tournament_sim import Simulation


def best(repeat: int, run: Callable[[], object]) -> float:
    """Best seconds of ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def speed(settings: FormatSettings, count: int, repeat: int) -> tuple[float, float, float]:
    """(seconds of round 1, of round 5 after four simulated rounds, of the baseline sort)."""
    sim = Simulation(settings, count, seed=1, draw_rate=0.2)
    first = sim.entrants()
    round_one = best(repeat, lambda: pair_round(settings, first, 1, RandomStream("b")))
    sim.run(4)
    people = sim.entrants()
    round_five = best(repeat, lambda: pair_round(settings, people, 5, RandomStream("b")))
    baseline = best(repeat * 20, lambda: standing_order(people))
    return round_one, round_five, baseline


FORMATS: list[tuple[str, FormatSettings, int, int]] = [
    ("Swiss, 2 players", SwissSettings(), 32, 7),
    ("Swiss, 2 players, 100 entrants", SwissSettings(), 100, 7),
    ("Swiss, 3 players", SwissSettings(3, 3), 30, 6),
    ("Swiss, 4 players (min 3)", SwissSettings(4, 3), 40, 6),
    ("Swiss, 4 players, 1,000 entrants", SwissSettings(4, 3), 1000, 8),
    ("Swiss, 5 players (min 3)", SwissSettings(5, 3), 50, 6),
    ("Swiss, 6 players (min 3)", SwissSettings(6, 3), 45, 6),
    ("Round robin, 2 players", RoundRobinSettings(), 10, 9),
    ("Round robin, 4 players", RoundRobinSettings(4, 3), 16, 5),
    ("Round robin, 3 players", RoundRobinSettings(3, 3), 15, 7),
    ("Elimination, 2 players", EliminationSettings(), 48, 6),
    ("Elimination, 4 players, top 1", EliminationSettings(4, 3, 1), 64, 6),
]


def quality(settings: FormatSettings, count: int, rounds: int, tournaments: int) -> dict[str, str]:
    """The quality figures of one format over ``tournaments`` simulated tournaments."""
    repeats, spreads, imbalance, overshare, debts = [], [], [], [], []
    played_rounds = 0
    for t in range(tournaments):
        sim = Simulation(settings, count, seed=t, draw_rate=0.2)
        total = planned_rounds(settings, count)
        for _ in range(rounds if total is None else min(rounds, total)):
            if sum(not r.eliminated for r in sim.records.values()) < 2:
                break
            rnd = sim.pair()
            for table in rnd.tables:
                points = [sim.records[e].points for e in table]
                spreads.append(max(points) - min(points))
            sim.play(rnd)
            played_rounds += 1
        met: Counter[tuple[str, str]] = Counter()
        for record in sim.records.values():
            met.update({(record.id, o): c for o, c in record.opponents.items() if record.id < o})
        repeats.append(sum(c - 1 for c in met.values() if c > 1))
        for e in sim.entrants():
            if not e.seats:
                continue
            if settings.table_size == 2:
                imbalance.append(abs(sum(colours(e))))
            else:
                share = sum(1 / p for _, p in e.seats)
                overshare.append(sum(1 for s, _ in e.seats if s == 0) - share)
                debts.append(abs(debt(e)) / 60)
    out = {
        "rounds": str(played_rounds),
        "repeated meetings / tournament": f"{statistics.mean(repeats):.2f} (max {max(repeats)})",
        "score spread at a table: mean, 95th pct, max": (
            f"{statistics.mean(spreads):.2f}, "
            f"{statistics.quantiles(spreads, n=20)[-1]:.1f}, {max(spreads):.1f}"
        ),
    }
    if imbalance:
        counts = Counter(imbalance)
        out["first - second seats: share 0/1, 2, 3+"] = (
            f"{(counts[0] + counts[1]) / len(imbalance):.1%}, {counts[2] / len(imbalance):.1%}, "
            f"{sum(v for k, v in counts.items() if k >= 3) / len(imbalance):.2%}"
        )
    if overshare:
        out["first seats above share: mean, max"] = (
            f"{statistics.mean(abs(x) for x in overshare):.2f}, {max(overshare):.2f}"
        )
        out["seat debt (table spreads): mean, max"] = (
            f"{statistics.mean(debts):.2f}, {max(debts):.2f}"
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print("| pairing one round | round 1 | round 5 | baseline sort | round 5 / baseline |")
    print("|---|---|---|---|---|")
    for name, settings, count in [
        ("Swiss, tables of 4 (min 3), 1,000 entrants", SwissSettings(4, 3), 1000),
        ("Swiss, two players, 256 entrants", SwissSettings(), 256),
    ]:
        one, five, base = speed(settings, count, args.repeat)
        print(
            f"| {name} | {one * 1000:.0f} ms | {five * 1000:.0f} ms | "
            f"{base * 1e6:.0f} µs | {five / base:,.0f} |"
        )
    print()
    for name, settings, count, rounds in FORMATS:
        tournaments = args.tournaments if count < 500 else max(1, args.tournaments // 20)
        figures = quality(settings, count, rounds, tournaments)
        print(f"### {name}: {count} entrants, up to {rounds} rounds, {tournaments} tournaments")
        for key, value in figures.items():
            print(f"- {key}: {value}")
        print()


if __name__ == "__main__":
    main()
