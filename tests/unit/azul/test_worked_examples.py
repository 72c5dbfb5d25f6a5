"""The worked examples of docs/azul.md ("Wall tiling and scoring", "Worked examples"), each
played through the engine on the coloured wall: the last take of a round ends the factory
offer, and the events of the end of the round are checked against the example."""

from __future__ import annotations

from typing import Any

from domain.azul import AZUL, Take
from domain.azul.moves import FLOOR
from domain.azul.tiles import COLOUR_INDEX

from .helpers import of_type, play, table, wall_rows

R, K = COLOUR_INDEX["R"], COLOUR_INDEX["K"]
EMPTY = [".....", ".....", ".....", ".....", "....."]


def tiled(wall: list[str], lines: dict[int, str]) -> list[dict[str, Any]]:
    """Seat 0's ``WallTiled`` data when seat 1 ends the offer by taking the last factory
    (four blacks) to its floor, seat 0 having ``wall`` and complete pattern ``lines``."""
    state = table(factories=["KKKK"], walls={0: wall}, lines={0: lines}, current=1)
    events = play(state, 1, Take(1, K, FLOOR))
    assert AZUL.check_invariants(state) == []
    return [data for data in of_type(events, "WallTiled") if data["player"] == 0]


def test_example_1_a_lone_tile_scores_one() -> None:
    [placed] = tiled(EMPTY, {1: "B"})
    assert (placed["row"], placed["column"], placed["points"]) == (1, 1, 1)


def test_example_2_a_horizontal_run_of_three() -> None:
    [placed] = tiled(["BY...", *EMPTY[1:]], {1: "R"})
    assert (placed["column"], placed["points"]) == (3, 3)


def test_example_3_a_gap_ends_a_run() -> None:
    [placed] = tiled(["B..KW", *EMPTY[1:]], {1: "Y"})
    assert (placed["column"], placed["points"]) == (2, 2)


def test_example_4_both_runs_score_twice() -> None:
    wall = ["...K.", "...R.", ".WB..", ".....", "....."]
    [placed] = tiled(wall, {3: "YYY"})
    assert placed == {
        "player": 0,
        "row": 3,
        "column": 4,
        "colour": "Y",
        "points": 3 + 3,
        "score": 6,
        "to_lid": 2,
    }


def test_example_5_lines_are_tiled_top_to_bottom() -> None:
    first, second = tiled(EMPTY, {1: "B", 2: "WW"})
    assert (first["row"], first["column"], first["colour"], first["points"]) == (1, 1, "B", 1)
    assert (second["row"], second["column"], second["colour"], second["points"]) == (
        2,
        1,
        "W",
        2,
    )
    assert second["score"] == 3


def test_example_6_the_floor_and_a_score_that_stays_at_zero() -> None:
    state = table(
        factories=["KKKK"],
        floors={0: "MBBB"},
        marker_in_centre=False,
        marker_holder=0,
        scores=[4, 0],
        current=1,
    )
    events = play(state, 1, Take(1, K, FLOOR))
    penalty = of_type(events, "FloorPenalised")[0]
    assert penalty == {
        "player": 0,
        "spaces": 4,
        "penalty": -1 - 1 - 2 - 2,
        "score": 0,
        "to_lid": 3,
        "marker": True,
    }
    assert of_type(events, "FactoriesFilled")[0]["first_player"] == 0


def test_example_7_overflow_to_the_floor_then_the_lid() -> None:
    state = table(factories=["RRRR"], floors={0: "BBBBBB"}, lines={0: {2: "R"}}, scores=[20, 0])
    events = play(state, 0, Take(1, R, 2))
    taken = of_type(events, "TilesTaken")[0]
    assert (taken["to_line"], taken["to_floor"], taken["to_lid"]) == (1, 1, 2)
    [placed] = of_type(events, "WallTiled")
    assert (placed["row"], placed["column"], placed["points"]) == (2, 4, 1)
    penalty = of_type(events, "FloorPenalised")[0]
    assert (penalty["spaces"], penalty["penalty"], penalty["score"]) == (7, -14, 20 + 1 - 14)


def test_example_8_end_of_game_bonuses() -> None:
    wall = ["BYRK.", "WB...", "K.B..", "R..B.", "Y...B"]
    state = table(
        factories=["KKKK"], walls={0: wall}, lines={0: {1: "W"}}, scores=[30, 10], current=1
    )
    events = play(state, 1, Take(1, K, FLOOR))
    [placed] = [data for data in of_type(events, "WallTiled") if data["player"] == 0]
    assert (placed["row"], placed["column"], placed["points"]) == (1, 5, 5)
    assert wall_rows(state, 0) == ["BYRKW", *wall[1:]]
    [ended] = of_type(events, "GameEnded")
    assert ended["reason"] == "row-completed"
    assert ended["bonuses"][0] == {"rows": 1, "columns": 1, "colours": 1, "points": 2 + 7 + 10}
    # seat 1: four blacks on the floor, 10 - 6 = 4
    assert ended["scores"] == [30 + 5 + 19, 4]
    assert ended["ranks"] == [1, 2] and ended["winners"] == [0]
