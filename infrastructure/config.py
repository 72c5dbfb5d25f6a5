"""Configuration from the environment (docs/operations.md lists every variable).

``GAMELEDGER_STORE`` chooses where events and read models live:

* ``sqlite`` (default) — files, no server needed: events in ``GAMELEDGER_SQLITE_PATH``
  (default ``gameledger.db`` in the data directory) and read models beside it
  (``…-<projection>.db``);
* ``postgres`` — a PostgreSQL server through psycopg 3 (``GAMELEDGER_POSTGRES_*``);
* ``memory`` — nothing kept after the process ends (tests, ``simulate --memory``).

The settings are turned into the ``eventsourcing`` library's own environment keys here and
nowhere else.

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

STORES = ("sqlite", "postgres", "memory")
SQLITE_FILE = "gameledger.db"


def default_data_dir() -> Path:
    """Where the embedded store lives unless ``GAMELEDGER_DATA_DIR`` says otherwise."""
    return Path(platformdirs.user_data_dir("gameledger", appauthor=False))


class ConfigurationError(ValueError):
    """A setting the service cannot run with."""


@dataclass(frozen=True)
class PostgresSettings:
    """Where the PostgreSQL server is."""

    dbname: str = "gameledger"
    host: str = "127.0.0.1"
    port: int = 5432
    user: str = "postgres"
    password: str = ""
    schema: str = "public"
    pool_size: int = 5
    max_overflow: int = 10
    lock_timeout: int = 5


@dataclass(frozen=True)
class Settings:
    """Everything the service is configured with."""

    store: str = "sqlite"
    sqlite_path: Path = field(default_factory=lambda: default_data_dir() / SQLITE_FILE)
    postgres: PostgresSettings = field(default_factory=PostgresSettings)
    follow_interval: float = 0.05
    embedded_projections: bool = True
    cors_origins: str = "*"
    aggregate_cache: int = 1000
    memory_name: str = field(default_factory=lambda: uuid.uuid4().hex)
    max_body_bytes: int = 256 * 1024
    max_json_depth: int = 32

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
        try:
            postgres = PostgresSettings(
                dbname=get("POSTGRES_DBNAME", "gameledger"),
                host=get("POSTGRES_HOST", "127.0.0.1"),
                port=int(get("POSTGRES_PORT", "5432")),
                user=get("POSTGRES_USER", "postgres"),
                password=env.get("GAMELEDGER_POSTGRES_PASSWORD", ""),
                schema=get("POSTGRES_SCHEMA", "public"),
                pool_size=int(get("POSTGRES_POOL_SIZE", "5")),
                max_overflow=int(get("POSTGRES_MAX_OVERFLOW", "10")),
                lock_timeout=int(get("POSTGRES_LOCK_TIMEOUT", "5")),
            )
            follow_interval = float(get("FOLLOW_INTERVAL", "0.05"))
            aggregate_cache = int(get("AGGREGATE_CACHE", "1000"))
            max_body_bytes = int(get("MAX_BODY_BYTES", str(256 * 1024)))
            max_json_depth = int(get("MAX_JSON_DEPTH", "32"))
        except ValueError as error:
            raise ConfigurationError(
                f"A numeric GAMELEDGER_ setting is not a number: {error}"
            ) from None
        if max_body_bytes < 1024 or not 2 <= max_json_depth <= 500:
            raise ConfigurationError(
                "GAMELEDGER_MAX_BODY_BYTES must be at least 1024 and "
                "GAMELEDGER_MAX_JSON_DEPTH from 2 to 500."
            )
        data_dir = Path(get("DATA_DIR", str(default_data_dir()))).expanduser()
        return cls(
            store=store,
            sqlite_path=data_dir / Path(get("SQLITE_PATH", SQLITE_FILE)).expanduser(),
            postgres=postgres,
            follow_interval=follow_interval,
            embedded_projections=projections == "embedded",
            cors_origins=get("CORS_ORIGINS", "*"),
            aggregate_cache=aggregate_cache,
            max_body_bytes=max_body_bytes,
            max_json_depth=max_json_depth,
        )

    def event_store_env(self) -> dict[str, str]:
        """The ``eventsourcing`` environment of the write side. Games are kept in an
        aggregate cache that is brought up to date from the store on every read
        (fast-forward), so several processes can share one store."""
        cache = {
            "AGGREGATE_CACHE_MAXSIZE": str(self.aggregate_cache),
            "AGGREGATE_CACHE_FASTFORWARD": "y",
        }
        if self.store == "memory":
            return {"PERSISTENCE_MODULE": "eventsourcing.popo", **cache}
        if self.store == "sqlite":
            self.sqlite_path.parent.mkdir(parents=True, exist_ok=True)
            sqlite = self._sqlite(self.sqlite_path)
            return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", **sqlite, **cache}
        return {"PERSISTENCE_MODULE": "eventsourcing.postgres", **self._postgres(), **cache}

    def read_model_env(self, projection: str) -> dict[str, str]:
        """The ``eventsourcing`` environment of one read model: its own SQLite file (the
        library's SQLite tracking table has a fixed name), or the same PostgreSQL database."""
        if self.store == "memory":
            name = f"file:{projection}-{self.memory_name}?mode=memory&cache=shared"
            return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": name}
        if self.store == "sqlite":
            path = self.sqlite_path.with_name(f"{self.sqlite_path.stem}-{projection}.db")
            return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", **self._sqlite(path)}
        return {"PERSISTENCE_MODULE": "eventsourcing.postgres", **self._postgres()}

    @staticmethod
    def _sqlite(path: Path) -> dict[str, str]:
        return {"SQLITE_DBNAME": str(path), "SQLITE_LOCK_TIMEOUT": "10"}

    def _postgres(self) -> dict[str, str]:
        pg = self.postgres
        return {
            "POSTGRES_DBNAME": pg.dbname,
            "POSTGRES_HOST": pg.host,
            "POSTGRES_PORT": str(pg.port),
            "POSTGRES_USER": pg.user,
            "POSTGRES_PASSWORD": pg.password,
            "POSTGRES_SCHEMA": pg.schema,
            "POSTGRES_POOL_SIZE": str(pg.pool_size),
            "POSTGRES_MAX_OVERFLOW": str(pg.max_overflow),
            "POSTGRES_LOCK_TIMEOUT": str(pg.lock_timeout),
        }
