"""The settings of the live-update streams (docs/operations.md, "Streams"), read from the
``GAMELEDGER_STREAM*`` variables: how often a stream sends a heartbeat and looks at the store
without being woken, how long it stays open, the reconnection delay it suggests, and how many
streams one process keeps open at most."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from infrastructure.config import ConfigurationError

DEFAULT_STREAMS_MAX = 200
"""Open streams per process (docs/operations.md, "Streams"): gunicorn's configuration gives
each worker this many threads for streams beside the ones for other requests."""


@dataclass(frozen=True)
class StreamSettings:
    """How the streams of one process behave."""

    heartbeat: float = 15.0
    """Seconds without a message after which a stream sends a comment line."""
    poll: float = 0.5
    """Seconds at most between two looks at the store when nothing wakes the stream (the
    polling interval on SQLite; on PostgreSQL a NOTIFY wakes it at once)."""
    retry_ms: int = 3000
    """The reconnection delay a stream suggests to its client (the SSE ``retry:`` field)."""
    max_streams: int = DEFAULT_STREAMS_MAX
    """Streams one process keeps open at once; one more is refused with 503."""
    lifetime: float = 3600.0
    """Seconds after which a stream closes (its client reconnects and resumes after the last
    event it received: nothing is lost); 0 keeps streams open for ever."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> StreamSettings:
        """``GAMELEDGER_STREAM_HEARTBEAT``, ``GAMELEDGER_STREAM_POLL``,
        ``GAMELEDGER_STREAM_LIFETIME`` (seconds), ``GAMELEDGER_STREAM_RETRY_MS`` and
        ``GAMELEDGER_STREAMS_MAX`` (defaults as documented)."""
        env = os.environ if environ is None else environ

        def get(key: str, default: object) -> str:
            return env.get(f"GAMELEDGER_{key}", "").strip() or str(default)

        defaults = cls()
        try:
            found = cls(
                heartbeat=float(get("STREAM_HEARTBEAT", defaults.heartbeat)),
                poll=float(get("STREAM_POLL", defaults.poll)),
                retry_ms=int(get("STREAM_RETRY_MS", defaults.retry_ms)),
                max_streams=int(get("STREAMS_MAX", defaults.max_streams)),
                lifetime=float(get("STREAM_LIFETIME", defaults.lifetime)),
            )
        except ValueError as error:
            raise ConfigurationError(
                f"A GAMELEDGER_STREAM* setting is not a number: {error}"
            ) from None
        if not (0 < found.heartbeat <= 3600 and 0 < found.poll <= 60):
            raise ConfigurationError(
                "GAMELEDGER_STREAM_HEARTBEAT must be over 0 and at most 3600 seconds, "
                "GAMELEDGER_STREAM_POLL over 0 and at most 60."
            )
        if found.retry_ms < 0 or found.max_streams < 0 or found.lifetime < 0:
            raise ConfigurationError(
                "GAMELEDGER_STREAM_RETRY_MS, GAMELEDGER_STREAMS_MAX and "
                "GAMELEDGER_STREAM_LIFETIME must not be negative."
            )
        return found
