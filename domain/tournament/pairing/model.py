"""The pairing interface's values (docs/tournaments.md, "Pairing"): what every format's pairing
function takes (an entrant's standing inputs, the format's settings) and what it returns (a
round: tables in seat order, and byes). All frozen; JSON-ready through ``Round.to_json``.

Two orders of the entrants: the *standing order* (``standing_order``): more tournament points
first, then the tie-break values compared in the order given (greater first: the standings
code passes a tie-break where less is better negated), then the lower pairing number; and the
Swiss *pairing order* (``pairing_order``): points, then pairing number, as the FIDE Dutch
system ranks. Pairing numbers are fixed when the tournament starts
(``domain.tournament.pairing.starting``), so no two entrants ever tie and no format needs
chance to order its entrants.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.errors import GameError

#: The largest table any pairing seats (the games allow 2 to 6 players).
MAX_TABLE_SIZE = 6


class PairingError(GameError):
    """Inputs a pairing function refuses; ``code`` is stable (docs/tournaments.md,
    "Pairing errors")."""


@dataclass(frozen=True)
class Entrant:
    """One entrant's standing inputs, as the tournament's record gives them before a round.

    ``number`` is the pairing number (1 = top seed) fixed at the start. ``points`` are the
    tournament points so far; ``tie_breaks`` the tie-break values in the configured order
    (greater is better). ``opponents`` maps each entrant met at a table to how many times.
    ``seats`` lists, game by game, ``(seat, players)``: the seat taken (0 moves first) and how
    many sat at that table. ``byes`` counts the byes had. ``floats`` (two-player Swiss only;
    optional) lists, round by round, -1 where the entrant floated down (met someone with
    fewer points before the round, or had a bye), +1 up, 0 neither. A withdrawn or
    eliminated entrant is seated by no format (elimination keeps it in the bracket, as an
    empty slot).
    """

    id: str
    number: int
    points: float = 0.0
    tie_breaks: tuple[float, ...] = ()
    opponents: Mapping[str, int] = field(default_factory=dict, hash=False)
    seats: tuple[tuple[int, int], ...] = ()
    byes: int = 0
    floats: tuple[int, ...] = ()
    withdrawn: bool = False
    eliminated: bool = False

    @property
    def active(self) -> bool:
        """Whether this entrant is to be seated (neither withdrawn nor eliminated)."""
        return not (self.withdrawn or self.eliminated)

    def met(self, other: str) -> int:
        """How many times this entrant met ``other`` at a table."""
        return self.opponents.get(other, 0)


@dataclass(frozen=True)
class SwissSettings:
    """Swiss (docs/tournaments.md, "Swiss"): tables of ``table_size`` (2 to 6), one smaller
    where the count does not divide, never below ``min_table_size`` (the game's minimum)."""

    table_size: int = 2
    min_table_size: int = 2


@dataclass(frozen=True)
class RoundRobinSettings:
    """Round robin (docs/tournaments.md, "Round robin"). Two-player tables: every pair meets
    ``cycles`` times (seats swapped in the second cycle). Multi-player tables: a schedule of
    ``rounds`` rounds (None: the fewest rounds in which everyone could meet everyone)."""

    table_size: int = 2
    min_table_size: int = 2
    cycles: int = 1
    rounds: int | None = None


@dataclass(frozen=True)
class EliminationSettings:
    """Elimination (docs/tournaments.md, "Elimination"). Two-player tables: a seeded single
    elimination bracket. Multi-player tables: the top ``advance`` of each table go on (the
    results code eliminates the others), until one final table."""

    table_size: int = 2
    min_table_size: int = 2
    advance: int = 1


FormatSettings = SwissSettings | RoundRobinSettings | EliminationSettings


@dataclass(frozen=True)
class Round:
    """One round's pairing: ``tables`` are entrant ids in seat order (seat 0 moves first),
    listed from the top table down; ``byes`` are the entrants who sit the round out with a bye
    (a walkover in elimination)."""

    number: int
    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The round as JSON-ready values (lists, not tuples: docs/architecture.md, events)."""
        return {
            "number": self.number,
            "tables": [list(table) for table in self.tables],
            "byes": list(self.byes),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Round:
        """The inverse of ``to_json``."""
        return cls(
            number=int(data["number"]),
            tables=tuple(tuple(str(e) for e in table) for table in data["tables"]),
            byes=tuple(str(e) for e in data["byes"]),
        )


def standing_key(entrant: Entrant) -> tuple[float, tuple[float, ...], int]:
    """The sort key of the standing order (module docstring): points, tie-breaks, number."""
    return (-entrant.points, tuple(-value for value in entrant.tie_breaks), entrant.number)


def standing_order(entrants: Sequence[Entrant]) -> list[Entrant]:
    """The entrants from first to last in the standing order (module docstring)."""
    return sorted(entrants, key=standing_key)


def pairing_order(entrants: Sequence[Entrant]) -> list[Entrant]:
    """The Swiss pairing order (FIDE C.04.3 A.2): more points first, then the lower pairing
    number; tie-breaks, which move with every result elsewhere, are left out."""
    return sorted(entrants, key=lambda e: (-e.points, e.number))


def check_entrants(entrants: Sequence[Entrant]) -> None:
    """Refuse entrant lists no format can pair: repeated ids or numbers, tie-break lists of
    different lengths, numbers below 1, impossible histories (docs/tournaments.md, "Pairing
    errors")."""
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise PairingError("duplicate-entrant", "an entrant id appears twice")
    numbers = [e.number for e in entrants]
    if len(set(numbers)) != len(numbers) or any(n < 1 for n in numbers):
        raise PairingError("bad-pairing-number", "pairing numbers must be distinct and >= 1")
    if len({len(e.tie_breaks) for e in entrants}) > 1:
        raise PairingError("bad-tie-breaks", "every entrant needs the same tie-break count")
    counts = [c for e in entrants for c in e.opponents.values()]
    bad_floats = any(f not in (-1, 0, 1) for e in entrants for f in e.floats)
    if any(e.byes < 0 for e in entrants) or any(c < 1 for c in counts) or bad_floats:
        raise PairingError(
            "bad-history", "bye and meeting counts must be positive, floats -1, 0 or 1"
        )


def check_table_sizes(table_size: int, min_table_size: int) -> None:
    """Refuse table sizes outside 2..6 or a minimum above the target (docs/tournaments.md)."""
    if not 2 <= min_table_size <= table_size <= MAX_TABLE_SIZE:
        raise PairingError(
            "bad-table-size",
            f"need 2 <= min_table_size <= table_size <= {MAX_TABLE_SIZE}, "
            f"got {min_table_size} and {table_size}",
        )
