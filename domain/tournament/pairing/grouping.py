"""Grouping entrants into tables of given sizes (docs/tournaments.md, "Swiss, multi-player
tables" and "Round robin"): a greedy fill in a given order, then local improvement by swaps.

The entrants are indices ``0..n-1`` in the order to follow (the standing order for Swiss, a
rotation of pairing numbers for a round-robin schedule); ``pair_cost(i, j)`` is what seating
``i`` and ``j`` together costs (repeated meetings weigh more than any score spread). A table
costs the sum over its pairs.

1. Greedy: each table, from the top down, starts with the first unseated index; each further
   seat takes, among the next ``lookahead`` unseated indices, the one that adds the least cost
   to the table so far (ties: the earlier index).
2. Local improvement: passes over every two tables at most ``reach`` apart; an exchange of one
   entrant of each that lowers the two tables' total cost is made at once. Passes repeat until
   one changes nothing (or ``MAX_PASSES``). The result is then a local optimum: no exchange
   of two entrants between tables at most ``reach`` apart lowers the total cost.
3. Widening (``improve_around``): only around the tables a caller still finds bad (a
   repeated meeting), exchanges with every table at most a wider reach away, the same way.

Everything runs in a fixed order, so the result is a pure function of the inputs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

MAX_PASSES = 30

PairCost = Callable[[int, int], int]


def _added(cost: PairCost, entrant: int, table: Sequence[int], skip: int = -1) -> int:
    """What ``entrant`` adds to ``table`` (leaving out the member ``skip``)."""
    return sum(cost(entrant, other) for other in table if other != skip)


def greedy(count: int, sizes: Sequence[int], cost: PairCost, lookahead: int) -> list[list[int]]:
    """Step 1 of the module docstring: tables of ``sizes`` over indices ``0..count-1``."""
    if sum(sizes) != count:
        raise ValueError("the sizes must add up to the count")
    unseated = list(range(count))
    tables: list[list[int]] = []
    for size in sizes:
        table = [unseated.pop(0)]
        while len(table) < size:
            window = unseated[:lookahead]
            best = min(range(len(window)), key=lambda k: (_added(cost, window[k], table), k))
            table.append(unseated.pop(best))
        tables.append(table)
    return tables


def improve(tables: list[list[int]], cost: PairCost, reach: int) -> int:
    """Step 2 of the module docstring, in place; returns how many passes changed something."""
    passes = 0
    for _ in range(MAX_PASSES):
        changed = False
        for t, first in enumerate(tables):
            for second in tables[t + 1 : t + 1 + reach]:
                changed |= _improve_two(first, second, cost) > 0
        if not changed:
            break
        passes += 1
    return passes


def improve_around(
    tables: list[list[int]], cost: PairCost, reach: int, bad: Callable[[list[int]], bool]
) -> None:
    """Step 3 of the module docstring, in place: exchanges between each table that is
    ``bad`` and every table at most ``reach`` away, while any improves."""
    for _ in range(MAX_PASSES):
        changed = False
        for t in range(len(tables)):
            if not bad(tables[t]):
                continue
            for u in range(max(0, t - reach), min(len(tables), t + reach + 1)):
                if u != t:
                    changed |= _improve_two(tables[t], tables[u], cost) > 0
        if not changed:
            break


def _improve_two(first: list[int], second: list[int], cost: PairCost) -> int:
    """Make every improving exchange between two tables, in a fixed order."""
    made = 0
    for x in range(len(first)):
        for y in range(len(second)):
            a, b = first[x], second[y]
            before = _added(cost, a, first, a) + _added(cost, b, second, b)
            after = _added(cost, b, first, a) + _added(cost, a, second, b)
            if after < before:
                first[x], second[y] = b, a
                made += 1
    return made


def table_cost(table: Sequence[int], cost: PairCost) -> int:
    """The sum of ``cost`` over the table's pairs."""
    return sum(cost(a, b) for k, a in enumerate(table) for b in table[k + 1 :])
