"""Tiles, colours and the board geometry of Azul (docs/azul.md, "Setup",
"Coloured wall", "Floor line" and "End of game").

Inside the engine a colour is an ``int`` 0..4 in the order of docs/azul.md, "Coloured wall"
(B=0, Y=1, R=2, K=3, W=4); events, moves and views use the one-letter names. Rows, pattern
lines and columns are 0-based inside the engine and 1-based everywhere a person reads them.
"""

from __future__ import annotations

from typing import Final, Literal

COLOURS: Final = 5
"""Number of tile colours (docs/azul.md, "Setup": blue, yellow, red, black, white)."""

Letter = Literal["B", "Y", "R", "K", "W"]
"""A colour as events, moves and views name it (docs/azul.md, "Setup")."""

LETTERS: Final[tuple[Letter, Letter, Letter, Letter, Letter]] = ("B", "Y", "R", "K", "W")
"""The one-letter name of each colour, indexed by the colour's number."""

COLOUR_INDEX: Final[dict[str, int]] = {letter: i for i, letter in enumerate(LETTERS)}
"""Colour number by letter."""

NAMES: Final = ("blue", "yellow", "red", "black", "white")
"""English colour names, for messages."""

NO_TILES: Final[list[int]] = [0] * COLOURS
"""The tile counts of an empty factory or centre (to compare with; never changed)."""

MARKER: Final = COLOURS
"""The first-player marker as an item of a floor line (never a tile)."""

TILES_PER_COLOUR: Final = 20
"""The bag starts with 20 tiles of each colour (docs/azul.md, "Setup")."""

TOTAL_TILES: Final = COLOURS * TILES_PER_COLOUR

FACTORY_SIZE: Final = 4
"""Tiles put on each factory at a refill (docs/azul.md, "Setup")."""

SIZE: Final = 5
"""The wall is 5 x 5; there are 5 pattern lines, line ``r`` (0-based) holds ``r + 1`` tiles."""

FLOOR_SPACES: Final = 7
"""Floor line spaces; tiles beyond them go to the lid (docs/azul.md, "Floor line")."""

FLOOR_PENALTIES: Final = (1, 1, 2, 2, 2, 3, 3)
"""Points lost per occupied floor space, left to right (docs/azul.md, "Floor line")."""

FLOOR_LOSS: Final = (0, 1, 2, 4, 6, 8, 11, 14)
"""Total points lost with ``k`` occupied floor spaces (cumulative ``FLOOR_PENALTIES``)."""

ROW_BONUS: Final = 2
COLUMN_BONUS: Final = 7
COLOUR_BONUS: Final = 10
"""End-of-game bonuses (docs/azul.md, "End of game")."""


def factory_count(players: int) -> int:
    """Factories for ``players`` players: 2N+1, i.e. 5, 7 or 9 (docs/azul.md, "Setup")."""
    return 2 * players + 1


def wall_colour(row: int, column: int) -> int:
    """The colour printed at ``(row, column)`` of the coloured wall: ``(c - r) mod 5``
    (docs/azul.md, "Coloured wall"); 0-based."""
    return (column - row) % SIZE


def wall_column(row: int, colour: int) -> int:
    """The column of the coloured wall where ``colour`` goes in ``row`` (inverse of
    :func:`wall_colour`); 0-based."""
    return (colour + row) % SIZE


def letters(counts: list[int]) -> list[Letter]:
    """Colour counts as a list of letters in colour order, e.g. ``[0, 2, 0, 1, 0]`` ->
    ``["Y", "Y", "K"]``."""
    out: list[Letter] = []
    for colour, count in enumerate(counts):
        if count:
            out += [LETTERS[colour]] * count
    return out
