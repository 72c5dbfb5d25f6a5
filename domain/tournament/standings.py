"""Standings (docs/tournaments.md, "Results and standings"): every entrant's tallies from the
tournament's rounds and the arbiter's acts, the standing order, and the standing inputs each
round's pairing takes (``domain.tournament.pairing.Entrant``).

A pure function of the tournament's state, so the standings read model, the pairing of the
next round and a verifier replaying the record all compute the same thing:

* **points**: each decided table's points by rank (``domain.tournament.scoring``; a
  forfeit is a walkover for each entrant present), plus the bye points, minus the arbiter's
  penalties; summed exactly;
* **tie-breaks**, in the format's order, each splitting the entrants still tied:
  ``score`` (the sum of game scores), ``buchholz`` (the sum, over every meeting at a table, of
  the opponent's points), ``head-to-head`` (among the entrants still tied only: +1 for each of
  them the entrant finished ahead of at a table, -1 for each it finished behind), ``seat``
  (the average seat, 0 first to 1 last, 0.5 before any game: later ranks higher);
* then the lower pairing number.

Elimination formats rank first by how far an entrant went (the last round it was seated in
or had a bye, then whether it went on from there — so the entrant a shared place puts through,
as in a drawn final, is ahead of the one it knocks out — then its rank at that table, a bye
counting as first), then as above.
Disqualified entrants come last. Only entrants with a pairing number (those who started, and
late entrants) are ranked.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from domain.tournament.pairing import Entrant
from domain.tournament.registration import LEFT
from domain.tournament.scoring import result_points

GONE = LEFT
"""The statuses of entrants no round seats any more."""


@dataclass
class Tally:
    """One entrant's running totals."""

    points: Fraction = Fraction(0)
    penalty: Fraction = Fraction(0)
    score: int = 0
    games: int = 0
    byes: int = 0
    opponents: Counter[str] = field(default_factory=Counter)
    seats: list[tuple[int, int]] = field(default_factory=list)
    floats: list[int] = field(default_factory=list)
    finishes: list[tuple[int, tuple[tuple[str, int], ...]]] = field(default_factory=list)
    """Per decided table: the entrant's rank and every other seat's entrant and rank."""
    reach: tuple[int, int, int] = (0, 0, 0)
    """Elimination: the last round seated or given a bye, whether the entrant went on from
    there (1) or was knocked out (0), minus its rank there."""
    eliminated_in: int | None = None


def _numbered(entrants: Mapping[str, Mapping[str, Any]]) -> list[str]:
    return [key for key, e in entrants.items() if e["number"] is not None]


def tallies(state: Any) -> dict[str, Tally]:
    """Every numbered entrant's tallies over the rounds so far (``state``: the aggregate)."""
    fixed = state.format
    found = {key: Tally() for key in _numbered(state.entrants)}
    two = fixed["table_size"] == 2
    numbers = {key: state.entrants[key]["number"] for key in found}
    for rnd in state.rounds:
        before = {key: t.points for key, t in found.items()}
        number = rnd["number"]
        for bye in rnd["byes"]:
            tally = found[bye]
            tally.byes += 1
            tally.points += Fraction(fixed["bye_points"])
            tally.reach = (number, 1, -1)
            if two:
                tally.floats.append(-1)
        for table in rnd["tables"]:
            _table(
                fixed,
                found=found,
                table=table,
                number=number,
                before=before,
                two=two,
                numbers=numbers,
            )
        if two:
            seated = {e for table in rnd["tables"] for e in table["seats"]} | set(rnd["byes"])
            for key, tally in found.items():
                if key not in seated:
                    tally.floats.append(0)
        if fixed["kind"] == "elimination" and not two:
            _lucky_losers(state, found, rnd, numbers)
    for act in state.penalties:
        found[act["entrant"]].penalty += Fraction(act["points"])
    return found


def _table(
    fixed: Mapping[str, Any],
    *,
    found: dict[str, Tally],
    table: Mapping[str, Any],
    number: int,
    before: Mapping[str, Fraction],
    two: bool,
    numbers: Mapping[str, int],
) -> None:
    """Add one table of round ``number`` to the tallies: a table still playing counts only
    as a round reached (its seats and meetings count once it has a result)."""
    seats: list[str] = table["seats"]
    players = len(seats)
    outcome = table["result"]
    for seat, key in enumerate(seats):
        tally = found[key]
        if two:
            other = seats[1 - seat]
            diff = before[other] - before[key]
            tally.floats.append(0 if diff == 0 else (1 if diff > 0 else -1))
        tally.reach = (number, 0, -(outcome["ranks"][seat] if outcome else players))
    if outcome is None:
        return
    for seat, (key, share) in enumerate(zip(seats, result_points(fixed, outcome), strict=True)):
        tally = found[key]
        tally.seats.append((seat, players))
        tally.opponents.update(other for other in seats if other != key)
        tally.finishes.append(
            (
                outcome["ranks"][seat],
                tuple((o, outcome["ranks"][s]) for s, o in enumerate(seats) if o != key),
            )
        )
        tally.points += share
        tally.score += outcome["scores"][seat]
        tally.games += 1
    if fixed["kind"] == "elimination":
        out = eliminated_at(fixed, seats, outcome["ranks"], numbers)
        for seat, key in enumerate(seats):
            if key in out:
                found[key].eliminated_in = number
            else:  # went on: ahead of those knocked out here (a drawn final's winner too)
                found[key].reach = (number, 1, -outcome["ranks"][seat])


def _lucky_losers(
    state: Any, found: Mapping[str, Tally], rnd: Mapping[str, Any], numbers: Mapping[str, int]
) -> None:
    """Multi-player elimination (docs/tournaments.md, "Elimination"): a round that is not the
    final and leaves more than one but fewer than ``min_table_size`` entrants in (5 left at
    tables of 4, min 3, top 1: a table and a bye, then 2) would leave no final table; the
    best of those it knocked out (by their rank at their table, then pairing number) go on
    with them, as lucky losers, until the final table has its minimum."""
    tables = rnd["tables"]
    if any(t["result"] is None for t in tables) or (len(tables) == 1 and not rnd["byes"]):
        return
    gone = {k for k, e in state.entrants.items() if e["status"] in GONE}
    still_in = [k for k, t in found.items() if t.eliminated_in is None and k not in gone]
    smallest: int = state.format["min_table_size"]
    if not 1 < len(still_in) < smallest:
        return
    number = rnd["number"]
    knocked = []
    for table in tables:
        for seat, key in enumerate(table["seats"]):
            if found[key].eliminated_in == number and key not in gone:
                knocked.append((table["result"]["ranks"][seat], numbers[key], key))
    for rank, _, key in sorted(knocked)[: smallest - len(still_in)]:
        found[key].eliminated_in = None
        found[key].reach = (number, 1, -rank)


def eliminated_at(
    fixed: Mapping[str, Any], seats: Sequence[str], ranks: Sequence[int], numbers: Mapping[str, int]
) -> list[str]:
    """Who a decided elimination table knocks out (docs/tournaments.md, "Elimination"): all
    but the top ``advance`` (1 at two-player tables) by rank, a shared rank going to the lower
    pairing number. At the final table the rest are knocked out too: the standings rank them
    by their place there."""
    advance = 1 if len(seats) == 2 else fixed["advance"]
    order = sorted(range(len(seats)), key=lambda s: (ranks[s], numbers[seats[s]]))
    return [seats[s] for s in order[advance:]]


def _points(tally: Tally) -> Fraction:
    return tally.points - tally.penalty


def standing_rows(state: Any) -> list[dict[str, Any]]:
    """The standings: one row per numbered entrant, in the standing order (module
    docstring), each with its rank (1-based, no ties: the order is total) and tallies."""
    found = tallies(state)
    entrants = state.entrants
    points = {key: _points(t) for key, t in found.items()}
    buchholz = _buchholz(found, points)
    order = standing_order(state, found, buchholz)
    rows = []
    for place, key in enumerate(order, start=1):
        tally = found[key]
        entrant = entrants[key]
        rows.append(
            {
                "rank": place,
                "entrant": key,
                "name": entrant["name"],
                "number": entrant["number"],
                "status": entrant["status"],
                "points": _plain(points[key]),
                "score": tally.score,
                "buchholz": _plain(buchholz[key]),
                "seat": round(_seat(tally), 6),
                "games": tally.games,
                "byes": tally.byes,
                "penalty": _plain(tally.penalty),
                "eliminated_in": tally.eliminated_in,
            }
        )
    return rows


def _plain(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def _seat(tally: Tally) -> float:
    """The average seat, 0 (first) to 1 (last); 0.5 before any game."""
    if not tally.seats:
        return 0.5
    return sum(seat / (players - 1) for seat, players in tally.seats) / len(tally.seats)


def standing_order(
    state: Any,
    found: Mapping[str, Tally] | None = None,
    buchholz: Mapping[str, Fraction] | None = None,
) -> list[str]:
    """The numbered entrants from first to last (module docstring)."""
    found = found if found is not None else tallies(state)
    entrants = state.entrants
    points = {key: _points(t) for key, t in found.items()}
    keys: list[Callable[[str, Sequence[str]], Any]] = []
    if state.format["kind"] == "elimination":
        keys.append(lambda key, _: found[key].reach)
    keys.append(lambda key, _: points[key])
    buchholz = buchholz if buchholz is not None else _buchholz(found, points)
    for name in state.format["tie_breaks"]:
        keys.append(_tie_break(name, found, buchholz))
    disqualified = [k for k in found if entrants[k]["status"] == "disqualified"]
    ranked = [k for k in found if entrants[k]["status"] != "disqualified"]
    ordered = _refine(sorted(ranked, key=lambda k: entrants[k]["number"]), keys)
    return ordered + sorted(disqualified, key=lambda k: entrants[k]["number"])


def _refine(group: list[str], keys: Sequence[Callable[[str, Sequence[str]], Any]]) -> list[str]:
    """``group`` (in pairing-number order) ordered by the first key, greater first, each tied
    run ordered by the next keys in turn; a key sees the run it splits (head-to-head needs
    it). Python's sort is stable, so ties left at the end stay in pairing-number order."""
    if not keys or len(group) < 2:
        return group
    first, rest = keys[0], keys[1:]
    values = {key: first(key, group) for key in group}
    ordered = sorted(group, key=lambda k: values[k], reverse=True)
    result: list[str] = []
    start = 0
    for end in range(1, len(ordered) + 1):
        if end == len(ordered) or values[ordered[end]] != values[ordered[start]]:
            result.extend(_refine(ordered[start:end], rest))
            start = end
    return result


def _buchholz(found: Mapping[str, Tally], points: Mapping[str, Fraction]) -> dict[str, Fraction]:
    """Each entrant's Buchholz: its opponents' points, once per meeting (summed as whole
    numbers over the points' common denominator: exact, and cheap)."""
    common = math.lcm(*(p.denominator for p in points.values())) if points else 1
    whole = {key: int(p * common) for key, p in points.items()}
    return {
        key: Fraction(sum(whole[o] * n for o, n in tally.opponents.items()), common)
        for key, tally in found.items()
    }


def _tie_break(
    name: str, found: Mapping[str, Tally], buchholz: Mapping[str, Fraction]
) -> Callable[[str, Sequence[str]], Any]:
    """The value of tie-break ``name`` (greater is better) of an entrant within its run."""
    if name == "score":
        return lambda key, _: found[key].score
    if name == "buchholz":
        return lambda key, _: buchholz[key]
    if name == "seat":
        return lambda key, _: Fraction(_seat(found[key])).limit_denominator(10**6)
    return lambda key, run: _head_to_head(found[key], key, run)


def _head_to_head(tally: Tally, key: str, run: Sequence[str]) -> int:
    others = set(run) - {key}
    total = 0
    for mine, rest in tally.finishes:
        for other, theirs in rest:
            if other in others:
                total += (mine < theirs) - (mine > theirs)
    return total


def head_to_head(state: Any, key: str, run: Sequence[str]) -> int:
    """+1 for each entrant of ``run`` that ``key`` finished ahead of at a decided table, -1
    for each it finished behind (docs/tournaments.md, "Tie-breaks")."""
    return _head_to_head(tallies(state)[key], key, run)


def pairing_inputs(state: Any) -> list[Entrant]:
    """Every numbered entrant's standing inputs for the next round's pairing
    (docs/tournaments.md, "Pairing", "The interface"): the tie-breaks are passed as the
    entrant's place in the standing order (negated: greater is better), which orders them
    exactly as the standings do."""
    found = tallies(state)
    order = standing_order(state, found)
    place = {key: index for index, key in enumerate(order)}
    two = state.format["table_size"] == 2
    inputs = []
    for key, tally in found.items():
        entrant = state.entrants[key]
        inputs.append(
            Entrant(
                id=key,
                number=entrant["number"],
                points=float(_points(tally)),
                tie_breaks=(-float(place[key]),),
                opponents=dict(tally.opponents),
                seats=tuple(tally.seats),
                byes=tally.byes,
                floats=tuple(tally.floats) if two else (),
                withdrawn=entrant["status"] in GONE,
                eliminated=tally.eliminated_in is not None,
            )
        )
    return inputs
