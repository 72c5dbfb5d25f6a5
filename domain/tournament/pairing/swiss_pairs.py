"""Swiss pairing for two-player tables (docs/tournaments.md, "Swiss, two players"): one maximum
weight matching (networkx's blossom algorithm, ``max_weight_matching``) over the active
entrants, plus a virtual BYE entrant when their count is odd.

Each possible table gets an integer weight that encodes the rules in strict priority, each tier
weighing more than every lower tier of a whole round together (``tiers``):

1. no rematch: the times the two met;
2. at most one bye: for a pairing with BYE, the byes the entrant already had;
3. score groups: the squared distance between the two score groups (BYE counts as a group
   below the last, so the bye goes to the lowest group);
4. seat balance: both wish the same seat (``seat_conflict``);
5. float repeats: an entrant who floats down (or has the bye) or up again, as it did last
   round or the round before (``float_repeats``; the Dutch system's C.14-C.17);
6. the bye to the lowest ranked: for a pairing with BYE, how many rank below the entrant
   (below seat balance, as in the Dutch system, where the bye goes to whoever the best
   pairing of the last bracket leaves over);
7. order within a score group (the pairing order: points, then pairing number), as the
   Dutch system does: the top half meets the bottom half (rank distance close to half the
   group); a floater meets the nearest ranks (this counts double).

Rematches and second byes are therefore chosen only when unavoidable. Above
``COMPLETE_UP_TO`` entrants the graph keeps, for speed, each entrant's ``WINDOW`` next ranks
and its half-group partners (and every BYE edge); when the matching then holds a rematch or a
second bye the window doubles, up to the complete graph (docs/tournaments.md measures that the
window loses nothing in tiers 1-4). Seats follow ``colours`` (the Dutch colour rules).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx

from domain.randomness import RandomStream
from domain.tournament.pairing.colours import Lot, order_two, preference
from domain.tournament.pairing.model import (
    Entrant,
    PairingError,
    Round,
    check_entrants,
    pairing_order,
)

COMPLETE_UP_TO = 80
WINDOW = 12
HALF_WINDOW = 2


@dataclass(frozen=True)
class _Ranked:
    """An active entrant with its place: rank, score group, place in the group, group size."""

    entrant: Entrant
    rank: int
    group: int
    in_group: int
    group_size: int


def _rank(active: Sequence[Entrant]) -> list[_Ranked]:
    ordered = pairing_order(active)
    groups: list[list[Entrant]] = []
    for entrant in ordered:
        if groups and groups[-1][0].points == entrant.points:
            groups[-1].append(entrant)
        else:
            groups.append([entrant])
    ranked: list[_Ranked] = []
    for g, members in enumerate(groups):
        for k, entrant in enumerate(members):
            ranked.append(_Ranked(entrant, len(ranked), g, k, len(members)))
    return ranked


def seat_conflict(a: Entrant, b: Entrant) -> int:
    """Tier 4: 0 unless both wish the same seat (``colours.preference``); then 1, 4 or 16 as
    the weaker wish is mild, strong or absolute."""
    pa, pb = preference(a), preference(b)
    if pa.wish == 0 or pa.wish != pb.wish:
        return 0
    return int(4 ** (min(pa.strength, pb.strength) - 1))


def _costs(a: _Ranked, b: _Ranked) -> tuple[int, ...]:
    """The seven tiers' costs of seating ``a`` (ranked above) against ``b``."""
    if a.group == b.group:
        order = abs(b.in_group - a.in_group - a.group_size // 2)
    else:
        order = 2 * ((a.group_size - 1 - a.in_group) + b.in_group)
    return (
        a.entrant.met(b.entrant.id),
        0,
        (a.group - b.group) ** 2,
        seat_conflict(a.entrant, b.entrant),
        float_repeats(a.entrant, b.entrant) if a.group != b.group else 0,
        0,
        order,
    )


def _bye_costs(a: _Ranked, groups: int, count: int) -> tuple[int, ...]:
    floats = float_repeats(a.entrant, None)
    return (0, a.entrant.byes, (groups - a.group) ** 2, 0, floats, count - 1 - a.rank, 0)


def float_repeats(down: Entrant, up: Entrant | None) -> int:
    """Tier 5: ``down`` floats down (or has the bye) and ``up`` floats up once more: 4 for
    each who floated the same way last round, 1 for the round before (``Entrant.floats``)."""
    cost = 0
    for back, weight in ((1, 4), (2, 1)):
        if len(down.floats) >= back and down.floats[-back] == -1:
            cost += weight
        if up is not None and len(up.floats) >= back and up.floats[-back] == 1:
            cost += weight
    return cost


def tiers(maxima: Sequence[int], tables: int) -> list[int]:
    """The unit of each tier: greater than every lower tier's costs over ``tables`` tables."""
    units = [1]
    for top in reversed(maxima[1:]):
        units.insert(0, units[0] * (tables * top + 1))
    return units


def _candidates(ranked: Sequence[_Ranked], window: int) -> set[tuple[int, int]]:
    """The pairs (i < j) the matching may use (module docstring)."""
    n = len(ranked)
    if window >= n:
        return {(i, j) for i in range(n) for j in range(i + 1, n)}
    pairs = {(i, j) for i in range(n) for j in range(i + 1, min(n, i + window + 1))}
    for a in ranked:
        half = a.group_size // 2
        if a.in_group < half:
            for delta in range(-HALF_WINDOW, HALF_WINDOW + 1):
                k = a.in_group + half + delta
                if a.in_group < k < a.group_size:
                    pairs.add((a.rank, a.rank - a.in_group + k))
    return pairs


def _match(ranked: Sequence[_Ranked], window: int) -> tuple[list[tuple[int, int]], int | None]:
    """The maximum weight matching on the window graph: the tables (i < j) and the bye."""
    n = len(ranked)
    groups = ranked[-1].group + 1
    bye = n if n % 2 else None
    costs: dict[tuple[int, int], tuple[int, ...]] = {
        (i, j): _costs(ranked[i], ranked[j]) for i, j in _candidates(ranked, window)
    }
    if bye is not None:
        for a in ranked:
            costs[(a.rank, bye)] = _bye_costs(a, groups, n)
    maxima = [max(c[t] for c in costs.values()) for t in range(7)]
    units = tiers(maxima, (n + 1) // 2)
    weights = {
        pair: sum(u * c for u, c in zip(units, cost, strict=True)) for pair, cost in costs.items()
    }
    top = max(weights.values()) + 1
    graph: nx.Graph[int] = nx.Graph()
    for (i, j), w in sorted(weights.items()):
        graph.add_edge(i, j, weight=top - w)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    tables = sorted((min(p), max(p)) for p in matching if bye not in p)
    got_bye = next((min(p) for p in matching if bye in p), None)
    if 2 * len(tables) + (got_bye is not None) != n:
        raise AssertionError("the window graph always has a perfect matching")  # pragma: no cover
    return tables, got_bye


def _avoidable(ranked: Sequence[_Ranked], tables: list[tuple[int, int]], bye: int | None) -> bool:
    """Whether the result has a rematch or a second bye (a wider window may avoid it)."""
    if bye is not None and ranked[bye].entrant.byes > 0:
        return True
    return any(ranked[i].entrant.met(ranked[j].entrant.id) for i, j in tables)


def pair_swiss_two(entrants: Sequence[Entrant], round_number: int, rng: RandomStream) -> Round:
    """One Swiss round of two-player tables (module docstring): tables from the top board
    down, each in seat order; the stream is used only for the initial colour (``colours``)."""
    check_entrants(entrants)
    ranked = _rank([e for e in entrants if e.active])
    if len(ranked) < 2:
        raise PairingError("too-few-entrants", "a round needs at least two active entrants")
    window = len(ranked) if len(ranked) <= COMPLETE_UP_TO else WINDOW
    while True:
        tables, bye = _match(ranked, window)
        if window >= len(ranked) or not _avoidable(ranked, tables, bye):
            break
        window *= 2
    lot = Lot(rng)
    seated = tuple(
        tuple(e.id for e in order_two(ranked[i].entrant, ranked[j].entrant, lot)) for i, j in tables
    )
    byes = () if bye is None else (ranked[bye].entrant.id,)
    return Round(round_number, seated, byes)
