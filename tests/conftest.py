"""Shared fixtures: the service on each store — in memory, SQLite (a real file) and
PostgreSQL (a real server, one fresh schema per test). PostgreSQL tests carry the marker
``postgres``; they fail, never skip, when the server cannot be reached (CI starts it)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from infrastructure.config import PostgresSettings, Settings
from infrastructure.container import Services, build_services

STORES = ["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(scope="session", autouse=True)
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Every test, and every process a test starts, keeps its default store in a temporary
    data directory, never in the user's (docs/operations.md, "Where the data lives")."""
    path = tmp_path_factory.mktemp("data")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GAMELEDGER_DATA_DIR", str(path))
        for name in [
            n
            for n in os.environ
            if n.startswith("GAMELEDGER_")
            and n != "GAMELEDGER_DATA_DIR"
            and not n.startswith("GAMELEDGER_TEST_")
        ]:
            patch.delenv(name)
        yield path


def postgres_server() -> dict[str, str]:
    """Where the test PostgreSQL server is (``GAMELEDGER_TEST_POSTGRES_*``)."""
    env = os.environ
    return {
        "host": env.get("GAMELEDGER_TEST_POSTGRES_HOST", "127.0.0.1"),
        "port": env.get("GAMELEDGER_TEST_POSTGRES_PORT", "5432"),
        "user": env.get("GAMELEDGER_TEST_POSTGRES_USER", "postgres"),
        "password": env.get("GAMELEDGER_TEST_POSTGRES_PASSWORD", ""),
        "dbname": env.get("GAMELEDGER_TEST_POSTGRES_DBNAME", "gameledger_test"),
    }


@pytest.fixture(scope="session")
def postgres_database() -> dict[str, str]:
    """The test database, created when missing."""
    server = postgres_server()
    admin = {**server, "dbname": "postgres"}
    try:
        with psycopg.connect(**admin, autocommit=True, connect_timeout=5) as conn:
            found = conn.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", (server["dbname"],)
            ).fetchone()
            if not found:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(server["dbname"])))
    except psycopg.OperationalError as error:
        pytest.fail(f"PostgreSQL is not reachable ({error}); start it (see docs/operations.md)")
    return server


@pytest.fixture
def postgres_settings(postgres_database: dict[str, str]) -> Iterator[Settings]:
    """Settings for a fresh schema of the test database, dropped afterwards."""
    schema = f"test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(**postgres_database, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    yield Settings(
        store="postgres",
        postgres=PostgresSettings(
            dbname=postgres_database["dbname"],
            host=postgres_database["host"],
            port=int(postgres_database["port"]),
            user=postgres_database["user"],
            password=postgres_database["password"],
            schema=schema,
            pool_size=4,
            max_overflow=8,
        ),
        embedded_projections=False,
    )
    with psycopg.connect(**postgres_database, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))


def settings_for(store: str, tmp_path: Path, request: pytest.FixtureRequest) -> Settings:
    """Settings for one store; PostgreSQL's come from its fixture."""
    if store == "postgres":
        settings: Settings = request.getfixturevalue("postgres_settings")
        return settings
    if store == "sqlite":
        return Settings(
            store="sqlite", sqlite_path=tmp_path / "games.db", embedded_projections=False
        )
    return Settings(store="memory", embedded_projections=False)


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest) -> str:
    """Each store in turn."""
    name: str = request.param
    return name


@pytest.fixture
def settings(store: str, tmp_path: Path, request: pytest.FixtureRequest) -> Settings:
    """Settings of the store under test."""
    return settings_for(store, tmp_path, request)


@pytest.fixture
def services(settings: Settings) -> Iterator[Services]:
    """The service on the store under test (read models followed on demand)."""
    built = build_services(settings)
    yield built
    built.close()
