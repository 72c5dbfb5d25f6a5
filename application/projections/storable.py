"""Text as every read model can hold it (docs/architecture.md, "Read side"): the one character
no SQL store here can keep in a text or JSON column — NUL, which PostgreSQL refuses — is
shown as U+FFFD, the replacement character. The API refuses it (and every other invisible
character) in what it stores (docs/api.md, "Plain text"), but the event log may hold events
written before that rule or by other means, and no event may stop a read model."""

from __future__ import annotations

from typing import Any

REPLACEMENT = "\ufffd"


def storable(value: Any) -> Any:
    """``value`` with every NUL in its strings (keys included) replaced by U+FFFD; the same
    object when it holds none."""
    if isinstance(value, str):
        return value.replace("\x00", REPLACEMENT) if "\x00" in value else value
    if isinstance(value, list):
        return [storable(item) for item in value]
    if isinstance(value, dict):
        return {storable(key): storable(item) for key, item in value.items()}
    return value
