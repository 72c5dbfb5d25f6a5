"""Our two-player Swiss (``domain.tournament.pairing.swiss_pairs``) beside an established FIDE
Dutch implementation, ``caissify-pairings`` (PyPI, pure Python, cross-checked by its authors
against bbpPairings, the FIDE-endorsed engine lichess uses): docs/tournaments.md, "Compared
with the FIDE Dutch system".

Each simulated tournament (``tests.tournament_sim``, chess-like results with draws) is paired
round by round by us and played on our pairing; before each round both engines pair the same
standings, and every round is sorted into the kinds of difference below. Run it for a report:

    .venv/bin/python -m tests.dutch_compare --tournaments 200
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from dataclasses import dataclass, field

from caissify_pairings import generate_pairings

from domain.tournament.pairing import Round, SwissSettings
from domain.tournament.pairing.colours import preference
from tests.tournament_sim import Simulation

KINDS = (
    "identical",
    "dutch leaves more than one unpaired",
    "same pairs, other seats",
    "other bye",
    "same score pattern, other opponents",
    "ours floats less",
    "ours floats more",
    "other floats, same amount",
)


def dutch_round(sim: Simulation, total_rounds: int) -> Round:
    """The round caissify-pairings' Dutch engine pairs for the simulation's standings."""
    records = sorted(sim.records.values(), key=lambda r: r.number)
    number_of = {r.id: r.number for r in records}
    players = []
    for r in records:
        colours = [("white" if g.seat == 0 else "black") for g in r.games if g is not None]
        # a bye counts as a downfloat (C.04.3 A.4.b)
        floats = [{-1: "down", 1: "up", 0: "none"}[f] for f in sim.floats(r)]
        players.append(
            {
                "id": r.number,
                "score": r.points,
                "rating": 3000 - r.number,
                "starting_number": r.number,
                "pairing_number": r.number,
                "color_hist": colours,
                "float_history": floats,
                "bye_count": r.byes,
            }
        )
    previous = {(number_of[r.id], number_of[o]) for r in records for o in r.opponents if r.id < o}
    initial = "white" if sim.random.random() < 0.5 else "black"
    rows = generate_pairings(
        system="dutch",
        players=players,
        previous_pairings=previous,
        round_number=len(sim.rounds) + 1,
        total_rounds=total_rounds,
        initial_color=initial,
    )
    id_of = {r.number: r.id for r in records}
    tables = tuple(
        (id_of[row["white_id"]], id_of[row["black_id"]]) for row in rows if not row.get("bye")
    )
    byes = tuple(id_of[row["white_id"]] for row in rows if row.get("bye"))
    return Round(len(sim.rounds) + 1, tables, byes)


@dataclass
class Tally:
    """Counts over every compared round."""

    rounds: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    quality: Counter[str] = field(default_factory=Counter)


def _floats(sim: Simulation, rnd: Round) -> list[float]:
    return sorted(abs(sim.records[a].points - sim.records[b].points) for a, b in rnd.tables)


def classify(sim: Simulation, ours: Round, theirs: Round) -> str:
    """The kind of difference between two pairings of the same standings (``KINDS``)."""
    if ours.tables == theirs.tables and ours.byes == theirs.byes:
        return "identical"
    if len(theirs.byes) > 1:
        return "dutch leaves more than one unpaired"
    pairs = {frozenset(t) for t in ours.tables}
    if pairs == {frozenset(t) for t in theirs.tables} and ours.byes == theirs.byes:
        if {t for t in ours.tables} == {t for t in theirs.tables}:
            return "identical"
        return "same pairs, other seats"
    if ours.byes != theirs.byes:
        return "other bye"
    mine, other = _floats(sim, ours), _floats(sim, theirs)
    if mine == other:
        return "same score pattern, other opponents"
    cost_mine, cost_other = sum(f * f for f in mine), sum(f * f for f in other)
    if cost_mine < cost_other:
        return "ours floats less"
    if cost_mine > cost_other:
        return "ours floats more"
    return "other floats, same amount"


def denied(sim: Simulation, rnd: Round) -> int:
    """How many seated entrants do not get the seat they wish (``colours.preference``)."""
    people = {e.id: e for e in sim.entrants()}
    count = 0
    for table in rnd.tables:
        for seat, entrant in enumerate(table):
            wish = preference(people[entrant]).wish
            count += wish not in (0, 1 if seat == 0 else -1)
    return count


def _quality(sim: Simulation, rnd: Round, who: str, tally: Tally) -> None:
    """Rematches, FIDE absolute colour faults (a difference above 2, or a third same seat in
    a row) and floaters that ``rnd`` would cause (counted on rounds both pair in full)."""
    for table in rnd.tables:
        a, b = (sim.records[e] for e in table)
        tally.quality[f"{who} rematches"] += a.opponents[b.id] > 0
        for seat, record in enumerate((a, b)):
            seats = [g.seat for g in record.games if g is not None] + [seat]
            firsts = seats.count(0)
            streak = len(seats) >= 3 and len(set(seats[-3:])) == 1
            fault = abs(2 * firsts - len(seats)) > 2 or streak
            tally.quality[f"{who} colour faults"] += fault
        tally.quality[f"{who} floaters"] += a.points != b.points


def compare(tournaments: int, seed: int = 1) -> Tally:
    """Compare on ``tournaments`` random tournaments of 6..40 entrants and 5..9 rounds."""
    tally = Tally()
    chooser = random.Random(seed)
    for t in range(tournaments):
        count, rounds = chooser.randint(6, 40), chooser.randint(5, 9)
        sim = Simulation(SwissSettings(), count, seed * 100_000 + t, draw_rate=0.3)
        for _ in range(min(rounds, count - 1)):
            ours, theirs = sim.pair(), dutch_round(sim, rounds)
            tally.rounds += 1
            kind = classify(sim, ours, theirs)
            tally.kinds[kind] += 1
            if kind != "dutch leaves more than one unpaired":
                _quality(sim, ours, "ours", tally)
                _quality(sim, theirs, "dutch", tally)
                mine, other = denied(sim, ours), denied(sim, theirs)
                tally.quality["ours seat wishes denied"] += mine
                tally.quality["dutch seat wishes denied"] += other
                if kind == "same score pattern, other opponents":
                    verdict = "fewer" if mine < other else "more" if mine > other else "as many"
                    tally.quality[f"{kind}: ours denies {verdict} seat wishes"] += 1
            sim.play(ours)
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    tally = compare(args.tournaments, args.seed)
    print(f"{args.tournaments} tournaments, {tally.rounds} rounds compared")
    for kind in KINDS:
        print(f"| {kind} | {tally.kinds[kind]} | {100 * tally.kinds[kind] / tally.rounds:.1f}% |")
    for key, value in sorted(tally.quality.items()):
        print(f"| {key} | {value} |")


if __name__ == "__main__":
    main()
