"""The rate limits (docs/operations.md, "Rate limits"), read from ``GAMELEDGER_RATE_LIMIT_*``:
one limit string of the ``limits`` library per class of request and where the counts live. Part of
:class:`infrastructure.config.Settings`, re-exported by :mod:`infrastructure.config`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from limits import parse_many

from infrastructure.environment import ConfigurationError, yes_no


@dataclass(frozen=True)
class RateLimits:
    """Rate limits per class of request, each a limit string of the ``limits`` library (``"1200 per
    minute"``, ``"20/second;600/minute"``), counted per seat token when the request carries one,
    else per client address (docs/operations.md, "Rate limits")."""

    enabled: bool = True
    reads: str = "6000 per minute"
    """Every GET under /api/v1 (health and the docs pages are never limited)."""
    writes: str = "1200 per minute"
    """Every POST that is not a create: join, move, undo requests and answers."""
    creates: str = "300 per minute"
    """POST /games and POST /games/{id}/forks: each makes a new game."""
    storage_uri: str = "memory://"
    """Where the counts live: ``memory://`` (one process), ``redis://host:port`` (shared by
    every process and host)."""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> RateLimits:
        """Read ``GAMELEDGER_RATE_LIMIT_*``; a limit string the library cannot read is a
        :class:`ConfigurationError`."""
        defaults = cls()

        def get(key: str, default: str) -> str:
            return env.get(f"GAMELEDGER_RATE_LIMIT_{key}", default).strip() or default

        found = cls(
            enabled=yes_no(get("ENABLED", "yes"), "GAMELEDGER_RATE_LIMIT_ENABLED"),
            reads=get("READS", defaults.reads),
            writes=get("WRITES", defaults.writes),
            creates=get("CREATES", defaults.creates),
            storage_uri=get("STORAGE_URI", defaults.storage_uri),
        )
        for name, value in (("READS", found.reads), ("WRITES", found.writes),
                            ("CREATES", found.creates)):  # fmt: skip
            try:
                if not parse_many(value):
                    raise ValueError(value)
            except ValueError:
                raise ConfigurationError(
                    f"GAMELEDGER_RATE_LIMIT_{name} is not a rate limit such as "
                    f"'1200 per minute': {value!r}"
                ) from None
        return found
