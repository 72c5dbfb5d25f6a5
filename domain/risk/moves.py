"""Risk moves as small values (docs/risk.md, "Moves"), each with its JSON form
(:mod:`domain.risk.move_json`) and its notation (:mod:`domain.risk.move_notation`) both ways.
Every phase of the Constitution and of the classic ruleset (``attack``, ``occupy``,
``end-attacks``, ``fortify``; docs/risk.md, "Classic Risk") has its moves here; the deal and
the settlement are in :mod:`domain.risk.deal_moves`; the phase modules decide whether a move is
legal now. :func:`parse_move` and :func:`parse_notation` read any move.

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

from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from domain.risk.deal_moves import Propose, Settle, Transfer
from domain.risk.move_json import (
    AnswerJson,
    AttackJson,
    BareJson,
    BareKind,
    BuyJson,
    ColourJson,
    FortifyJson,
    InvadeJson,
    MoveJson,
    OccupyJson,
    PassageJson,
    PlaceJson,
    RiskMoveJson,
    TradeJson,
    fields,
    malformed,
    read_counts,
    read_int,
    read_name,
    read_names,
    read_seat,
)
from domain.risk.move_notation import number, pairs, read, route, split, written

__all__ = ["COLOURS", "Propose", "RiskMove", "Settle", "Transfer", "parse_move", "parse_notation"]

COLOURS = ("black", "blue", "green", "pink", "red", "yellow")
"""The six army colours a player may choose (docs/risk.md, "Setup")."""


@dataclass(frozen=True, slots=True)
class Colour:
    """Choose an army colour (setup, in turn order)."""

    colour: str

    def to_json(self) -> ColourJson:
        """The move's JSON form (docs/risk.md, "Moves")."""
        return {"type": "colour", "colour": self.colour}

    @classmethod
    def from_json(cls, data: Any) -> Colour:
        """The move from its JSON form; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        return cls(read_name(fields(data, "colour", "colour").get("colour"), "colour"))

    def notation(self) -> str:
        """The move's notation (docs/risk.md, "Moves")."""
        return f"colour {self.colour}"

    @classmethod
    def from_notation(cls, text: str) -> Colour:
        """The move from its notation; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        return cls(split(text, "colour"))


@dataclass(frozen=True, slots=True)
class Place:
    """Place units from one's reserve: ``units`` is sorted ``(territory, n)`` pairs."""

    units: tuple[tuple[str, int], ...]

    def to_json(self) -> PlaceJson:
        """The move's JSON form (docs/risk.md, "Moves")."""
        return {"type": "place", "units": dict(self.units)}

    @classmethod
    def from_json(cls, data: Any) -> Place:
        """The move from its JSON form; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        return cls(read_counts(fields(data, "place", "units").get("units"), "units"))

    def notation(self) -> str:
        """The move's notation (docs/risk.md, "Moves")."""
        return "place " + ",".join(f"{written(t)}={n}" for t, n in self.units)

    @classmethod
    def from_notation(cls, text: str) -> Place:
        """The move from its notation; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        counts = {k: number(v) for k, v in pairs(split(text, "place")).items()}
        return cls(read_counts(counts, "units"))


@dataclass(frozen=True, slots=True)
class Invade:
    """Start an invasion of ``target`` from ``source``."""

    source: str
    target: str

    def to_json(self) -> InvadeJson:
        """The move's JSON form (docs/risk.md, "Moves")."""
        return {"type": "invade", "from": self.source, "to": self.target}

    @classmethod
    def from_json(cls, data: Any) -> Invade:
        """The move from its JSON form; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        fields(data, "invade", "from", "to")
        return cls(read_name(data.get("from"), "from"), read_name(data.get("to"), "to"))

    def notation(self) -> str:
        """The move's notation (docs/risk.md, "Moves")."""
        return f"invade {written(self.source)}>{written(self.target)}"

    @classmethod
    def from_notation(cls, text: str) -> Invade:
        """The move from its notation; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        source, sep, target = split(text, "invade").partition(">")
        if not sep:
            raise malformed("invade is written from>to")
        return cls(read(source), read(target))


@dataclass(frozen=True, slots=True)
class _Bare:
    """A move without fields: its JSON form is its ``type``, its notation its kind."""

    kind: ClassVar[BareKind]

    def to_json(self) -> BareJson:
        """The move's JSON form (docs/risk.md, "Moves")."""
        return {"type": self.kind}

    @classmethod
    def from_json(cls, data: Any) -> Any:
        """The move from its JSON form; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        fields(data, cls.kind)
        return cls()

    def notation(self) -> str:
        """The move's notation (docs/risk.md, "Moves")."""
        return self.kind

    @classmethod
    def from_notation(cls, text: str) -> Any:
        """The move from its notation; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        if text.strip() != cls.kind:
            raise malformed(f"{text[:40]!r} is not {cls.kind}")
        return cls()


@dataclass(frozen=True, slots=True)
class Roll(_Bare):
    """Roll the dice once in the open invasion's battle."""

    kind = "roll"


@dataclass(frozen=True, slots=True)
class Fight(_Bare):
    """Roll until the open invasion's battle is resolved."""

    kind = "fight"


@dataclass(frozen=True, slots=True)
class Stop(_Bare):
    """Stop the open invasion (it may not be resumed this turn)."""

    kind = "stop"


@dataclass(frozen=True, slots=True)
class EndInvasions(_Bare):
    """End the invasion phase and go on to reinforcement."""

    kind = "end-invasions"


@dataclass(frozen=True, slots=True)
class EndTurn(_Bare):
    """End one's turn (every reinforcement placed)."""

    kind = "end-turn"


@dataclass(frozen=True, slots=True)
class Done(_Bare):
    """Declare oneself done for this exchange session."""

    kind = "done"


@dataclass(frozen=True, slots=True)
class EndAttacks(_Bare):
    """Classic: end the attack phase and go on to the fortify move."""

    kind = "end-attacks"


@dataclass(frozen=True, slots=True)
class Trade:
    """Trade three trophy cards for the golden horse's bonus (a classic set's value)."""

    cards: tuple[str, str, str]

    def to_json(self) -> TradeJson:
        """The move's JSON form (docs/risk.md, "Moves")."""
        return {"type": "trade", "cards": list(self.cards)}

    @classmethod
    def from_json(cls, data: Any) -> Trade:
        """The move from its JSON form; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        cards = read_names(fields(data, "trade", "cards").get("cards"), "cards")
        if len(cards) != 3:
            raise malformed("a trade is exactly three cards")
        return cls((cards[0], cards[1], cards[2]))

    def notation(self) -> str:
        """The move's notation (docs/risk.md, "Moves")."""
        return "trade " + ",".join(written(c) for c in self.cards)

    @classmethod
    def from_notation(cls, text: str) -> Trade:
        """The move from its notation; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        cards = [read(c) for c in split(text, "trade").split(",")]
        return cls.from_json({"type": "trade", "cards": cards})


@dataclass(frozen=True, slots=True)
class Buy:
    """Buy ``units`` units with one's own money."""

    units: int

    def to_json(self) -> BuyJson:
        """The move's JSON form (docs/risk.md, "Moves")."""
        return {"type": "buy", "units": self.units}

    @classmethod
    def from_json(cls, data: Any) -> Buy:
        """The move from its JSON form; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        return cls(read_int(fields(data, "buy", "units").get("units"), "units", 1))

    def notation(self) -> str:
        """The move's notation (docs/risk.md, "Moves")."""
        return f"buy {self.units}"

    @classmethod
    def from_notation(cls, text: str) -> Buy:
        """The move from its notation; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        return cls(read_int(number(split(text, "buy")), "units", 1))


def _route(data: Any, kind: str, amount: str) -> tuple[str, str, int]:
    """``from``, ``to`` and a positive ``amount`` of a move, an attack or a fortify move."""
    fields(data, kind, "from", "to", amount)
    return (
        read_name(data.get("from"), "from"),
        read_name(data.get("to"), "to"),
        read_int(data.get(amount), amount, 1),
    )


@dataclass(frozen=True, slots=True)
class Move:
    """Move ``units`` units from ``source`` to ``target`` (along a route of own and
    consenting allies' territories; docs/risk.md, "Moving units")."""

    source: str
    target: str
    units: int

    def to_json(self) -> MoveJson:
        """The move's JSON form (docs/risk.md, "Moves")."""
        return {"type": "move", "from": self.source, "to": self.target, "units": self.units}

    @classmethod
    def from_json(cls, data: Any) -> Move:
        """The move from its JSON form; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        return cls(*_route(data, "move", "units"))

    def notation(self) -> str:
        """The move's notation (docs/risk.md, "Moves")."""
        return f"move {written(self.source)}>{written(self.target)}={self.units}"

    @classmethod
    def from_notation(cls, text: str) -> Move:
        """The move from its notation; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        return cls(*route("move", split(text, "move")))


@dataclass(frozen=True, slots=True)
class Attack:
    """Classic: attack ``target`` from ``source`` with ``dice`` dice (one roll)."""

    source: str
    target: str
    dice: int

    def to_json(self) -> AttackJson:
        """The move's JSON form (docs/risk.md, "Moves")."""
        return {"type": "attack", "from": self.source, "to": self.target, "dice": self.dice}

    @classmethod
    def from_json(cls, data: Any) -> Attack:
        """The move from its JSON form; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        return cls(*_route(data, "attack", "dice"))

    def notation(self) -> str:
        """The move's notation (docs/risk.md, "Moves")."""
        return f"attack {written(self.source)}>{written(self.target)}={self.dice}"

    @classmethod
    def from_notation(cls, text: str) -> Attack:
        """The move from its notation; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        return cls(*route("attack", split(text, "attack")))


@dataclass(frozen=True, slots=True)
class Fortify:
    """Classic: the turn's one fortify move of ``units`` units (ends the turn)."""

    source: str
    target: str
    units: int

    def to_json(self) -> FortifyJson:
        """The move's JSON form (docs/risk.md, "Moves")."""
        return {"type": "fortify", "from": self.source, "to": self.target, "units": self.units}

    @classmethod
    def from_json(cls, data: Any) -> Fortify:
        """The move from its JSON form; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        return cls(*_route(data, "fortify", "units"))

    def notation(self) -> str:
        """The move's notation (docs/risk.md, "Moves")."""
        return f"fortify {written(self.source)}>{written(self.target)}={self.units}"

    @classmethod
    def from_notation(cls, text: str) -> Fortify:
        """The move from its notation; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        return cls(*route("fortify", split(text, "fortify")))


@dataclass(frozen=True, slots=True)
class Occupy:
    """Classic: move ``units`` units into the territory just conquered."""

    units: int

    def to_json(self) -> OccupyJson:
        """The move's JSON form (docs/risk.md, "Moves")."""
        return {"type": "occupy", "units": self.units}

    @classmethod
    def from_json(cls, data: Any) -> Occupy:
        """The move from its JSON form; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        return cls(read_int(fields(data, "occupy", "units").get("units"), "units", 1))

    def notation(self) -> str:
        """The move's notation (docs/risk.md, "Moves")."""
        return f"occupy {self.units}"

    @classmethod
    def from_notation(cls, text: str) -> Occupy:
        """The move from its notation; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        return cls(read_int(number(split(text, "occupy")), "units", 1))


@dataclass(frozen=True, slots=True)
class _Answer:
    """An answer to a proposal of the exchange session, by its number."""

    kind: ClassVar[Any]
    proposal: int

    def to_json(self) -> AnswerJson:
        """The move's JSON form (docs/risk.md, "Moves")."""
        return {"type": self.kind, "proposal": self.proposal}

    @classmethod
    def from_json(cls, data: Any) -> Any:
        """The move from its JSON form; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        return cls(read_int(fields(data, cls.kind, "proposal").get("proposal"), "proposal"))

    def notation(self) -> str:
        """The move's notation (docs/risk.md, "Moves")."""
        return f"{self.kind} {self.proposal}"

    @classmethod
    def from_notation(cls, text: str) -> Any:
        """The move from its notation; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        return cls(number(split(text, cls.kind)))


@dataclass(frozen=True, slots=True)
class Accept(_Answer):
    """Accept a proposal (deal or settlement) addressed to oneself."""

    kind = "accept"


@dataclass(frozen=True, slots=True)
class Decline(_Answer):
    """Decline a proposal addressed to oneself."""

    kind = "decline"


@dataclass(frozen=True, slots=True)
class Withdraw(_Answer):
    """Withdraw one's own open proposal."""

    kind = "withdraw"


@dataclass(frozen=True, slots=True)
class _Passage:
    """Consent to move through one's territories, given to or withdrawn from seat ``to``."""

    kind: ClassVar[Any]
    to: int

    def to_json(self) -> PassageJson:
        """The move's JSON form (docs/risk.md, "Moves")."""
        return {"type": self.kind, "to": self.to}

    @classmethod
    def from_json(cls, data: Any) -> Any:
        """The move from its JSON form; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        return cls(read_seat(fields(data, cls.kind, "to").get("to"), "to"))

    def notation(self) -> str:
        """The move's notation (docs/risk.md, "Moves")."""
        return f"{self.kind} {self.to}"

    @classmethod
    def from_notation(cls, text: str) -> Any:
        """The move from its notation; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        return cls(number(split(text, cls.kind)))


@dataclass(frozen=True, slots=True)
class GrantPassage(_Passage):
    """Consent that seat ``to`` may move units through one's territories."""

    kind = "grant-passage"


@dataclass(frozen=True, slots=True)
class RevokePassage(_Passage):
    """Withdraw the consent given to seat ``to``."""

    kind = "revoke-passage"


RiskMove = (
    Colour
    | Place
    | Invade
    | Roll
    | Fight
    | Stop
    | EndInvasions
    | Trade
    | Buy
    | Move
    | EndTurn
    | Propose
    | Settle
    | Accept
    | Decline
    | Withdraw
    | GrantPassage
    | RevokePassage
    | Done
    | Attack
    | Occupy
    | EndAttacks
    | Fortify
)


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
