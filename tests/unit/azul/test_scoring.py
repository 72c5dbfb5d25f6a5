"""Wall scoring, floor penalties, bonuses and ranking (docs/azul.md, "Wall tiling and scoring",
"Floor line" and "End of game"), including the rulebook's scoring examples."""

from __future__ import annotations

import pytest

from domain.azul.scoring import bonuses, floor_loss, penalised, placement_points, ranking
from domain.azul.tiles import COLOUR_INDEX, SIZE


def wall(*rows: str) -> list[int]:
    """A wall from 5 strings; any letter is a tile, ``.`` is empty."""
    cells = [-1] * 25
    for r, text in enumerate(rows):
        for c, ch in enumerate(text):
            if ch != ".":
                cells[r * SIZE + c] = COLOUR_INDEX[ch]
    return cells


EMPTY = ".....", ".....", ".....", ".....", "....."


def test_a_lone_tile_scores_one() -> None:
    assert placement_points(wall(*EMPTY), 2, 2) == 1
    # diagonal neighbours do not count
    assert placement_points(wall("B....", ".....", "..B..", ".....", "....B"), 1, 1) == 1


def test_a_tile_joining_a_horizontal_run_scores_the_run() -> None:
    # rulebook: the tile is placed right of two tiles -> 3 points
    assert placement_points(wall("BY...", *EMPTY[1:]), 0, 2) == 3
    # a gap ends the run: B Y _ K W, placing Y... scores B,Y only
    assert placement_points(wall("B..KW", *EMPTY[1:]), 0, 1) == 2
    # filling the gap joins both sides: 5
    assert placement_points(wall("BY.KW", *EMPTY[1:]), 0, 2) == 5


def test_a_tile_joining_a_vertical_run_scores_the_run() -> None:
    assert placement_points(wall("B....", "W....", ".....", ".....", "....."), 2, 0) == 3
    assert placement_points(wall(".....", ".....", ".....", "R....", "....."), 4, 0) == 2


def test_a_tile_joining_both_runs_scores_twice() -> None:
    # the rulebook's example: 3 horizontally + 3 vertically = 6 points
    example = wall("...K.", "...R.", ".BY..", ".....", ".....")
    assert placement_points(example, 2, 3) == 6
    # the smallest case: 2 horizontally + 2 vertically = 4
    assert placement_points(wall("B....", "W....", ".B...", ".....", "....."), 1, 1) == 4
    # a neighbour on the left and a gap below: only the horizontal pair counts (2) ...
    below = wall(".....", "W....", ".....", ".K...", ".R...")
    assert placement_points(below, 1, 1) == 2
    # ... with the gap filled, the vertical run of 4 counts too: 2 + 4 = 6
    assert placement_points(wall(".....", "W....", ".Y...", ".K...", ".R..."), 1, 1) == 2 + 4


@pytest.mark.parametrize(
    ("occupied", "loss"), [(0, 0), (1, 1), (2, 2), (3, 4), (4, 6), (5, 8), (6, 11), (7, 14)]
)
def test_floor_penalties(occupied: int, loss: int) -> None:
    assert floor_loss(occupied) == loss


def test_floor_beyond_seven_spaces_costs_nothing_more() -> None:
    assert floor_loss(9) == 14


def test_a_score_never_falls_below_zero() -> None:
    assert penalised(3, 4) == 0
    assert penalised(10, 4) == 4
    assert penalised(0, 7) == 0
    assert penalised(5, 0) == 5


def test_bonuses_rows_columns_colours() -> None:
    full_row_and_column = wall("BYRKW", "W....", "K....", "R....", "Y....")
    assert bonuses(full_row_and_column) == {
        "rows": 1,
        "columns": 1,
        "colours": 0,
        "points": 2 + 7,
    }
    five_blues = wall("B....", ".B...", "..B..", "...B.", "....B")
    assert bonuses(five_blues) == {"rows": 0, "columns": 0, "colours": 1, "points": 10}
    complete = wall("BYRKW", "WBYRK", "KWBYR", "RKWBY", "YRKWB")
    assert bonuses(complete) == {"rows": 5, "columns": 5, "colours": 5, "points": 95}


def test_gray_colour_bonus_counts_tiles_anywhere() -> None:
    # five whites, none on the coloured-wall diagonal, in different rows and columns
    scattered = wall("W....", "..W..", "....W", ".W...", "...W.")
    assert bonuses(scattered)["colours"] == 1


def test_ranking_by_score() -> None:
    assert ranking([10, 30, 20], [0, 0, 0]) == ([3, 1, 2], [1])


def test_ties_are_broken_by_complete_rows() -> None:
    assert ranking([30, 30, 12], [1, 2, 3]) == ([2, 1, 3], [1])


def test_still_tied_is_a_shared_victory() -> None:
    assert ranking([30, 30, 12, 30], [2, 2, 3, 1]) == ([1, 1, 4, 3], [0, 1])
    assert ranking([5, 5], [0, 0]) == ([1, 1], [0, 1])
