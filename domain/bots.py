"""Random players for simulations and the conformance run (docs/architecture.md, "One protocol for
every game"): a bot picks uniformly among the legal moves, unless the game gives a
``bot_move`` policy -- Risk does, so that its bots settle the prize fund after a bounded
number of rounds instead of trading forever (docs/risk.md, "Bots")."""

from __future__ import annotations

import random
from typing import Any

from domain.protocol import Rules


def choose_move(rules: Rules[Any, Any], state: Any, player: int, bot: random.Random) -> Any:
    """The move a random bot makes for ``player``: the game's ``bot_move`` policy when it
    has one, else a uniformly drawn legal move."""
    chosen = rules.bot_move(state, player, bot)
    if chosen is not None:
        return chosen
    return bot.choice(rules.legal_moves(state, player))
