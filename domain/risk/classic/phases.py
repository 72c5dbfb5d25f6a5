"""The classic Risk ruleset, game option ``ruleset: "classic"`` (docs/risk.md,
"Classic Risk"), as one phase module for the phases of a classic turn:

    reinforcement  -- reinforcements received, sets traded, the reserve placed
    invasion       -- the attack phase: one roll per attack, occupying conquests
    fortify        -- one fortify move, or none; the turn ends

Setup (turn order, deal, colours, placement) is :mod:`domain.risk.setup`'s; with two players
the deal makes a third pile for the neutral army (owner -1), which places nothing more,
never acts and defends normally. The classic ruleset has no money, no exchange session and
no golden horse: the prize-fund fields keep the options' amounts and the winner of a
conquest takes the fund, so the money is conserved as in the Constitution.

The parts: :mod:`domain.risk.classic.turn` (reinforcements, placing, fortifying, the end of
the turn), :mod:`domain.risk.classic.battle` (attacks, conquest, elimination, the end of the
game), :mod:`domain.risk.classic.cards` (classic sets, their values, forced trades, the
card drawn for a turn with a conquest). :func:`domain.risk.classic.turn.start_turn` must
follow every ``TurnStarted`` of a classic game (the rules call it after every move of one).
"""

from __future__ import annotations

from typing import Final

from domain.protocol import IllegalMove
from domain.randomness import RandomStream
from domain.risk.classic import battle as classic_battle
from domain.risk.classic import cards as classic_cards
from domain.risk.classic import turn as classic_turn
from domain.risk.classic.moves import Attack, ClassicMove, EndAttacks, Fortify, Occupy
from domain.risk.common_moves import EndTurn, Place, Trade
from domain.risk.state import FORTIFY, INVASION, REINFORCEMENT, RiskState
from domain.turn import Turn

PHASES: Final = (REINFORCEMENT, INVASION, FORTIFY)
"""The state phases this module decides when ``state.options["ruleset"] == "classic"``."""

RULESET: Final = "classic"


def is_classic(state: RiskState) -> bool:
    """Whether the game is played by the classic ruleset (the game option ``ruleset``)."""
    return bool(state.options.get("ruleset") == RULESET)


def legal_moves(state: RiskState, seat: int) -> list[ClassicMove]:
    """The moves ``seat`` may make now (docs/risk.md, "Classic Risk"): in reinforcement every
    set and, unless a trade is forced, the placements; in the attack phase the occupation
    due, else the forced trades, else the placements of traded units, else every attack and
    ``EndAttacks``; in fortify every fortify move and ``EndTurn``. Moves with amounts list
    the least and the most only."""
    if state.phase not in PHASES or state.seat != seat or not state.order:
        return []
    trades: list[ClassicMove] = [Trade(s) for s in classic_cards.classic_sets_in(state.hands[seat])]
    if state.phase == REINFORCEMENT:
        return [*trades, *classic_turn.place_moves(state, seat)]
    if state.phase == FORTIFY:
        return [*classic_turn.fortify_moves(state, seat), EndTurn()]
    if classic_battle.occupation_due(state) is not None:
        return classic_battle.occupy_moves(state)
    if classic_cards.must_trade(state, seat):
        return trades
    if state.reserve[seat] > 0:
        return classic_turn.place_moves(state, seat)
    return [*classic_battle.attack_moves(state, seat), EndAttacks()]


def decide(turn: Turn[RiskState], seat: int, move: object, rng: RandomStream) -> None:
    """The events of ``seat``'s move in a classic turn (docs/risk.md, "Classic Risk");
    ``IllegalMove`` when it is not allowed now."""
    state = turn.state
    if state.phase not in PHASES or state.seat != seat or not state.order:
        raise IllegalMove("not-your-turn", "It is not your turn.")
    phase = state.phase
    match move:
        case Trade(traded) if phase != FORTIFY:
            if classic_battle.occupation_due(state) is not None:
                raise IllegalMove("occupy-first", "Move units into the conquered territory first.")
            classic_cards.trade(turn, seat, traded)
        case Place(units) if phase != FORTIFY:
            _place(turn, seat, dict(units))
        case Attack() if phase == INVASION:
            classic_battle.attack(turn, seat, move, rng)
        case Occupy(units) if phase == INVASION:
            classic_battle.occupy(turn, seat, units)
        case EndAttacks() if phase == INVASION:
            classic_battle.end_attacks(turn, seat)
        case Fortify() if phase == FORTIFY:
            classic_turn.fortify(turn, seat, move, rng)
        case EndTurn() if phase == FORTIFY:
            classic_turn.end_turn(turn, seat, rng)
        case _:
            raise IllegalMove("wrong-phase", f"That move is not allowed in the {phase} phase.")


def _place(turn: Turn[RiskState], seat: int, units: dict[str, int]) -> None:
    """Placing is the reinforcement phase's, and the attack phase's only for the units of a
    forced trade (docs/risk.md, "Classic Risk")."""
    state = turn.state
    if state.phase == INVASION:
        if classic_battle.occupation_due(state) is not None:
            raise IllegalMove("occupy-first", "Move units into the conquered territory first.")
        if not state.reserve[seat]:
            raise IllegalMove("nothing-to-place", "You have no reserve units to place.")
    classic_turn.place(turn, seat, units)
