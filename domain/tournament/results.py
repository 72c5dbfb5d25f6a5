"""Table results (docs/tournaments.md, "Results and standings", "Results"): what the
tournament records when a table's game ends, and what the arbiter may decide instead.

A result is JSON: ``{"ranks": [...], "scores": [...], "how": ..., "reason": ...,
"corrections": n}``, one rank and one score per seat in seat order. Ranks are 1-based
competition ranks (equal ranks are a shared place; the next place after ``k`` seats sharing
place ``r`` is ``r + k``), as a game's outcome gives them (``domain.lobby.ranked``).
``how`` is ``played`` (the game's own outcome), ``forfeit`` (the arbiter forfeited no-shows)
or ``adjudicated`` (the arbiter decided an unfinishable game).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.tournament.errors import BadResult, NoSuchEntrant

HOWS = ("played", "forfeit", "adjudicated")
"""How a table's result came about."""


def check_ranks(ranks: Sequence[Any], players: int) -> list[int]:
    """The ranks as ints if they are one competition ranking of ``players`` seats; raises
    ``bad-ranks`` otherwise."""
    if (
        not isinstance(ranks, list | tuple)
        or len(ranks) != players
        or any(isinstance(r, bool) or not isinstance(r, int) for r in ranks)
    ):
        raise BadResult("bad-ranks", f"Give one integer rank per seat ({players} seats).")
    for rank in ranks:
        if rank != 1 + sum(1 for other in ranks if other < rank):
            raise BadResult(
                "bad-ranks",
                "Ranks are 1-based competition ranks: a place shared by k seats is followed "
                "by the place k further on (e.g. 1, 1, 3).",
            )
    return [int(r) for r in ranks]


def check_scores(scores: Sequence[Any] | None, players: int) -> list[int]:
    """The scores as ints (all 0 when not given); raises ``bad-scores``."""
    if scores is None:
        return [0] * players
    if (
        not isinstance(scores, list | tuple)
        or len(scores) != players
        or any(isinstance(s, bool) or not isinstance(s, int) or abs(s) > 10**9 for s in scores)
    ):
        raise BadResult("bad-scores", f"Give one integer score per seat ({players} seats).")
    return [int(s) for s in scores]


def forfeit_ranks(seats: Sequence[str], absent: Sequence[str]) -> list[int]:
    """The ranks of a forfeited table (docs/tournaments.md, "The arbiter"): the entrants
    present share first place, the no-shows share the place after them."""
    if not absent or any(entrant not in seats for entrant in absent):
        raise BadResult("bad-forfeit", "Name the no-shows among the table's entrants.")
    if len(set(absent)) != len(absent):
        raise BadResult("bad-forfeit", "Name each no-show once.")
    present = len(seats) - len(absent)
    return [present + 1 if entrant in absent else 1 for entrant in seats]


def result(
    ranks: list[int], scores: list[int], how: str, reason: str = "", **extra: Any
) -> dict[str, Any]:
    """A table's result as the aggregate keeps it."""
    return {
        "ranks": list(ranks),
        "scores": list(scores),
        "how": how,
        "reason": reason,
        "corrections": 0,
        **extra,
    }


def check_penalty(entrants: Any, entrant_id: str, points: Any) -> None:
    """A penalty deducts a positive number of points, a multiple of ½ (a half point, as a
    draw's share at two-player tables), at most 1,000, from an entrant with a pairing number
    (``bad-penalty``, ``no-such-entrant``)."""
    found = entrants.get(entrant_id)
    if found is None or found["number"] is None:
        raise NoSuchEntrant("no-such-entrant", "The tournament has no such entrant playing.")
    if (
        isinstance(points, bool)
        or not isinstance(points, int | float)
        or not 0 < points <= 1000
        or (2 * points) % 1 != 0
    ):
        raise BadResult(
            "bad-penalty", "A penalty deducts a multiple of 0.5 points, from 0.5 to 1000."
        )
