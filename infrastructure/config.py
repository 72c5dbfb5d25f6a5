"""Configuration from the environment (docs/operations.md lists every variable).

``GAMELEDGER_STORE`` chooses where events and read models live:

* ``sqlite`` (default) — files, no server needed: events in ``GAMELEDGER_SQLITE_PATH``
  (default ``gameledger.db`` in the data directory) and read models beside it
  (``…-<projection>.db``);
* ``postgres`` — a PostgreSQL server through psycopg 3 (``GAMELEDGER_POSTGRES_*``);
* ``memory`` — nothing kept after the process ends (tests, ``simulate --memory``).

Only ``GAMELEDGER_*`` variables are read, here and nowhere else; the storage is built from
these settings by :mod:`infrastructure.storage`. The PostgreSQL connection settings are
:mod:`infrastructure.postgres_settings`, the rate limits :mod:`infrastructure.rate_limit_settings`,
the streams' :mod:`infrastructure.stream_settings`; all are re-exported or read from here.

The data directory is one place whatever the current folder: ``GAMELEDGER_DATA_DIR``, else
the user's data directory as the platform names it (``~/.local/share/gameledger`` on Linux,
through ``platformdirs``). A relative ``GAMELEDGER_SQLITE_PATH`` is read inside it."""

from __future__ import annotations

import os
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

from application.shards import MAX_SHARDS
from infrastructure.environment import ConfigurationError
from infrastructure.postgres_settings import PostgresSettings, shard_database
from infrastructure.rate_limit_settings import RateLimits

__all__ = [
    "SQLITE_FILE",
    "STORES",
    "ConfigurationError",
    "PostgresSettings",
    "RateLimits",
    "Settings",
    "default_data_dir",
]

STORES = ("sqlite", "postgres", "memory")
SQLITE_FILE = "gameledger.db"


def default_data_dir() -> Path:
    """Where the embedded store lives unless ``GAMELEDGER_DATA_DIR`` says otherwise."""
    return Path(platformdirs.user_data_dir("gameledger", appauthor=False))


@dataclass(frozen=True)
class Settings:
    """Everything the service is configured with."""

    store: str = "sqlite"
    sqlite_path: Path = field(default_factory=lambda: default_data_dir() / SQLITE_FILE)
    postgres: PostgresSettings = field(default_factory=PostgresSettings)
    follow_interval: float = 0.05
    follow_gather: float = 0.02
    """Seconds a busy follower lets new events gather before its next batch
    (docs/operations.md, "Read models"); 0: every batch at once."""
    embedded_projections: bool = True
    cors_origins: str = "*"
    game_cache_mb: float = 64.0
    """The games a process keeps in memory, in estimated megabytes (docs/operations.md,
    "Memory")."""
    memory_name: str = field(default_factory=lambda: uuid.uuid4().hex)
    max_body_bytes: int = 256 * 1024
    max_json_depth: int = 32
    shards: int = 1
    """Parts of the event store (docs/operations.md, "Shards")."""
    shard_postgres: tuple[tuple[int, PostgresSettings], ...] = ()
    """The parts whose events live in another PostgreSQL database than ``postgres``'s."""
    lobby_expiry_seconds: int = 7 * 24 * 3600
    """A game still waiting for players this long after its creation expires (0: never;
    docs/operations.md, "Lobby expiry")."""
    idempotency_ttl: float = 24 * 3600.0
    """Seconds an ``Idempotency-Key``'s answer is kept, from its first use (docs/api.md,
    "Idempotency"); expired keys are purged."""
    idempotency_lease: float = 300.0
    """Seconds a request holding a key may run before a retry with it may run the request
    again (a process that died mid-request leaves no answer). Far longer than any command
    runs (each of its few tries waits at most the pool and lock timeouts), so a live request
    never loses its key to a retry; a request that outlives it is logged."""
    rate_limits: RateLimits = field(default_factory=RateLimits)
    """The rate limits (docs/operations.md, "Rate limits")."""
    trusted_proxies: int = 0
    """How many reverse proxies in front of the service append to ``X-Forwarded-For``: 0 (the
    default) ignores the header, so that no client can choose its own address."""
    checkpoint_interval: float = 60.0
    """Seconds between the scheduled checkpoints of running games (0: checkpoints only when a
    game ends; docs/audit.md, "Signed checkpoints")."""
    clock_interval: float = 1.0
    """Seconds between the clock scheduler's looks for games whose time is up (0: off, flags
    only by a player's claim; docs/api.md, "Clocks"; docs/operations.md, "Clocks")."""
    auto_upgrade: bool = True
    """Servers and runners bring the store's schema up to date when they start (under the
    schema lock, docs/operations.md, "Schema"); ``False``: they refuse a store whose schema is
    behind, and ``gameledger db upgrade`` is the one step that changes it."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Read the ``GAMELEDGER_*`` variables (defaults as documented)."""
        env = os.environ if environ is None else environ

        def get(key: str, default: str) -> str:
            return env.get(f"GAMELEDGER_{key}", default).strip() or default

        store = get("STORE", "sqlite").lower()
        if store not in STORES:
            raise ConfigurationError(f"GAMELEDGER_STORE must be one of {', '.join(STORES)}.")
        projections = get("PROJECTIONS", "embedded").lower()
        if projections not in ("embedded", "external"):
            raise ConfigurationError("GAMELEDGER_PROJECTIONS must be embedded or external.")
        auto_upgrade = get("AUTO_UPGRADE", "yes").lower()
        if auto_upgrade not in ("yes", "no"):
            raise ConfigurationError("GAMELEDGER_AUTO_UPGRADE must be yes or no.")
        try:
            postgres = PostgresSettings.from_env(env)
            follow_interval = float(get("FOLLOW_INTERVAL", "0.05"))
            follow_gather = float(get("FOLLOW_GATHER", "0.02"))
            game_cache_mb = float(get("GAME_CACHE_MB", "64"))
            max_body_bytes = int(get("MAX_BODY_BYTES", str(256 * 1024)))
            max_json_depth = int(get("MAX_JSON_DEPTH", "32"))
            lobby_expiry_seconds = int(get("LOBBY_EXPIRY_SECONDS", str(7 * 24 * 3600)))
            checkpoint_interval = float(get("CHECKPOINT_INTERVAL", "60"))
            clock_interval = float(get("CLOCK_INTERVAL", "1"))
        except ValueError as error:
            raise ConfigurationError(
                f"A numeric GAMELEDGER_ setting is not a number: {error}"
            ) from None
        if max_body_bytes < 1024 or not 2 <= max_json_depth <= 500:
            raise ConfigurationError(
                "GAMELEDGER_MAX_BODY_BYTES must be at least 1024 and "
                "GAMELEDGER_MAX_JSON_DEPTH from 2 to 500."
            )
        if not 0 <= follow_gather <= 1:
            raise ConfigurationError("GAMELEDGER_FOLLOW_GATHER must be from 0 to 1 (seconds).")
        if not 0.001 <= follow_interval <= 60:  # 0 would make the SQLite watcher's looks spin
            raise ConfigurationError(
                "GAMELEDGER_FOLLOW_INTERVAL must be from 0.001 to 60 (seconds)."
            )
        if lobby_expiry_seconds < 0:
            raise ConfigurationError("GAMELEDGER_LOBBY_EXPIRY_SECONDS must not be negative.")
        _check_interval("CHECKPOINT_INTERVAL", checkpoint_interval)
        _check_interval("CLOCK_INTERVAL", clock_interval)
        if game_cache_mb < 0:
            raise ConfigurationError("GAMELEDGER_GAME_CACHE_MB must not be negative.")
        if postgres.pool_size < 1 or postgres.max_overflow < 0:
            raise ConfigurationError(
                "GAMELEDGER_POSTGRES_POOL_SIZE must be at least 1 and "
                "GAMELEDGER_POSTGRES_MAX_OVERFLOW at least 0."
            )
        shards, shard_postgres = _shards(env, get("SHARDS", "1"), postgres)
        try:
            idempotency_ttl = float(get("IDEMPOTENCY_TTL", str(24 * 3600)))
            idempotency_lease = float(get("IDEMPOTENCY_LEASE", "300"))
            trusted_proxies = int(get("TRUSTED_PROXIES", "0"))
        except ValueError:
            raise ConfigurationError(
                "GAMELEDGER_IDEMPOTENCY_TTL, GAMELEDGER_IDEMPOTENCY_LEASE and "
                "GAMELEDGER_TRUSTED_PROXIES must be numbers."
            ) from None
        if idempotency_ttl <= 0 or idempotency_lease <= 0 or trusted_proxies < 0:
            raise ConfigurationError(
                "GAMELEDGER_IDEMPOTENCY_TTL and GAMELEDGER_IDEMPOTENCY_LEASE must be positive, "
                "GAMELEDGER_TRUSTED_PROXIES at least 0."
            )
        data_dir = Path(get("DATA_DIR", str(default_data_dir()))).expanduser()
        return cls(
            store=store,
            sqlite_path=data_dir / Path(get("SQLITE_PATH", SQLITE_FILE)).expanduser(),
            postgres=postgres,
            follow_interval=follow_interval,
            follow_gather=follow_gather,
            embedded_projections=projections == "embedded",
            cors_origins=get("CORS_ORIGINS", "*"),
            game_cache_mb=game_cache_mb,
            max_body_bytes=max_body_bytes,
            max_json_depth=max_json_depth,
            lobby_expiry_seconds=lobby_expiry_seconds,
            checkpoint_interval=checkpoint_interval,
            clock_interval=clock_interval,
            auto_upgrade=auto_upgrade == "yes",
            idempotency_ttl=idempotency_ttl,
            idempotency_lease=idempotency_lease,
            rate_limits=RateLimits.from_env(env),
            trusted_proxies=trusted_proxies,
            shards=shards,
            shard_postgres=shard_postgres,
        )

    def shard_database(self, shard: int) -> PostgresSettings:
        """The PostgreSQL database of part ``shard`` of the event store."""
        return dict(self.shard_postgres).get(shard, self.postgres)

    def sqlite_file(self, part: str = "") -> Path:
        """The SQLite file of the event store (``part`` empty) or of one read model: each
        beside the store, ``<stem>-<part>.db``."""
        if not part:
            return self.sqlite_path
        return self.sqlite_path.with_name(f"{self.sqlite_path.stem}-{part}.db")


def _check_interval(name: str, seconds: float) -> None:
    """A schedule's interval is 0 (off) or a finite number of seconds."""
    if not 0 <= seconds < float("inf"):
        raise ConfigurationError(f"GAMELEDGER_{name} must be 0 or more seconds.")


def _shards(
    env: Mapping[str, str], value: str, postgres: PostgresSettings
) -> tuple[int, tuple[tuple[int, PostgresSettings], ...]]:
    """``GAMELEDGER_SHARDS`` and the shards whose database is not the main one."""
    try:
        shards = int(value)
    except ValueError:
        raise ConfigurationError("GAMELEDGER_SHARDS must be a number.") from None
    if not 1 <= shards <= MAX_SHARDS:
        raise ConfigurationError(f"GAMELEDGER_SHARDS must be from 1 to {MAX_SHARDS}.")
    return shards, tuple(
        (shard, found)
        for shard in range(1, shards)
        if (found := shard_database(env, shard, postgres)) != postgres
    )
