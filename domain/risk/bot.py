"""A random Risk player that ends the game (issue 6 part 8; docs/risk.md, "Bots"): it plays
uniformly random legal moves, but ends its turn readily once its reserve is placed, keeps the
exchange sessions short and, from round :data:`SETTLE_FROM_ROUND` on, proposes an equal
settlement of the prize fund and accepts any settlement offered -- so every game ends."""

from __future__ import annotations

import random
from typing import Final

from domain.risk import setup
from domain.risk.classic import phases as classic
from domain.risk.classic.bot import classic_bot_move
from domain.risk.constitution import exchange, invasion, reinforcement
from domain.risk.moves import (
    Accept,
    Decline,
    Done,
    EndTurn,
    RiskMove,
    Settle,
)
from domain.risk.state import COLOURS, EXCHANGE, INVASION, PLACEMENT, RiskState

SETTLE_FROM_ROUND: Final = 4
"""From this round on bots settle in the exchange session."""


def bot_move(state: RiskState, seat: int, bot: random.Random) -> RiskMove:
    """A legal move for ``seat`` (who must be able to act); a classic game's turn is played
    by :func:`domain.risk.classic.bot.classic_bot_move`."""
    if classic.is_classic(state) and state.phase in classic.PHASES:
        return classic_bot_move(state, seat, bot)
    if state.phase in (COLOURS, PLACEMENT):
        return bot.choice(setup.legal_moves(state, seat))
    if state.phase == INVASION:
        return bot.choice(invasion.legal_moves(state, seat))
    if state.phase == EXCHANGE:
        return _exchange_move(state, seat, bot)
    if reinforcement.may_end_turn(state, seat) and bot.random() < 0.5:
        return EndTurn()
    return bot.choice(reinforcement.legal_moves(state, seat))


def _exchange_move(state: RiskState, seat: int, bot: random.Random) -> RiskMove:
    """Answer what is addressed to the bot; then settle (late) or trade a little and be done."""
    legal = exchange.legal_moves(state, seat)
    settling = state.round >= SETTLE_FROM_ROUND
    for proposal in state.proposals:
        if seat in proposal["to"] and seat not in proposal["accepted"]:
            if settling and proposal["kind"] == "settlement":
                return Accept(proposal["id"])
            answers: list[RiskMove] = [Accept(proposal["id"]), Decline(proposal["id"])]
            return bot.choice(answers)
    if Done() not in legal:
        return bot.choice(legal)
    mine = any(p["by"] == seat for p in state.proposals)
    if settling:
        pending = any(p["kind"] == "settlement" for p in state.proposals)
        offers = [m for m in legal if isinstance(m, Settle)]
        if offers and not pending:
            return offers[0]
        return Done()
    if mine or bot.random() < 0.6:
        return Done()
    others = [m for m in legal if m != Done() and not isinstance(m, Settle)]
    return bot.choice(others) if others else Done()
