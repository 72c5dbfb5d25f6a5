"""Events shared by the phases (docs/risk.md, "A player's turn", "End of the
game"): a round starting, a player's turn starting (its invasion phase), units placed from a
reserve (setup and reinforcement alike) and the end of the game, with the functions the phase
modules call to emit them."""

from __future__ import annotations

from typing import Any

from domain.risk.state import INVASION, OVER, RiskState
from domain.risk.turn import Turn


def start_round(turn: Turn, number: int) -> None:
    """Round ``number`` begins with the first player still in the game (turn order is the
    order of colour choice for the whole game, seed 003 Art. 8)."""
    turn.emit("RoundStarted", {"round": number})
    start_turn(turn, turn.state.active()[0])


def start_turn(turn: Turn, seat: int) -> None:
    """``seat``'s turn begins with its invasion phase (the Constitution's order); in a
    classic game with its reinforcements (:func:`domain.risk.classic.start_turn`)."""
    turn.emit("TurnStarted", {"seat": seat, "round": turn.state.round})
    if turn.state.options["ruleset"] == "classic":
        from domain.risk.classic import start_turn as classic_turn  # noqa: PLC0415 - cycle

        classic_turn(turn)


def end_game(turn: Turn, reason: str, shares: dict[int, int]) -> None:
    """The game ends: ``reason`` is ``"conquest"`` (one player holds every territory and
    takes the fund) or ``"settlement"`` (every remaining player accepted how the fund is
    divided); ``shares`` says who receives how many kopecks of the fund."""
    turn.emit(
        "GameEnded",
        {
            "reason": reason,
            "shares": {str(seat): amount for seat, amount in sorted(shares.items())},
        },
    )


def _round_started(state: RiskState, data: dict[str, Any]) -> None:
    state.round = data["round"]
    state.done = []
    state.proposals = []


def _turn_started(state: RiskState, data: dict[str, Any]) -> None:
    state.turn = state.order.index(data["seat"])
    state.phase = INVASION
    state.launched = []
    state.captured = []
    state.invasion = None
    state.moved = {}


def _units_placed(state: RiskState, data: dict[str, Any]) -> None:
    seat = data["seat"]
    for territory, n in data["units"].items():
        state.units[territory] += n
        state.reserve[seat] -= n


def _game_ended(state: RiskState, data: dict[str, Any]) -> None:
    for seat, amount in data["shares"].items():
        state.purse[int(seat)] += amount
        state.fund -= amount
    state.phase = OVER
    state.invasion = None
    state.proposals = []
    state.result = {"reason": data["reason"], "shares": dict(data["shares"])}


HANDLERS = {
    "RoundStarted": _round_started,
    "TurnStarted": _turn_started,
    "UnitsPlaced": _units_placed,
    "GameEnded": _game_ended,
}
