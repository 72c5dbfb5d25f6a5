"""How many tables of which sizes a round has (docs/tournaments.md, "Table sizes").

Tables have the target size; where the count does not divide, some tables are one smaller
(the smaller tables are the last ones, at the bottom of the standings). A table is never below
the game's minimum: where no split into target-size and one-smaller tables exists (say 5
entrants, tables of 4, minimum 3), the fewest entrants possible sit the round out with a bye.
With two-player tables that is the classic odd-count bye.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Split:
    """A round's shape: table sizes from the top table down, and how many byes."""

    sizes: tuple[int, ...]
    byes: int


def _split_exact(count: int, target: int, minimum: int) -> tuple[int, ...] | None:
    """Sizes target or target-1 (not below ``minimum``) adding up to ``count``, or None."""
    if count == 0:
        return ()
    tables = -(-count // target)
    short = tables * target - count
    if short > tables or (short and target - 1 < minimum):
        return None
    return (target,) * (tables - short) + (target - 1,) * short


def split(count: int, target: int, minimum: int) -> Split:
    """The split of ``count`` entrants with the fewest byes (module docstring).

    >>> split(10, 4, 3)
    Split(sizes=(4, 3, 3), byes=0)
    >>> split(5, 4, 3)
    Split(sizes=(4,), byes=1)
    >>> split(7, 2, 2)
    Split(sizes=(2, 2, 2), byes=1)
    """
    for byes in range(count + 1):
        sizes = _split_exact(count - byes, target, minimum)
        if sizes is not None:
            return Split(sizes, byes)
    raise AssertionError("unreachable: zero entrants always split")  # pragma: no cover
