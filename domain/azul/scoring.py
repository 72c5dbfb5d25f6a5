"""Scoring: a tile placed on the wall, the floor line, the end-of-game bonuses and the
ranking (docs/azul.md, "Wall tiling and scoring", "Floor line" and "End of game")."""

from __future__ import annotations

from domain.azul.events import Bonus
from domain.azul.tiles import (
    COLOUR_BONUS,
    COLOURS,
    COLUMN_BONUS,
    FLOOR_LOSS,
    FLOOR_SPACES,
    ROW_BONUS,
    SIZE,
)


def placement_points(wall: list[int], row: int, column: int) -> int:
    """Points for a tile placed at ``(row, column)`` (0-based) of ``wall`` (25 cells,
    -1 = empty; the new tile need not be on it yet). docs/azul.md, "Wall tiling and
    scoring": no horizontal or vertical neighbour scores 1; otherwise the horizontal run
    (if >= 2) plus the vertical run (if >= 2) that contain the tile, so a tile joining both
    runs scores twice (worked examples 1-5 there)."""
    base = row * SIZE
    left = column
    while left > 0 and wall[base + left - 1] >= 0:
        left -= 1
    right = column
    while right < SIZE - 1 and wall[base + right + 1] >= 0:
        right += 1
    top = row
    while top > 0 and wall[(top - 1) * SIZE + column] >= 0:
        top -= 1
    bottom = row
    while bottom < SIZE - 1 and wall[(bottom + 1) * SIZE + column] >= 0:
        bottom += 1
    horizontal = right - left + 1
    vertical = bottom - top + 1
    if horizontal == 1 and vertical == 1:
        return 1
    return (horizontal if horizontal > 1 else 0) + (vertical if vertical > 1 else 0)


def floor_loss(occupied: int) -> int:
    """Points lost for ``occupied`` floor spaces (tiles and marker): -1 -1 -2 -2 -2 -3 -3,
    nothing beyond 7 spaces (docs/azul.md, "Floor line")."""
    return FLOOR_LOSS[min(occupied, FLOOR_SPACES)]


def penalised(score: int, occupied: int) -> int:
    """The score after the floor penalty; a score never falls below 0 (docs/azul.md,
    "Floor line")."""
    return max(0, score - floor_loss(occupied))


def bonuses(wall: list[int]) -> Bonus:
    """Complete rows (+2 each), complete columns (+7 each) and colours with all 5 tiles on
    the wall (+10 each) — on the gray wall a colour counts wherever its 5 tiles are
    (docs/azul.md, "End of game" and "Gray wall")."""
    rows = sum(1 for r in range(SIZE) if all(wall[r * SIZE + c] >= 0 for c in range(SIZE)))
    columns = sum(1 for c in range(SIZE) if all(wall[r * SIZE + c] >= 0 for r in range(SIZE)))
    colours = sum(1 for colour in range(COLOURS) if wall.count(colour) == SIZE)
    points = rows * ROW_BONUS + columns * COLUMN_BONUS + colours * COLOUR_BONUS
    return {"rows": rows, "columns": columns, "colours": colours, "points": points}


def ranking(scores: list[int], complete_rows: list[int]) -> tuple[list[int], list[int]]:
    """Ranks (1-based, equal ranks share a place) and winners: highest score first, ties
    broken by more complete horizontal rows, still tied = shared place (docs/azul.md, "End
    of game")."""
    keys = list(zip(scores, complete_rows, strict=True))
    ranks = [1 + sum(1 for other in keys if other > key) for key in keys]
    winners = [seat for seat, rank in enumerate(ranks) if rank == 1]
    return ranks, winners
