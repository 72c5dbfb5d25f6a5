"""Tournament points and tie-breaks (docs/tournaments.md, "Results and standings", "Points"
and "Tie-breaks"): the parts of a tournament's format that say what a table's result is worth,
normalised at creation like the rest of the format (:mod:`domain.tournament.format`).

* ``points`` — per table size (the JSON key is the size as a string), the points of each rank,
  first place first. A shared place shares the points of the places it spans equally (a draw
  at a table of two: half of first and half of second). Defaults: at two-player tables
  ``[1, 0]`` (a win 1, a draw ½: chess's); in formats with larger tables, first place 60,
  last 0, evenly spaced at every size (60 divides evenly for 2 to 6 players, so a first place
  is worth the same at a table one smaller and every value is whole).
* ``bye_points`` — what a bye is worth; default: first place at the target table size (a bye
  counts as a win, as FIDE's rules give a full point).
* ``tie_breaks`` — the order in which ties on points are broken, any of :data:`TIE_BREAKS`
  once each; default all four in that order.
* ``pairing`` — ``auto`` (the next round is paired when the last table of a round finishes)
  or ``organiser`` (the organiser pairs it).

Points are summed exactly (``Fraction``) so entrants on equal points compare equal whatever
order their results came in.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from domain.tournament.errors import InvalidTournament

TIE_BREAKS = ("score", "buchholz", "head-to-head", "seat")
"""The tie-breaks (docs/tournaments.md, "Tie-breaks"): the sum of game scores; the opponents'
tournament points (Buchholz); the results among the entrants tied; the average seat (a later
average seat ranks higher: it had less of the first player's advantage)."""

PAIRING_MODES = ("auto", "organiser")
"""Who pairs the next round once a round is over."""


def default_points(size: int, table_size: int) -> list[int]:
    """The default points of each rank at a table of ``size`` in a format whose target table
    size is ``table_size`` (module docstring)."""
    if table_size == 2:
        return [1, 0]
    step = 60 // (size - 1)
    return [60 - rank * step for rank in range(size)]


def _number(value: Any, name: str) -> Fraction:
    """A points value: a multiple of ½ from 0 to 1,000 (as a penalty is: points a reader can
    see; a bye or a place never worth less than nothing)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
        raise InvalidTournament("invalid-format", f"'{name}' must hold numbers.")
    if not 0 <= value <= 1000 or (2 * value) % 1 != 0:
        raise InvalidTournament(
            "invalid-format", f"'{name}' holds multiples of 0.5 from 0 to 1000."
        )
    return Fraction(value)


def _plain(value: Fraction) -> int | float:
    """A points value as JSON: a whole number as an int."""
    return int(value) if value.denominator == 1 else float(value)


def normalise_scoring(given: Mapping[str, Any], smallest: int, size: int) -> dict[str, Any]:
    """The scoring fields of a format with their defaults (module docstring); raises
    ``invalid-format`` for a points table that does not cover every table size from
    ``smallest`` to ``size`` with one non-increasing list of as many numbers, an unknown or
    repeated tie-break, an unknown pairing mode."""
    sizes = range(smallest, size + 1)
    points_given = given.get("points")
    points: dict[str, list[int | float]] = {}
    if points_given is None:
        points = {str(n): list(default_points(n, size)) for n in sizes}
    else:
        if not isinstance(points_given, Mapping) or set(points_given) != {str(n) for n in sizes}:
            raise InvalidTournament(
                "invalid-format",
                f"'points' must give the points of each rank for tables of {smallest} to {size}.",
            )
        for n in sizes:
            row = points_given[str(n)]
            if not isinstance(row, list) or len(row) != n:
                raise InvalidTournament(
                    "invalid-format", f"'points' for tables of {n} must list {n} numbers."
                )
            values = [_number(v, "points") for v in row]
            if any(a < b for a, b in itertools.pairwise(values)):
                raise InvalidTournament(
                    "invalid-format", "'points' must not rise from first place to last."
                )
            points[str(n)] = [_plain(v) for v in values]
    bye = given.get("bye_points")
    bye_points = points[str(size)][0] if bye is None else _plain(_number(bye, "bye_points"))
    order = given.get("tie_breaks", list(TIE_BREAKS))
    if (
        not isinstance(order, list)
        or any(item not in TIE_BREAKS for item in order)
        or len(set(order)) != len(order)
    ):
        raise InvalidTournament(
            "invalid-format", f"'tie_breaks' lists some of {', '.join(TIE_BREAKS)}, each once."
        )
    mode = given.get("pairing", "auto")
    if mode not in PAIRING_MODES:
        raise InvalidTournament("invalid-format", "'pairing' is 'auto' or 'organiser'.")
    return {"points": points, "bye_points": bye_points, "tie_breaks": list(order), "pairing": mode}


def table_points(fixed: Mapping[str, Any], ranks: Sequence[int]) -> list[Fraction]:
    """The points of each seat of a table whose 1-based ``ranks`` are given (equal ranks share
    the points of the places they span), by the format's points table."""
    row = [Fraction(v) for v in fixed["points"][str(len(ranks))]]
    shares: list[Fraction] = []
    for rank in ranks:
        tied = sum(1 for other in ranks if other == rank)
        span = row[rank - 1 : rank - 1 + tied]
        shares.append(sum(span, Fraction(0)) / len(span))
    return shares


def result_points(fixed: Mapping[str, Any], outcome: Mapping[str, Any]) -> list[Fraction]:
    """The points of each seat of a decided table (``outcome``: its result,
    ``domain.tournament.results``): by rank (:func:`table_points`), except at a forfeited
    table not since corrected, where each entrant present has a walkover worth first place
    (docs/tournaments.md, "The arbiter"), as a bye is, and each no-show (its seat is in
    ``no_shows``) scores last place's points: a table where nobody came scores nothing for
    anyone (FIDE's double forfeit), not a draw."""
    ranks: Sequence[int] = outcome["ranks"]
    shares = table_points(fixed, ranks)
    if outcome["how"] == "forfeit" and not outcome["corrections"]:
        row = fixed["points"][str(len(ranks))]
        absent = set(outcome.get("no_shows", ()))
        shares = [
            Fraction(row[-1]) if seat in absent else Fraction(row[0]) for seat in range(len(ranks))
        ]
    return shares
