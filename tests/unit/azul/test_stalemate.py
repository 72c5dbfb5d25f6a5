"""Policy: the game ends when no player can ever complete a horizontal row any more
(docs/azul.md, "Rules decisions"; domain/azul/stalemate.py) — without it such a game never ends."""

from __future__ import annotations

from domain.azul import AZUL, Take
from domain.azul.moves import FLOOR
from domain.azul.stalemate import stalemate
from domain.azul.tiles import COLOUR_INDEX

from .helpers import of_type, play, table

R, W = COLOUR_INDEX["R"], COLOUR_INDEX["W"]

WHITES_LOCKED = {2: "W", 3: "WW", 4: "WWW", 5: "WWWW"}
"""Ten whites in pattern lines that can never be completed once no white moves."""

GRAY_DEAD_WALL = ["BYRK.", ".RKBW", "Y.BWR", "WK.YB", "KBYR."]
"""Each row's missing colour already sits in the column of its only free space."""


def test_all_of_a_colour_locked_in_lines_ends_the_game() -> None:
    locked = {0: WHITES_LOCKED, 1: WHITES_LOCKED}
    state = table(factories=["RRRR"], lines=locked, scores=[5, 3])
    assert state.bag[W] == 0 and state.lid[W] == 0
    events = play(state, 0, Take(1, R, FLOOR))
    [ended] = of_type(events, "GameEnded")
    assert ended["reason"] == "no-row-possible"
    assert ended["complete_rows"] == [0, 0]
    # seat 0 floored 4 reds: 5 - 6 -> 0 points
    assert ended["scores"] == [0, 3]
    assert ended["ranks"] == [2, 1] and ended["winners"] == [1]
    assert AZUL.current_players(state) == []
    assert AZUL.check_invariants(state) == []


def test_one_white_left_to_draw_keeps_the_game_going() -> None:
    lines = {2: "W", 3: "WW", 4: "WWW", 5: "WWW"}
    state = table(factories=["RRRR"], lines={0: lines, 1: WHITES_LOCKED})
    assert state.bag[W] == 1
    events = play(state, 0, Take(1, R, FLOOR))
    assert events[-1].type == "FactoriesFilled"


def test_gray_walls_where_no_row_fits_end_the_game() -> None:
    state = table(gray=True, factories=["RRRR"], walls={0: GRAY_DEAD_WALL, 1: GRAY_DEAD_WALL})
    assert AZUL.check_invariants(state) == []
    assert stalemate(state)
    events = play(state, 0, Take(1, R, FLOOR))
    [ended] = of_type(events, "GameEnded")
    assert ended["reason"] == "no-row-possible"
    # column 4 is full (+7) and all five blues are on the wall (+10)
    assert ended["bonuses"][1] == {"rows": 0, "columns": 1, "colours": 1, "points": 17}


def test_one_possible_row_is_enough_to_go_on() -> None:
    state = table(
        gray=True,
        factories=["RRRR"],
        walls={0: GRAY_DEAD_WALL, 1: [".....", ".....", ".....", ".....", "....."]},
    )
    assert not stalemate(state)
    coloured = table(factories=["RRRR"])
    assert not stalemate(coloured)
