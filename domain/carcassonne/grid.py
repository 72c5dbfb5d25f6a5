"""Squares of the table (docs/carcassonne.md, "Base game": the start tile at (0,0),
tiles placed edge to edge; a monastery's eight surrounding squares).

Coordinates as players read them: ``x`` grows to the east, ``y`` grows to the **south**
(screen order: north is ``y - 1``). Inside the engine a square is one int, ``pos``, so that
a neighbour is an addition.
"""

from __future__ import annotations

from typing import Final

_OFFSET: Final = 1 << 9
_SHIFT: Final = 10
LIMIT: Final = _OFFSET - 1
"""Coordinates stay within ``-LIMIT .. LIMIT`` (a game has fewer than 100 tiles)."""

NORTH: Final = -1
EAST: Final = 1 << _SHIFT
SOUTH: Final = 1
WEST: Final = -(1 << _SHIFT)
DELTAS: Final = (NORTH, EAST, SOUTH, WEST)
"""The step to the neighbour on side ``d`` (0 = N, 1 = E, 2 = S, 3 = W)."""
AROUND: Final = (
    NORTH,
    NORTH + EAST,
    EAST,
    SOUTH + EAST,
    SOUTH,
    SOUTH + WEST,
    WEST,
    NORTH + WEST,
)
"""The steps to the eight squares around one (rules, "Monastery")."""


def pos_of(x: int, y: int) -> int:
    """The engine's number for square ``(x, y)``."""
    return ((x + _OFFSET) << _SHIFT) | (y + _OFFSET)


def xy(pos: int) -> tuple[int, int]:
    """The coordinates ``(x, y)`` of a square number."""
    return (pos >> _SHIFT) - _OFFSET, (pos & ((1 << _SHIFT) - 1)) - _OFFSET


ORIGIN: Final = pos_of(0, 0)
"""Where the start tile lies."""
