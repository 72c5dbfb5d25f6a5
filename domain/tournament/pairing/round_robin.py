"""Round robin (docs/tournaments.md, "Round robin"): the whole schedule follows from the
pairing numbers alone, so it can be published when the tournament starts; no lots.

Two-player tables: the FIDE Berger tables (circle method). With ``m`` = the entrant count
rounded up to even (an odd count adds an empty number ``m``, whose opponent has the bye), in
round ``r`` (1-based, within a cycle) numbers ``a`` and ``b`` below ``m`` meet when
``a + b = r + 1 (mod m - 1)``, and the number ``a`` with ``2a = r + 1 (mod m - 1)`` meets
``m``. Seats: ``m`` moves first in even rounds; otherwise ``a`` moves first when
``(a - b) mod (m - 1)`` is even. Every pair meets once a cycle; in the second cycle seats are
swapped. No entrant's first-seat count differs from its second-seat count by more than one
per cycle.

Multi-player tables: ``schedule``: round after round, ``grouping`` of the numbers (rotated by
the round) into tables of ``sizes.split``, a pair costing the square of the times it already
met in the schedule, improved by exchanges between any two tables; the best of ``ATTEMPTS``
groupings (the rotation, then orders shuffled by streams seeded with the schedule's shape,
never the tournament seed) is kept. Seats by ``seating.order_table`` on the schedule's own
seat history (ties: lower number). The measure of how close this comes to a resolvable design
(every pair at most once while rounds allow it) is in docs/tournaments.md.

A withdrawn entrant keeps its place in the schedule as an empty seat: a two-player opponent
has a bye; a multi-player table plays without it, or, below the game's minimum, its others
have byes.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence

from domain.randomness import RandomStream
from domain.tournament.pairing import grouping
from domain.tournament.pairing.model import (
    Entrant,
    PairingError,
    Round,
    RoundRobinSettings,
    check_entrants,
    check_table_sizes,
)
from domain.tournament.pairing.seating import order_table
from domain.tournament.pairing.sizes import split

Tables = list[tuple[int, ...]]

ATTEMPTS = 12


def berger_round(count: int, round_in_cycle: int) -> Tables:
    """Round ``round_in_cycle`` (1-based) of the Berger tables for numbers ``1..count``: each
    table in seat order; a table holding the number ``count + 1`` (odd counts) is a bye.

    >>> berger_round(4, 1), berger_round(4, 2), berger_round(4, 3)
    ([(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)])
    """
    m = count + count % 2
    mod = m - 1
    target = (round_in_cycle + 1) % mod
    fixed = next(a for a in range(1, m) if (2 * a) % mod == target)
    tables: Tables = [(m, fixed) if round_in_cycle % 2 == 0 else (fixed, m)]
    for k in range(1, m // 2):
        a, b = (fixed - 1 + k) % mod + 1, (fixed - 1 - k) % mod + 1
        tables.append((a, b) if (a - b) % mod % 2 == 0 else (b, a))
    return tables


def planned_rounds(settings: RoundRobinSettings, count: int) -> int:
    """How many rounds the round robin of ``count`` entrants has."""
    if settings.table_size == 2:
        return (count - 1 + count % 2) * settings.cycles
    if settings.rounds is not None:
        return settings.rounds
    return -(-(count - 1) // (settings.table_size - 1))


@functools.lru_cache(maxsize=16)
def schedule(
    count: int, settings: RoundRobinSettings
) -> tuple[tuple[Tables, tuple[int, ...]], ...]:
    """The multi-player schedule over numbers ``1..count``: per round, tables in seat order,
    and byes (module docstring). Cached: a pure function of its arguments."""
    met: Counter[tuple[int, int]] = Counter()
    seats: dict[int, list[tuple[int, int]]] = {n: [] for n in range(1, count + 1)}
    had_bye: Counter[int] = Counter()
    rounds: list[tuple[Tables, tuple[int, ...]]] = []
    shape = split(count, settings.table_size, settings.min_table_size)
    for r in range(planned_rounds(settings, count)):
        numbers = list(range(1, count + 1))
        numbers = numbers[r % count :] + numbers[: r % count]
        byes = sorted(numbers, key=lambda n: (had_bye[n], numbers.index(n)))[: shape.byes]
        had_bye.update(byes)
        playing = [n for n in numbers if n not in byes]
        groups = _best_grouping(playing, shape.sizes, met, f"{count}:{settings.table_size}:{r}")
        tables: Tables = []
        for group in groups:
            members = [Entrant(str(n), n, seats=tuple(seats[n])) for n in sorted(group)]
            ordered = tuple(e.number for e in order_table(members, None))
            for seat, n in enumerate(ordered):
                seats[n].append((seat, len(ordered)))
            met.update((min(a, b), max(a, b)) for a in ordered for b in ordered if a < b)
            tables.append(ordered)
        rounds.append((tables, tuple(sorted(byes))))
    return tuple(rounds)


def _best_grouping(
    playing: list[int], sizes: Sequence[int], met: Counter[tuple[int, int]], label: str
) -> list[list[int]]:
    """The best of ``ATTEMPTS`` groupings of ``playing`` (numbers) into tables of ``sizes``: the
    first in the given order, the others in orders shuffled by a stream seeded with the
    schedule's shape (``label``), not the tournament's seed; ties keep the earlier attempt."""
    best: tuple[int, list[list[int]]] | None = None
    for attempt in range(ATTEMPTS):
        order = (
            playing
            if attempt == 0
            else RandomStream(f"round-robin:{label}:{attempt}").shuffle(playing)
        )

        def cost(i: int, j: int, order: list[int] = order) -> int:
            return met[(min(order[i], order[j]), max(order[i], order[j]))] ** 2

        groups = grouping.greedy(len(order), sizes, cost, len(order))
        grouping.improve(groups, cost, len(groups))
        total = sum(grouping.table_cost(g, cost) for g in groups)
        if best is None or total < best[0]:
            best = (total, [[order[i] for i in g] for g in groups])
        if total == 0:
            break
    assert best is not None
    return best[1]


def pair_round_robin(
    settings: RoundRobinSettings, entrants: Sequence[Entrant], round_number: int
) -> Round:
    """Round ``round_number`` of the round robin of ``entrants`` (every entrant of the start,
    withdrawn ones included: module docstring)."""
    check_entrants(entrants)
    check_table_sizes(settings.table_size, settings.min_table_size)
    by_number = sorted(entrants, key=lambda e: e.number)
    if [e.number for e in by_number] != list(range(1, len(by_number) + 1)):
        raise PairingError("bad-pairing-number", "a round robin needs the numbers 1..n")
    if settings.cycles < 1:
        raise PairingError("bad-settings", "cycles must be at least 1")
    total = planned_rounds(settings, len(by_number))
    if not 1 <= round_number <= total:
        raise PairingError("no-such-round", f"the round robin has rounds 1..{total}")
    if settings.table_size == 2:
        per_cycle = total // settings.cycles
        cycle, within = divmod(round_number - 1, per_cycle)
        tables = berger_round(len(by_number), within + 1)
        byes: tuple[int, ...] = ()
        if cycle % 2:
            tables = [tuple(reversed(t)) for t in tables]
    else:
        planned, byes = schedule(len(by_number), settings)[round_number - 1]
        tables = list(planned)
    return _fill(settings, by_number, round_number, tables, byes)


def _fill(
    settings: RoundRobinSettings,
    by_number: Sequence[Entrant],
    round_number: int,
    tables: Tables,
    byes: tuple[int, ...],
) -> Round:
    """The round with numbers replaced by entrants; empty and withdrawn seats leave byes."""
    count = len(by_number)
    seated: list[tuple[str, ...]] = []
    bye_ids = [by_number[n - 1].id for n in byes if by_number[n - 1].active]
    for table in tables:
        present = [by_number[n - 1] for n in table if n <= count and by_number[n - 1].active]
        if len(present) >= settings.min_table_size:
            seated.append(tuple(e.id for e in present))
        else:
            bye_ids.extend(e.id for e in present)
    return Round(round_number, tuple(seated), tuple(bye_ids))
