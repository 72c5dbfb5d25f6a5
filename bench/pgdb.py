"""A throw-away PostgreSQL database for a benchmark run: made when the run starts, dropped
when it ends (even after an error), on the server the service's own settings point at
(``GAMELEDGER_POSTGRES_HOST``/``PORT``/``USER``/``PASSWORD``; 127.0.0.1:5432 as postgres by
default).

    with temporary_database("bench_http") as dbname:
        ...
"""

from __future__ import annotations

import os
import secrets
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg import sql

from infrastructure.config import PostgresSettings, Settings


def server_settings(dbname: str = "postgres") -> PostgresSettings:
    """The server of ``GAMELEDGER_POSTGRES_*`` (the service's defaults), database ``dbname``."""
    configured = Settings.from_env().postgres
    return PostgresSettings(
        dbname=dbname,
        host=configured.host,
        port=configured.port,
        user=configured.user,
        password=configured.password,
    )


def connect(dbname: str = "postgres") -> psycopg.Connection[tuple[Any, ...]]:
    """An autocommit connection to ``dbname`` on the benchmark's server."""
    pg = server_settings(dbname)
    return psycopg.connect(
        dbname=pg.dbname,
        host=pg.host,
        port=pg.port,
        user=pg.user,
        password=pg.password,
        autocommit=True,
        connect_timeout=10,
    )


def service_env(dbname: str) -> dict[str, str]:
    """The ``GAMELEDGER_*`` variables that point a service process at ``dbname``."""
    pg = server_settings(dbname)
    env = {
        "GAMELEDGER_STORE": "postgres",
        "GAMELEDGER_POSTGRES_DBNAME": dbname,
        "GAMELEDGER_POSTGRES_HOST": pg.host,
        "GAMELEDGER_POSTGRES_PORT": str(pg.port),
        "GAMELEDGER_POSTGRES_USER": pg.user,
    }
    if pg.password:
        env["GAMELEDGER_POSTGRES_PASSWORD"] = pg.password
    return env


def service_settings(dbname: str) -> Settings:
    """Settings of a GameLedger process on ``dbname`` (no read-model followers)."""
    return Settings.from_env(
        {**os.environ, **service_env(dbname), "GAMELEDGER_PROJECTIONS": "external"}
    )


def exit_on_sigterm() -> None:
    """Make SIGTERM (``timeout``, ``kill``) unwind like Ctrl-C, so that the ``finally`` blocks
    run: servers stopped, the temporary database dropped."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))


@contextmanager
def temporary_database(prefix: str = "bench") -> Iterator[str]:
    """Create a database named ``prefix_<random>``, yield its name, drop it afterwards
    (``WITH (FORCE)``: connections a crashed run left open do not keep it)."""
    dbname = f"{prefix}_{secrets.token_hex(4)}"
    with connect() as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(dbname)))
    try:
        yield dbname
    finally:
        with connect() as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(dbname))
            )
