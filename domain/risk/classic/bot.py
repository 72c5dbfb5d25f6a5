"""A bot for the classic ruleset that ends games (docs/risk.md, "Classic Risk";
the classic ruleset has no settlement, so only a conquest ends a game, and uniformly random
moves almost never conquer): it trades whenever it may, puts its reserve on its strongest
frontier territory, attacks with the most dice wherever its attacking territory has more
units than the defender, moves every unit it may into a conquest, and brings an interior
stack to the frontier with its fortify move. Ties are broken at random."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TypeVar

from domain.risk.classic import phases as classic
from domain.risk.classic.moves import Attack, ClassicMove, EndAttacks, Fortify, Occupy
from domain.risk.common_moves import EndTurn, Place, Trade
from domain.risk.state import RiskState
from domain.risk.worldmap import WORLD_MAP

M = TypeVar("M", bound=ClassicMove)


def frontier(state: RiskState, territory: str) -> bool:
    """Whether ``territory`` borders a territory of another owner (the neutral army too)."""
    owner = state.owner[territory]
    return any(state.owner[n] != owner for n in WORLD_MAP.territory(territory).neighbours)


def classic_bot_move(state: RiskState, seat: int, bot: random.Random) -> ClassicMove:
    """A legal classic move for ``seat``, who must be able to act (module docstring)."""
    legal = classic.legal_moves(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no classic move now")
    for kind in (Trade, Occupy):
        chosen = [m for m in legal if isinstance(m, kind)]
        if chosen:
            return chosen[-1] if kind is Occupy else bot.choice(chosen)
    places = [m for m in legal if isinstance(m, Place)]
    if places:
        return _best(places, bot, lambda m: _place_score(state, m))
    attacks = [
        m for m in legal if isinstance(m, Attack) and state.units[m.source] >= state.units[m.target]
    ]
    if attacks:
        return _best(
            attacks, bot, lambda m: (state.units[m.source] - state.units[m.target], m.dice)
        )
    forts = [
        m
        for m in legal
        if isinstance(m, Fortify) and not frontier(state, m.source) and frontier(state, m.target)
    ]
    if forts:
        return _best(forts, bot, lambda m: (m.units, 0))
    for end in (EndAttacks(), EndTurn()):
        if end in legal:
            return end
    return bot.choice(legal)


def _place_score(state: RiskState, move: Place) -> tuple[int, int]:
    territory, n = move.units[0]
    return n, 2 * state.units[territory] * frontier(state, territory) + 1


def _best(moves: list[M], bot: random.Random, score: Callable[[M], tuple[int, int]]) -> M:
    """One of the best ``moves`` by ``score``, chosen at random."""
    scores = [score(m) for m in moves]
    top = max(scores)
    return bot.choice([m for m, s in zip(moves, scores, strict=True) if s == top])
