"""Risk moves as small values (docs/risk.md, "Moves"). Every phase of the Constitution and
of the classic ruleset (``attack``, ``occupy``, ``end-attacks``, ``fortify``;
docs/risk.md, "Classic Risk") has its moves here; the phase modules decide
whether a move is legal now. :mod:`domain.risk.move_json` reads and writes their JSON form,
:mod:`domain.risk.move_notation` their compact notation.

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

In notation a territory's spaces are written as ``_`` (``Western_United_States``). A
transfer of a deal is ``{"from": seat, "to": seat, "territories": [...], "cards": [...],
"units": {territory: n}, "money": kopecks}`` (every key but ``from`` and ``to`` optional).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.protocol import InvalidMove

COLOURS = ("black", "blue", "green", "pink", "red", "yellow")
"""The six army colours a player may choose (docs/risk.md, "Setup")."""


def malformed(detail: str) -> InvalidMove:
    """The refusal of a move that cannot be read."""
    return InvalidMove("malformed-move", f"Not a Risk move: {detail}.")


def read_int(value: Any, what: str, minimum: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise malformed(f"{what} must be an integer of at least {minimum}")
    return value


def read_name(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise malformed(f"{what} must be a non-empty string")
    return value


def read_counts(value: Any, what: str) -> tuple[tuple[str, int], ...]:
    """A ``{territory: n}`` object as sorted pairs, every ``n`` at least 1."""
    if not isinstance(value, dict) or not value:
        raise malformed(f"{what} must be a non-empty object of territory: units")
    return tuple(
        sorted(
            (read_name(k, "a territory"), read_int(v, f"units on {k}", 1)) for k, v in value.items()
        )
    )


def read_names(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise malformed(f"{what} must be a list")
    names = tuple(read_name(v, what) for v in value)
    if len(set(names)) != len(names):
        raise malformed(f"{what} names an item twice")
    return names


def read_seat(value: Any, what: str) -> int:
    return read_int(value, what)


@dataclass(frozen=True, slots=True)
class Colour:
    """Choose an army colour (setup, in turn order)."""

    colour: str


@dataclass(frozen=True, slots=True)
class Place:
    """Place units from one's reserve: ``units`` is sorted ``(territory, n)`` pairs."""

    units: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Invade:
    """Start an invasion of ``target`` from ``source``."""

    source: str
    target: str


@dataclass(frozen=True, slots=True)
class Roll:
    """Roll the dice once in the open invasion's battle."""


@dataclass(frozen=True, slots=True)
class Fight:
    """Roll until the open invasion's battle is resolved."""


@dataclass(frozen=True, slots=True)
class Stop:
    """Stop the open invasion (it may not be resumed this turn)."""


@dataclass(frozen=True, slots=True)
class EndInvasions:
    """End the invasion phase and go on to reinforcement."""


@dataclass(frozen=True, slots=True)
class Trade:
    """Trade three trophy cards for the golden horse's bonus."""

    cards: tuple[str, str, str]


@dataclass(frozen=True, slots=True)
class Buy:
    """Buy ``units`` units with one's own money."""

    units: int


@dataclass(frozen=True, slots=True)
class Move:
    """Move ``units`` units from ``source`` to ``target`` (along a route of own and
    consenting allies' territories; docs/risk.md, "Moving units")."""

    source: str
    target: str
    units: int


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End one's turn (every reinforcement placed)."""


@dataclass(frozen=True, slots=True)
class Transfer:
    """What one party of a deal gives another."""

    giver: int
    receiver: int
    territories: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    units: tuple[tuple[str, int], ...] = ()
    money: int = 0

    def to_json(self) -> dict[str, Any]:
        """The transfer's JSON form (empty parts left out)."""
        out: dict[str, Any] = {"from": self.giver, "to": self.receiver}
        if self.territories:
            out["territories"] = list(self.territories)
        if self.cards:
            out["cards"] = list(self.cards)
        if self.units:
            out["units"] = dict(self.units)
        if self.money:
            out["money"] = self.money
        return out

    @classmethod
    def from_json(cls, data: Any) -> Transfer:
        """A transfer from its JSON form; ``InvalidMove`` if malformed."""
        if not isinstance(data, dict):
            raise malformed("a transfer must be an object")
        unknown = set(data) - {"from", "to", "territories", "cards", "units", "money"}
        if unknown:
            raise malformed(f"a transfer has no field {sorted(unknown)[0]!r}")
        units = data.get("units", {})
        transfer = cls(
            giver=read_seat(data.get("from"), "a transfer's from"),
            receiver=read_seat(data.get("to"), "a transfer's to"),
            territories=read_names(data.get("territories", []), "territories"),
            cards=read_names(data.get("cards", []), "cards"),
            units=read_counts(units, "units") if units != {} else (),
            money=read_int(data.get("money", 0), "money"),
        )
        if transfer.giver == transfer.receiver:
            raise malformed("a transfer goes from one seat to another")
        if not (transfer.territories or transfer.cards or transfer.units or transfer.money):
            raise malformed("a transfer must give something")
        return transfer


@dataclass(frozen=True, slots=True)
class Propose:
    """Propose a deal to the seats ``to``; ``transfers`` say who gives whom what."""

    to: tuple[int, ...]
    transfers: tuple[Transfer, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class Settle:
    """Propose how the prize fund is divided: ``shares`` is sorted ``(seat, kopecks)``."""

    shares: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Accept:
    """Accept a proposal (deal or settlement) addressed to oneself."""

    proposal: int


@dataclass(frozen=True, slots=True)
class Decline:
    """Decline a proposal addressed to oneself."""

    proposal: int


@dataclass(frozen=True, slots=True)
class Withdraw:
    """Withdraw one's own open proposal."""

    proposal: int


@dataclass(frozen=True, slots=True)
class GrantPassage:
    """Consent that seat ``to`` may move units through one's territories."""

    to: int


@dataclass(frozen=True, slots=True)
class RevokePassage:
    """Withdraw the consent given to seat ``to``."""

    to: int


@dataclass(frozen=True, slots=True)
class Done:
    """Declare oneself done for this exchange session."""


@dataclass(frozen=True, slots=True)
class Attack:
    """Classic: attack ``target`` from ``source`` with ``dice`` dice (one roll)."""

    source: str
    target: str
    dice: int


@dataclass(frozen=True, slots=True)
class Occupy:
    """Classic: move ``units`` units into the territory just conquered."""

    units: int


@dataclass(frozen=True, slots=True)
class EndAttacks:
    """Classic: end the attack phase and go on to the fortify move."""


@dataclass(frozen=True, slots=True)
class Fortify:
    """Classic: the turn's one fortify move of ``units`` units (ends the turn)."""

    source: str
    target: str
    units: int


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
