"""Whole tournaments played through the tournament aggregate (docs/tournaments.md, "Measured"),
for bench/tournaments.py and its smoke test: the aggregate pairs every round, records every
result with ``record_result`` and keeps its own standings (the format's points and
tie-breaks), exactly as the service drives it, without a store and without the tables' games.

Results: each entrant has a hidden strength (``gauss(0, 1)``); a table ranks its players by
strength plus noise (``gauss(0, 1)`` per player and game); at a table of two, a draw (a shared
first place, equal scores) with probability ``draw_rate`` instead. Game scores follow the
same performance (``max(0, round(50 + 15 * performance))``), so they never contradict the
ranks and the ``score`` tie-break means what it means in a real game. Everything is drawn from
one ``random.Random`` seeded by the caller: a run is deterministic by its seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any
from uuid import UUID

from domain.randomness import commitment
from domain.tournament.aggregate import Tournament
from domain.tournament.standings import tallies

ORGANISER_SHA256 = "0" * 64
TABLE_SECRET = "7a" * 32
CHAIN_HEAD = "ab" * 32
"""The game's chain head a result names (no game is played here)."""


def game_for(table_size: int) -> str:
    """A game kind that seats every table size up to ``table_size`` (Azul: 2 to 4; Risk: 2
    to 6); the aggregate only asks the game's rules whether each size can play."""
    return "azul" if table_size <= 4 else "risk"


@dataclass
class Play:
    """One tournament being played: the aggregate, the hidden strengths, what was seen."""

    tournament: Tournament
    strengths: dict[str, float]
    rng: random.Random
    draw_rate: float
    spreads: list[Fraction] = field(default_factory=list)
    """Per table of every round, in the order paired: the tournament points between the best
    and the worst placed of its entrants before the round (the aggregate's standings)."""

    def result(self, seats: list[str]) -> tuple[list[int], list[int]]:
        """A table's ranks and scores, seat by seat (module docstring)."""
        if len(seats) == 2 and self.rng.random() < self.draw_rate:
            level = max(0, round(50 + 15 * sum(self.strengths[e] for e in seats) / 2))
            return [1, 1], [level, level]
        performance = [self.strengths[e] + self.rng.gauss(0, 1) for e in seats]
        order = sorted(range(len(seats)), key=lambda s: -performance[s])
        ranks = [0] * len(seats)
        for place, seat in enumerate(order, start=1):
            ranks[seat] = place
        return ranks, [max(0, round(50 + 15 * p)) for p in performance]

    def note_round(self) -> None:
        """Note the score spread at each table of the round just paired."""
        found = tallies(self.tournament)
        points = {key: t.points - t.penalty for key, t in found.items()}
        for table in self.tournament.rounds[-1]["tables"]:
            values = [points[e] for e in table["seats"]]
            self.spreads.append(max(values) - min(values))

    def play_round(self) -> None:
        """Record a result for every table of the last round; the last one makes the
        aggregate pair the next round (``auto`` pairing) or finish."""
        t = self.tournament
        for table in list(t.rounds[-1]["tables"]):
            ranks, scores = self.result(table["seats"])
            t.record_result(table["game"], ranks, scores, 1, CHAIN_HEAD)

    def play_out(self, max_rounds: int = 1000) -> None:
        """Play every round until the tournament finishes (at most ``max_rounds``)."""
        t = self.tournament
        for _ in range(max_rounds):
            if t.phase != "running":
                return
            self.note_round()
            self.play_round()
        raise AssertionError(f"the tournament was still running after {max_rounds} rounds")


def start(fmt: dict[str, Any], count: int, seed: str, draw_rate: float = 0.2) -> Play:
    """A tournament of ``count`` entrants in format ``fmt``, registered, checked in and
    started (round 1 paired), with its hidden strengths, all drawn from ``seed``."""
    rng = random.Random(seed)
    tournament_seed = f"{rng.getrandbits(256):064x}"
    t = Tournament.create(
        game=game_for(int(fmt.get("table_size", 2))),
        options={},
        settings=None,
        format=fmt,
        name="Bench Open",
        seed=tournament_seed,
        seed_sha256=commitment(tournament_seed),
        organiser_sha256=ORGANISER_SHA256,
        table_secret=TABLE_SECRET,
        tournament_id=UUID(int=rng.getrandbits(128), version=4),
    )
    ids = [f"e{i:04d}" for i in range(count)]
    for i, key in enumerate(ids):
        t.register(f"entrant {i}", f"{i:064x}", entrant_id=key)
    t.open_check_in()
    for key in ids:
        t.check_in(key)
    strengths = {key: rng.gauss(0, 1) for key in ids}
    t.start()
    return Play(t, strengths, rng, draw_rate)
