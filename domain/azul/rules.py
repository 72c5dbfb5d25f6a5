"""Azul as a :class:`domain.protocol.Rules` implementation: options, setup, whose turn,
legal moves and the events a move causes (docs/azul.md, every rules section; the
details live in the modules this one calls)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from domain.azul import moves as move_formats
from domain.azul.evolve import EVENT_TYPES, HANDLERS
from domain.azul.evolve import evolve as evolve_event
from domain.azul.invariants import check_invariants
from domain.azul.moves import CENTRE, PLACES, TAKES, Move, Place, Take, well_formed
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
from domain.azul.tiles import FLOOR_SPACES, LETTERS, NAMES, SIZE
from domain.azul.tiling import (
    end_round,
    factories_filled,
    free_columns,
    settle,
    tiling_done,
    wall_tiled,
)
from domain.azul.view import outcome, summary, view
from domain.protocol import (
    Event,
    IllegalMove,
    InvalidMove,
    InvalidOptions,
    OptionInfo,
    Outcome,
    PlayerRange,
    RulesBase,
    Viewer,
)
from domain.randomness import RandomStream

WALLS: Final = ("colored", "gray")
"""Values of the ``wall`` option (docs/azul.md, "Setup": the same wall side for everyone)."""
DEFAULT_OPTIONS: Final = {"wall": "colored"}


def _illegal(code: str, message: str) -> IllegalMove:
    return IllegalMove(code, message)


class AzulRules(RulesBase[AzulState, Move]):
    """The rules of Azul for 2-4 players (docs/azul.md)."""

    def __init__(self) -> None:
        self.name = "azul"
        self.min_players = 2
        self.max_players = 4
        self.event_types: tuple[str, ...] = EVENT_TYPES
        self.rules_version = "azul-1"
        self.options_info: tuple[OptionInfo, ...] = (
            OptionInfo(
                "wall",
                "string",
                DEFAULT_OPTIONS["wall"],
                'The wall side everyone plays (docs/azul.md, "Gray wall").',
                values=WALLS,
            ),
        )
        self.player_ranges: tuple[PlayerRange, ...] = (
            PlayerRange({}, self.min_players, self.max_players),
        )

    # -- creation -------------------------------------------------------------------

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """``{"wall": "colored"}`` (default) or ``{"wall": "gray"}`` (docs/azul.md, "Gray wall");
        anything else raises ``InvalidOptions`` (``invalid-options``)."""
        if not isinstance(options, Mapping):
            raise InvalidOptions("invalid-options", "Options are a JSON object.")
        unknown = sorted(str(key) for key in options if key not in DEFAULT_OPTIONS)
        if unknown:
            raise InvalidOptions("invalid-options", f"Azul has no option {unknown[0]!r}.")
        wall = options.get("wall", DEFAULT_OPTIONS["wall"])
        if wall not in WALLS:
            raise InvalidOptions("invalid-options", 'Option \'wall\' is "colored" or "gray".')
        return {"wall": wall}

    def setup(self, players: int, options: Mapping[str, Any]) -> AzulState:
        """The table before the first refill (docs/azul.md, "Setup"); 2-4 players."""
        fixed = self.normalise_options(options)
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise InvalidOptions("invalid-player-count", "Azul is played by 2 to 4 players.")
        return new_state(players, fixed["wall"] == "gray")

    def begin(self, state: AzulState, rng: RandomStream) -> list[Event]:
        """The first refill: ``FactoriesFilled`` for round 1, seat 0 starts (docs/azul.md,
        "Setup")."""
        if state.phase != SETUP:
            raise _illegal("already-begun", "The game has already begun.")
        return [factories_filled(state, rng)]

    # -- turns ----------------------------------------------------------------------

    def current_players(self, state: AzulState) -> list[int]:
        """The player to move during the factory offer; during gray-wall tiling every
        player with a choice left (they act at once); nobody before the start or after
        the end."""
        return current_players(state)

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
            for table, (b, y, r, k, w) in zip(TAKES, state.sources):  # noqa: B905 - a TAKES row per possible source
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

    def apply(self, state: AzulState, player: int, move: Move, rng: RandomStream) -> list[Event]:
        """The events of ``player`` making ``move``, with everything that follows (wall
        tiling, penalties, refill or game end). Raises ``IllegalMove``/``InvalidMove``;
        never changes ``state`` (the end of a round is worked out on one clone)."""
        if not well_formed(move):
            raise InvalidMove("malformed-move", "That is not an Azul move.")
        if state.phase == OVER:
            raise _illegal("game-over", "The game is over.")
        if type(player) is not int or not 0 <= player < state.players:
            raise _illegal("no-such-player", f"There is no seat {player!r}.")
        if state.phase == OFFER:
            if player != state.current:
                raise _illegal("not-your-turn", f"It is seat {state.current}'s turn.")
            if type(move) is not Take:
                raise _illegal("wrong-phase", "Tiles are being taken, not placed.")
            return self._take(state, player, move, rng)
        if state.phase == TILING:
            if state.pending[player] < 0:
                raise _illegal("not-your-turn", "You have no wall-tiling choice to make.")
            if type(move) is not Place:
                raise _illegal("wrong-phase", "The wall is being tiled: place a tile.")
            return self._place(state, player, move, rng)
        raise _illegal("not-started", "The game has not begun.")

    def _take(self, state: AzulState, player: int, move: Take, rng: RandomStream) -> list[Event]:
        source, colour, line = move
        if source >= len(state.sources):
            raise _illegal("no-such-source", f"There is no factory {source}.")
        counts = state.sources[source]
        count = counts[colour]
        if not count:
            raise _illegal("colour-not-in-source", f"There is no {NAMES[colour]} tile there.")
        to_line = 0
        if line:
            row = line - 1
            held = state.line_count[player][row]
            if held and state.line_colour[player][row] != colour:
                raise _illegal("line-holds-other-colour", f"Line {line} holds another colour.")
            if state.row_colours[player][row] >> colour & 1:
                raise _illegal("colour-already-on-wall", f"Wall row {line} has that colour.")
            if held == line:
                raise _illegal("line-full", f"Line {line} is full; put the tiles on the floor.")
            to_line = min(count, line - held)
        marker = source == CENTRE and state.marker_in_centre
        free = FLOOR_SPACES - len(state.floor[player])
        if marker and free:
            free -= 1
        overflow = count - to_line
        to_floor = overflow if overflow < free else free
        to_centre: list[str] = []
        if source != CENTRE:
            for other, n in enumerate(counts):
                if n and other != colour:
                    to_centre += LETTERS[other] * n
        taken = Event(
            "TilesTaken",
            {
                "player": player,
                "source": "centre" if source == CENTRE else source,
                "colour": LETTERS[colour],
                "count": count,
                "line": line if line else "floor",
                "to_line": to_line,
                "to_floor": to_floor,
                "to_lid": overflow - to_floor,
                "marker": marker,
                "to_centre": to_centre,
            },
        )
        if state.tiles_left > count:
            return [taken]
        work = state.clone()
        evolve_event(work, taken)
        events = [taken]
        for seat in range(work.players):
            events += settle(work, seat)
        if tiling_done(work):
            events += end_round(work, rng)
        return events

    def _place(self, state: AzulState, player: int, move: Place, rng: RandomStream) -> list[Event]:
        row = state.pending[player]
        if move.row != row + 1:
            raise _illegal("wrong-row", f"Wall tiling goes top down: place line {row + 1} first.")
        column = move.column - 1
        if state.wall[player][row * SIZE + column] >= 0:
            raise _illegal("space-occupied", "That wall space already has a tile.")
        if state.col_colours[player][column] >> state.line_colour[player][row] & 1:
            raise _illegal("colour-already-in-column", "That column already has this colour.")
        placed = wall_tiled(state, player, row, column)
        work = state.clone()
        evolve_event(work, placed)
        events = [placed, *settle(work, player)]
        if tiling_done(work):
            events += end_round(work, rng)
        return events

    def copy_state(self, state: AzulState) -> AzulState:
        """An independent copy of ``state`` (cheap: lists of ints, no deep copy)."""
        return state.clone()

    def state_to_json(self, state: AzulState) -> dict[str, Any]:
        """The state as JSON-safe primitives (snapshots)."""
        return state_to_json(state)

    def state_from_json(self, data: dict[str, Any]) -> AzulState:
        """The state that :meth:`state_to_json` gave ``data`` for."""
        return state_from_json(data)

    def evolve(self, state: AzulState, event: Event) -> AzulState:
        """The state after ``event``, changed in place (:mod:`domain.azul.evolve`)."""
        handler = HANDLERS.get(event.type)
        if handler is None:
            return evolve_event(state, event)  # raises unknown-event
        handler(state, event.data)
        return state

    # -- reading --------------------------------------------------------------------

    def view(self, state: AzulState, viewer: Viewer) -> dict[str, Any]:
        """The whole table (Azul has no hidden information; :mod:`domain.azul.view`)."""
        return view(state, viewer)

    def outcome(self, state: AzulState) -> Outcome | None:
        """Scores, ranks and winners once ``GameEnded`` was recorded."""
        return outcome(state)

    def summary(self, state: AzulState) -> dict[str, Any]:
        """Scores, round and phase for lists and lobbies."""
        return summary(state)

    def check_invariants(self, state: AzulState) -> list[str]:
        """Conservation laws (:mod:`domain.azul.invariants`)."""
        return check_invariants(state)

    # -- move formats ---------------------------------------------------------------

    def parse_move(self, data: Any) -> Move:
        """A move from JSON (:func:`domain.azul.moves.parse_move`)."""
        return move_formats.parse_move(data)

    def move_to_json(self, move: Move) -> dict[str, Any]:
        """The JSON form of a move."""
        return move_formats.move_to_json(move)

    def parse_notation(self, text: str) -> Move:
        """A move from compact notation (``F3R2``, ``CR-``, ``2>4``)."""
        return move_formats.parse_notation(text)

    def notation(self, move: Move) -> str:
        """The compact notation of a move."""
        return move_formats.notation(move)
