"""Tournaments through the aggregate: quality and speed (issue 15, part 8; docs/tournaments.md,
"Measured").

Quality: for every format of the "Quality" table, ``--tournaments`` whole tournaments (a
twentieth of them, at least one, at 500 entrants and more) played through the tournament
aggregate (tests/tournament_play.py): each table's result is a hidden strength plus noise
(two players: 20% draws), recorded with ``record_result``, so the aggregate's own standings
(the default points and tie-breaks) pair each next round. Per format: rounds paired, repeated
meetings per tournament, the score spread at a table before the round in tournament points,
seat balance, and how well the final ranking found the hidden strengths (how often the
strongest finished first; the Spearman correlation of strength and final place).

Speed: pairing round 5 through the aggregate (``pair_next_round`` after four rounds of
results) of a 1,000-entrant Swiss at tables of 4 (min 3) and a 256-entrant two-player Swiss,
best of ``--repeat``, in milliseconds against the issue's aim (under a second) and as a ratio
to a baseline timed in the same run (sorting the same entrants into the standing order); its
two parts (the standings' pairing inputs, the pairing alone); the command that records a
round's last result when pairing is ``auto`` (it pairs the next round); ``standing_rows``
after the eighth round.

    .venv/bin/python bench/tournaments.py [--quick] [--tournaments 100] [--repeat 3] [--seed S]
                                          [--part all|speed|quality]

``--quick`` (``make bench-tournaments QUICK=1``): 3 tournaments per format (1 of the
1,000-entrant Swiss) and one repeat, a smoke run of every code path in about 20 seconds.
Deterministic by ``--seed`` (the figures; not the times). Never run by the test suite, which
runs this code on tiny sizes only (tests/unit/tournament/test_bench_tournaments.py).
"""

from __future__ import annotations

import argparse
import copy
import gc
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TextIO

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.tournament.format import pairing_settings
from domain.tournament.invariants import check_invariants
from domain.tournament.pairing import pair_round
from domain.tournament.pairing import standing_order as sort_standing
from domain.tournament.pairing.colours import colours
from domain.tournament.pairing.seating import debt
from domain.tournament.rounds import round_over
from domain.tournament.standings import pairing_inputs, standing_rows
from tests.tournament_play import CHAIN_HEAD, Play, start


@dataclass(frozen=True)
class Spec:
    """One row of the quality table: a format, its entrants, its rounds as the table says."""

    name: str
    format: dict[str, Any]
    entrants: int
    rounds: str


def _swiss(size: int, smallest: int, rounds: int) -> dict[str, Any]:
    return {"kind": "swiss", "table_size": size, "min_table_size": smallest, "rounds": rounds}


FORMATS: list[Spec] = [
    Spec("Swiss, 2 players", _swiss(2, 2, 7), 32, "7"),
    Spec("Swiss, 2 players", _swiss(2, 2, 7), 100, "7"),
    Spec("Swiss, 3 players", _swiss(3, 3, 6), 30, "6"),
    Spec("Swiss, 4 players (min 3)", _swiss(4, 3, 6), 40, "6"),
    Spec("Swiss, 4 players (min 3)", _swiss(4, 3, 8), 1000, "8"),
    Spec("Swiss, 5 players (min 3)", _swiss(5, 3, 6), 50, "6"),
    Spec("Swiss, 6 players (min 3)", _swiss(6, 3, 6), 45, "6"),
    Spec("Round robin, 2 players", {"kind": "round-robin"}, 10, "9"),
    Spec(
        "Round robin, 4 players (min 3)",
        {"kind": "round-robin", "table_size": 4, "min_table_size": 3},
        16,
        "5",
    ),
    Spec("Round robin, 3 players", {"kind": "round-robin", "table_size": 3}, 15, "7"),
    Spec("Elimination, 2 players", {"kind": "elimination"}, 48, "6"),
    Spec(
        "Elimination, 4 players (min 3), top 1",
        {"kind": "elimination", "table_size": 4, "min_table_size": 3, "advance": 1},
        64,
        "to the final",
    ),
]
"""The formats, entrants and rounds of docs/tournaments.md's "Quality" table."""

SPEED: list[tuple[str, dict[str, Any], int]] = [
    ("Swiss, tables of 4 (min 3), 1,000 entrants", _swiss(4, 3, 8), 1000),
    ("Swiss, two players, 256 entrants", _swiss(2, 2, 8), 256),
]
"""The speed cases: a name, the format (eight rounds), the entrants."""

AIM = 1.0
"""The issue's aim for pairing one round, in seconds."""


@dataclass
class Figures:
    """What one format's tournaments showed."""

    tournaments: int = 0
    finished: int = 0
    rounds: int = 0
    two_player: bool = True
    repeats: list[int] = field(default_factory=list)
    spreads: list[float] = field(default_factory=list)
    imbalance: list[int] = field(default_factory=list)
    overshare: list[float] = field(default_factory=list)
    debts: list[float] = field(default_factory=list)
    strongest_first: int = 0
    spearman: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def spearman(strength: dict[str, float], ranking: Sequence[str]) -> float:
    """Spearman's correlation between the hidden strength and the final place, signed so
    that 1 means the ranking put the entrants exactly in order of strength (no ties: the
    strengths are continuous and the standing order is total)."""
    n = len(ranking)
    if n < 2:
        return 1.0
    by_strength = sorted(ranking, key=lambda e: -strength[e])
    place = {e: i for i, e in enumerate(ranking)}
    d2 = sum((i - place[e]) ** 2 for i, e in enumerate(by_strength))
    return 1 - 6 * d2 / (n * (n * n - 1))


def _repeated(play: Play) -> int:
    """Pairs that met again (a pair meeting three times counts 2)."""
    met: Counter[tuple[str, str]] = Counter()
    for e in pairing_inputs(play.tournament):
        met.update({(e.id, o): c for o, c in e.opponents.items() if e.id < o})
    return sum(c - 1 for c in met.values() if c > 1)


def _seats(play: Play, figures: Figures) -> None:
    """Seat balance at the end (docs/tournaments.md, "Seat balance")."""
    for e in pairing_inputs(play.tournament):
        if not e.seats:
            continue
        if figures.two_player:
            figures.imbalance.append(abs(sum(colours(e))))
        else:
            share = sum(1 / players for _, players in e.seats)
            figures.overshare.append(sum(1 for seat, _ in e.seats if seat == 0) - share)
            figures.debts.append(abs(debt(e)) / 60)


def measure(spec: Spec, tournaments: int, seed: str) -> Figures:
    """Play ``tournaments`` tournaments of ``spec`` through the aggregate; their figures."""
    figures = Figures(two_player=spec.format.get("table_size", 2) == 2)
    for index in range(tournaments):
        play = start(spec.format, spec.entrants, f"{seed}/{spec.name}/{spec.entrants}/{index}")
        play.play_out()
        t = play.tournament
        figures.tournaments += 1
        figures.finished += t.phase == "finished"
        figures.rounds += len(t.rounds)
        figures.spreads.extend(float(s) for s in play.spreads)
        figures.repeats.append(_repeated(play))
        _seats(play, figures)
        strongest = max(play.strengths, key=lambda e: play.strengths[e])
        figures.strongest_first += bool(t.ranking) and t.ranking[0] == strongest
        figures.spearman.append(spearman(play.strengths, t.ranking))
        figures.problems.extend(f"{index}: {p}" for p in check_invariants(t))
        t.collect_events()
    return figures


def _pct(part: int, whole: int) -> str:
    return f"{part / whole:.1%}" if whole else "-"


def _number(value: float) -> str:
    return f"{value:.4g}"


def seats_cell(figures: Figures) -> str:
    """The seat-balance cell, as the table reports it."""
    if figures.two_player:
        counts, total = Counter(figures.imbalance), len(figures.imbalance)
        return (
            f"{_pct(counts[0] + counts[1], total)} within 1, {_pct(counts[2], total)} at 2, "
            f"{_pct(sum(v for k, v in counts.items() if k >= 3), total)} at 3+"
        )
    return (
        f"first seats off share: mean {statistics.mean(abs(x) for x in figures.overshare):.2f}, "
        f"most above {max(figures.overshare):.2f}; debt: mean {statistics.mean(figures.debts):.2f}"
        f", max {max(figures.debts):.2f}"
    )


def quality_row(spec: Spec, figures: Figures) -> str:
    """One markdown row of the quality table."""
    spreads = figures.spreads
    p95 = statistics.quantiles(spreads, n=20)[-1] if len(spreads) > 1 else spreads[0]
    unit = "win = 1" if figures.two_player else "1st = 60"
    return (
        f"| {spec.name} | {spec.entrants:,}, {spec.rounds} | {figures.tournaments} "
        f"({figures.finished} finished) | {figures.rounds} | "
        f"{statistics.mean(figures.repeats):.2f} ({max(figures.repeats)}) | "
        f"{statistics.mean(spreads):.2f}, {_number(p95)}, {_number(max(spreads))} ({unit}) | "
        f"{seats_cell(figures)} | {_pct(figures.strongest_first, figures.tournaments)}; "
        f"rho {statistics.mean(figures.spearman):.2f} |"
    )


QUALITY_HEADER = (
    "| format | entrants, rounds | tournaments | rounds paired | repeated meetings per "
    "tournament: mean (max) | score spread at a table before the round, tournament points: "
    "mean, 95th pct, max | seats | strongest first; Spearman rho (mean) |\n"
    "|---|---|---|---|---|---|---|---|"
)


@dataclass(frozen=True)
class Timing:
    """The best of several runs, in seconds: wall-clock time, and the process's CPU time
    (less disturbed by other work on a shared machine)."""

    wall: float
    cpu: float


def _timed(run: Callable[[], object]) -> Timing:
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return Timing(time.perf_counter() - wall, time.process_time() - cpu)


def _best(times: Sequence[Timing]) -> Timing:
    return Timing(min(t.wall for t in times), min(t.cpu for t in times))


def best(repeat: int, run: Callable[[], object]) -> Timing:
    """Best of ``repeat`` runs (garbage collected before them, not switched off)."""
    gc.collect()
    return _best([_timed(run) for _ in range(repeat)])


def best_on_copies(repeat: int, play: Play, run: Callable[[Any], object]) -> Timing:
    """Best of ``run`` on ``repeat`` deep copies of the tournament (each run changes its
    copy; the copies are made outside the timing), checking every run recorded the same new
    events."""
    times, outcomes = [], []
    play.tournament.collect_events()
    for _ in range(repeat):
        clone = copy.deepcopy(play.tournament)
        gc.collect()
        times.append(_timed(partial(run, clone)))
        outcomes.append([e.public_data() for e in clone.collect_events()])
    assert all(o == outcomes[0] for o in outcomes), "a run recorded different events"
    return _best(times)


def _to_round(play: Play, rounds: int, *, leave_last: bool = False) -> None:
    """Record results up to the end of round ``rounds`` (with ``organiser`` pairing, pairing
    each next round); with ``leave_last``, leave that round's last table undecided."""
    t = play.tournament
    while True:
        rnd = t.rounds[-1]
        undecided = [table for table in rnd["tables"] if table["result"] is None]
        if rnd["number"] == rounds and leave_last:
            undecided = undecided[:-1]
        for table in undecided:
            ranks, scores = play.result(table["seats"])
            t.record_result(table["game"], ranks, scores, 1, CHAIN_HEAD)
        if rnd["number"] >= rounds:
            t.collect_events()
            return
        if round_over(t.rounds[-1]):
            t.pair_next_round()


def speed(fmt: dict[str, Any], count: int, repeat: int, seed: str) -> dict[str, Timing]:
    """Timings (module docstring): ``pair`` (``pair_next_round`` of round 5), ``inputs``
    (``pairing_inputs``), ``pairing`` (``pair_round`` alone on those inputs), ``baseline``
    (sorting them into the standing order), ``command`` (the round's last result, ``auto``),
    ``rows`` (``standing_rows`` after the eighth round)."""
    out: dict[str, Timing] = {}
    auto = start(fmt, count, seed)
    _to_round(auto, 4, leave_last=True)
    last = auto.tournament.rounds[-1]["tables"][-1]
    ranks, scores = auto.result(last["seats"])
    out["command"] = best_on_copies(
        repeat, auto, lambda c: c.record_result(last["game"], ranks, scores, 1, CHAIN_HEAD)
    )
    play = start({**fmt, "pairing": "organiser"}, count, seed)
    _to_round(play, 4)
    t = play.tournament
    out["pair"] = best_on_copies(repeat, play, lambda c: c.pair_next_round())
    inputs = pairing_inputs(t)
    out["inputs"] = best(repeat, lambda: pairing_inputs(t))
    settings = pairing_settings(t.format)
    out["pairing"] = best(repeat, lambda: pair_round(settings, inputs, 5, t.random_stream()))
    out["baseline"] = best(repeat * 20, lambda: sort_standing(inputs))
    _to_round(play, 8)
    assert t.phase == "finished" and len(t.rounds) == 8
    out["rows"] = best(repeat, lambda: standing_rows(t))
    return out


SPEED_HEADER = (
    "| pairing round 5 through the aggregate | `pair_next_round` | under 1 s? | of which "
    "`pairing_inputs` | of which `pair_round` | baseline sort | `pair_next_round` / baseline "
    "| last result's command (`auto`) | `standing_rows` after round 8 |\n"
    "|---|---|---|---|---|---|---|---|---|"
)
"""Each time: wall-clock (CPU time of the process); the ratio is of CPU times."""


def _ms(t: Timing) -> str:
    return f"{t.wall * 1000:,.0f} ms ({t.cpu * 1000:,.0f})"


def speed_row(name: str, s: dict[str, Timing]) -> str:
    """One markdown row of the speed table (``SPEED_HEADER``)."""
    base = s["baseline"]
    return (
        f"| {name} | {_ms(s['pair'])} | {'yes' if s['pair'].wall < AIM else 'NO'} | "
        f"{_ms(s['inputs'])} | {_ms(s['pairing'])} | "
        f"{base.wall * 1e6:,.0f} µs ({base.cpu * 1e6:,.0f}) | "
        f"{s['pair'].cpu / max(base.cpu, 1e-9):,.0f} | "
        f"{_ms(s['command'])} | {_ms(s['rows'])} |"
    )


def run(
    specs: Sequence[Spec],
    speeds: Sequence[tuple[str, dict[str, Any], int]],
    *,
    tournaments: int,
    repeat: int,
    seed: str,
    out: TextIO = sys.stdout,
) -> list[Figures]:
    """The whole benchmark (the quality figures are returned as well as printed)."""
    began = time.perf_counter()
    if speeds:
        print(
            "Each time: wall-clock (CPU time of the process); the ratio is of CPU times.\n",
            file=out,
        )
        print(SPEED_HEADER, file=out, flush=True)
        for name, fmt, count in speeds:
            print(speed_row(name, speed(fmt, count, repeat, seed)), file=out, flush=True)
        print(f"({_load()})\n", file=out)
    if specs:
        print(QUALITY_HEADER, file=out, flush=True)
    found = []
    for spec in specs:
        many = tournaments if spec.entrants < 500 else max(1, tournaments // 20)
        figures = measure(spec, many, seed)
        found.append(figures)
        print(quality_row(spec, figures), file=out, flush=True)
        for problem in figures.problems:
            print(f"  INVARIANT BROKEN: {problem}", file=out)
    print(f"\n{time.perf_counter() - began:.0f} s; {_load()}", file=out)
    return found


def _load() -> str:
    """The machine's load averages (other work on the machine slows every figure)."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 tournaments, 1 repeat")
    parser.add_argument("--tournaments", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--part", choices=("all", "speed", "quality"), default="all")
    args = parser.parse_args(argv)
    tournaments, repeat = (3, 1) if args.quick else (args.tournaments, args.repeat)
    print(
        f"seed {args.seed!r}, {tournaments} tournaments per format, best of {repeat}; {_load()}\n",
        flush=True,
    )
    run(
        FORMATS if args.part != "speed" else [],
        SPEED if args.part != "quality" else [],
        tournaments=tournaments,
        repeat=repeat,
        seed=args.seed,
    )


if __name__ == "__main__":
    main()
