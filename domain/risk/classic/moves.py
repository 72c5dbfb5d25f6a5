"""Classic Risk's own moves (docs/risk.md, "Classic Risk" and "Moves"): an attack, the
occupation of a conquest, the end of the attack phase and the fortify move, each with its JSON
form and its notation both ways; :data:`ClassicMove` is every move a classic turn may make
(with the shared ones of :mod:`domain.risk.common_moves`).

>>> Attack.from_notation("attack Kamchatka>Alaska=3")
Attack(source='Kamchatka', target='Alaska', dice=3)
>>> Fortify.from_json({"type": "fortify", "from": "Peru", "to": "Chile", "units": 2}).notation()
'fortify Peru>Chile=2'
>>> Occupy.from_notation("occupy 3").to_json()
{'type': 'occupy', 'units': 3}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.risk.common_moves import Bare, EndTurn, Place, Trade
from domain.risk.move_json import (
    AttackJson,
    FortifyJson,
    OccupyJson,
    fields,
    read_int,
    read_route,
)
from domain.risk.move_notation import number, route, split, written


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
        return cls(*read_route(data, "attack", "dice"))

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
        return cls(*read_route(data, "fortify", "units"))

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
class EndAttacks(Bare):
    """Classic: end the attack phase and go on to the fortify move."""

    kind = "end-attacks"


ClassicMove = Place | Trade | Attack | Occupy | EndAttacks | EndTurn | Fortify
"""Every move of a classic game's turn (docs/risk.md, "Classic Risk")."""
