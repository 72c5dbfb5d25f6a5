"""Risk moves as small values (docs/risk.md, "Moves"), each with its JSON form
(:mod:`domain.risk.move_json`) and its notation (:mod:`domain.risk.move_notation`) both ways.
The moves live by ruleset (docs/risk.md, "Rooms"): the shared ones in
:mod:`domain.risk.common_moves`, the Constitution's in :mod:`domain.risk.constitution.moves`
(the deal and the settlement in :mod:`domain.risk.constitution.deal_moves`), classic Risk's
(``attack``, ``occupy``, ``end-attacks``, ``fortify``; docs/risk.md, "Classic Risk") in
:mod:`domain.risk.classic.moves`. This module names them all: :data:`RiskMove`, and
:func:`parse_move` and :func:`parse_notation`, which read any move; the phase modules decide
whether a move is legal now.

JSON forms (``type`` names the move)::

    {"type": "colour", "colour": "red"}                          colour red
    {"type": "place", "units": {"Alaska": 2, "Peru": 1}}         place Alaska=2,Peru=1
    {"type": "invade", "from": "Alaska", "to": "Kamchatka"}      invade Alaska>Kamchatka
    {"type": "roll"}                                             roll
    {"type": "fight"}                                            fight
    {"type": "stop"}                                             stop
    {"type": "end-invasions"}                                    end-invasions
    {"type": "trade", "cards": ["Alaska", "Peru", "wild-1"]}     trade Alaska,Peru,wild-1
    {"type": "buy", "units": 4}                                  buy 4
    {"type": "move", "from": "Peru", "to": "Brazil", "units": 3} move Peru>Brazil=3
    {"type": "end-turn"}                                         end-turn
    {"type": "propose", "to": [2], "transfers": [...]}           propose <compact JSON>
    {"type": "settle", "shares": {"0": 3000, "2": 1000}}         settle 0=3000,2=1000
    {"type": "accept", "proposal": 3}                            accept 3
    {"type": "decline", "proposal": 3}                           decline 3
    {"type": "withdraw", "proposal": 3}                          withdraw 3
    {"type": "grant-passage", "to": 2}                           grant-passage 2
    {"type": "revoke-passage", "to": 2}                          revoke-passage 2
    {"type": "done"}                                             done
    {"type": "attack", "from": "Peru", "to": "Brazil", "dice": 3} attack Peru>Brazil=3
    {"type": "occupy", "units": 3}                               occupy 3
    {"type": "end-attacks"}                                      end-attacks
    {"type": "fortify", "from": "Peru", "to": "Chile", "units": 2} fortify Peru>Chile=2

In notation a territory's spaces are written as ``_``:

>>> move = parse_notation("move Western_United_States>Eastern_United_States=3")
>>> move
Move(source='Western United States', target='Eastern United States', units=3)
>>> move.to_json()
{'type': 'move', 'from': 'Western United States', 'to': 'Eastern United States', 'units': 3}
>>> parse_move(move.to_json()).notation()
'move Western_United_States>Eastern_United_States=3'
>>> Place.from_notation("place Peru=2,Brazil=1").to_json()
{'type': 'place', 'units': {'Brazil': 1, 'Peru': 2}}
>>> Trade.from_json({"type": "trade", "cards": ["New Guinea", "Peru", "wild-1"]}).notation()
'trade New_Guinea,Peru,wild-1'
>>> [parse_notation(text).notation() for text in ("accept 7", "end-turn", "occupy 3")]
['accept 7', 'end-turn', 'occupy 3']
>>> Attack.from_notation("attack Kamchatka>Alaska=3")
Attack(source='Kamchatka', target='Alaska', dice=3)
"""

from __future__ import annotations

from typing import Any, Protocol

from domain.risk.classic.moves import Attack, ClassicMove, EndAttacks, Fortify, Occupy
from domain.risk.common_moves import COLOURS, Colour, EndTurn, Place, Trade
from domain.risk.constitution.deal_moves import Propose, Settle, Transfer
from domain.risk.constitution.moves import (
    Accept,
    Buy,
    ConstitutionMove,
    Decline,
    Done,
    EndInvasions,
    Fight,
    GrantPassage,
    Invade,
    Move,
    RevokePassage,
    Roll,
    Stop,
    Withdraw,
)
from domain.risk.move_json import RiskMoveJson, malformed

__all__ = [
    "COLOURS",
    "Accept",
    "Attack",
    "Buy",
    "ClassicMove",
    "Colour",
    "ConstitutionMove",
    "Decline",
    "Done",
    "EndAttacks",
    "EndInvasions",
    "EndTurn",
    "Fight",
    "Fortify",
    "GrantPassage",
    "Invade",
    "Move",
    "Occupy",
    "Place",
    "Propose",
    "RevokePassage",
    "RiskMove",
    "Roll",
    "Settle",
    "Stop",
    "Trade",
    "Transfer",
    "Withdraw",
    "move_to_json",
    "notation",
    "parse_move",
    "parse_notation",
]

RiskMove = Colour | ConstitutionMove | ClassicMove
"""Every Risk move of either ruleset (docs/risk.md, "Moves")."""


class _Reader(Protocol):
    """A move class, read from its JSON form or its notation."""

    def from_json(self, data: Any) -> RiskMove: ...

    def from_notation(self, text: str) -> RiskMove: ...


_KINDS: dict[str, _Reader] = {
    "colour": Colour,
    "place": Place,
    "invade": Invade,
    "roll": Roll,
    "fight": Fight,
    "stop": Stop,
    "end-invasions": EndInvasions,
    "trade": Trade,
    "buy": Buy,
    "move": Move,
    "end-turn": EndTurn,
    "propose": Propose,
    "settle": Settle,
    "accept": Accept,
    "decline": Decline,
    "withdraw": Withdraw,
    "grant-passage": GrantPassage,
    "revoke-passage": RevokePassage,
    "done": Done,
    "attack": Attack,
    "occupy": Occupy,
    "end-attacks": EndAttacks,
    "fortify": Fortify,
}
"""Each move class by its ``type`` (the first word of its notation)."""


def parse_move(data: Any) -> RiskMove:
    """A move from its JSON form; ``InvalidMove`` when it is not a Risk move."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise malformed('a move is an object with a "type"')
    reader = _KINDS.get(data["type"])
    if reader is None:
        raise malformed(f"no move type {data['type']!r}")
    return reader.from_json(data)


def parse_notation(text: str) -> RiskMove:
    """A move from its compact notation; ``InvalidMove`` if malformed."""
    kind = text.strip().partition(" ")[0]
    reader = _KINDS.get(kind)
    if reader is None:
        raise malformed(f"no move type {kind!r}")
    return reader.from_notation(text)


def move_to_json(move: RiskMove) -> RiskMoveJson:
    """The JSON form of ``move`` (:func:`parse_move` reads it back)."""
    return move.to_json()


def notation(move: RiskMove) -> str:
    """The compact notation of ``move`` (:func:`parse_notation` reads it back)."""
    return move.notation()
