"""Simulated tournaments for the pairing tests and the Dutch comparison: random results
played on the rounds that ``domain.tournament.pairing`` pairs, and the entrants' standing
inputs derived from them, without the tournament aggregate (tests/tournament_play.py plays
whole tournaments through it, for bench/tournaments.py).

Results: each entrant has a hidden strength; a table ranks its players by strength plus
noise; tournament points by rank are ``players - 1 - rank`` (two players: 1 for a win, with
``draw_rate`` draws worth 1/2 each). A bye is worth a win at two-player tables and the middle
rank's points otherwise. Tie-break: Buchholz (the sum of the opponents' points). Elimination:
a two-player loser (a draw: the lower seed) and every player below the ``advance`` places
are eliminated.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from domain.randomness import RandomStream
from domain.tournament.pairing import (
    EliminationSettings,
    Entrant,
    FormatSettings,
    Round,
    draw_numbers,
    pair_round,
)


@dataclass
class Played:
    """One entrant's game in one round: the opponents, the seat, points before the round."""

    opponents: tuple[str, ...]
    seat: int
    players: int
    points_before: float


@dataclass
class Record:
    """One entrant's running record."""

    id: str
    number: int
    strength: float
    points: float = 0.0
    opponents: Counter[str] = field(default_factory=Counter)
    games: list[Played | None] = field(default_factory=list)  # None: a bye or no game
    byes: int = 0
    bye_rounds: set[int] = field(default_factory=set)
    eliminated: bool = False
    withdrawn: bool = False

    @property
    def seats(self) -> tuple[tuple[int, int], ...]:
        return tuple((g.seat, g.players) for g in self.games if g is not None)


class Simulation:
    """A tournament of ``count`` entrants under ``settings``, seeded by ``seed``."""

    def __init__(
        self, settings: FormatSettings, count: int, seed: int, draw_rate: float = 0.0
    ) -> None:
        self.settings = settings
        self.random = random.Random(seed)
        self.stream = RandomStream(f"simulation-{seed}")
        ids = [f"{self.random.getrandbits(64):016x}" for _ in range(count)]
        numbers = draw_numbers(ids, self.stream)
        self.records = {i: Record(i, numbers[i], self.random.gauss(0, 1)) for i in ids}
        self.rounds: list[Round] = []
        self.draw_rate = draw_rate
        self.last_draws = 0

    def entrants(self) -> list[Entrant]:
        """The standing inputs of every entrant now."""
        return [
            Entrant(
                id=r.id,
                number=r.number,
                points=r.points,
                tie_breaks=(sum(self.records[o].points * c for o, c in r.opponents.items()),),
                opponents=dict(r.opponents),
                seats=r.seats,
                byes=r.byes,
                floats=self.floats(r),
                withdrawn=r.withdrawn,
                eliminated=r.eliminated,
            )
            for r in self.records.values()
        ]

    def floats(self, r: Record) -> tuple[int, ...]:
        """Two-player tables: per round, -1 floated down (or a bye), +1 up, 0 neither."""
        out = []
        for k, g in enumerate(r.games):
            if g is None or g.players != 2:
                out.append(-1 if k in r.bye_rounds else 0)
                continue
            other = self.records[g.opponents[0]].games[k]
            assert other is not None
            mine, theirs = g.points_before, other.points_before
            out.append(-1 if mine > theirs else 1 if mine < theirs else 0)
        return tuple(out)

    def pair(self) -> Round:
        """The next round, paired by the domain."""
        return pair_round(self.settings, self.entrants(), len(self.rounds) + 1, self.stream)

    def play(self, rnd: Round) -> None:
        """Random results for ``rnd``, applied to the records."""
        before = {i: r.points for i, r in self.records.items()}
        for record in self.records.values():
            record.games.append(None)
        for table in rnd.tables:
            self._play_table(table, before)
        size = self.settings.table_size
        for entrant in rnd.byes:
            self.records[entrant].byes += 1
            self.records[entrant].bye_rounds.add(len(self.rounds))
            self.records[entrant].points += 1 if size == 2 else (size - 1) // 2
        self.rounds.append(rnd)

    def _play_table(self, table: tuple[str, ...], before: dict[str, float]) -> None:
        players = len(table)
        for seat, entrant in enumerate(table):
            record = self.records[entrant]
            others = tuple(o for o in table if o != entrant)
            record.games[-1] = Played(others, seat, players, before[entrant])
            record.opponents.update(others)
        if players == 2 and self.random.random() < self.draw_rate:
            for entrant in table:
                self.records[entrant].points += 0.5
            loser = max(table, key=lambda e: self.records[e].number)
            order = [e for e in table if e != loser] + [loser]
        else:
            noisy = {e: self.records[e].strength + self.random.gauss(0, 1) for e in table}
            order = sorted(table, key=lambda e: -noisy[e])
            for rank, entrant in enumerate(order):
                self.records[entrant].points += players - 1 - rank
        if isinstance(self.settings, EliminationSettings):
            for entrant in order[self.settings.advance :]:
                self.records[entrant].eliminated = True

    def run(self, rounds: int) -> list[Round]:
        """Pair and play ``rounds`` rounds; the rounds."""
        for _ in range(rounds):
            self.play(self.pair())
        return self.rounds
