"""Risk by the Constitution, or classic Risk, as a :class:`domain.protocol.Rules`
implementation (docs/risk.md): which phase module decides a move, who acts, and the
protocol's reading functions. The phases live in :mod:`domain.risk.setup` (both rulesets),
:mod:`domain.risk.constitution` and :mod:`domain.risk.classic`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final, Protocol, cast

from domain.protocol import (
    Event,
    IllegalMove,
    InvalidOptions,
    OptionInfo,
    Outcome,
    PlayerRange,
    RulesBase,
    Shapes,
    Viewer,
)
from domain.randomness import RandomStream
from domain.risk import setup
from domain.risk.bot import bot_move
from domain.risk.classic import phases as classic
from domain.risk.classic.turn import start_turn as start_classic_turn
from domain.risk.constitution import exchange, invasion, reinforcement
from domain.risk.evolve import EVENTS
from domain.risk.invariants import check_invariants
from domain.risk.move_json import RiskMoveJson
from domain.risk.moves import RiskMove, parse_move, parse_notation
from domain.risk.options import OPTIONS_INFO, RiskOptions, normalise_options
from domain.risk.state import (
    COLOURS,
    EXCHANGE,
    INVASION,
    OVER,
    PLACEMENT,
    REINFORCEMENT,
    RiskState,
    copy_state,
    new_state,
    state_from_json,
    state_to_json,
)
from domain.risk.view import RiskOutcomeDetails, RiskView, event_view, outcome, summary, view
from domain.turn import Turn

RULES_VERSION: Final = "risk-3"
"""Changes whenever the rules' decisions change (docs/risk.md, "Rules versions")."""


class _Phase(Protocol):
    """What a phase module provides (docs/risk.md, the module table)."""

    def legal_moves(self, state: RiskState, seat: int) -> Sequence[RiskMove]: ...

    def decide(self, turn: Turn[RiskState], seat: int, move: object, rng: RandomStream) -> None: ...


_PHASES: Final[dict[str, _Phase]] = {
    COLOURS: setup,
    PLACEMENT: setup,
    INVASION: invasion,
    REINFORCEMENT: reinforcement,
    EXCHANGE: exchange,
}


def _module(state: RiskState) -> _Phase:
    """The module deciding the current phase: setup is :mod:`domain.risk.setup`'s, a classic
    game's turn :mod:`domain.risk.classic.phases`', everything else the Constitution's phase
    modules'."""
    if classic.is_classic(state) and state.phase in classic.PHASES:
        return classic
    return _PHASES[state.phase]


class RiskRules(RulesBase[RiskState, RiskMove]):
    """Risk by the Constitution, or classic Risk (``ruleset: "classic"``), for 2-6 players
    (docs/risk.md)."""

    events = EVENTS
    shapes = Shapes(
        move=RiskMoveJson,
        view=RiskView,
        options=RiskOptions,
        outcome_details=RiskOutcomeDetails,
    )

    name = "risk"
    min_players = 2
    max_players = 6
    rules_version = RULES_VERSION
    options_info: tuple[OptionInfo, ...] = OPTIONS_INFO
    player_ranges: tuple[PlayerRange, ...] = (PlayerRange({}, 2, 6),)
    hides_information = True
    """Hands of cards: a drawn card, a deal's cards are shown to the players concerned
    only (``event_view``; docs/risk.md, "Hidden information")."""
    open_moves = True
    """Moves with free amounts and contents (splits of a placement, any deal) are legal
    without being listed: ``legal_moves`` lists the typical ones and ``apply`` judges
    every move (the record verifier asks ``apply``, not the list)."""

    # -- creation -------------------------------------------------------------------

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options with the Constitution's defaults (:mod:`domain.risk.options`)."""
        return normalise_options(options)

    def setup(self, players: int, options: Mapping[str, Any]) -> RiskState:
        """The state before the turn-order rolls: 2-6 players (docs/risk.md, "Setup")."""
        fixed = self.normalise_options(options)
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise InvalidOptions("invalid-player-count", "Risk is played by 2 to 6 players.")
        return new_state(players, fixed)

    def open(self, turn: Turn[RiskState], rng: RandomStream) -> None:
        """Turn-order rolls, territories dealt, money paid (:func:`domain.risk.setup.begin`)."""
        setup.begin(turn, rng)

    # -- turns ----------------------------------------------------------------------

    def current_players(self, state: RiskState) -> list[int]:
        """The seat whose turn it is; in the exchange session every seat that may still
        act (:func:`domain.risk.constitution.exchange.current`); nobody before the opening or
        after the end."""
        if not state.order or state.phase == OVER:
            return []
        if state.phase == EXCHANGE:
            return exchange.current(state)
        if state.phase == COLOURS:
            return [state.order[sum(c is not None for c in state.colours)]]
        return [state.seat]

    def legal_moves(self, state: RiskState, player: int) -> list[RiskMove]:
        """The moves of the phase module for ``player``; empty when ``player`` may not act.
        Moves with amounts list the typical amounts (docs/risk.md, "Legal moves")."""
        if player not in self.current_players(state):
            return []
        return list(_module(state).legal_moves(state, player))

    def decide(self, turn: Turn[RiskState], player: int, move: RiskMove, rng: RandomStream) -> None:
        """The events of ``player`` making ``move`` (the phase module decides; docs/risk.md,
        "A player's turn"); raises ``IllegalMove``. A classic game's turn that has just
        started receives its reinforcements (docs/risk.md, "Classic Risk")."""
        state = turn.state
        if state.phase == OVER:
            raise IllegalMove("game-over", "The game is over.")
        if not state.order:
            raise IllegalMove("not-started", "The game has not begun.")
        if type(player) is not int or not 0 <= player < state.players:
            raise IllegalMove("no-such-player", f"There is no seat {player!r}.")
        if player not in self.current_players(state):
            raise IllegalMove("not-your-turn", f"Seat {player} may not act now.")
        _module(state).decide(turn, player, move, rng)
        if classic.is_classic(state):
            start_classic_turn(turn)

    def copy_state(self, state: RiskState) -> RiskState:
        """An independent copy of ``state``."""
        return copy_state(state)

    def state_to_json(self, state: RiskState) -> dict[str, Any]:
        """The whole state as JSON-safe primitives."""
        return state_to_json(state)

    def state_from_json(self, data: dict[str, Any]) -> RiskState:
        """The state that :meth:`state_to_json` gave ``data`` for."""
        return state_from_json(data)

    # -- reading --------------------------------------------------------------------

    def view(self, state: RiskState, viewer: Viewer) -> dict[str, Any]:
        """The table as ``viewer`` may see it (:func:`domain.risk.view.view`)."""
        return cast(dict[str, Any], view(state, viewer))

    def event_view(self, event: Event, viewer: Viewer) -> dict[str, Any]:
        """An event as ``viewer`` may see it (:func:`domain.risk.view.event_view`)."""
        return event_view(event, viewer)

    def outcome(self, state: RiskState) -> Outcome | None:
        """Shares of the prize fund once the game has ended."""
        return outcome(state)

    def summary(self, state: RiskState) -> dict[str, Any]:
        """Scores (fund shares), round, phase, territories held."""
        return summary(state)

    def check_invariants(self, state: RiskState) -> list[str]:
        """Units, cards and money conserved (:mod:`domain.risk.invariants`)."""
        return check_invariants(state)

    def bot_move(self, state: RiskState, player: int, bot: random.Random) -> RiskMove:
        """A random bot's move that settles after a bounded number of rounds
        (:mod:`domain.risk.bot`; used by simulations and the conformance run)."""
        return bot_move(state, player, bot)

    def out_of_play(self, state: RiskState) -> list[int]:
        """The eliminated players, in the order they were eliminated (docs/risk.md,
        "Resigning")."""
        return list(state.eliminated)

    # -- move formats ---------------------------------------------------------------

    def parse_move(self, data: Any) -> RiskMove:
        """A move from JSON (:func:`domain.risk.moves.parse_move`; docs/risk.md, "Moves")."""
        return parse_move(data)

    def parse_notation(self, text: str) -> RiskMove:
        """A move from its notation (:func:`domain.risk.moves.parse_notation`)."""
        return parse_notation(text)
