"""The compact notation of Risk moves (docs/risk.md, "Moves"): one line per move, its
kind then its fields, a territory's spaces written as ``_`` (``Western_United_States``). The
readers here are what the moves' ``from_notation`` share; the forms are listed in
:mod:`domain.risk.moves`.
"""

from __future__ import annotations

import re
from typing import Any

from domain.jsonvalue import JsonRefused, strict_loads
from domain.risk.move_json import malformed, read_int

_DIGITS = re.compile(r"[0-9]{1,18}")
"""A number in notation: ASCII digits only (``str.isdigit`` also takes "²", which ``int``
refuses)."""
DEAL_DEPTH = 8
"""How deeply a proposed deal's JSON may nest (a deal nests three levels)."""


def written(name: str) -> str:
    """A territory's name as notation writes it (spaces as ``_``)."""
    return name.replace(" ", "_")


def read(text: str) -> str:
    """A territory's name from notation (``_`` as spaces)."""
    return text.replace("_", " ")


def split(text: str, kind: str) -> str:
    """What follows the move's ``kind`` in ``text``, stripped; ``InvalidMove`` when ``text``
    is another kind of move or has nothing after its kind."""
    head, _, rest = text.strip().partition(" ")
    if head != kind:
        raise malformed(f"{text[:40]!r} is not a {kind} move")
    rest = rest.strip()
    if not rest:
        raise malformed(f"{text!r} is not a move in notation")
    return rest


def pairs(text: str) -> dict[str, str]:
    """``name=value,name=value`` as a dict, names read as territories."""
    out: dict[str, str] = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        if not sep:
            raise malformed(f"{item!r} is not name=number")
        out[read(key)] = value
    return out


def number(text: str) -> int:
    """A number: ASCII digits, at most 18."""
    if not _DIGITS.fullmatch(text):
        raise malformed(f"{text[:40]!r} is not a number (ASCII digits, at most 18)")
    return int(text)


def route(kind: str, rest: str) -> tuple[str, str, int]:
    """``from>to=n`` of a move, an attack or a fortify move, ``n`` at least 1."""
    path, sep, amount = rest.rpartition("=")
    source, arrow, target = path.partition(">")
    what = "dice" if kind == "attack" else "units"
    if not sep or not arrow:
        raise malformed(f"{kind} is written from>to={what}")
    return read(source), read(target), read_int(number(amount), what, 1)


def deal(rest: str) -> dict[str, Any]:
    """The deal's JSON object after ``propose``, read strictly (no duplicate keys, no
    constants JSON does not have, bounded depth: :func:`domain.jsonvalue.strict_loads`)."""
    try:
        body = strict_loads(rest, max_depth=DEAL_DEPTH)
    except JsonRefused as refused:
        raise malformed(f"propose is followed by the deal's JSON ({refused.message})") from None
    if not isinstance(body, dict):
        raise malformed("propose is followed by the deal's JSON object")
    return body
