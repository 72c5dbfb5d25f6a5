"""The events of Azul, each with its one typed definition (docs/azul.md, "Events"; the
convention: docs/architecture.md, "Typed events, moves and views").

Each ``TypedDict`` is named exactly as its event; its :class:`~domain.events.EventKind` makes
the event (``TILES_TAKEN({...})``, the literal checked by mypy against the definition), and
the handler in :mod:`domain.azul.evolve` reads the same definition. All data are JSON
primitives: colours are letters, rows, lines, columns and factories 1-based.
"""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict

from domain.azul.tiles import Letter
from domain.events import EventKind


class ColourCounts(TypedDict):
    """Tiles of each colour, in colour order (docs/azul.md, "Events": ``bag_before``)."""

    B: int
    Y: int
    R: int
    K: int
    W: int


class LidPoured(TypedDict):
    """The lid poured into the empty bag during a refill (docs/azul.md, "Refill draws")."""

    after_draws: int
    """Tiles drawn before the pour."""
    count: int
    """Tiles poured."""
    tiles: ColourCounts


class Bonus(TypedDict):
    """End-of-game bonuses of one player (docs/azul.md, "End of game")."""

    rows: int
    columns: int
    colours: int
    points: int


class FactoriesFilled(TypedDict):
    """A round starts: the factories refilled from the bag (docs/azul.md, "Next round" and
    "Refill draws"; also the opening event)."""

    round: int
    factories: list[list[Letter]]
    """One list of letters per factory, in draw order (``[]`` for an empty factory)."""
    bag_before: ColourCounts
    lid_poured: LidPoured | None
    first_player: int
    random_position: int
    """The stream position after the draws."""


class TilesTaken(TypedDict):
    """A seat takes every tile of one colour from one source (docs/azul.md, "Factory offer")."""

    player: int
    source: int | Literal["centre"]
    colour: Letter
    count: int
    line: int | Literal["floor"]
    to_line: int
    to_floor: int
    to_lid: int
    marker: bool
    """The first-player marker was taken with them."""
    to_centre: list[Letter]
    """Letters moved from the factory to the centre (``[]`` from the centre)."""


class WallTiled(TypedDict):
    """A complete pattern line moves a tile to the wall and scores (docs/azul.md, "Wall
    tiling and scoring")."""

    player: int
    row: int
    column: int
    colour: Letter
    points: int
    score: int
    to_lid: int


class LineFloored(TypedDict):
    """Gray wall: a complete line with no legal wall space goes to the floor line
    (docs/azul.md, "Gray wall")."""

    player: int
    row: int
    colour: Letter
    count: int
    to_floor: int
    to_lid: int


class FloorPenalised(TypedDict):
    """The floor line scored and cleared at the end of a round (docs/azul.md, "Floor line")."""

    player: int
    spaces: int
    penalty: int
    score: int
    to_lid: int
    marker: bool


Reason = Literal["row-completed", "no-row-possible"]
"""Why the game ended (docs/azul.md, "End of game"; "Rules decisions")."""


class GameEnded(TypedDict):
    """The game ends: bonuses, final scores, ranks and winners; the seed revealed
    (docs/azul.md, "End of game")."""

    reason: Reason
    bonuses: list[Bonus]
    scores: list[int]
    complete_rows: list[int]
    ranks: list[int]
    winners: list[int]
    seed: str


FACTORIES_FILLED = EventKind(FactoriesFilled)
TILES_TAKEN = EventKind(TilesTaken)
WALL_TILED = EventKind(WallTiled)
LINE_FLOORED = EventKind(LineFloored)
FLOOR_PENALISED = EventKind(FloorPenalised)
GAME_ENDED = EventKind(GameEnded)
