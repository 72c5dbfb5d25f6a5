"""The PostgreSQL settings (docs/operations.md, "Connections", "Shards" and "PgBouncer"): where
the server is and how one process uses it, read from ``GAMELEDGER_POSTGRES_*``, and the
database of each part of the event store (``GAMELEDGER_SHARD_<n>_POSTGRES_*``). Part of
:class:`infrastructure.config.Settings`, re-exported by :mod:`infrastructure.config`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from infrastructure.environment import ConfigurationError, yes_no


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

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> PostgresSettings:
        """Read ``GAMELEDGER_POSTGRES_*`` (defaults as documented); a number that is not one
        raises ``ValueError``, which :meth:`infrastructure.config.Settings.from_env` reports."""
        defaults = cls()

        def get(key: str, default: str) -> str:
            return env.get(f"GAMELEDGER_{key}", default).strip() or default

        return cls(
            dbname=get("POSTGRES_DBNAME", defaults.dbname),
            host=get("POSTGRES_HOST", defaults.host),
            port=int(get("POSTGRES_PORT", str(defaults.port))),
            user=get("POSTGRES_USER", defaults.user),
            password=env.get("GAMELEDGER_POSTGRES_PASSWORD", ""),
            schema=get("POSTGRES_SCHEMA", defaults.schema),
            pool_size=int(get("POSTGRES_POOL_SIZE", str(defaults.pool_size))),
            max_overflow=int(get("POSTGRES_MAX_OVERFLOW", str(defaults.max_overflow))),
            lock_timeout=int(get("POSTGRES_LOCK_TIMEOUT", str(defaults.lock_timeout))),
            connect_timeout=float(get("POSTGRES_CONNECT_TIMEOUT", str(defaults.connect_timeout))),
            pool_timeout=float(get("POSTGRES_POOL_TIMEOUT", str(defaults.pool_timeout))),
            max_idle=float(get("POSTGRES_MAX_IDLE", str(defaults.max_idle))),
            listen_host=get("POSTGRES_LISTEN_HOST", ""),
            listen_port=int(get("POSTGRES_LISTEN_PORT", "0")),
            application_name=get("POSTGRES_APPLICATION_NAME", defaults.application_name),
            prepared=yes_no(get("POSTGRES_PREPARED", "yes"), "GAMELEDGER_POSTGRES_PREPARED"),
        )


def shard_database(env: Mapping[str, str], shard: int, main: PostgresSettings) -> PostgresSettings:
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
