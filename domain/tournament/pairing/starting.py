"""Pairing numbers (docs/tournaments.md, "Pairing numbers"): fixed once, when the tournament
starts, and the only place where pairing draws lots among otherwise equal entrants.

``draw_numbers`` orders the entrants by their seed value (a rating, or nothing: every entrant
0), greater first; entrants with equal seed values are ordered by lot from the tournament's
``RandomStream`` — a genuinely free choice (use 1 of the stream, docs/tournaments.md). The ids
are sorted before the draw, so the numbers do not depend on the order the caller lists them
in. Number 1 is the top seed. Every format breaks ties in the standing order by these numbers
(``model.standing_order``), so after the start no pairing needs chance to rank anyone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.randomness import RandomStream
from domain.tournament.pairing.model import PairingError


def draw_numbers(
    ids: Sequence[str], rng: RandomStream, seeds: Mapping[str, float] | None = None
) -> dict[str, int]:
    """Each id's pairing number 1..n: by seed value, greater first; ties drawn by lot.

    >>> from domain.randomness import RandomStream
    >>> draw_numbers(["a", "b", "c"], RandomStream("s"), {"a": 1500, "b": 1700, "c": 1600})
    {'b': 1, 'c': 2, 'a': 3}
    """
    if len(set(ids)) != len(ids):
        raise PairingError("duplicate-entrant", "an entrant id appears twice")
    values = seeds or {}
    drawn = rng.shuffle(sorted(ids))
    ordered = sorted(drawn, key=lambda i: -values.get(i, 0.0))  # stable: the draw breaks ties
    return {entrant: index + 1 for index, entrant in enumerate(ordered)}
