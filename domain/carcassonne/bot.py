"""The random bot's policy for Carcassonne (docs/carcassonne.md, "Bazaars", "Bots"): a
uniformly drawn legal move, except that in an auction a bot bids at most its score (0 when
below) + :data:`STAKE`, so that bots do not bid the highest bid allowed on every tile; the
bids above stay legal and listed for everyone else."""

from __future__ import annotations

import random
from typing import Any, Final

from domain.carcassonne.expansion.bazaars.moves import Bid

STAKE: Final = 10
"""How far above its score (0 when below) a bot bids at most."""


def bot_move(moves: list[Any], score: int, bot: random.Random, *, auction: bool) -> Any:
    """One of ``moves`` (the seat's legal moves, not empty) drawn uniformly, leaving out
    bids above ``max(score, 0) + STAKE`` unless nothing else is left. Outside an auction
    (``auction`` false) no move is a bid, so the draw is over all of them at once."""
    if not auction:
        return bot.choice(moves)
    top = max(score, 0) + STAKE
    modest = [m for m in moves if not isinstance(m, Bid) or m.amount <= top]
    return bot.choice(modest or moves)
