"""Elimination (docs/tournaments.md, "Elimination").

Two-player tables: single elimination over a bracket of ``B`` = the entrant count rounded up
to a power of two, in standard seeding order (``bracket``: 1 v B, and seeds 1 and 2 can meet
only in the final); the seeds are the pairing numbers, so seeds above the count are empty and
the top seeds have the first-round byes. In round ``r`` the bracket splits into blocks of
``2**(r-1)`` places, each holding at most one entrant still in (not eliminated, not
withdrawn); neighbouring blocks meet; a block facing an empty one has a bye (walkover). The
caller passes every entrant of the start at every round, so the bracket never moves. Seats:
``colours`` (the Dutch colour rules; the better seed counts as higher ranked).

Multi-player tables: each round seats the entrants still in, by the standing order, snake
fashion over the tables of ``sizes.split`` (1st, 2nd, .. to the last table, then back), so the
best seeds meet as late as possible; where the split needs byes, the top seeds have them. The
results code keeps the top ``advance`` of each table; once at most ``table_size`` remain (and at
least the minimum), they form the final table, of any size. Seats: ``seating.order_table``.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.randomness import RandomStream
from domain.tournament.pairing.colours import Lot, order_two
from domain.tournament.pairing.model import (
    EliminationSettings,
    Entrant,
    PairingError,
    Round,
    check_entrants,
    check_table_sizes,
    standing_order,
)
from domain.tournament.pairing.seating import order_table
from domain.tournament.pairing.sizes import Split, split


def bracket(size: int) -> list[int]:
    """The seeds 1..``size`` (a power of two) in bracket order.

    >>> bracket(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    seeds = [1]
    while len(seeds) < size:
        total = 2 * len(seeds) + 1
        seeds = [s for seed in seeds for s in (seed, total - seed)]
    return seeds


def planned_rounds(settings: EliminationSettings, count: int) -> int | None:
    """Two-player tables: the bracket's rounds; multi-player: None (it depends on results)."""
    if settings.table_size != 2:
        return None
    return max(1, (count - 1).bit_length())


def pair_elimination_two(
    entrants: Sequence[Entrant], round_number: int, rng: RandomStream
) -> Round:
    """Round ``round_number`` of the two-player bracket (module docstring)."""
    check_entrants(entrants)
    by_seed = {e.number: e for e in entrants}
    if sorted(by_seed) != list(range(1, len(entrants) + 1)):
        raise PairingError("bad-pairing-number", "a bracket needs the numbers 1..n")
    rounds = planned_rounds(EliminationSettings(), len(entrants)) or 1
    if not 1 <= round_number <= rounds:
        raise PairingError("no-such-round", f"the bracket has rounds 1..{rounds}")
    places = [by_seed.get(seed) for seed in bracket(1 << rounds)]
    block = 1 << (round_number - 1)
    survivors: list[Entrant | None] = []
    for start in range(0, len(places), block):
        inside = [e for e in places[start : start + block] if e is not None and e.active]
        if len(inside) > 1:
            raise PairingError("round-not-finished", "a match of the last round has no result")
        survivors.append(inside[0] if inside else None)
    tables: list[tuple[str, ...]] = []
    byes: list[str] = []
    lot = Lot(rng)
    for a, b in zip(survivors[::2], survivors[1::2], strict=True):
        if a is not None and b is not None:
            high, low = sorted((a, b), key=lambda e: e.number)
            tables.append(tuple(e.id for e in order_two(high, low, lot)))
        elif a is not None or b is not None:
            byes.append((a or b).id)  # type: ignore[union-attr]
    if not tables:
        raise PairingError("tournament-finished", "no match is left to play")
    return Round(round_number, tuple(tables), tuple(byes))


def snake(count: int, sizes: Sequence[int]) -> list[list[int]]:
    """Indices ``0..count-1`` dealt snake fashion onto tables of ``sizes``.

    >>> snake(7, [4, 3])
    [[0, 3, 4, 6], [1, 2, 5]]
    """
    tables: list[list[int]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    index = 0
    forward = True
    while index < count:
        for t in order if forward else reversed(order):
            if index < count and len(tables[t]) < sizes[t]:
                tables[t].append(index)
                index += 1
        forward = not forward
    return tables


def pair_elimination_tables(
    settings: EliminationSettings,
    entrants: Sequence[Entrant],
    round_number: int,
    rng: RandomStream,
) -> Round:
    """A multi-player elimination round (module docstring)."""
    check_entrants(entrants)
    check_table_sizes(settings.table_size, settings.min_table_size)
    if not 1 <= settings.advance < settings.min_table_size:
        raise PairingError("bad-settings", "advance must be at least 1 and below the minimum")
    ranked = standing_order([e for e in entrants if e.active])
    if settings.min_table_size <= len(ranked) <= settings.table_size:
        # The final table, whatever its size: split() seats only the target size or one
        # less, and would leave 4 finalists at tables of 6 (min 4) without a table.
        shape = Split((len(ranked),), 0)
    else:
        shape = split(len(ranked), settings.table_size, settings.min_table_size)
    if not shape.sizes:
        raise PairingError("too-few-entrants", "too few entrants still in for a table")
    byes, seated = ranked[: shape.byes], ranked[shape.byes :]
    lot = Lot(rng)
    tables = [
        tuple(e.id for e in order_table([seated[i] for i in table], rng, lot))
        for table in snake(len(seated), shape.sizes)
    ]
    return Round(round_number, tuple(tables), tuple(e.id for e in byes))
