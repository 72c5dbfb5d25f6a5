"""Risk moves as small values with their JSON form and compact notation (docs/risk.md,
"Moves"). Every phase of the Constitution and of the classic ruleset (``attack``, ``occupy``,
``end-attacks``, ``fortify``; shared/rules/risk.md, "Classic variant") has its moves here; the
phase modules decide whether a move is legal now.

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

import json
from dataclasses import dataclass, field
from typing import Any

from domain.protocol import InvalidMove

COLOURS = ("black", "blue", "green", "pink", "red", "yellow")
"""The six army colours a player may choose (shared/rules/risk.md, "Setup")."""


def _malformed(detail: str) -> InvalidMove:
    return InvalidMove("malformed-move", f"Not a Risk move: {detail}.")


def _int(value: Any, what: str, minimum: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise _malformed(f"{what} must be an integer of at least {minimum}")
    return value


def _name(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _malformed(f"{what} must be a non-empty string")
    return value


def _counts(value: Any, what: str) -> tuple[tuple[str, int], ...]:
    """A ``{territory: n}`` object as sorted pairs, every ``n`` at least 1."""
    if not isinstance(value, dict) or not value:
        raise _malformed(f"{what} must be a non-empty object of territory: units")
    return tuple(
        sorted((_name(k, "a territory"), _int(v, f"units on {k}", 1)) for k, v in value.items())
    )


def _names(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise _malformed(f"{what} must be a list")
    names = tuple(_name(v, what) for v in value)
    if len(set(names)) != len(names):
        raise _malformed(f"{what} names an item twice")
    return names


def _seat(value: Any, what: str) -> int:
    return _int(value, what)


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
    """Move ``units`` units from ``source`` to ``target`` (adjacent, or through a corridor)."""

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
            raise _malformed("a transfer must be an object")
        unknown = set(data) - {"from", "to", "territories", "cards", "units", "money"}
        if unknown:
            raise _malformed(f"a transfer has no field {sorted(unknown)[0]!r}")
        units = data.get("units", {})
        transfer = cls(
            giver=_seat(data.get("from"), "a transfer's from"),
            receiver=_seat(data.get("to"), "a transfer's to"),
            territories=_names(data.get("territories", []), "territories"),
            cards=_names(data.get("cards", []), "cards"),
            units=_counts(units, "units") if units != {} else (),
            money=_int(data.get("money", 0), "money"),
        )
        if transfer.giver == transfer.receiver:
            raise _malformed("a transfer goes from one seat to another")
        if not (transfer.territories or transfer.cards or transfer.units or transfer.money):
            raise _malformed("a transfer must give something")
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

_BARE: dict[str, RiskMove] = {
    "roll": Roll(),
    "fight": Fight(),
    "stop": Stop(),
    "end-invasions": EndInvasions(),
    "end-turn": EndTurn(),
    "done": Done(),
    "end-attacks": EndAttacks(),
}
_PROPOSAL: dict[str, type[Accept | Decline | Withdraw]] = {
    "accept": Accept,
    "decline": Decline,
    "withdraw": Withdraw,
}
_PASSAGE: dict[str, type[GrantPassage | RevokePassage]] = {
    "grant-passage": GrantPassage,
    "revoke-passage": RevokePassage,
}


def _fields(data: dict[str, Any], *names: str) -> None:
    unknown = set(data) - {"type", *names}
    if unknown:
        raise _malformed(f"a {data['type']} move has no field {sorted(unknown)[0]!r}")


def parse_move(data: Any) -> RiskMove:
    """A move from its JSON form; ``InvalidMove`` when it is not a Risk move."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise _malformed('a move is an object with a "type"')
    kind = data["type"]
    if kind in _BARE:
        _fields(data)
        return _BARE[kind]
    if kind in _PROPOSAL:
        _fields(data, "proposal")
        return _PROPOSAL[kind](_int(data.get("proposal"), "proposal"))
    if kind in _PASSAGE:
        _fields(data, "to")
        return _PASSAGE[kind](_seat(data.get("to"), "to"))
    parser = _PARSERS.get(kind)
    if parser is None:
        raise _malformed(f"no move type {kind!r}")
    return parser(data)


def _colour(data: dict[str, Any]) -> RiskMove:
    _fields(data, "colour")
    return Colour(_name(data.get("colour"), "colour"))


def _place(data: dict[str, Any]) -> RiskMove:
    _fields(data, "units")
    return Place(_counts(data.get("units"), "units"))


def _invade(data: dict[str, Any]) -> RiskMove:
    _fields(data, "from", "to")
    return Invade(_name(data.get("from"), "from"), _name(data.get("to"), "to"))


def _trade(data: dict[str, Any]) -> RiskMove:
    _fields(data, "cards")
    cards = _names(data.get("cards"), "cards")
    if len(cards) != 3:
        raise _malformed("a trade is exactly three cards")
    return Trade((cards[0], cards[1], cards[2]))


def _buy(data: dict[str, Any]) -> RiskMove:
    _fields(data, "units")
    return Buy(_int(data.get("units"), "units", 1))


def _move(data: dict[str, Any]) -> RiskMove:
    _fields(data, "from", "to", "units")
    return Move(
        _name(data.get("from"), "from"),
        _name(data.get("to"), "to"),
        _int(data.get("units"), "units", 1),
    )


def _propose(data: dict[str, Any]) -> RiskMove:
    _fields(data, "to", "transfers")
    to = data.get("to")
    if not isinstance(to, list) or not to:
        raise _malformed("to must be a non-empty list of seats")
    seats = tuple(sorted({_seat(s, "to") for s in to}))
    transfers = data.get("transfers")
    if not isinstance(transfers, list) or not transfers:
        raise _malformed("transfers must be a non-empty list")
    return Propose(seats, tuple(Transfer.from_json(t) for t in transfers))


def _settle(data: dict[str, Any]) -> RiskMove:
    _fields(data, "shares")
    shares = data.get("shares")
    if not isinstance(shares, dict) or not shares:
        raise _malformed("shares must be an object of seat: kopecks")
    pairs: list[tuple[int, int]] = []
    for key, amount in shares.items():
        if not isinstance(key, str) or not key.isdigit():
            raise _malformed("a share's key is a seat number")
        pairs.append((int(key), _int(amount, f"the share of seat {key}")))
    return Settle(tuple(sorted(pairs)))


def _attack(data: dict[str, Any]) -> RiskMove:
    _fields(data, "from", "to", "dice")
    return Attack(
        _name(data.get("from"), "from"),
        _name(data.get("to"), "to"),
        _int(data.get("dice"), "dice", 1),
    )


def _occupy(data: dict[str, Any]) -> RiskMove:
    _fields(data, "units")
    return Occupy(_int(data.get("units"), "units", 1))


def _fortify(data: dict[str, Any]) -> RiskMove:
    _fields(data, "from", "to", "units")
    return Fortify(
        _name(data.get("from"), "from"),
        _name(data.get("to"), "to"),
        _int(data.get("units"), "units", 1),
    )


_PARSERS = {
    "colour": _colour,
    "place": _place,
    "invade": _invade,
    "trade": _trade,
    "buy": _buy,
    "move": _move,
    "propose": _propose,
    "settle": _settle,
    "attack": _attack,
    "occupy": _occupy,
    "fortify": _fortify,
}


def move_to_json(move: RiskMove) -> dict[str, Any]:
    """The JSON form of ``move`` (:func:`parse_move` reads it back)."""
    match move:
        case Colour(colour):
            return {"type": "colour", "colour": colour}
        case Place(units):
            return {"type": "place", "units": dict(units)}
        case Invade(source, target):
            return {"type": "invade", "from": source, "to": target}
        case Trade(cards):
            return {"type": "trade", "cards": list(cards)}
        case Buy(units):
            return {"type": "buy", "units": units}
        case Move(source, target, units):
            return {"type": "move", "from": source, "to": target, "units": units}
        case Propose(to, transfers):
            return {
                "type": "propose",
                "to": list(to),
                "transfers": [t.to_json() for t in transfers],
            }
        case Settle(shares):
            return {"type": "settle", "shares": {str(s): k for s, k in shares}}
        case Accept(p) | Decline(p) | Withdraw(p):
            return {"type": _kind(move), "proposal": p}
        case GrantPassage(to) | RevokePassage(to):
            return {"type": _kind(move), "to": to}
        case Attack(source, target, dice):
            return {"type": "attack", "from": source, "to": target, "dice": dice}
        case Occupy(units):
            return {"type": "occupy", "units": units}
        case Fortify(source, target, units):
            return {"type": "fortify", "from": source, "to": target, "units": units}
    return {"type": _kind(move)}


def _kind(move: RiskMove) -> str:
    for kind, bare in _BARE.items():
        if bare == move:
            return kind
    for table in (_PROPOSAL, _PASSAGE):
        for kind, cls in table.items():
            if cls is type(move):
                return kind
    raise TypeError(f"not a Risk move: {move!r}")


def _t(name: str) -> str:
    return name.replace(" ", "_")


def _untangle(text: str) -> str:
    return text.replace("_", " ")


def notation(move: RiskMove) -> str:
    """The compact notation of ``move`` (see the module docstring)."""
    match move:
        case Colour(colour):
            return f"colour {colour}"
        case Place(units):
            return "place " + ",".join(f"{_t(t)}={n}" for t, n in units)
        case Invade(source, target):
            return f"invade {_t(source)}>{_t(target)}"
        case Trade(cards):
            return "trade " + ",".join(_t(c) for c in cards)
        case Buy(units):
            return f"buy {units}"
        case Move(source, target, units):
            return f"move {_t(source)}>{_t(target)}={units}"
        case Propose():
            body = move_to_json(move)
            del body["type"]
            return "propose " + json.dumps(body, separators=(",", ":"), sort_keys=True)
        case Settle(shares):
            return "settle " + ",".join(f"{s}={k}" for s, k in shares)
        case Accept(p) | Decline(p) | Withdraw(p):
            return f"{_kind(move)} {p}"
        case GrantPassage(to) | RevokePassage(to):
            return f"{_kind(move)} {to}"
        case Attack(source, target, dice):
            return f"attack {_t(source)}>{_t(target)}={dice}"
        case Occupy(units):
            return f"occupy {units}"
        case Fortify(source, target, units):
            return f"fortify {_t(source)}>{_t(target)}={units}"
    return _kind(move)


def _pairs(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        if not sep:
            raise _malformed(f"{item!r} is not name=number")
        out[_untangle(key)] = value
    return out


def _number(text: str) -> int:
    if not text.isdigit():
        raise _malformed(f"{text!r} is not a number")
    return int(text)


def _route(kind: str, rest: str) -> tuple[str, str, int]:
    """``from>to=n`` of a move, an attack or a fortify move, ``n`` at least 1."""
    route, sep, amount = rest.rpartition("=")
    source, arrow, target = route.partition(">")
    if not sep or not arrow:
        raise _malformed(f"{kind} is written from>to={'dice' if kind == 'attack' else 'units'}")
    what = "dice" if kind == "attack" else "units"
    return _untangle(source), _untangle(target), _int(_number(amount), what, 1)


def parse_notation(text: str) -> RiskMove:
    """A move from its compact notation; ``InvalidMove`` if malformed."""
    kind, _, rest = text.strip().partition(" ")
    rest = rest.strip()
    if kind in _BARE and not rest:
        return _BARE[kind]
    if not rest:
        raise _malformed(f"{text!r} is not a move in notation")
    if kind in _PROPOSAL:
        return _PROPOSAL[kind](_number(rest))
    if kind in _PASSAGE:
        return _PASSAGE[kind](_number(rest))
    if kind == "colour":
        return Colour(rest)
    if kind == "place":
        return Place(_counts({k: _number(v) for k, v in _pairs(rest).items()}, "units"))
    if kind == "invade":
        source, sep, target = rest.partition(">")
        if not sep:
            raise _malformed("invade is written from>to")
        return Invade(_untangle(source), _untangle(target))
    if kind == "trade":
        return _trade({"type": "trade", "cards": [_untangle(c) for c in rest.split(",")]})
    if kind == "buy":
        return Buy(_int(_number(rest), "units", 1))
    if kind in ("move", "attack", "fortify"):
        source, target, amount = _route(kind, rest)
        if kind == "attack":
            return Attack(source, target, amount)
        return Move(source, target, amount) if kind == "move" else Fortify(source, target, amount)
    if kind == "occupy":
        return Occupy(_int(_number(rest), "units", 1))
    if kind == "settle":
        return _settle(
            {"type": "settle", "shares": {k: _number(v) for k, v in _pairs(rest).items()}}
        )
    if kind == "propose":
        try:
            body = json.loads(rest)
        except ValueError:
            raise _malformed("propose is followed by the deal's JSON") from None
        if not isinstance(body, dict):
            raise _malformed("propose is followed by the deal's JSON object")
        return _propose({"type": "propose", **body})
    raise _malformed(f"no move type {kind!r}")
