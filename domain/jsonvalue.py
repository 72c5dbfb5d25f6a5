"""JSON-safe values as the domain stores them (protocol: event data and states hold ``dict``
with ``str`` keys, ``list``, ``str``, ``int``, ``float``, ``bool`` and ``None``), and the one
strict reader of JSON text that the API's bodies and the notations that embed JSON share
(docs/api.md, "Limits")."""

from __future__ import annotations

import json
import math
import re
from typing import Any


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON-safe value (faster than ``copy.deepcopy`` for such data)."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    return value


MAX_INT_DIGITS = 19
"""Integers of up to 19 digits are read (every 64-bit value); longer ones are refused (Python
itself refuses to read more than 4,300 digits, with an error no caller expects)."""

_BRACKETS_AND_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


class JsonRefused(ValueError):
    """Text that is not plain JSON within the limits; ``code`` says which limit."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def strict_loads(text: str, *, max_depth: int) -> Any:
    """The JSON value of ``text``, refused (:class:`JsonRefused`) unless it is plain JSON:
    nested at most ``max_depth`` arrays and objects deep (checked before parsing, which
    recurses once per level), integers of at most :data:`MAX_INT_DIGITS` digits, finite
    numbers (no ``NaN`` or ``Infinity``), and no lone UTF-16 surrogate nor NUL character in
    a string (such a string can be neither stored, PostgreSQL's text refuses NUL, nor
    shown), and no object with the same key twice (I-JSON, RFC 7493: which of the two
    counts is a parser's choice, so a client and the service could read two different
    values). Codes: ``malformed-json``,
    ``too-deeply-nested``, ``number-out-of-range``, ``invalid-text``."""
    _check_depth(text, max_depth)
    try:
        value = json.loads(
            text,
            parse_int=_integer,
            parse_float=_number,
            parse_constant=_constant,
            object_pairs_hook=_unique_keys,
        )
    except json.JSONDecodeError as error:
        raise JsonRefused(
            "malformed-json", f"Not valid JSON: {error.msg} at {error.pos}."
        ) from None
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise JsonRefused(
            "invalid-text", "A string holds a lone UTF-16 surrogate (\\ud800-\\udfff)."
        ) from None
    if "\\u0000" in text and _holds_nul(value):
        raise JsonRefused("invalid-text", "A string holds a NUL character (\\u0000).")
    return value


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object of ``pairs``, refused when a key appears twice."""
    found = dict(pairs)
    if len(found) == len(pairs):
        return found
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            break
        seen.add(key)
    raise JsonRefused("malformed-json", f"The key {key!r} appears twice in one object.")


def _holds_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_holds_nul(k) or _holds_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_holds_nul(v) for v in value)
    return False


def _check_depth(text: str, max_depth: int) -> None:
    depth = 0
    for match in _BRACKETS_AND_STRINGS.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth > max_depth:
                raise JsonRefused(
                    "too-deeply-nested",
                    f"Arrays and objects are nested more than {max_depth} levels deep.",
                )
        elif token in ("]", "}"):
            depth -= 1


def _integer(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise JsonRefused(
            "number-out-of-range", f"An integer has more than {MAX_INT_DIGITS} digits."
        )
    return int(digits)


def _number(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonRefused("number-out-of-range", f"A number is out of range: {text}.")
    return value


def _constant(name: str) -> Any:
    raise JsonRefused("malformed-json", f"{name} is not JSON.")
