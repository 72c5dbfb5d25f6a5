"""Strict marshmallow fields (docs/api.md, "Limits"): no silent coercion.

marshmallow's own ``Integer`` reads ``"2"``, ``2.5`` and ``true`` as integers and its
``Boolean`` reads ``"yes"`` and ``1``; a client that sends such a value has made a mistake the
service must name, not guess at. In a JSON body an integer field takes a JSON integer and a
boolean field takes ``true`` or ``false``; in a query string an integer is plain ASCII
digits. Every integer is bounded (:data:`MAX_INTEGER` at most), so no value reaches a store
that cannot hold it."""

from __future__ import annotations

import re
from typing import Any

from marshmallow import fields, validate

MAX_INTEGER = 2**53 - 1
"""The largest integer any field reads: exact in every JSON implementation, and far inside
what SQLite and PostgreSQL store."""

_QUERY_INTEGER = re.compile(r"-?[0-9]+")
_QUERY_DIGITS = 16

PLAIN_TEXT = validate.Regexp(
    r"[^\x00-\x1f\x7f]*\Z", error="Control characters are not allowed here."
)
"""Text in a query: no control character (a NUL would reach the read model's SQL)."""


class StrictInteger(fields.Integer):
    """A JSON integer (not a string, a float or a boolean) from ``minimum`` to ``maximum``."""

    default_error_messages = {"invalid": "Not an integer (send a JSON number without quotes)."}

    def __init__(self, *, minimum: int = 0, maximum: int = MAX_INTEGER, **kwargs: Any) -> None:
        validators = [validate.Range(min=minimum, max=maximum), *kwargs.pop("validate", [])]
        super().__init__(strict=True, validate=validators, **kwargs)

    def _validated(self, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.make_error("invalid")
        return value


class QueryInteger(fields.Integer):
    """An integer in a query string: ASCII digits, from ``minimum`` to ``maximum``."""

    def __init__(self, *, minimum: int = 0, maximum: int = MAX_INTEGER, **kwargs: Any) -> None:
        validators = [validate.Range(min=minimum, max=maximum), *kwargs.pop("validate", [])]
        super().__init__(validate=validators, **kwargs)

    default_error_messages = {
        "invalid": "Not an integer (ASCII digits only).",
        "too_large": "Out of range.",
    }

    def _validated(self, value: Any) -> int:
        if not isinstance(value, str) or not _QUERY_INTEGER.fullmatch(value):
            raise self.make_error("invalid")
        if len(value.lstrip("-")) > _QUERY_DIGITS:
            raise self.make_error("too_large")
        return int(value)


class QueryBoolean(fields.Boolean):
    """``true`` or ``false`` in a query string, nothing else (not ``1``, ``yes``, ``on``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(truthy={"true"}, falsy={"false"}, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if value not in ("true", "false"):
            raise self.make_error("invalid", input=value)
        return bool(value == "true")


class StrictBoolean(fields.Boolean):
    """``true`` or ``false`` in a JSON body, nothing else."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(truthy={True}, falsy={False}, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class StrictNumber(fields.Raw):
    """A JSON number (an integer or not; not a string, a boolean or null), kept as sent: the
    rules that take it say which numbers they accept (a penalty's points, a points table)."""

    default_error_messages = {"invalid": "Not a number (send a JSON number without quotes)."}

    def __init__(self, **kwargs: Any) -> None:
        metadata = {"type": "number", **kwargs.pop("metadata", {})}
        super().__init__(metadata=metadata, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.make_error("invalid")
        return value
