"""Azul as a :class:`domain.protocol.Rules` implementation: the game described, setup, whose
turn, legal moves and the events a move causes (docs/azul.md, every rules section; the
details live in the modules this one calls).

Every move is decided on the shared :class:`~domain.turn.Turn` (docs/architecture.md, "One way
to decide a move"): :meth:`AzulRules.open` and :meth:`AzulRules.decide` emit into it, and
:class:`~domain.protocol.RulesBase` writes ``begin``, ``apply`` and ``evolve`` once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from domain.azul.evolve import EVENTS
from domain.azul.invariants import check_invariants
from domain.azul.moves import (
    PLACES,
    TAKES,
    Move,
    Place,
    PlaceJson,
    Take,
    TakeJson,
    move_from_json,
    move_from_notation,
    well_formed,
)
from domain.azul.offer import take
from domain.azul.options import OPTIONS_INFO, AzulOptions, normalise_options
from domain.azul.state import (
    OFFER,
    OVER,
    SETUP,
    TILING,
    AzulState,
    current_players,
    new_state,
    state_from_json,
    state_to_json,
)
from domain.azul.tiles import NO_TILES
from domain.azul.tiling import AzulTurn, free_columns, place, refill
from domain.azul.view import AzulOutcomeDetails, AzulView, outcome, summary, view
from domain.protocol import (
    IllegalMove,
    InvalidMove,
    InvalidOptions,
    OptionInfo,
    Outcome,
    PlayerRange,
    RulesBase,
    Shapes,
    Viewer,
)
from domain.randomness import RandomStream


class AzulRules(RulesBase[AzulState, Move]):
    """The rules of Azul for 2-4 players (docs/azul.md)."""

    events = EVENTS
    shapes = Shapes(
        move=TakeJson | PlaceJson,
        view=AzulView,
        options=AzulOptions,
        outcome_details=AzulOutcomeDetails,
    )

    name = "azul"
    min_players = 2
    max_players = 4
    rules_version = "azul-1"
    options_info: tuple[OptionInfo, ...] = OPTIONS_INFO
    player_ranges: tuple[PlayerRange, ...] = (PlayerRange({}, 2, 4),)
    simultaneous_moves = True
    """Gray wall: every player with a wall-tiling choice left acts at once (docs/azul.md,
    "Gray wall")."""

    # -- creation -------------------------------------------------------------------

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options with their defaults (docs/azul.md, "Options";
        :func:`domain.azul.options.normalise_options`)."""
        return dict(normalise_options(options))

    def setup(self, players: int, options: Mapping[str, Any]) -> AzulState:
        """The table before the first refill (docs/azul.md, "Setup"); 2-4 players."""
        fixed = normalise_options(options)
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise InvalidOptions("invalid-player-count", "Azul is played by 2 to 4 players.")
        return new_state(players, fixed["wall"] == "gray")

    def open(self, turn: AzulTurn, rng: RandomStream) -> None:
        """The first refill: ``FactoriesFilled`` for round 1, seat 0 starts (docs/azul.md,
        "Setup")."""
        if turn.state.phase != SETUP:
            raise IllegalMove("already-begun", "The game has already begun.")
        refill(turn, rng)

    # -- turns ----------------------------------------------------------------------

    current_players = staticmethod(current_players)
    """The player to move during the factory offer; during gray-wall tiling every player with
    a choice left (they act at once); nobody before the start or after the end (docs/azul.md,
    "Factory offer" and "Gray wall"). The function itself: no extra call per question."""

    def legal_moves(self, state: AzulState, player: int) -> list[Move]:
        """Every legal move of ``player`` now (docs/azul.md, "Factory offer"; "Gray wall").
        Policy: a line already full of the colour is not offered (that equals the floor
        move, which always is)."""
        if state.phase == OFFER:
            if player != state.current:
                return []
            allowed = state.allowed[player]
            m0 = allowed & 31
            m1 = 32 + (allowed >> 5 & 31)
            m2 = 64 + (allowed >> 10 & 31)
            m3 = 96 + (allowed >> 15 & 31)
            m4 = 128 + (allowed >> 20)
            out: list[Move] = []
            for table, counts in zip(TAKES, state.sources):  # noqa: B905 - a TAKES row per possible source
                if counts == NO_TILES:
                    continue
                b, y, r, k, w = counts
                if b:
                    out += table[m0]
                if y:
                    out += table[m1]
                if r:
                    out += table[m2]
                if k:
                    out += table[m3]
                if w:
                    out += table[m4]
            return out
        if state.phase == TILING and 0 <= player < state.players:
            row = state.pending[player]
            if row >= 0:
                return [PLACES[row + 1][col + 1] for col in free_columns(state, player, row)]
        return []

    def decide(self, turn: AzulTurn, player: int, move: Move, rng: RandomStream) -> None:
        """The events of ``player`` making ``move``, with everything that follows (wall
        tiling, penalties, refill or game end): a take during the factory offer
        (docs/azul.md, "Factory offer"), a placement during gray-wall tiling ("Gray wall").
        Raises ``IllegalMove``/``InvalidMove`` (docs/azul.md, "Moves") before emitting."""
        if not well_formed(move):
            raise InvalidMove("malformed-move", "That is not an Azul move.")
        state = turn.before
        if state.phase == OVER:
            raise IllegalMove("game-over", "The game is over.")
        if type(player) is not int or not 0 <= player < state.players:
            raise IllegalMove("no-such-player", f"There is no seat {player!r}.")
        if state.phase == OFFER:
            if player != state.current:
                raise IllegalMove("not-your-turn", f"It is seat {state.current}'s turn.")
            if type(move) is not Take:
                raise IllegalMove("wrong-phase", "Tiles are being taken, not placed.")
            take(turn, state, player, move, rng)
        elif state.phase == TILING:
            if state.pending[player] < 0:
                raise IllegalMove("not-your-turn", "You have no wall-tiling choice to make.")
            if type(move) is not Place:
                raise IllegalMove("wrong-phase", "The wall is being tiled: place a tile.")
            place(turn, state, player, move, rng)
        else:
            raise IllegalMove("not-started", "The game has not begun.")

    def copy_state(self, state: AzulState) -> AzulState:
        """An independent copy of ``state`` (cheap: lists of ints, no deep copy)."""
        return state.clone()

    def state_to_json(self, state: AzulState) -> dict[str, Any]:
        """The state as JSON-safe primitives (snapshots)."""
        return state_to_json(state)

    def state_from_json(self, data: dict[str, Any]) -> AzulState:
        """The state that :meth:`state_to_json` gave ``data`` for."""
        return state_from_json(data)

    # -- reading --------------------------------------------------------------------

    def view(self, state: AzulState, viewer: Viewer) -> dict[str, Any]:
        """The whole table (Azul has no hidden information; docs/azul.md, "View")."""
        return cast(dict[str, Any], view(state, viewer))

    def outcome(self, state: AzulState) -> Outcome | None:
        """Scores, ranks and winners once ``GameEnded`` was recorded (docs/azul.md, "End of
        game")."""
        return outcome(state)

    def summary(self, state: AzulState) -> dict[str, Any]:
        """Scores, round and phase for lists and lobbies (docs/azul.md, "View")."""
        return summary(state)

    def check_invariants(self, state: AzulState) -> list[str]:
        """Conservation laws (docs/azul.md, "Invariants")."""
        return check_invariants(state)

    # -- move formats ---------------------------------------------------------------

    def parse_move(self, data: Any) -> Move:
        """A move from its JSON form (docs/azul.md, "Moves")."""
        return move_from_json(data)

    def parse_notation(self, text: str) -> Move:
        """A move from compact notation (``F3R2``, ``CR-``, ``2>4``; docs/azul.md, "Moves")."""
        return move_from_notation(text)
