"""The end of a round: wall tiling on the coloured wall, floor penalties, the next refill,
the end of the game (docs/azul.md, "Wall tiling and scoring",
"Floor line", "Next round", "End of game", "Rules decisions")."""

from __future__ import annotations

from domain.azul import AZUL, Take
from domain.azul.moves import CENTRE, FLOOR
from domain.azul.refill import by_letter
from domain.azul.tiles import COLOUR_INDEX

from .helpers import counts, of_type, play, table, wall_rows

B, Y, R, K, W = (COLOUR_INDEX[c] for c in "BYRKW")


def test_last_take_tiles_the_walls_scores_and_refills() -> None:
    state = table(
        centre="R",
        marker_in_centre=False,
        marker_holder=1,
        floors={1: "MKK"},
        lines={0: {1: "B", 3: "YY", 4: "KK"}, 1: {5: "WWWWW"}},
        walls={0: [".....", ".B...", ".....", ".....", "....."]},
        scores=[5, 1],
    )
    events = play(state, 0, Take(CENTRE, R, 2))
    assert [e.type for e in events] == [
        "TilesTaken",
        "WallTiled",
        "WallTiled",
        "FloorPenalised",
        "FloorPenalised",
        "FactoriesFilled",
    ]
    tiled = of_type(events, "WallTiled")
    # seat 0, line 1 blue -> row 1 column 1: lone tile; line 2 red: R goes to row 2
    # column 4 (W B Y R K), not adjacent to the B at column 2 -> 1 point
    assert tiled[0] == {
        "player": 0,
        "row": 1,
        "column": 1,
        "colour": "B",
        "points": 1,
        "score": 6,
        "to_lid": 0,
    }
    assert tiled[1] == {
        "player": 1,
        "row": 5,
        "column": 4,
        "colour": "W",
        "points": 1,
        "score": 2,
        "to_lid": 4,
    }
    penalties = of_type(events, "FloorPenalised")
    assert penalties[0] == {
        "player": 0,
        "spaces": 0,
        "penalty": 0,
        "score": 6,
        "to_lid": 0,
        "marker": False,
    }
    # seat 1: marker + 2 tiles = 3 spaces = -4; 2 -> 0 (never below 0)
    assert penalties[1] == {
        "player": 1,
        "spaces": 3,
        "penalty": -4,
        "score": 0,
        "to_lid": 2,
        "marker": True,
    }
    [filled] = of_type(events, "FactoriesFilled")
    assert filled["round"] == 2 and filled["first_player"] == 1
    # the state after the events: walls, lines, lid, marker, next round
    assert wall_rows(state, 0)[0] == "B...."
    assert state.line_count[0] == [0, 1, 2, 2, 0]  # line 2 got one red, not complete
    assert wall_rows(state, 1)[4] == "...W."
    assert state.lid == counts("KKWWWW")
    assert state.scores == [6, 0]
    assert state.floor == [[], []]
    assert state.marker_in_centre and state.marker_holder == -1
    assert AZUL.current_players(state) == [1]
    assert state.round == 2 and state.tiles_left == 20
    assert AZUL.check_invariants(state) == []


def test_nobody_took_from_the_centre_same_first_player_policy() -> None:
    state = table(factories=["RRRR"], first_player=1, current=0)
    events = play(state, 0, Take(1, R, FLOOR))
    [filled] = of_type(events, "FactoriesFilled")
    assert filled["first_player"] == 1
    assert not any(p["marker"] for p in of_type(events, "FloorPenalised"))
    assert state.marker_in_centre and AZUL.current_players(state) == [1]


def test_refill_pours_the_lid_into_an_empty_bag() -> None:
    # the bag holds 3 tiles; the rest of the tiles not on the table are in the lid
    state = table(factories=["RRRR"], bag="BYK")
    lid_before = list(state.lid)
    events = play(state, 0, Take(1, R, FLOOR))
    [filled] = of_type(events, "FactoriesFilled")
    assert filled["bag_before"] == {"B": 1, "Y": 1, "R": 0, "K": 1, "W": 0}
    lid_at_pour = [n + (4 if c == R else 0) for c, n in enumerate(lid_before)]
    assert filled["lid_poured"] == {
        "after_draws": 3,
        "count": sum(lid_at_pour),
        "tiles": by_letter(lid_at_pour),
    }
    assert sorted(filled["factories"][0][:3]) == ["B", "K", "Y"]
    assert all(len(f) == 4 for f in filled["factories"])
    assert state.lid == [0] * 5
    assert AZUL.check_invariants(state) == []


def test_bag_and_lid_both_empty_leave_factories_partly_filled() -> None:
    # 80 tiles on the walls (4 per row), 13 in pattern lines, 7 on the factories
    walls = ["BYRK.", "WBYR.", "KWBY.", "RKWB.", ".RKWB"]
    lines = {seat: {2: "K", 3: "R"} for seat in range(4)}
    lines[0].update({4: "YYY", 5: "YY"})
    state = table(
        players=4,
        factories=["WWWW", "YYY"],
        walls=dict.fromkeys(range(4), walls),
        lines=lines,
        bag="",
    )
    assert sum(state.lid) == 0 and sum(state.bag) == 0
    assert AZUL.check_invariants(state) == []
    play(state, 0, Take(1, W, FLOOR))
    events = play(state, 1, Take(2, Y, FLOOR))
    # the floors went to the lid, the lid was poured, then bag and lid were both empty
    [filled] = of_type(events, "FactoriesFilled")
    assert filled["lid_poured"] == {
        "after_draws": 0,
        "count": 7,
        "tiles": {"B": 0, "Y": 3, "R": 0, "K": 0, "W": 4},
    }
    assert [len(f) for f in filled["factories"]] == [4, 3, 0, 0, 0, 0, 0, 0, 0]
    assert state.tiles_left == 7 and sum(state.bag) == 0 and sum(state.lid) == 0
    assert AZUL.check_invariants(state) == []
    # the round is played with what there is
    assert len(AZUL.legal_moves(state, state.current)) > 0


def test_the_game_ends_after_the_round_a_row_is_completed() -> None:
    state = table(
        factories=["KKKK"],
        walls={
            0: ["BYR.W", "WB...", "K....", ".....", "....."],
            1: ["B....", "W....", "K....", "R....", "Y...."],
        },
        lines={0: {1: "K"}},
        scores=[20, 25],
    )
    events = play(state, 0, Take(1, K, FLOOR), seed="revealed")
    assert events[-1].type == "GameEnded"
    assert not of_type(events, "FactoriesFilled")
    [ended] = of_type(events, "GameEnded")
    # seat 0: K joins B Y R _ W -> 5 horizontally, + vertically none -> 5; floor 4 K -> -6
    assert of_type(events, "WallTiled")[0]["points"] == 5
    assert ended == {
        "reason": "row-completed",
        "bonuses": [
            {"rows": 1, "columns": 0, "colours": 0, "points": 2},
            {"rows": 0, "columns": 1, "colours": 0, "points": 7},
        ],
        "scores": [20 + 5 - 6 + 2, 25 + 7],
        "complete_rows": [1, 0],
        "ranks": [2, 1],
        "winners": [1],
        "seed": "revealed",
    }
    assert AZUL.current_players(state) == []
    outcome = AZUL.outcome(state)
    assert outcome is not None
    assert outcome.scores == [21, 32] and outcome.winners == [1] and outcome.ranks == [2, 1]
    assert outcome.details["bonuses"][1]["columns"] == 1
    assert AZUL.check_invariants(state) == []


def test_still_tied_at_the_end_is_a_shared_victory() -> None:
    state = table(
        factories=["KKKK"],
        walls={
            0: ["BYR.W", ".....", ".....", ".....", "....."],
            1: ["BYRKW", ".....", ".....", ".....", "....."],
        },
        lines={0: {1: "K"}},
        scores=[10, 14],
        current=1,
    )
    ended = of_type(play(state, 1, Take(1, K, 4)), "GameEnded")[0]
    # seat 0: 10 + 5 (joins a row of 5) + 2; seat 1: 14 + 1 (lone K) + 2; 1 row each
    assert ended["scores"] == [17, 17]
    assert ended["complete_rows"] == [1, 1]
    assert ended["ranks"] == [1, 1] and ended["winners"] == [0, 1]
    outcome = AZUL.outcome(state)
    assert outcome is not None and outcome.winners == [0, 1]


def test_tie_on_score_goes_to_more_complete_rows() -> None:
    state = table(
        factories=["KKKK"],
        walls={
            0: ["BYR.W", ".....", ".....", ".....", "....."],
            1: ["BYRKW", "WBYRK", ".....", ".....", "....."],
        },
        lines={0: {1: "K"}},
        scores=[15, 18],
        current=1,
    )
    ended = of_type(play(state, 1, Take(1, K, 5)), "GameEnded")[0]
    # seat 0: 15 + 5 + 2 = 22; seat 1 (line 5 not complete): 18 + 2 * 2 = 22; rows 1 vs 2
    assert ended["scores"] == [22, 22]
    assert ended["ranks"] == [2, 1] and ended["winners"] == [1]
