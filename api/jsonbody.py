"""Request bodies decoded strictly (docs/api.md, "Limits"): a body is UTF-8 JSON of at most
``max_body_bytes`` (Flask's ``MAX_CONTENT_LENGTH``: 413 above, chunked bodies included),
nested at most ``max_json_depth`` deep, with bounded integers, finite numbers and no lone
surrogate (:func:`domain.jsonvalue.strict_loads`). Anything else is refused with a 400
problem before any field is read, so no body can crash a request or change anything.

The field-by-field checks (types, ranges, the field named) are the schemas' (api/fields.py,
api/schemas.py); this module only guarantees that what reaches them is plain JSON."""

from __future__ import annotations

from typing import Any

from api.errors import ApiError
from domain.jsonvalue import JsonRefused, strict_loads


def decode(body: bytes, *, max_depth: int) -> Any:
    """The JSON value of ``body``; :class:`ApiError` (400, the limit's code) otherwise."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise ApiError(400, "malformed-json", "The body is not UTF-8 text.") from None
    try:
        return strict_loads(text, max_depth=max_depth)
    except JsonRefused as refused:
        raise ApiError(400, refused.code, f"The body is refused: {refused.message}") from None
