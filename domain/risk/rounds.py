"""Rounds, turns, placing and the end, as both rulesets have them (docs/risk.md, "A
player's turn", "End of the game" and "Classic Risk"): a round starting, a seat's turn
starting and ending, units placed from a reserve (setup and reinforcement alike), a player
eliminated and the end of the game, with the functions the phase modules call to emit them and
the handlers :mod:`domain.risk.evolve` binds.

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
    TURN_STARTED,
    UNITS_PLACED,
    GameEnded,
    PlayerEliminated,
    RoundStarted,
    TurnEnded,
    TurnStarted,
    UnitsPlaced,
)
from domain.risk.state import INVASION, OVER, RiskState
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
    turn.emit(UNITS_PLACED({"seat": seat, "units": units}))


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


def round_started(state: RiskState, data: RoundStarted) -> None:
    """docs/risk.md, "A player's turn": a new round; the exchange session's marks are reset."""
    state.round = data["round"]
    state.done = []
    state.proposals = []


def turn_started(state: RiskState, data: TurnStarted) -> None:
    """docs/risk.md, "A player's turn": the seat's turn opens with its invasion phase (a
    classic turn's reinforcements change the phase next)."""
    state.turn = state.order.index(data["seat"])
    state.phase = INVASION
    state.launched = []
    state.captured = []
    state.invasion = None
    state.moved = {}


def units_placed(state: RiskState, data: UnitsPlaced) -> None:
    """docs/risk.md, "Setup" and "Reinforcement phase": units leave the reserve for the map."""
    seat = data["seat"]
    for territory, n in data["units"].items():
        state.units[territory] += n
        state.reserve[seat] -= n


def turn_ended(state: RiskState, data: TurnEnded) -> None:
    """The turn's record closes; the next ``TurnStarted`` or ``ExchangeSessionOpened``
    changes the phase (docs/risk.md, "A player's turn")."""
    del state, data


def player_eliminated(state: RiskState, data: PlayerEliminated) -> None:
    """docs/risk.md, "Invasion phase": the hand goes to the conqueror, the reserve and the
    units still to come are lost."""
    out = data["seat"]
    state.hands[data["by"]].extend(data["cards"])
    state.hands[out] = []
    state.eliminated.append(out)
    state.units_lost += state.incoming[out] + state.reserve[out]
    state.incoming[out] = 0
    state.reserve[out] = 0


def game_ended(state: RiskState, data: GameEnded) -> None:
    """docs/risk.md, "End of the game": the fund is paid out by the shares."""
    for seat, amount in data["shares"].items():
        state.purse[int(seat)] += amount
        state.fund -= amount
    state.phase = OVER
    state.invasion = None
    state.proposals = []
    state.result = {"reason": data["reason"], "shares": dict(data["shares"])}
