"""Swiss pairing for tables of three to six (docs/tournaments.md, "Swiss, multi-player
tables"): entrants grouped by standing into tables of the target size, minimising repeated
meetings, then seated for seat balance.

The order followed is the Swiss pairing order (``model.pairing_order``: points, then pairing
number).

1. Shape: ``sizes.split`` (tables one smaller at the bottom where the count does not divide;
   byes only where no such split keeps every table at the game's minimum).
2. Byes (if any): to the entrants with the fewest byes so far, the lowest ranked among them.
3. Tables: ``grouping`` in the standing order, a pair costing
   ``times met * SPREAD_UNIT + (score group distance)**2``, where ``SPREAD_UNIT`` exceeds the
   spread of the whole round: a repeated meeting is avoided whenever an exchange of entrants
   between tables at most ``REACH`` apart can avoid it, whatever the score spread it costs;
   then, around each table still holding a repeat, exchanges with tables up to 4 and then 8
   away (``WIDER_REACH``) are tried too, and then step 2 of ``grouping`` once more, so the
   result is a local optimum for exchanges within ``REACH``. The greedy fill looks
   ``LOOKAHEAD_TABLES`` tables' seats ahead.
4. Seats: ``seating.order_table`` (the stream draws the order among equally good seatings).
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.randomness import RandomStream
from domain.tournament.pairing import grouping
from domain.tournament.pairing.colours import Lot
from domain.tournament.pairing.model import (
    Entrant,
    PairingError,
    Round,
    SwissSettings,
    check_entrants,
    check_table_sizes,
    pairing_order,
)
from domain.tournament.pairing.seating import order_table
from domain.tournament.pairing.sizes import split

REACH = 2
WIDER_REACH = (4, 8)
LOOKAHEAD_TABLES = 2


def score_groups(ranked: Sequence[Entrant]) -> list[int]:
    """Each ranked entrant's score group: 0 for the top points, +1 at each lower value."""
    groups: list[int] = []
    for k, entrant in enumerate(ranked):
        same = k and ranked[k - 1].points == entrant.points
        groups.append(groups[-1] if same else (groups[-1] + 1 if groups else 0))
    return groups


def pick_byes(ranked: Sequence[Entrant], count: int) -> list[Entrant]:
    """Step 2: ``count`` entrants with the fewest byes, the lowest ranked first."""
    bottom_up = sorted(range(len(ranked)), key=lambda k: (ranked[k].byes, -k))
    return [ranked[k] for k in bottom_up[:count]]


def pair_swiss_tables(
    settings: SwissSettings, entrants: Sequence[Entrant], round_number: int, rng: RandomStream
) -> Round:
    """One Swiss round of multi-player tables (module docstring)."""
    check_entrants(entrants)
    check_table_sizes(settings.table_size, settings.min_table_size)
    ranked = pairing_order([e for e in entrants if e.active])
    shape = split(len(ranked), settings.table_size, settings.min_table_size)
    if not shape.sizes:
        raise PairingError("too-few-entrants", "too few active entrants for one table")
    byes = pick_byes(ranked, shape.byes)
    bye_ids = {e.id for e in byes}
    seated = [e for e in ranked if e.id not in bye_ids]
    groups = score_groups(seated)
    unit = (groups[-1] ** 2) * len(seated) * settings.table_size + 1

    def cost(i: int, j: int) -> int:
        return seated[i].met(seated[j].id) * unit + (groups[i] - groups[j]) ** 2

    tables = grouping.greedy(len(seated), shape.sizes, cost, LOOKAHEAD_TABLES * settings.table_size)
    grouping.improve(tables, cost, REACH)
    for reach in WIDER_REACH:
        grouping.improve_around(tables, cost, reach, lambda t: grouping.table_cost(t, cost) >= unit)
    grouping.improve(tables, cost, REACH)
    lot = Lot(rng)
    ordered = tuple(
        tuple(e.id for e in order_table([seated[i] for i in table], rng, lot)) for table in tables
    )
    return Round(round_number, ordered, tuple(e.id for e in byes))
