"""Pages of a game's event log and of its turn index (docs/api.md, "Endpoints"): both are
read after a version, at most :data:`MAX_PAGE` items at a time."""

from __future__ import annotations

MAX_PAGE = 500


def check_page(after: int, limit: int) -> None:
    """Refuse a page out of range: a programming error, since the API's schemas bound both."""
    if not 1 <= limit <= MAX_PAGE or after < 0:
        raise ValueError(f"limit must be 1..{MAX_PAGE} and after >= 0")
