"""Seat order at a table (docs/tournaments.md, "Seat balance"): first-player advantage is real
in every game here, so each entrant's seats should even out over the rounds.

An entrant's *seat debt* adds, game by game, how early it sat: a seat's position is
``60 * seat / (players - 1) - 30`` (seat 0 = -30, last seat = +30; integers for 2 to 6
players). A debt below zero means the entrant has sat early more than late.

* Two players: ``colours`` (the FIDE Dutch colour rules).
* Three to six players: the order that minimises, over the table, first the sum of squared
  debts after the game (by the rearrangement inequality: greater debt, earlier seat), then how
  often each entrant already had that exact seat at a table of this size; found exactly by
  dynamic programming over subsets (6 players: 384 states). The members are first put in an
  order drawn from the ``RandomStream`` (one shuffle of the table), and that order decides
  between equally good seatings (all of them in round 1): a genuinely free choice.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.randomness import RandomStream
from domain.tournament.pairing.colours import Lot, order_two, position
from domain.tournament.pairing.model import Entrant, pairing_order


def debt(entrant: Entrant) -> int:
    """The entrant's seat debt: the sum of its seats' positions (module docstring)."""
    return sum(position(seat, players) for seat, players in entrant.seats)


def _seat_cost(entrant: Entrant, seat: int, players: int, rounds: int) -> int:
    """One entrant's cost in ``seat``: squared debt after the game, then repeats of the seat."""
    after = debt(entrant) + position(seat, players)
    repeats = sum(1 for s, p in entrant.seats if s == seat and p == players)
    return after * after * (rounds + 1) + repeats


def order_table(
    members: Sequence[Entrant], rng: RandomStream | None, lot: Lot | None = None
) -> list[Entrant]:
    """The seat order of a table of any size (module docstring): element 0 moves first.
    Without a stream, ties go by the order given instead of a lot. A table of two uses the
    round's ``lot`` (its initial colour, drawn at most once a round)."""
    if len(members) == 2:
        high, low = pairing_order(members)
        return list(order_two(high, low, lot or Lot(rng)))
    drawn = list(members) if rng is None else rng.shuffle(list(members))
    players = len(drawn)
    rounds = max((len(e.seats) for e in drawn), default=0)
    cost = [[_seat_cost(e, seat, players, rounds) for seat in range(players)] for e in drawn]
    full = (1 << players) - 1
    # best[mask]: the least cost of seating the entrants in ``mask`` in seats 0..popcount-1.
    best: dict[int, tuple[int, int]] = {0: (0, -1)}
    for mask in range(1, full + 1):
        seat = mask.bit_count() - 1
        choice: tuple[int, int] | None = None
        for i in range(players):
            if mask >> i & 1:
                total = best[mask ^ (1 << i)][0] + cost[i][seat]
                if choice is None or total < choice[0]:
                    choice = (total, i)
        assert choice is not None
        best[mask] = choice
    order: list[Entrant] = []
    mask = full
    while mask:
        index = best[mask][1]
        order.append(drawn[index])
        mask ^= 1 << index
    order.reverse()
    return order
