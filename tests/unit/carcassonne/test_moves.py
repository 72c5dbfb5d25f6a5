"""Moves: JSON form, compact notation, and what ``apply`` refuses (docs/carcassonne.md,
"Moves")."""

from __future__ import annotations

from typing import Any

import pytest

from domain.carcassonne import CARCASSONNE, Place
from domain.carcassonne.state import PLAY, state_to_json
from domain.carcassonne.tiles import TYPE_INDEX
from domain.protocol import IllegalMove, InvalidMove
from domain.randomness import RandomStream

from .helpers import played_out, random_game, table


def test_json_and_notation_round_trip() -> None:
    move = Place("D", 1, 0, 90, "c0")
    data = CARCASSONNE.move_to_json(move)
    assert data == {"type": "place", "tile": "D", "x": 1, "y": 0, "rotation": 90, "follower": "c0"}
    assert CARCASSONNE.parse_move(data) == move
    assert CARCASSONNE.notation(move) == "D@1,0r90+c0"
    assert CARCASSONNE.parse_notation("D@1,0r90+c0") == move
    bare = Place("V", -2, 13, 0, None)
    assert CARCASSONNE.notation(bare) == "V@-2,13r0"
    assert CARCASSONNE.parse_notation(" v@-2,13R0 ") == bare
    assert CARCASSONNE.parse_move(CARCASSONNE.move_to_json(bare)) == bare
    monk = Place("A", 0, 1, 270, "m0")
    assert CARCASSONNE.parse_notation(CARCASSONNE.notation(monk)) == monk


def test_every_listed_move_survives_json_and_notation() -> None:
    for state, _step in random_game(3, 11):
        for move in CARCASSONNE.legal_moves(state, state.current)[:40]:
            assert CARCASSONNE.parse_move(CARCASSONNE.move_to_json(move)) == move
            assert CARCASSONNE.parse_notation(CARCASSONNE.notation(move)) == move


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"type": "take"},
        {"type": "place", "tile": "D", "x": 1, "y": 0, "rotation": 90},
        {"type": "place", "tile": "Z", "x": 1, "y": 0, "rotation": 90, "follower": None},
        {"type": "place", "tile": "D", "x": 1.0, "y": 0, "rotation": 90, "follower": None},
        {"type": "place", "tile": "D", "x": True, "y": 0, "rotation": 90, "follower": None},
        {"type": "place", "tile": "D", "x": 1, "y": 0, "rotation": 45, "follower": None},
        {"type": "place", "tile": "D", "x": 1, "y": 0, "rotation": 90, "follower": "q7"},
        {"type": "place", "tile": "D", "x": 1, "y": 0, "rotation": 90, "follower": 3},
        {"type": "place", "tile": "D", "x": 10**6, "y": 0, "rotation": 90, "follower": None},
        {"type": "place", "tile": "D", "x": 1, "y": 0, "rotation": 90, "follower": None, "z": 1},
    ],
)
def test_malformed_json_is_refused(data: Any) -> None:
    with pytest.raises(InvalidMove) as refused:
        CARCASSONNE.parse_move(data)
    assert refused.value.code == "malformed-move"


@pytest.mark.parametrize(
    "text", ["", "D", "D@1,0", "D@1;0r90", "D@1,0r45", "Z@0,1r0", "D@1,0r90+", 7]
)
def test_malformed_notation_is_refused(text: Any) -> None:
    with pytest.raises(InvalidMove):
        CARCASSONNE.parse_notation(text)


def holding(tile: str, player: int = 0) -> Any:
    state = table(2)
    kind = TYPE_INDEX[tile]
    state.stack[kind] -= 1
    state.in_hand, state.current, state.phase = kind, player, PLAY
    return state


@pytest.mark.parametrize(
    ("player", "move", "code"),
    [
        (1, Place("U", 1, 0, 0, None), "not-your-turn"),
        (7, Place("U", 1, 0, 0, None), "no-such-player"),
        (0, Place("V", 1, 0, 0, None), "wrong-tile"),
        (0, Place("U", 0, 0, 0, None), "square-occupied"),
        (0, Place("U", 3, 3, 0, None), "not-adjacent"),
        (0, Place("U", 1, 1, 0, None), "not-adjacent"),  # corner to corner only
        (0, Place("U", 1, 0, 90, None), "tile-does-not-fit"),
        (0, Place("U", 0, -1, 0, None), "tile-does-not-fit"),  # field against the city
        (0, Place("U", 1, 0, 0, "c0"), "no-such-segment"),
    ],
)
def test_illegal_moves_are_refused_with_a_code(player: int, move: Place, code: str) -> None:
    state = holding("U")
    before = state_to_json(state)  # a clone would share the features
    with pytest.raises(IllegalMove) as refused:
        CARCASSONNE.apply(state, player, move, RandomStream("x"))
    assert refused.value.code == code
    assert state_to_json(state) == before


def test_a_look_alike_rotation_is_the_same_listed_move() -> None:
    state = holding("U")
    listed = CARCASSONNE.legal_moves(state, 0)
    assert {(m.x, m.y, m.rotation) for m in listed} >= {(1, 0, 0)}
    assert not any(m.rotation == 180 for m in listed)
    # U turned 180 looks like U unturned: its south field f1 lies where f0 lies unturned
    data = {"type": "place", "tile": "U", "x": 1, "y": 0, "rotation": 180, "follower": "f1"}
    move = CARCASSONNE.parse_move(data)
    assert move == Place("U", 1, 0, 0, "f0") and move in listed
    assert CARCASSONNE.parse_notation("U@1,0r180+f1") == move
    assert CARCASSONNE.parse_notation("U@1,0r270") == Place("U", 1, 0, 90, None)
    events = CARCASSONNE.apply(state, 0, Place("U", 1, 0, 180, "f1"), RandomStream("x"))
    assert events[0].data["rotation"] == 0
    assert events[1].data == {"player": 0, "x": 1, "y": 0, "segment": "f0", "role": "farmer"}
    for tile in ("B", "C", "X"):
        assert CARCASSONNE.parse_notation(f"{tile}@0,1r270").rotation == 0


def test_moves_before_the_start_and_after_the_end_are_refused() -> None:
    state = table(2)
    with pytest.raises(IllegalMove) as refused:
        CARCASSONNE.apply(state, 0, Place("U", 1, 0, 0, None), RandomStream("x"))
    assert refused.value.code == "not-started"
    assert CARCASSONNE.current_players(state) == [] and CARCASSONNE.legal_moves(state, 0) == []
    final = played_out(2, 5)
    assert CARCASSONNE.outcome(final) is not None
    with pytest.raises(IllegalMove) as refused:
        CARCASSONNE.apply(final, 0, Place("U", 1, 0, 0, None), RandomStream("x"))
    assert refused.value.code == "game-over"
    with pytest.raises(InvalidMove):
        CARCASSONNE.apply(state, 0, ("U", 1, 0, 0, None), RandomStream("x"))  # type: ignore[arg-type]
