"""Configuration from the environment (docs/operations.md lists every variable).

``GAMELEDGER_STORE`` chooses where events and read models live:

* ``sqlite`` (default) — files, no server needed: events in ``GAMELEDGER_SQLITE_PATH``
  (default ``gameledger.db`` in the data directory) and read models beside it
  (``…-<projection>.db``);
* ``postgres`` — a PostgreSQL server through psycopg 3 (``GAMELEDGER_POSTGRES_*``);
* ``memory`` — nothing kept after the process ends (tests, ``simulate --memory``).

Only ``GAMELEDGER_*`` variables are read, here and nowhere else; the storage is built from
these settings by :mod:`infrastructure.storage`.

The data directory is one place whatever the current folder: ``GAMELEDGER_DATA_DIR``, else
the user's data directory as the platform names it (``~/.local/share/gameledger`` on Linux,
through ``platformdirs``). A relative ``GAMELEDGER_SQLITE_PATH`` is read inside it."""

from __future__ import annotations

import os
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import platformdirs
from limits import parse_many

from application.shards import MAX_SHARDS

STORES = ("sqlite", "postgres", "memory")
SQLITE_FILE = "gameledger.db"


def default_data_dir() -> Path:
    """Where the embedded store lives unless ``GAMELEDGER_DATA_DIR`` says otherwise."""
    return Path(platformdirs.user_data_dir("gameledger", appauthor=False))


def _yes_no(value: str, name: str) -> bool:
    """A yes/no setting."""
    if value.lower() not in ("yes", "no"):
        raise ConfigurationError(f"{name} must be yes or no.")
    return value.lower() == "yes"


def _shard_database(env: Mapping[str, str], shard: int, main: PostgresSettings) -> PostgresSettings:
    """Part ``shard``'s database: ``GAMELEDGER_SHARD_<n>_POSTGRES_HOST``, ``_PORT``,
    ``_DBNAME``, ``_USER``, ``_PASSWORD``, ``_LISTEN_HOST`` and ``_LISTEN_PORT``, each
    defaulting to the main database's (the LISTEN address to the part's own server when that
    is another)."""

    def get(key: str, default: str) -> str:
        return env.get(f"GAMELEDGER_SHARD_{shard}_POSTGRES_{key}", default).strip() or default

    host = get("HOST", main.host)
    try:
        port = int(get("PORT", str(main.port)))
        elsewhere = (host, port) != (main.host, main.port)
        listen_port = int(get("LISTEN_PORT", "0" if elsewhere else str(main.listen_port)))
    except ValueError:
        message = f"GAMELEDGER_SHARD_{shard}_POSTGRES_PORT and _LISTEN_PORT must be numbers."
        raise ConfigurationError(message) from None
    return replace(
        main,
        host=host,
        port=port,
        dbname=get("DBNAME", main.dbname),
        user=get("USER", main.user),
        password=env.get(f"GAMELEDGER_SHARD_{shard}_POSTGRES_PASSWORD", main.password),
        listen_host=get("LISTEN_HOST", "" if elsewhere else main.listen_host),
        listen_port=listen_port,
    )


class ConfigurationError(ValueError):
    """A setting the service cannot run with."""


@dataclass(frozen=True)
class PostgresSettings:
    """Where the PostgreSQL server is, and how one process uses it: one pool of connections
    shared by the event store and every read model (docs/operations.md, "Connections")."""

    dbname: str = "gameledger"
    host: str = "127.0.0.1"
    port: int = 5432
    user: str = "postgres"
    password: str = ""
    schema: str = "public"
    pool_size: int = 2
    """Connections the pool keeps open while the process is idle."""
    max_overflow: int = 8
    """Connections the pool may open beyond ``pool_size`` under load (closed again after
    ``max_idle`` seconds unused)."""
    lock_timeout: int = 5
    connect_timeout: float = 5.0
    """Seconds to open one connection to the server before giving up."""
    pool_timeout: float = 10.0
    """Seconds a request waits for a free connection of the pool before failing."""
    max_idle: float = 60.0
    listen_host: str = ""
    """Where the process LISTENs for new events when that is not ``host`` (behind a
    transaction-pooling PgBouncer, LISTEN must reach the server itself)."""
    listen_port: int = 0
    application_name: str = "gameledger"
    """How the process's connections are named in ``pg_stat_activity``."""
    prepared: bool = True
    """Whether statements are prepared on the server (faster); ``False`` for a
    transaction-pooling PgBouncer older than 1.21 (docs/operations.md, "PgBouncer")."""

    def conninfo(self) -> dict[str, Any]:
        """psycopg's connection arguments."""
        return {
            "dbname": self.dbname,
            "host": self.host,
            "port": self.port,
            "user": self.user,
            "password": self.password,
            "connect_timeout": max(1, round(self.connect_timeout)),
            "application_name": self.application_name,
        }

    def server(self) -> tuple[str, int, str, str]:
        """Which database this is (host, port, database, user): parts of the event store on the
        same one share a pool (docs/operations.md, "Shards")."""
        return (self.host, self.port, self.dbname, self.user)

    def listen_conninfo(self) -> dict[str, Any]:
        """The connection arguments of the one LISTEN connection of a process."""
        return {
            **self.conninfo(),
            "host": self.listen_host or self.host,
            "port": self.listen_port or self.port,
        }


@dataclass(frozen=True)
class RateLimits:
    """Rate limits per class of request, each a limit string of Flask-Limiter (``"1200 per
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
            enabled=_yes_no(get("ENABLED", "yes"), "GAMELEDGER_RATE_LIMIT_ENABLED"),
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


@dataclass(frozen=True)
class Settings:
    """Everything the service is configured with."""

    store: str = "sqlite"
    sqlite_path: Path = field(default_factory=lambda: default_data_dir() / SQLITE_FILE)
    postgres: PostgresSettings = field(default_factory=PostgresSettings)
    follow_interval: float = 0.05
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
    idempotency_lease: float = 60.0
    """Seconds a request holding a key may run before a retry with it may run the request
    again (a process that died mid-request leaves no answer)."""
    rate_limits: RateLimits = field(default_factory=RateLimits)
    """The rate limits (docs/operations.md, "Rate limits")."""
    trusted_proxies: int = 0
    """How many reverse proxies in front of the service append to ``X-Forwarded-For``: 0 (the
    default) ignores the header, so that no client can choose its own address."""
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
        defaults = PostgresSettings()
        try:
            postgres = PostgresSettings(
                dbname=get("POSTGRES_DBNAME", defaults.dbname),
                host=get("POSTGRES_HOST", defaults.host),
                port=int(get("POSTGRES_PORT", str(defaults.port))),
                user=get("POSTGRES_USER", defaults.user),
                password=env.get("GAMELEDGER_POSTGRES_PASSWORD", ""),
                schema=get("POSTGRES_SCHEMA", defaults.schema),
                pool_size=int(get("POSTGRES_POOL_SIZE", str(defaults.pool_size))),
                max_overflow=int(get("POSTGRES_MAX_OVERFLOW", str(defaults.max_overflow))),
                lock_timeout=int(get("POSTGRES_LOCK_TIMEOUT", str(defaults.lock_timeout))),
                connect_timeout=float(
                    get("POSTGRES_CONNECT_TIMEOUT", str(defaults.connect_timeout))
                ),
                pool_timeout=float(get("POSTGRES_POOL_TIMEOUT", str(defaults.pool_timeout))),
                max_idle=float(get("POSTGRES_MAX_IDLE", str(defaults.max_idle))),
                listen_host=get("POSTGRES_LISTEN_HOST", ""),
                listen_port=int(get("POSTGRES_LISTEN_PORT", "0")),
                application_name=get("POSTGRES_APPLICATION_NAME", defaults.application_name),
                prepared=_yes_no(get("POSTGRES_PREPARED", "yes"), "GAMELEDGER_POSTGRES_PREPARED"),
            )
            follow_interval = float(get("FOLLOW_INTERVAL", "0.05"))
            game_cache_mb = float(get("GAME_CACHE_MB", "64"))
            max_body_bytes = int(get("MAX_BODY_BYTES", str(256 * 1024)))
            max_json_depth = int(get("MAX_JSON_DEPTH", "32"))
            lobby_expiry_seconds = int(get("LOBBY_EXPIRY_SECONDS", str(7 * 24 * 3600)))
        except ValueError as error:
            raise ConfigurationError(
                f"A numeric GAMELEDGER_ setting is not a number: {error}"
            ) from None
        if max_body_bytes < 1024 or not 2 <= max_json_depth <= 500:
            raise ConfigurationError(
                "GAMELEDGER_MAX_BODY_BYTES must be at least 1024 and "
                "GAMELEDGER_MAX_JSON_DEPTH from 2 to 500."
            )
        if lobby_expiry_seconds < 0:
            raise ConfigurationError("GAMELEDGER_LOBBY_EXPIRY_SECONDS must not be negative.")
        if game_cache_mb < 0:
            raise ConfigurationError("GAMELEDGER_GAME_CACHE_MB must not be negative.")
        if postgres.pool_size < 1 or postgres.max_overflow < 0:
            raise ConfigurationError(
                "GAMELEDGER_POSTGRES_POOL_SIZE must be at least 1 and "
                "GAMELEDGER_POSTGRES_MAX_OVERFLOW at least 0."
            )
        try:
            shards = int(get("SHARDS", "1"))
        except ValueError:
            raise ConfigurationError("GAMELEDGER_SHARDS must be a number.") from None
        if not 1 <= shards <= MAX_SHARDS:
            raise ConfigurationError(f"GAMELEDGER_SHARDS must be from 1 to {MAX_SHARDS}.")
        shard_postgres = tuple(
            (shard, found)
            for shard in range(1, shards)
            if (found := _shard_database(env, shard, postgres)) != postgres
        )
        try:
            idempotency_ttl = float(get("IDEMPOTENCY_TTL", str(24 * 3600)))
            idempotency_lease = float(get("IDEMPOTENCY_LEASE", "60"))
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
            embedded_projections=projections == "embedded",
            cors_origins=get("CORS_ORIGINS", "*"),
            game_cache_mb=game_cache_mb,
            max_body_bytes=max_body_bytes,
            max_json_depth=max_json_depth,
            lobby_expiry_seconds=lobby_expiry_seconds,
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
