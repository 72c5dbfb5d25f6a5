"""The Constitution's own moves (docs/risk.md, "Moves"): the invasion phase's, buying and
moving units, and the exchange session's answers, passage and being done, each with its JSON
form and its notation both ways; the deal and the settlement are in
:mod:`domain.risk.constitution.deal_moves`. :data:`ConstitutionMove` is every move of a
Constitution turn or exchange session (with the shared ones of :mod:`domain.risk.common_moves`).

>>> Move.from_notation("move Western_United_States>Eastern_United_States=3")
Move(source='Western United States', target='Eastern United States', units=3)
>>> Invade.from_json({"type": "invade", "from": "Alaska", "to": "Kamchatka"}).notation()
'invade Alaska>Kamchatka'
>>> [Accept.from_notation("accept 7").notation(), Done.from_notation("done").notation()]
['accept 7', 'done']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from domain.risk.common_moves import Bare, EndTurn, Place, Trade
from domain.risk.constitution.deal_moves import Propose, Settle
from domain.risk.move_json import (
    AnswerJson,
    BuyJson,
    InvadeJson,
    MoveJson,
    PassageJson,
    fields,
    malformed,
    read_int,
    read_name,
    read_route,
    read_seat,
)
from domain.risk.move_notation import number, read, route, split, written


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
class Roll(Bare):
    """Roll the dice once in the open invasion's battle."""

    kind = "roll"


@dataclass(frozen=True, slots=True)
class Fight(Bare):
    """Roll until the open invasion's battle is resolved."""

    kind = "fight"


@dataclass(frozen=True, slots=True)
class Stop(Bare):
    """Stop the open invasion (it may not be resumed this turn)."""

    kind = "stop"


@dataclass(frozen=True, slots=True)
class EndInvasions(Bare):
    """End the invasion phase and go on to reinforcement."""

    kind = "end-invasions"


@dataclass(frozen=True, slots=True)
class Done(Bare):
    """Declare oneself done for this exchange session."""

    kind = "done"


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
        return cls(*read_route(data, "move", "units"))

    def notation(self) -> str:
        """The move's notation (docs/risk.md, "Moves")."""
        return f"move {written(self.source)}>{written(self.target)}={self.units}"

    @classmethod
    def from_notation(cls, text: str) -> Move:
        """The move from its notation; ``InvalidMove`` if malformed (docs/risk.md, "Moves")."""
        return cls(*route("move", split(text, "move")))


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


ConstitutionMove = (
    Place
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
)
"""Every move of a Constitution turn or exchange session (docs/risk.md, "Moves")."""
