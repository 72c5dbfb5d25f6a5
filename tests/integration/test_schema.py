"""The schema as one explicit step (issue 12, part 3; docs/operations.md, "Schema"):
``upgrade`` creates every part once and then finds nothing to do; a store whose schema is
behind is refused unless upgraded; an earlier SQLite store keeps its read models' positions."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from infrastructure import schema
from infrastructure.config import ConfigurationError, Settings
from infrastructure.container import build_services
from infrastructure.storage import Storage

SQL_STORES = pytest.mark.parametrize(
    "store", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)


@SQL_STORES
def test_upgrade_creates_every_part_once(settings: Settings) -> None:
    storage = Storage(settings)
    try:
        first = schema.upgrade(storage)
        assert first.changed == list(schema.VERSIONS)
        assert schema.versions(storage) == schema.VERSIONS
        again = schema.upgrade(storage)
        assert again.changed == [] and again.before == schema.VERSIONS
    finally:
        storage.close()


@SQL_STORES
def test_a_store_whose_schema_is_missing_is_refused_without_auto_upgrade(
    settings: Settings,
) -> None:
    manual = replace(settings, auto_upgrade=False)
    if settings.store == "sqlite":
        manual.sqlite_path.parent.mkdir(parents=True, exist_ok=True)
        sqlite3.connect(manual.sqlite_path).close()  # an empty file: no tables
    with pytest.raises(ConfigurationError, match="gameledger db upgrade"):
        build_services(manual)
    services = build_services(settings)  # auto-upgrade (the default) creates it
    services.close()
    build_services(manual).close()  # and now it is current


def test_an_earlier_sqlite_store_keeps_its_read_model_positions(tmp_path: Path) -> None:
    settings = Settings(store="sqlite", sqlite_path=tmp_path / "old.db")
    path = settings.sqlite_file("games_list")
    with sqlite3.connect(path) as old:  # as the previous version left it
        old.execute(
            "CREATE TABLE tracking (application_name TEXT, notification_id INTEGER, "
            "PRIMARY KEY (application_name)) WITHOUT ROWID"
        )
        old.execute("INSERT INTO tracking VALUES ('__migration__', 1), ('gameledger', 42)")
    storage = Storage(settings)
    try:
        schema.upgrade(storage)
        assert storage.read_model("games_list").max_tracking_id("gameledger") == 42
        assert storage.read_model("games_list").max_tracking_id("__migration__") is None
    finally:
        storage.close()
