"""The answers to a castle decision (expansion, docs/carcassonne.md, "Castles" and "Moves"):
:class:`CastleChoice` answers ``CastleOffered``, :class:`FiefChoice` answers ``FiefOffered``.

>>> CastleChoice.from_notation("castle")
CastleChoice(build=True)
>>> CastleChoice(False).notation(), CastleChoice(False).to_json()
('no-castle', {'type': 'castle', 'build': False})
>>> FiefChoice.from_notation("FIEF@1,0+R0")
FiefChoice(x=1, y=0, segment='r0')
>>> FiefChoice(1, 0, "r0").notation()
'fief@1,0+r0'
>>> FiefChoice.from_json(FiefChoice(1, 0, "r0").to_json())
FiefChoice(x=1, y=0, segment='r0')
"""

from __future__ import annotations

import re
from typing import Any, Final, Literal, NamedTuple, TypeVar

from typing_extensions import TypedDict

from domain.carcassonne.moves import SEGMENT_IDS, coordinate, malformed

_FIEF: Final = re.compile(r"FIEF@(-?[0-9]+),(-?[0-9]+)\+([CRFMB][0-9]+)")
CHOICE_MESSAGE: Final = (
    'A castle choice is {"type": "castle", "build": true|false}; a fief choice '
    '{"type": "fief", "x": .., "y": .., "segment": ..}.'
)


class CastleJSON(TypedDict):
    """The JSON form of :class:`CastleChoice`."""

    type: Literal["castle"]
    build: bool


class FiefJSON(TypedDict):
    """The JSON form of :class:`FiefChoice`."""

    type: Literal["fief"]
    x: int
    y: int
    segment: str


class CastleChoice(NamedTuple):
    """The answer to ``CastleOffered`` (rules "Castles"): turn the city into a castle
    (``build``) or score it. JSON ``{"type": "castle", "build": true}``; notation
    ``castle`` / ``no-castle``."""

    build: bool

    def notation(self) -> str:
        """``castle`` or ``no-castle``."""
        return "castle" if self.build else "no-castle"

    def to_json(self) -> CastleJSON:
        """``{"type": "castle", "build": ..}``."""
        return {"type": "castle", "build": self.build}

    @classmethod
    def from_notation(cls, text: str) -> CastleChoice:
        """``castle`` or ``no-castle`` (case and surrounding spaces ignored)."""
        word = text.strip().upper()
        if word not in ("CASTLE", "NO-CASTLE"):
            raise malformed(f"{text!r} is not a castle choice (castle, no-castle).")
        return cls(word == "CASTLE")

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CastleChoice:
        """The choice of ``{"type": "castle", "build": true|false}``."""
        if data.get("type") != "castle" or set(data) != {"type", "build"}:
            raise malformed(CHOICE_MESSAGE)
        return checked(cls(data["build"]))

    def well_formed(self) -> bool:
        """Whether ``build`` is a boolean."""
        return type(self.build) is bool


class FiefChoice(NamedTuple):
    """The answer to ``FiefOffered`` (rules "Castles": the castle owner chooses which
    completed feature the castle scores), named by a segment of it (of the other castle's
    city in a chain). JSON ``{"type": "fief", "x": 1, "y": 0, "segment": "r0"}``; notation
    ``fief@1,0+r0``."""

    x: int
    y: int
    segment: str

    def notation(self) -> str:
        """``fief@<x>,<y>+<segment>``."""
        return f"fief@{self.x},{self.y}+{self.segment}"

    def to_json(self) -> FiefJSON:
        """``{"type": "fief", "x": .., "y": .., "segment": ..}``."""
        return {"type": "fief", "x": self.x, "y": self.y, "segment": self.segment}

    @classmethod
    def from_notation(cls, text: str) -> FiefChoice:
        """The choice written ``fief@<x>,<y>+<segment>`` (case and spaces ignored)."""
        found = _FIEF.fullmatch(text.strip().upper())
        if not found:
            raise malformed(f"{text!r} is not a fief choice (example: fief@1,0+r0).")
        return checked(cls(int(found[1]), int(found[2]), found[3].lower()))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FiefChoice:
        """The choice of ``{"type": "fief", "x": .., "y": .., "segment": ..}``."""
        if data.get("type") != "fief" or set(data) != {"type", "x", "y", "segment"}:
            raise malformed(CHOICE_MESSAGE)
        return checked(cls(data["x"], data["y"], data["segment"]))

    def well_formed(self) -> bool:
        """Whether the square is in range and the segment an id some tile has."""
        return (
            coordinate(self.x)
            and coordinate(self.y)
            and isinstance(self.segment, str)
            and self.segment in SEGMENT_IDS
        )


Checked = TypeVar("Checked", "CastleChoice", "FiefChoice")


def checked(move: Checked) -> Checked:
    """``move``, or ``InvalidMove`` when a field is out of range."""
    if not move.well_formed():
        raise malformed(
            "A castle choice's build is true or false; a fief choice names integer x and y "
            "and a segment id."
        )
    return move
