"""Carcassonne (base game) as a :class:`domain.protocol.Rules` implementation: options,
setup, whose turn, legal moves and the events a move causes (shared/rules/carcassonne.md,
"Base game" and "Final scoring"; the details live in the modules this one calls).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from domain.carcassonne import moves as move_formats
from domain.carcassonne.board import new_state
from domain.carcassonne.evolve import EVENT_TYPES, HANDLERS
from domain.carcassonne.evolve import evolve as evolve_event
from domain.carcassonne.farms import PER_FIELD, VARIANTS
from domain.carcassonne.invariants import check_invariants
from domain.carcassonne.moves import Move, canonical, well_formed
from domain.carcassonne.placement import legal_placements
from domain.carcassonne.snapshot import state_from_json, state_to_json
from domain.carcassonne.state import OVER, PLAY, SETUP, CarcassonneState
from domain.carcassonne.turn import draw_events, play
from domain.carcassonne.view import outcome, summary, view
from domain.protocol import Event, IllegalMove, InvalidMove, InvalidOptions, Outcome, Viewer
from domain.randomness import RandomStream

SMALL_CITY_POINTS: Final = (4, 2)
"""Values of ``small-city-points``: what the tiles of a completed two-tile city score."""
DEFAULT_OPTIONS: Final = {"farmers": PER_FIELD, "small-city-points": 4}
RULES_VERSION: Final = "carcassonne-1"
"""Changes whenever the rules' decisions change (docs/carcassonne.md, "Rules decisions")."""


class CarcassonneRules:
    """The rules of the Carcassonne base game for 2-5 players (shared/rules/carcassonne.md)."""

    def __init__(self) -> None:
        self.name = "carcassonne"
        self.min_players = 2
        self.max_players = 5
        self.event_types: tuple[str, ...] = EVENT_TYPES
        self.rules_version = RULES_VERSION

    # -- creation -------------------------------------------------------------------

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """``farmers``: ``per-field`` (default), ``per-city`` or ``per-field-once``;
        ``small-city-points``: 4 (default) or 2 (rules, "Final scoring"). Anything else
        raises ``InvalidOptions`` (``invalid-options``)."""
        if not isinstance(options, Mapping):
            raise InvalidOptions("invalid-options", "Options are a JSON object.")
        unknown = sorted(str(key) for key in options if key not in DEFAULT_OPTIONS)
        if unknown:
            raise InvalidOptions("invalid-options", f"Carcassonne has no option {unknown[0]!r}.")
        farmers = options.get("farmers", DEFAULT_OPTIONS["farmers"])
        if not isinstance(farmers, str) or farmers not in VARIANTS:
            raise InvalidOptions(
                "invalid-options",
                'Option \'farmers\' is "per-field", "per-city" or "per-field-once".',
            )
        small = options.get("small-city-points", DEFAULT_OPTIONS["small-city-points"])
        if type(small) is not int or small not in SMALL_CITY_POINTS:
            raise InvalidOptions("invalid-options", "Option 'small-city-points' is 4 or 2.")
        return {"farmers": farmers, "small-city-points": small}

    def setup(self, players: int, options: Mapping[str, Any]) -> CarcassonneState:
        """The start tile on the table, 71 tiles in the stack, 7 followers each (rules,
        "Base game"); 2-5 players."""
        fixed = self.normalise_options(options)
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise InvalidOptions(
                "invalid-player-count", "The Carcassonne base game is played by 2 to 5 players."
            )
        return new_state(players, fixed["farmers"], fixed["small-city-points"])

    def begin(self, state: CarcassonneState, rng: RandomStream) -> list[Event]:
        """Seat 0 draws the first tile (``TileDrawn``)."""
        if state.phase != SETUP:
            raise IllegalMove("already-begun", "The game has already begun.")
        return draw_events(list(state.stack), state.frontier, 0, rng)

    # -- turns ----------------------------------------------------------------------

    def current_players(self, state: CarcassonneState) -> list[int]:
        """The seat holding the drawn tile; nobody before the first draw or after the end."""
        return [state.current] if state.phase == PLAY else []

    def legal_moves(self, state: CarcassonneState, player: int) -> list[Move]:
        """Every legal placement of the drawn tile, each without a follower and with one on
        every free segment (:mod:`domain.carcassonne.placement`); empty when it is not
        ``player``'s turn."""
        if state.phase != PLAY or player != state.current or state.in_hand < 0:
            return []
        return legal_placements(state, player)

    def apply(
        self, state: CarcassonneState, player: int, move: Move, rng: RandomStream
    ) -> list[Event]:
        """The events of ``player`` making ``move``, with everything that follows (scoring,
        the next draw, the end of the game). Raises ``IllegalMove``/``InvalidMove``; never
        changes ``state``."""
        if not well_formed(move):
            raise InvalidMove("malformed-move", "That is not a Carcassonne move.")
        if state.phase == OVER:
            raise IllegalMove("game-over", "The game is over.")
        if state.phase != PLAY:
            raise IllegalMove("not-started", "The game has not begun.")
        if type(player) is not int or not 0 <= player < state.players:
            raise IllegalMove("no-such-player", f"There is no seat {player!r}.")
        if player != state.current:
            raise IllegalMove("not-your-turn", f"It is seat {state.current}'s turn.")
        if state.in_hand < 0:
            raise IllegalMove("no-tile-in-hand", "No tile has been drawn.")
        return play(state, player, canonical(move), rng)

    def copy_state(self, state: CarcassonneState) -> CarcassonneState:
        """An independent copy of ``state``."""
        return state.clone()

    def state_to_json(self, state: CarcassonneState) -> dict[str, Any]:
        """The whole state as JSON-safe primitives (:mod:`domain.carcassonne.snapshot`)."""
        return state_to_json(state)

    def state_from_json(self, data: dict[str, Any]) -> CarcassonneState:
        """The state that :meth:`state_to_json` gave ``data`` for."""
        return state_from_json(data)

    def evolve(self, state: CarcassonneState, event: Event) -> CarcassonneState:
        """The state after ``event``, changed in place (:mod:`domain.carcassonne.evolve`)."""
        handler = HANDLERS.get(event.type)
        if handler is None:
            return evolve_event(state, event)  # raises unknown-event
        handler(state, event.data)
        return state

    # -- reading --------------------------------------------------------------------

    def view(self, state: CarcassonneState, viewer: Viewer) -> dict[str, Any]:
        """The table (:mod:`domain.carcassonne.view`); no viewer sees a stack order, for
        none exists."""
        return view(state, viewer)

    def outcome(self, state: CarcassonneState) -> Outcome | None:
        """Scores, ranks and winners once ``GameEnded`` was recorded."""
        return outcome(state)

    def summary(self, state: CarcassonneState) -> dict[str, Any]:
        """Scores, turn, tiles left and whether the game is over."""
        return summary(state)

    def check_invariants(self, state: CarcassonneState) -> list[str]:
        """Conservation laws, and at the end the independent recount
        (:mod:`domain.carcassonne.invariants`)."""
        return check_invariants(state)

    # -- move formats ---------------------------------------------------------------

    def parse_move(self, data: Any) -> Move:
        """A move from JSON (:func:`domain.carcassonne.moves.parse_move`)."""
        return move_formats.parse_move(data)

    def move_to_json(self, move: Move) -> dict[str, Any]:
        """The JSON form of a move."""
        return move_formats.move_to_json(move)

    def parse_notation(self, text: str) -> Move:
        """A move from compact notation (``D@1,0r90+c0``)."""
        return move_formats.parse_notation(text)

    def notation(self, move: Move) -> str:
        """The compact notation of a move."""
        return move_formats.notation(move)
