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
        need = schema.needed(storage)
        assert first.changed == list(need)
        assert schema.versions(storage) == need
        again = schema.upgrade(storage)
        assert again.changed == [] and again.before == need
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


def test_an_earlier_sqlite_store_keeps_its_turn_index_and_remakes_its_games_list(
    tmp_path: Path,
) -> None:
    """The turn index keeps its position (moved from the library's ``tracking`` table); the
    games list, whose shape changed (one JSON document per row), is made anew and filled
    again from the log by its follower."""
    settings = Settings(store="sqlite", sqlite_path=tmp_path / "old.db")
    for part in ("games_list", "turns"):
        with sqlite3.connect(settings.sqlite_file(part)) as old:  # as the earlier version left it
            old.execute(
                "CREATE TABLE tracking (application_name TEXT, notification_id INTEGER, "
                "PRIMARY KEY (application_name)) WITHOUT ROWID"
            )
            old.execute("INSERT INTO tracking VALUES ('__migration__', 1), ('gameledger', 42)")
    with sqlite3.connect(settings.sqlite_file("games_list")) as old:
        old.execute("CREATE TABLE games_list (game_id TEXT PRIMARY KEY, seats TEXT NOT NULL)")
    storage = Storage(settings)
    try:
        schema.upgrade(storage)
        assert storage.read_model("turns").max_tracking_id("gameledger") == 42
        assert storage.read_model("turns").max_tracking_id("__migration__") is None
        games_list = storage.read_model("games_list")
        assert games_list.max_tracking_id("gameledger") is None
        assert games_list.all_rows() == []
    finally:
        storage.close()
