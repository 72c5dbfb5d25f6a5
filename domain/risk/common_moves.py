"""The moves both rulesets play (docs/risk.md, "Moves"): choosing a colour, placing units,
trading a set of cards and ending one's turn, and :class:`Bare`, the base of every move
without fields; each with its JSON form (:mod:`domain.risk.move_json`) and its notation
(:mod:`domain.risk.move_notation`) both ways. The Constitution's own moves are in
:mod:`domain.risk.constitution.moves`, classic Risk's in :mod:`domain.risk.classic.moves`;
:mod:`domain.risk.moves` reads any of them.

>>> Place.from_notation("place Peru=2,Brazil=1").to_json()
{'type': 'place', 'units': {'Brazil': 1, 'Peru': 2}}
>>> Trade.from_json({"type": "trade", "cards": ["New Guinea", "Peru", "wild-1"]}).notation()
'trade New_Guinea,Peru,wild-1'
>>> EndTurn.from_notation("end-turn").to_json()
{'type': 'end-turn'}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from domain.risk.move_json import (
    BareJson,
    BareKind,
    ColourJson,
    PlaceJson,
    TradeJson,
    fields,
    malformed,
    read_counts,
    read_name,
    read_names,
)
from domain.risk.move_notation import number, pairs, read, split, written

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
class Bare:
    """A move without fields: its JSON form is its ``type``, its notation its kind (the
    base of every such move of both rulesets)."""

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
class EndTurn(Bare):
    """End one's turn (every reinforcement placed)."""

    kind = "end-turn"


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
