"""The factory offer (docs/azul.md, "Factory offer" and "Rules decisions")."""

from __future__ import annotations

from typing import Any

import pytest

from domain.azul import AZUL, AzulState, Place, Take
from domain.azul.moves import CENTRE, FLOOR
from domain.azul.state import OVER
from domain.azul.tiles import COLOUR_INDEX
from domain.protocol import GameError, IllegalMove, InvalidMove, Viewer
from tests.randomness import NoRandomness

from .helpers import counts, of_type, play, table

B, Y, R, K, W = (COLOUR_INDEX[c] for c in "BYRKW")


def two_factories(**kwargs: Any) -> AzulState:
    return table(factories=["RRBY", "KKKW", "BBBB", "YYRW", "WWKK"], **kwargs)


def test_taking_from_a_factory_moves_the_rest_to_the_centre() -> None:
    state = two_factories()
    [taken] = play(state, 0, Take(1, R, 2))
    assert taken.type == "TilesTaken"
    assert taken.data == {
        "player": 0,
        "source": 1,
        "colour": "R",
        "count": 2,
        "line": 2,
        "to_line": 2,
        "to_floor": 0,
        "to_lid": 0,
        "marker": False,
        "to_centre": ["B", "Y"],
    }
    assert state.sources[1] == [0] * 5
    assert state.sources[CENTRE] == counts("BY")
    assert (state.line_colour[0][1], state.line_count[0][1]) == (R, 2)
    assert state.marker_in_centre and state.floor[0] == []
    assert AZUL.current_players(state) == [1]
    assert AZUL.check_invariants(state) == []


def test_first_take_from_the_centre_takes_the_marker_to_the_floor() -> None:
    state = table(factories=["RRRR"], centre="BBY")
    [taken] = play(state, 0, Take(CENTRE, B, 1))
    assert taken.data["marker"] is True
    assert taken.data["to_line"] == 1 and taken.data["to_floor"] == 1
    assert state.floor[0] == [5, B]  # the marker first, on the leftmost space
    assert not state.marker_in_centre and state.marker_holder == 0
    assert state.sources[CENTRE] == counts("Y")
    # the next take from the centre takes no marker
    [taken] = play(state, 1, Take(CENTRE, Y, 3))
    assert taken.data["marker"] is False
    assert state.floor[1] == []
    assert AZUL.check_invariants(state) == []


def test_marker_on_a_full_floor_is_held_without_penalty_policy() -> None:
    state = table(factories=["RRRR"], centre="BB", floors={0: "KKKKKKK"})
    [taken] = play(state, 0, Take(CENTRE, B, FLOOR))
    assert taken.data["marker"] is True
    assert (taken.data["to_floor"], taken.data["to_lid"]) == (0, 2)
    assert state.marker_holder == 0 and 5 not in state.floor[0]
    assert AZUL.check_invariants(state) == []
    view = AZUL.view(state, Viewer())
    assert view["players"][0]["marker"] is True and view["centre"]["marker"] is False


def test_marker_takes_a_floor_space_before_the_tiles() -> None:
    state = table(factories=["RRRR"], centre="BBBB", floors={0: "KKKK"})
    [taken] = play(state, 0, Take(CENTRE, B, FLOOR))
    # 4 tiles + marker = 5 spaces used; 2 spaces left for the 4 blue tiles
    assert (taken.data["to_floor"], taken.data["to_lid"]) == (2, 2)
    assert len(state.floor[0]) == 7


def test_overflow_goes_to_the_floor_then_to_the_lid() -> None:
    state = table(factories=["RRRR", "YYYY"], floors={0: "KKKKK"}, lines={0: {2: "R"}})
    [taken] = play(state, 0, Take(1, R, 2))
    assert (taken.data["to_line"], taken.data["to_floor"], taken.data["to_lid"]) == (1, 2, 1)
    assert state.line_count[0][1] == 2
    assert state.floor[0] == [K] * 5 + [R, R]
    assert state.lid[R] == 1
    assert AZUL.check_invariants(state) == []


def test_everything_straight_to_the_floor() -> None:
    state = two_factories()
    [taken] = play(state, 0, Take(3, B, FLOOR))
    assert taken.data["line"] == "floor"
    assert (taken.data["to_line"], taken.data["to_floor"]) == (0, 4)
    assert state.floor[0] == [B] * 4
    assert state.line_count[0] == [0] * 5


def test_legal_moves_respect_pattern_line_constraints() -> None:
    state = table(
        factories=["RRBY"],
        walls={0: ["..R..", ".....", ".....", ".....", "....."]},
        lines={0: {2: "B", 3: "RRR", 4: "YY"}},
    )
    legal = AZUL.legal_moves(state, 0)
    red = {move.line for move in legal if isinstance(move, Take) and move.colour == R}
    # line 1: red already on wall row 1; line 2 holds blue; line 3 full of red (policy:
    # not a distinct move); line 4 holds yellow; line 5 empty; the floor always.
    assert red == {5, FLOOR}
    blue = {move.line for move in legal if isinstance(move, Take) and move.colour == B}
    assert blue == {1, 2, 5, FLOOR}
    yellow = {move.line for move in legal if isinstance(move, Take) and move.colour == Y}
    assert yellow == {1, 4, 5, FLOOR}
    assert len(legal) == len(set(legal))
    assert AZUL.legal_moves(state, 1) == []


def test_a_full_line_of_the_same_colour_is_not_a_distinct_move_policy() -> None:
    state = table(factories=["RRBY"], lines={0: {3: "RRR"}})
    assert Take(1, R, 3) not in AZUL.legal_moves(state, 0)
    assert Take(1, R, FLOOR) in AZUL.legal_moves(state, 0)
    with pytest.raises(IllegalMove) as error:
        AZUL.apply(state, 0, Take(1, R, 3), NoRandomness())
    assert error.value.code == "line-full"


def refused(state: AzulState, player: int, move: object) -> GameError:
    before = state.clone()
    with pytest.raises(GameError) as error:
        AZUL.apply(state, player, move, NoRandomness())  # type: ignore[arg-type]
    assert state == before, "a refused move changed the state"
    return error.value


@pytest.mark.parametrize(
    ("player", "move", "code"),
    [
        (1, Take(1, R, 1), "not-your-turn"),
        (7, Take(1, R, 1), "no-such-player"),
        (0, Take(6, R, 1), "no-such-source"),
        (0, Take(9, R, 1), "no-such-source"),
        (0, Take(2, R, 1), "colour-not-in-source"),
        (0, Take(CENTRE, R, 1), "colour-not-in-source"),
        (0, Take(5, K, 1), "colour-not-in-source"),
        (0, Take(1, R, 2), "line-holds-other-colour"),
        (0, Take(1, R, 1), "colour-already-on-wall"),
        (0, Take(1, B, 3), "line-full"),
        (0, Place(1, 1), "wrong-phase"),
    ],
)
def test_illegal_takes_are_refused_and_change_nothing(
    player: int, move: Take | Place, code: str
) -> None:
    state = table(
        factories=["RRBY", "YYYY", "BBBB", "WWWW"],
        walls={0: ["..R..", ".....", ".....", ".....", "....."]},
        lines={0: {2: "K", 3: "BBB"}},
    )
    error = refused(state, player, move)
    assert isinstance(error, IllegalMove)
    assert error.code == code


@pytest.mark.parametrize(
    "move",
    [
        Take(1, 5, 1),
        Take(1, R, 6),
        Take(-1, R, 1),
        Take(1.0, R, 1),  # type: ignore[arg-type]
        ("F1R1",),
        None,
    ],
)
def test_malformed_moves_are_refused(move: object) -> None:
    error = refused(table(factories=["RRBY"]), 0, move)
    assert isinstance(error, InvalidMove)
    assert error.code == "malformed-move"


def test_turns_go_clockwise_from_the_first_player() -> None:
    state = table(players=3, factories=["RRBY", "YYYY", "BBBB", "WWWW"], current=2)
    play(state, 2, Take(1, R, 1))
    assert AZUL.current_players(state) == [0]
    play(state, 0, Take(2, Y, 1))
    assert AZUL.current_players(state) == [1]


def test_the_game_over_refuses_moves() -> None:
    state = table(factories=["RRBY"])
    state.phase = OVER
    error = refused(state, 0, Take(1, R, 1))
    assert error.code == "game-over"
    assert AZUL.current_players(state) == [] and AZUL.legal_moves(state, 0) == []


def test_a_take_that_does_not_end_the_round_needs_no_randomness() -> None:
    state = two_factories()
    events = AZUL.apply(state, 0, Take(1, R, 2), NoRandomness())
    assert [e.type for e in events] == ["TilesTaken"]
    assert of_type(events, "TilesTaken")[0]["count"] == 2
