"""The gray-wall variant (docs/azul.md, "Gray wall"): players choose the column of each
complete line during wall tiling, several at once; a line with no legal space goes to the
floor by itself; the colour bonus counts tiles anywhere."""

from __future__ import annotations

import pytest

from domain.azul import AZUL, AzulState, Place, Take
from domain.azul.moves import CENTRE, FLOOR
from domain.azul.state import TILING
from domain.azul.tiles import COLOUR_INDEX
from domain.protocol import IllegalMove, Viewer
from tests.randomness import NoRandomness

from .helpers import of_type, play, table, wall_rows

B, Y, R, K, W = (COLOUR_INDEX[c] for c in "BYRKW")


def tiling_table() -> AzulState:
    """Seat 0 has lines 1 (blue) and 3 (red) complete, seat 1 line 2 (yellow); the last
    tile on the table is a white in the centre."""
    state = table(
        gray=True,
        centre="W",
        lines={0: {1: "B", 3: "RRR"}, 1: {2: "YY"}},
        walls={0: [".....", ".....", ".....", ".....", "...R."]},
    )
    play(state, 0, Take(CENTRE, W, FLOOR))
    return state


def test_the_end_of_the_offer_starts_a_simultaneous_tiling_phase() -> None:
    state = tiling_table()
    assert state.phase == TILING
    assert AZUL.current_players(state) == [0, 1]
    assert AZUL.legal_moves(state, 0) == [Place(1, c) for c in range(1, 6)]
    assert AZUL.legal_moves(state, 1) == [Place(2, c) for c in range(1, 6)]
    view = AZUL.view(state, Viewer())
    assert view["phase"] == "tiling" and view["current_players"] == [0, 1]
    assert [p["pending_row"] for p in view["players"]] == [1, 2]
    assert AZUL.check_invariants(state) == []


def test_choices_go_top_down_and_the_last_one_ends_the_round() -> None:
    state = tiling_table()
    [placed] = play(state, 1, Place(2, 3))
    assert placed.type == "WallTiled"
    assert placed.data == {
        "player": 1,
        "row": 2,
        "column": 3,
        "colour": "Y",
        "points": 1,
        "score": 1,
        "to_lid": 1,
    }
    assert AZUL.current_players(state) == [0]
    assert AZUL.legal_moves(state, 1) == []
    [placed] = play(state, 0, Place(1, 4))
    assert placed.data["colour"] == "B" and placed.data["column"] == 4
    # red may not go to column 4: that column already holds a red (row 5)
    assert AZUL.legal_moves(state, 0) == [Place(3, c) for c in (1, 2, 3, 5)]
    events = play(state, 0, Place(3, 5))
    assert [e.type for e in events] == [
        "WallTiled",
        "FloorPenalised",
        "FloorPenalised",
        "FactoriesFilled",
    ]
    assert wall_rows(state, 0)[:3] == ["...B.", ".....", "....R"]
    assert wall_rows(state, 1)[1] == "..Y.."
    # seat 0 took the marker with the last white: marker + 1 tile = -2, from 1 + 1 -> 0
    assert of_type(events, "FloorPenalised")[0]["score"] == 0
    assert of_type(events, "FactoriesFilled")[0]["first_player"] == 0
    assert AZUL.current_players(state) == [0]
    assert AZUL.check_invariants(state) == []


@pytest.mark.parametrize(
    ("player", "move", "code"),
    [
        (0, Place(3, 1), "wrong-row"),
        (0, Take(1, R, 1), "wrong-phase"),
    ],
)
def test_tiling_choices_are_checked(player: int, move: Place | Take, code: str) -> None:
    state = tiling_table()
    before = state.clone()
    with pytest.raises(IllegalMove) as error:
        AZUL.apply(state, player, move, NoRandomness())
    assert error.value.code == code
    assert state == before


def test_a_tiling_choice_is_applied_without_changing_the_state() -> None:
    state = tiling_table()
    before = state.clone()
    assert [e.type for e in AZUL.apply(state, 1, Place(2, 1), NoRandomness())] == ["WallTiled"]
    assert state == before


def test_occupied_space_and_colour_in_column_are_refused() -> None:
    state = table(
        gray=True,
        centre="W",
        lines={0: {2: "KK"}},
        walls={0: [".K...", "B....", ".....", ".....", "....."]},
    )
    play(state, 0, Take(CENTRE, W, FLOOR))
    assert AZUL.current_players(state) == [0]
    assert AZUL.legal_moves(state, 0) == [Place(2, c) for c in (3, 4, 5)]
    for move, code in [(Place(2, 1), "space-occupied"), (Place(2, 2), "colour-already-in-column")]:
        with pytest.raises(IllegalMove) as error:
            AZUL.apply(state, 0, move, NoRandomness())
        assert error.value.code == code
    with pytest.raises(IllegalMove) as error:
        AZUL.apply(state, 1, Place(2, 3), NoRandomness())
    assert error.value.code == "not-your-turn"


def test_a_line_with_no_legal_space_goes_to_the_floor_by_itself() -> None:
    # row 2 has free spaces only in columns 2 and 5, which both hold a yellow already
    state = table(
        gray=True,
        centre="W",
        lines={0: {2: "YY", 3: "KKK"}},
        walls={0: [".Y...", "B.RK.", "....Y", ".....", "....."]},
        floors={0: "BBBBB"},
        marker_in_centre=False,
        marker_holder=1,
        current=1,
    )
    events = play(state, 1, Take(CENTRE, W, FLOOR))
    assert [e.type for e in events] == ["TilesTaken", "LineFloored"]
    assert events[1].data == {
        "player": 0,
        "row": 2,
        "colour": "Y",
        "count": 2,
        "to_floor": 2,
        "to_lid": 0,
    }
    assert len(state.floor[0]) == 7
    # the next line (black, row 3) has legal spaces: a choice
    assert AZUL.current_players(state) == [0]
    assert AZUL.legal_moves(state, 0)[0] == Place(3, 1)
    assert AZUL.check_invariants(state) == []


def test_floored_line_overflows_to_the_lid_and_can_end_the_round() -> None:
    state = table(
        gray=True,
        centre="W",
        lines={0: {2: "YY"}},
        walls={0: [".Y...", "B.RK.", "....Y", ".....", "....."]},
        floors={0: "BBBBBB"},
    )
    lid_before = list(state.lid)
    events = play(state, 0, Take(CENTRE, W, 4))
    assert [e.type for e in events] == [
        "TilesTaken",
        "LineFloored",
        "FloorPenalised",
        "FloorPenalised",
        "FactoriesFilled",
    ]
    # the marker took the 7th space; both yellows go to the lid
    assert (events[1].data["to_floor"], events[1].data["to_lid"]) == (0, 2)
    assert events[0].data["marker"] is True
    assert of_type(events, "FactoriesFilled")[0]["lid_poured"] is None
    assert state.lid[Y] == lid_before[Y] + 2
    assert state.lid[B] == lid_before[B] + 6
    assert AZUL.check_invariants(state) == []


def test_gray_takes_still_respect_colours_on_the_wall_row() -> None:
    state = table(gray=True, factories=["RRYY"], walls={0: [".R...", *["....."] * 4]})
    assert Take(1, R, 1) not in AZUL.legal_moves(state, 0)
    assert Take(1, R, 2) in AZUL.legal_moves(state, 0)


def test_gray_colour_bonus_counts_five_tiles_anywhere() -> None:
    state = table(
        gray=True,
        factories=["KKKK"],
        walls={
            0: ["WBYR.", "..W..", "....W", ".W...", "...W."],
            1: [".....", ".....", ".....", ".....", "....."],
        },
        lines={0: {1: "K"}},
    )
    play(state, 0, Take(1, K, FLOOR))
    assert AZUL.current_players(state) == [0]
    events = play(state, 0, Place(1, 5))
    [ended] = of_type(events, "GameEnded")
    assert ended["bonuses"][0] == {"rows": 1, "columns": 0, "colours": 1, "points": 12}
