"""The state of a game of Azul: the public table after every event (docs/azul.md,
"Setup", "Factory offer" and "Wall tiling and scoring").

The state is deliberately small and flat (lists of ints, colours as 0..4) so that cloning it
and listing moves are cheap. Per-player lists are indexed by seat. Everything here is
derived from events by :mod:`domain.azul.evolve`; nothing here draws random numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Final, Literal

from domain.azul.tiles import COLOURS, SIZE, TILES_PER_COLOUR, factory_count
from domain.jsonvalue import copy_json

SETUP: Final = 0
"""Before the opening refill (:meth:`AzulRules.begin`)."""
OFFER: Final = 1
"""Factory offer: the current player takes tiles (docs/azul.md, "Factory offer")."""
TILING: Final = 2
"""Wall tiling with choices to make (gray wall only; docs/azul.md, "Gray wall")."""
OVER: Final = 3
"""The game has ended (docs/azul.md, "End of game")."""

PhaseName = Literal["setup", "offer", "tiling", "over"]
"""A phase as the view names it (docs/azul.md, "View")."""

PHASE_NAMES: Final[tuple[PhaseName, PhaseName, PhaseName, PhaseName]] = (
    "setup",
    "offer",
    "tiling",
    "over",
)
"""The name of each phase, indexed by its number."""


def _empty_contribution(row: int, wall_mask: int) -> int:
    """The allowed-bits of an empty pattern line ``row`` whose wall row holds the colours
    of ``wall_mask`` (docs/azul.md, "Factory offer")."""
    bits = 0
    for colour in range(COLOURS):
        if not wall_mask >> colour & 1:
            bits |= 1 << (colour * SIZE + row)
    return bits


EMPTY_LINE_ALLOWS: Final = tuple(
    tuple(_empty_contribution(row, mask) for mask in range(1 << COLOURS)) for row in range(SIZE)
)
"""``EMPTY_LINE_ALLOWS[row][colours on that wall row]``: the packed allowed-bits that an
empty pattern line contributes (see :func:`allowed_lines`)."""

LINE_BITS: Final = tuple(_empty_contribution(row, 0) for row in range(SIZE))
"""Every allowed-bit of one pattern line (all colours)."""


@dataclass(slots=True)
class AzulState:
    """The whole state of one game. ``allowed`` and ``tiles_left`` are caches derived from
    the other fields (checked by :mod:`domain.azul.invariants`)."""

    players: int
    gray: bool
    round: int
    phase: int
    sources: list[list[int]]
    """Tile counts per colour: index 0 is the centre, index ``k`` is factory ``k``."""
    tiles_left: int
    """Tiles on the factories and in the centre together."""
    marker_in_centre: bool
    marker_holder: int
    """The seat that took the marker this round (it starts the next round), or -1."""
    first_player: int
    """The seat that started this round."""
    current: int
    """The seat to move during the factory offer."""
    bag: list[int]
    lid: list[int]
    scores: list[int]
    line_colour: list[list[int]]
    """Per seat and pattern line (0-based): the colour it holds, or -1 when empty."""
    line_count: list[list[int]]
    wall: list[list[int]]
    """Per seat: 25 cells, row-major; the colour of the tile on it, or -1 when empty."""
    row_colours: list[list[int]]
    """Per seat and wall row: bit ``c`` set when colour ``c`` is on that row."""
    col_colours: list[list[int]]
    """Per seat and wall column: bit ``c`` set when colour ``c`` is in that column."""
    floor: list[list[int]]
    """Per seat: the floor line left to right, tiles (0..4) and the marker (5)."""
    pending: list[int]
    """Per seat during wall tiling: the next complete pattern line (0-based), or -1."""
    allowed: list[int]
    """Per seat: bit ``colour * 5 + line`` set when ``colour`` may go to that pattern line."""
    random_position: int
    result: dict[str, Any] | None
    """The data of ``GameEnded`` once the game is over."""

    def clone(self) -> AzulState:
        """An independent copy (cheaper than ``copy.deepcopy``)."""
        return AzulState(
            self.players,
            self.gray,
            self.round,
            self.phase,
            [list(s) for s in self.sources],
            self.tiles_left,
            self.marker_in_centre,
            self.marker_holder,
            self.first_player,
            self.current,
            list(self.bag),
            list(self.lid),
            list(self.scores),
            [list(x) for x in self.line_colour],
            [list(x) for x in self.line_count],
            [list(x) for x in self.wall],
            [list(x) for x in self.row_colours],
            [list(x) for x in self.col_colours],
            [list(x) for x in self.floor],
            list(self.pending),
            list(self.allowed),
            self.random_position,
            None if self.result is None else dict(self.result),
        )


def state_to_json(state: AzulState) -> dict[str, Any]:
    """Every field as JSON-safe primitives (a snapshot of the table)."""
    return {name: copy_json(getattr(state, name)) for name in _FIELDS}


def state_from_json(data: dict[str, Any]) -> AzulState:
    """The state :func:`state_to_json` gave ``data`` for."""
    return AzulState(**{name: copy_json(data[name]) for name in _FIELDS})


def new_state(players: int, gray: bool) -> AzulState:
    """The table before the first refill: full bag, empty boards, scores 0, seat 0 to start
    (docs/azul.md, "Setup"). Player count and options are validated by the caller."""
    all_lines = (1 << (COLOURS * SIZE)) - 1
    return AzulState(
        players=players,
        gray=gray,
        round=0,
        phase=SETUP,
        sources=[[0] * COLOURS for _ in range(factory_count(players) + 1)],
        tiles_left=0,
        marker_in_centre=True,
        marker_holder=-1,
        first_player=0,
        current=0,
        bag=[TILES_PER_COLOUR] * COLOURS,
        lid=[0] * COLOURS,
        scores=[0] * players,
        line_colour=[[-1] * SIZE for _ in range(players)],
        line_count=[[0] * SIZE for _ in range(players)],
        wall=[[-1] * (SIZE * SIZE) for _ in range(players)],
        row_colours=[[0] * SIZE for _ in range(players)],
        col_colours=[[0] * SIZE for _ in range(players)],
        floor=[[] for _ in range(players)],
        pending=[-1] * players,
        allowed=[all_lines] * players,
        random_position=0,
        result=None,
    )


def allowed_lines(state: AzulState, player: int) -> int:
    """Where each colour may go (docs/azul.md, "Factory offer"): bit ``colour * 5 + line`` is set
    when the pattern line is empty and the colour is not on that wall row, or when the line
    already holds that colour and is not full."""
    colours = state.line_colour[player]
    counts = state.line_count[player]
    rows = state.row_colours[player]
    bits = 0
    for row in range(SIZE):
        count = counts[row]
        if count == 0:
            bits |= EMPTY_LINE_ALLOWS[row][rows[row]]
        elif count <= row:
            bits |= 1 << (colours[row] * SIZE + row)
    return bits


def next_complete_line(state: AzulState, player: int, start: int) -> int:
    """The first complete pattern line at or below ``start`` (0-based), or -1: wall tiling
    checks the lines top to bottom (docs/azul.md, "Wall tiling and scoring")."""
    counts = state.line_count[player]
    for row in range(start, SIZE):
        if counts[row] == row + 1:
            return row
    return -1


def complete_rows(state: AzulState, player: int) -> int:
    """How many horizontal wall rows of ``player`` are complete (docs/azul.md, "End of game")."""
    return sum(1 for mask in state.row_colours[player] if mask == (1 << COLOURS) - 1)


def current_players(state: AzulState) -> list[int]:
    """Who may act: the player to move during the factory offer; during gray-wall tiling
    every player with a choice left, all at once (docs/azul.md, "Gray wall"); nobody before the
    first refill or after the end."""
    if state.phase == OFFER:
        return [state.current]
    if state.phase == TILING:
        return [p for p, row in enumerate(state.pending) if row >= 0]
    return []


_FIELDS: Final = tuple(f.name for f in fields(AzulState))
