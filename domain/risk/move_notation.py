"""The compact notation of Risk moves (docs/risk.md, "Moves"): one line per move, a
territory's spaces written as ``_`` (``Western_United_States``); the forms are listed in
:mod:`domain.risk.moves`."""

from __future__ import annotations

import json
import re

from domain.jsonvalue import JsonRefused, strict_loads
from domain.risk.move_json import (
    BARE,
    PASSAGE_MOVES,
    PROPOSAL_MOVES,
    kind_of,
    move_to_json,
    parse_move,
)
from domain.risk.moves import (
    Accept,
    Attack,
    Buy,
    Colour,
    Decline,
    Fortify,
    GrantPassage,
    Invade,
    Move,
    Occupy,
    Place,
    Propose,
    RevokePassage,
    RiskMove,
    Settle,
    Trade,
    Withdraw,
    malformed,
    read_counts,
    read_int,
)

_DIGITS = re.compile(r"[0-9]{1,18}")
"""A number in notation: ASCII digits only (``str.isdigit`` also takes "²", which ``int``
refuses)."""
DEAL_DEPTH = 8
"""How deeply a proposed deal's JSON may nest (a deal nests three levels)."""


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
            return f"{kind_of(move)} {p}"
        case GrantPassage(to) | RevokePassage(to):
            return f"{kind_of(move)} {to}"
        case Attack(source, target, dice):
            return f"attack {_t(source)}>{_t(target)}={dice}"
        case Occupy(units):
            return f"occupy {units}"
        case Fortify(source, target, units):
            return f"fortify {_t(source)}>{_t(target)}={units}"
    return kind_of(move)


def _pairs(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        if not sep:
            raise malformed(f"{item!r} is not name=number")
        out[_untangle(key)] = value
    return out


def _number(text: str) -> int:
    if not _DIGITS.fullmatch(text):
        raise malformed(f"{text[:40]!r} is not a number (ASCII digits, at most 18)")
    return int(text)


def _route(kind: str, rest: str) -> tuple[str, str, int]:
    """``from>to=n`` of a move, an attack or a fortify move, ``n`` at least 1."""
    route, sep, amount = rest.rpartition("=")
    source, arrow, target = route.partition(">")
    if not sep or not arrow:
        raise malformed(f"{kind} is written from>to={'dice' if kind == 'attack' else 'units'}")
    what = "dice" if kind == "attack" else "units"
    return _untangle(source), _untangle(target), read_int(_number(amount), what, 1)


def parse_notation(text: str) -> RiskMove:
    """A move from its compact notation; ``InvalidMove`` if malformed."""
    kind, _, rest = text.strip().partition(" ")
    rest = rest.strip()
    if kind in BARE and not rest:
        return BARE[kind]
    if not rest:
        raise malformed(f"{text!r} is not a move in notation")
    if kind in PROPOSAL_MOVES:
        return PROPOSAL_MOVES[kind](_number(rest))
    if kind in PASSAGE_MOVES:
        return PASSAGE_MOVES[kind](_number(rest))
    if kind == "colour":
        return Colour(rest)
    if kind == "place":
        return Place(read_counts({k: _number(v) for k, v in _pairs(rest).items()}, "units"))
    if kind == "invade":
        source, sep, target = rest.partition(">")
        if not sep:
            raise malformed("invade is written from>to")
        return Invade(_untangle(source), _untangle(target))
    if kind == "trade":
        return parse_move({"type": "trade", "cards": [_untangle(c) for c in rest.split(",")]})
    if kind == "buy":
        return Buy(read_int(_number(rest), "units", 1))
    if kind in ("move", "attack", "fortify"):
        source, target, amount = _route(kind, rest)
        if kind == "attack":
            return Attack(source, target, amount)
        return Move(source, target, amount) if kind == "move" else Fortify(source, target, amount)
    if kind == "occupy":
        return Occupy(read_int(_number(rest), "units", 1))
    if kind == "settle":
        return parse_move(
            {"type": "settle", "shares": {k: _number(v) for k, v in _pairs(rest).items()}}
        )
    if kind == "propose":
        try:
            body = strict_loads(rest, max_depth=DEAL_DEPTH)
        except JsonRefused as refused:
            raise malformed(f"propose is followed by the deal's JSON ({refused.message})") from None
        if not isinstance(body, dict):
            raise malformed("propose is followed by the deal's JSON object")
        return parse_move({"type": "propose", **body})
    raise malformed(f"no move type {kind!r}")
