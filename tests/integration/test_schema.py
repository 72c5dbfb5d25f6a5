"""The schema as one explicit step (issue 12, part 3; docs/operations.md, "Schema"):
``upgrade`` creates every part once and then finds nothing to do; a store whose schema is
behind is refused unless upgraded; an earlier SQLite store keeps its read models' positions; a
read model whose rows' rules changed (the games list's shape, the clocks' due rows) is made
anew and filled again."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from psycopg import sql

from infrastructure import schema
from infrastructure.config import ConfigurationError, Settings
from infrastructure.container import Services, build_services
from infrastructure.storage import Storage
from tests.application.test_clocks import move, timed

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


def _as_clocks_version_1_left_it(services: Services, game_id: str) -> None:
    """The clocks read model as version 1 left a game whose undo request waits: no row (its
    position kept), and the version recorded 1."""
    storage, settings = services.storage, services.settings
    if storage.postgres is not None:
        name = settings.postgres.schema
        with storage.postgres.get_connection() as conn, conn.transaction():
            conn.execute(
                sql.SQL("DELETE FROM {} WHERE game_id = %s").format(sql.Identifier(name, "clocks")),
                (game_id,),
            )
            conn.execute(
                sql.SQL("UPDATE {} SET version = 1 WHERE component = 'clocks'").format(
                    sql.Identifier(name, schema.VERSION_TABLE)
                )
            )
        return
    with storage.sqlite_connection("clocks") as conn:
        conn.execute("DELETE FROM clocks WHERE game_id = ?", (game_id,))
        conn.execute(f"UPDATE {schema.VERSION_TABLE} SET version = 1 WHERE component = 'clocks'")


@SQL_STORES
def test_an_earlier_clocks_read_model_is_made_anew_and_filled_again(settings: Settings) -> None:
    """Version 2 of the clocks read model keeps a row for a game whose undo request waits (its
    flag, which ends the request, is due as any other: docs/api.md, "Clocks"); a store built
    by version 1, which left such a game out, is made anew by the upgrade and the follower
    fills it again from the log, the waiting game's row with it."""
    services = build_services(settings)
    try:
        app = services.app
        waiting = timed(app, undo="consent")
        mover = move(waiting)
        app.request_undo(waiting.game_id, waiting.tokens[mover])
        services.catch_up()
        assert [due.game_id for due in services.clocks.all_rows()] == [waiting.game_id]
        _as_clocks_version_1_left_it(services, str(waiting.game_id))
        services.catch_up()
        assert services.clocks.all_rows() == []  # the position is kept: nothing brings it back
    finally:
        services.close()
    services = build_services(settings)  # the upgrade, as a server runs it when it starts
    try:
        assert schema.versions(services.storage)["clocks"] == 2
        services.catch_up()
        rows = services.clocks.all_rows()
        assert [(due.game_id, due.seat) for due in rows] == [(waiting.game_id, 1 - mover)]
    finally:
        services.close()
