"""Helpers of the Risk tests: a random stream that draws exactly what a test scripts (dice,
cards), and a phase module's decision as the rules run it (a turn, its events)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from domain.events import Event
from domain.randomness import RandomStream
from domain.risk import RISK, setup
from domain.risk.evolve import EVENTS
from domain.risk.moves import RiskMove
from domain.risk.state import RiskState
from domain.turn import Turn


class Scripted(RandomStream):
    """Returns the scripted draws in order and refuses any other draw; with ``then_last``
    every draw after the script is ``n - 1`` instead (so a Fisher-Yates shuffle keeps the
    order)."""

    def __init__(self, draws: Sequence[int], *, then_last: bool = False) -> None:
        super().__init__("scripted")
        self.draws = list(draws)
        self.then_last = then_last

    def below(self, n: int) -> int:
        """The next scripted draw (it must be below ``n``)."""
        if not self.draws and self.then_last:
            value = n - 1
        else:
            assert self.draws, "an unexpected random draw"
            value = self.draws.pop(0)
        assert 0 <= value < n
        self.position += 1
        return value


def dice(*faces: int) -> list[int]:
    """The draws that make ``rng.below(6) + 1`` roll ``faces``."""
    return [face - 1 for face in faces]


evolve = EVENTS.evolve
"""The state after an event, changed in place (the catalogue replay runs)."""


def turn_on(state: RiskState) -> Turn[RiskState]:
    """A turn on ``state``, as the rules open one for a move."""
    return Turn(state, RISK)


class Decides(Protocol):
    """A phase module: it decides a move into a turn."""

    def decide(
        self, turn: Turn[RiskState], seat: int, move: RiskMove, rng: RandomStream
    ) -> None: ...


def play(
    module: Decides, state: RiskState, seat: int, move: RiskMove, rng: RandomStream
) -> list[Event]:
    """The events of ``module`` deciding ``seat``'s ``move`` on ``state``."""
    turn = turn_on(state)
    module.decide(turn, seat, move, rng)
    return turn.events


def begin(state: RiskState, rng: RandomStream) -> list[Event]:
    """The opening events (:func:`domain.risk.setup.begin`)."""
    turn = turn_on(state)
    setup.begin(turn, rng)
    return turn.events
