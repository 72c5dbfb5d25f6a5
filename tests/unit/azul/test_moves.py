"""Moves: JSON form and compact notation (docs/azul.md, "Moves")."""

from __future__ import annotations

import json
from typing import Any

import pytest

from domain.azul import AZUL, Place, Take
from domain.azul.moves import CENTRE, FLOOR
from domain.azul.tiles import COLOUR_INDEX
from domain.protocol import InvalidMove

from .helpers import random_game

R, K = COLOUR_INDEX["R"], COLOUR_INDEX["K"]


@pytest.mark.parametrize(
    ("move", "data", "text"),
    [
        (Take(3, R, 2), {"type": "take", "source": 3, "colour": "R", "line": 2}, "F3R2"),
        (
            Take(CENTRE, K, FLOOR),
            {"type": "take", "source": "centre", "colour": "K", "line": "floor"},
            "CK-",
        ),
        (Take(9, 0, 5), {"type": "take", "source": 9, "colour": "B", "line": 5}, "F9B5"),
        (Place(2, 4), {"type": "place", "row": 2, "column": 4}, "2>4"),
    ],
)  # fmt: skip
def test_examples(move: Take | Place, data: dict[str, Any], text: str) -> None:
    assert AZUL.move_to_json(move) == data
    assert AZUL.parse_move(data) == move
    assert AZUL.notation(move) == text
    assert AZUL.parse_notation(text) == move
    assert AZUL.parse_notation(f"  {text.lower()} ") == move


def test_moves_are_small_hashable_values() -> None:
    assert Take(1, R, 2) == Take(1, R, 2)
    assert len({Take(1, R, 2), Take(1, R, 2), Place(1, 2)}) == 2
    with pytest.raises(AttributeError):
        Take(1, R, 2).line = 3  # type: ignore[misc]


@pytest.mark.parametrize(
    "data",
    [
        None,
        "F1R2",
        [],
        {},
        {"type": "grab"},
        {"type": "take", "source": 1, "colour": "R"},
        {"type": "take", "source": 0, "colour": "R", "line": 1},
        {"type": "take", "source": "middle", "colour": "R", "line": 1},
        {"type": "take", "source": True, "colour": "R", "line": 1},
        {"type": "take", "source": 1, "colour": "red", "line": 1},
        {"type": "take", "source": 1, "colour": "R", "line": 6},
        {"type": "take", "source": 1, "colour": "R", "line": 0},
        {"type": "take", "source": 1, "colour": "R", "line": 1.0},
        {"type": "take", "source": 1, "colour": "R", "line": 1, "extra": 1},
        {"type": "place", "row": 0, "column": 1},
        {"type": "place", "row": 1, "column": "2"},
        {"type": "place", "row": 1},
    ],
)
def test_malformed_json_is_refused(data: Any) -> None:
    with pytest.raises(InvalidMove) as error:
        AZUL.parse_move(data)
    assert error.value.code == "malformed-move"


@pytest.mark.parametrize(
    ("move", "text"),
    [(Take(3, R, 2), "F3R2"), (Take(CENTRE, K, FLOOR), "CK-"), (Place(2, 4), "2>4")],
)
def test_each_move_value_reads_and_writes_itself(move: Take | Place, text: str) -> None:
    kind = type(move)
    assert move.notation() == text and kind.from_notation(text) == move
    assert kind.from_json(json.loads(json.dumps(move.to_json()))) == move
    assert AZUL.move_to_json(move) == move.to_json()


@pytest.mark.parametrize(
    ("kind", "text", "data"),
    [
        (Take, "2>4", {"type": "place", "row": 2, "column": 4}),
        (Place, "F3R2", {"type": "take", "source": 3, "colour": "R", "line": 2}),
    ],
)
def test_a_move_value_refuses_the_other_kind(
    kind: type[Take] | type[Place], text: str, data: dict[str, Any]
) -> None:
    with pytest.raises(InvalidMove) as error:
        kind.from_notation(text)
    assert error.value.code == "malformed-move"
    with pytest.raises(InvalidMove) as error:
        kind.from_json(data)
    assert error.value.code == "malformed-move"


@pytest.mark.parametrize(
    "text", ["", "F0R1", "FR1", "F1X1", "F1R6", "F1R0", "C1R", "0>1", "2>6", "2-4", 7]
)
def test_malformed_notation_is_refused(text: Any) -> None:
    with pytest.raises(InvalidMove) as error:
        AZUL.parse_notation(text)
    assert error.value.code == "malformed-move"


@pytest.mark.parametrize(
    ("players", "wall"), [(2, "colored"), (3, "gray"), (4, "colored"), (2, "gray")]
)
def test_every_legal_move_round_trips(players: int, wall: str) -> None:
    seen = 0
    for seed in range(6):
        for state, _step in random_game(players, seed, wall):
            for player in AZUL.current_players(state):
                for move in AZUL.legal_moves(state, player):
                    data = json.loads(json.dumps(AZUL.move_to_json(move)))
                    assert AZUL.parse_move(data) == move
                    text = AZUL.notation(move)
                    assert AZUL.parse_notation(text) == move
                    seen += 1
    assert seen > 1000
