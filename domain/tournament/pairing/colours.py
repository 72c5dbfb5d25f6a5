"""Who moves first at a two-player table (docs/tournaments.md, "Seat balance"), by the colour
allocation rules of the FIDE Dutch system (C.04.3, E.1-E.5), "white" being the first seat.

An entrant's *colours* are its games' seats read as early (seat 0 of two, or any seat before
the middle) or late; a middle seat (at an odd table) counts as neither. Its preference:

* absolute: the difference early - late is above 1 or below -1, or its last two colours are
  the same: it wants the other one;
* strong: the difference is 1 or -1: it wants the colour it had less;
* mild: the difference is 0: it wants the other colour than last time;
* none: no game yet.

Allocation, for a table of a higher ranked and a lower ranked entrant: E.1 both wishes when
they differ; E.2 else the stronger wish (both absolute: the wider difference); E.3 else
alternate against the most recent game (aligned from the last) where their colours differed;
E.4 else the higher ranked entrant's wish; E.5 else the higher ranked entrant has the initial
colour when its pairing number is odd, the other when even. The *initial colour* is drawn from
the ``RandomStream`` (one ``below(2)``), once per round and only in a round that reaches E.5 —
every table of round 1 does, which makes round 1 FIDE's: colours alternate down the boards.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.randomness import RandomStream
from domain.tournament.pairing.model import Entrant

ABSOLUTE, STRONG, MILD, NONE = 3, 2, 1, 0


def position(seat: int, players: int) -> int:
    """How early ``seat`` is at a table of ``players``: -30 (first) .. +30 (last)."""
    return 60 * seat // (players - 1) - 30


def colours(entrant: Entrant) -> list[int]:
    """The entrant's colours, oldest first: +1 early ("white"), -1 late (module docstring)."""
    out = []
    for seat, players in entrant.seats:
        place = position(seat, players)
        if place:
            out.append(1 if place < 0 else -1)
    return out


@dataclass(frozen=True)
class Preference:
    """A colour wish: +1 to move first, -1 second, 0 none; its strength; the difference."""

    wish: int
    strength: int
    difference: int


def preference(entrant: Entrant) -> Preference:
    """The entrant's colour preference (module docstring)."""
    history = colours(entrant)
    if not history:
        return Preference(0, NONE, 0)
    difference = sum(history)
    if abs(difference) > 1:
        return Preference(-1 if difference > 0 else 1, ABSOLUTE, difference)
    if len(history) >= 2 and history[-1] == history[-2]:
        return Preference(-history[-1], ABSOLUTE, difference)
    if difference:
        return Preference(-difference, STRONG, difference)
    return Preference(-history[-1], MILD, difference)


class Lot:
    """The round's initial colour, drawn from the stream on first use only (E.5). Without a
    stream (a published schedule), the initial colour is "white"."""

    def __init__(self, rng: RandomStream | None) -> None:
        self._rng = rng
        self._bit: int | None = None

    def initial(self) -> int:
        """+1 (white, moves first) or -1."""
        if self._bit is None:
            self._bit = 0 if self._rng is None else self._rng.below(2)
        return 1 if self._bit == 0 else -1


def _alternate(higher: Entrant, lower: Entrant) -> int:
    """E.3: +1 if ``higher`` moves first, -1 second, 0 when no game tells."""
    for ch, cl in zip(reversed(colours(higher)), reversed(colours(lower)), strict=False):
        if ch != cl:
            return -ch
    return 0


def first_for_higher(higher: Entrant, lower: Entrant, lot: Lot) -> bool:
    """Whether the higher ranked entrant moves first (rules E.1-E.5, module docstring)."""
    ph, pl = preference(higher), preference(lower)
    if ph.wish and pl.wish and ph.wish != pl.wish:
        return ph.wish > 0  # E.1
    if not ph.wish and pl.wish:
        return pl.wish < 0  # E.1: only one wish
    if ph.wish and not pl.wish:
        return ph.wish > 0
    if ph.wish:  # both wish the same seat
        if ph.strength != pl.strength:  # E.2
            return (ph.wish if ph.strength > pl.strength else -pl.wish) > 0
        if ph.strength == ABSOLUTE and abs(ph.difference) != abs(pl.difference):
            wider = abs(ph.difference) > abs(pl.difference)
            return (ph.wish if wider else -pl.wish) > 0
        alternate = _alternate(higher, lower)  # E.3
        if alternate:
            return alternate > 0
        return ph.wish > 0  # E.4
    alternate = _alternate(higher, lower)
    if alternate:
        return alternate > 0
    odd = higher.number % 2 == 1  # E.5
    return (lot.initial() if odd else -lot.initial()) > 0


def order_two(higher: Entrant, lower: Entrant, lot: Lot) -> tuple[Entrant, Entrant]:
    """The table in seat order: the entrant that moves first, then the other."""
    return (higher, lower) if first_for_higher(higher, lower, lot) else (lower, higher)
