"""Risk move formats (domain/risk/moves.py; docs/risk.md, "Moves"): JSON and notation read
back exactly, and malformed moves are refused with ``malformed-move``."""

from __future__ import annotations

from typing import Any

import pytest

from domain.protocol import InvalidMove
from domain.risk.moves import (
    Accept,
    Buy,
    Colour,
    Decline,
    Done,
    EndInvasions,
    EndTurn,
    Fight,
    GrantPassage,
    Invade,
    Move,
    Place,
    Propose,
    RevokePassage,
    RiskMove,
    Roll,
    Settle,
    Stop,
    Trade,
    Transfer,
    Withdraw,
    move_to_json,
    notation,
    parse_move,
    parse_notation,
)

EXAMPLES: list[tuple[RiskMove, str]] = [
    (Colour("red"), "colour red"),
    (
        Place((("Alaska", 2), ("Western United States", 1))),
        "place Alaska=2,Western_United_States=1",
    ),
    (Invade("North Africa", "Egypt"), "invade North_Africa>Egypt"),
    (Roll(), "roll"),
    (Fight(), "fight"),
    (Stop(), "stop"),
    (EndInvasions(), "end-invasions"),
    (Trade(("Alaska", "Peru", "wild-1")), "trade Alaska,Peru,wild-1"),
    (Buy(4), "buy 4"),
    (Move("Peru", "Brazil", 3), "move Peru>Brazil=3"),
    (EndTurn(), "end-turn"),
    (Settle(((0, 1500), (2, 500))), "settle 0=1500,2=500"),
    (Accept(3), "accept 3"),
    (Decline(3), "decline 3"),
    (Withdraw(3), "withdraw 3"),
    (GrantPassage(2), "grant-passage 2"),
    (RevokePassage(2), "revoke-passage 2"),
    (Done(), "done"),
]

DEAL = Propose(
    (2,),
    (
        Transfer(0, 2, territories=("Great Britain",), money=150),
        Transfer(2, 0, cards=("Peru", "wild-2"), units=(("Brazil", 2),)),
    ),
)


@pytest.mark.parametrize(("move", "text"), EXAMPLES)
def test_json_and_notation_read_back(move: RiskMove, text: str) -> None:
    assert notation(move) == text
    assert parse_notation(text) == move
    assert parse_move(move_to_json(move)) == move


def test_a_deal_reads_back_from_json_and_notation() -> None:
    data = move_to_json(DEAL)
    assert data["transfers"][0] == {
        "from": 0,
        "to": 2,
        "territories": ["Great Britain"],
        "money": 150,
    }
    assert parse_move(data) == DEAL
    assert parse_notation(notation(DEAL)) == DEAL


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"type": "teleport"},
        {"type": "roll", "dice": 3},
        {"type": "place", "units": {}},
        {"type": "place", "units": {"Alaska": 0}},
        {"type": "place", "units": {"Alaska": True}},
        {"type": "trade", "cards": ["Alaska", "Peru"]},
        {"type": "trade", "cards": ["Alaska", "Alaska", "Peru"]},
        {"type": "buy", "units": 0},
        {"type": "move", "from": "Peru", "to": "Brazil"},
        {"type": "propose", "to": [], "transfers": [{"from": 0, "to": 1, "money": 5}]},
        {"type": "propose", "to": [1], "transfers": [{"from": 0, "to": 0, "money": 5}]},
        {"type": "propose", "to": [1], "transfers": [{"from": 0, "to": 1}]},
        {"type": "propose", "to": [1], "transfers": [{"from": 0, "to": 1, "gold": 1}]},
        {"type": "settle", "shares": {"zero": 100}},
        {"type": "accept", "proposal": -1},
    ],
)
def test_malformed_moves_are_refused(data: Any) -> None:
    with pytest.raises(InvalidMove) as refused:
        parse_move(data)
    assert refused.value.code == "malformed-move"


@pytest.mark.parametrize("text", ["", "invade Alaska", "move Peru>Brazil", "buy x", "propose [1]"])
def test_malformed_notation_is_refused(text: str) -> None:
    with pytest.raises(InvalidMove):
        parse_notation(text)
