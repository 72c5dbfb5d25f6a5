"""Rounds, turns, placing and the end, as both rulesets have them (docs/risk.md, "A
player's turn", "End of the game" and "Classic Risk"): a round starting, a seat's turn
starting and ending, units placed from a reserve (setup and reinforcement alike), a player
eliminated and the end of the game: the functions the phase modules call to emit them (each
event is built in one place here; their handlers are in :mod:`domain.risk.evolve`).

A turn starts with ``TurnStarted`` in both rulesets; a classic turn then receives its
reinforcements (:func:`domain.risk.classic.turn.start_turn`, which the classic ruleset calls
after every ``TurnStarted`` it causes).
"""

from __future__ import annotations

from typing import Literal

from domain.protocol import IllegalMove
from domain.risk.events import (
    GAME_ENDED,
    PLAYER_ELIMINATED,
    ROUND_STARTED,
    TURN_ENDED,
    TURN_STARTED,
    UNITS_PLACED,
)
from domain.risk.state import RiskState
from domain.turn import Turn


def start_round(turn: Turn[RiskState], number: int) -> None:
    """Round ``number`` begins with the first player still in the game (turn order is the
    order of colour choice for the whole game, seed 003 Art. 8; docs/risk.md, "A player's
    turn")."""
    turn.emit(ROUND_STARTED({"round": number}))
    start_turn(turn, turn.state.active()[0])


def start_turn(turn: Turn[RiskState], seat: int) -> None:
    """``seat``'s turn begins (docs/risk.md, "A player's turn"): with its invasion phase in
    the Constitution; a classic game's turn goes on with its reinforcements."""
    turn.emit(TURN_STARTED({"seat": seat, "round": turn.state.round}))


def place_reserve(turn: Turn[RiskState], seat: int, units: dict[str, int]) -> None:
    """docs/risk.md, "Reinforcement phase" (and "Classic Risk"): the reserve is placed on own
    territories, any part of it at a time."""
    state = turn.state
    for territory in units:
        if state.owner.get(territory) != seat:
            raise IllegalMove("not-your-territory", f"You do not hold {territory}.")
    total = sum(units.values())
    if total > state.reserve[seat]:
        raise IllegalMove(
            "reserve-exceeded", f"You have {state.reserve[seat]} units to place, not {total}."
        )
    place_units(turn, seat, units)


def place_units(turn: Turn[RiskState], seat: int, units: dict[str, int]) -> None:
    """The one place ``UnitsPlaced`` is built (docs/risk.md, "Setup" and "Reinforcement
    phase"): ``units`` by territory leave ``seat``'s reserve; the caller has judged them."""
    turn.emit(UNITS_PLACED({"seat": seat, "units": units}))


def end_turn(turn: Turn[RiskState], seat: int) -> None:
    """The one place ``TurnEnded`` is built (docs/risk.md, "A player's turn" and "Classic
    Risk"): ``seat``'s turn is over; the caller starts what follows."""
    turn.emit(TURN_ENDED({"seat": seat}))


def eliminate(turn: Turn[RiskState], out: int, by: int) -> None:
    """docs/risk.md, "Invasion phase" and "Classic Risk": a player left without territory is
    out, and its cards go to the conqueror ``by`` (**decision**)."""
    hand = list(turn.state.hands[out])
    turn.emit(PLAYER_ELIMINATED({"seat": out, "by": by, "cards": hand, "card_count": len(hand)}))


def end_game(
    turn: Turn[RiskState], reason: Literal["conquest", "settlement"], shares: dict[int, int]
) -> None:
    """docs/risk.md, "End of the game": ``reason`` is ``"conquest"`` (one player holds every
    territory and takes the fund) or ``"settlement"`` (every remaining player accepted how
    the fund is divided); ``shares`` says who receives how many kopecks of the fund."""
    turn.emit(
        GAME_ENDED(
            {
                "reason": reason,
                "shares": {str(seat): amount for seat, amount in sorted(shares.items())},
            }
        )
    )
