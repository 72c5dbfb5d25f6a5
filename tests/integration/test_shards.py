"""The event store in parts (issue 12, part 9; docs/operations.md, "Shards"): games spread
over the parts, each part with its own table, lock and log; every game is found, played and
listed whatever part holds it; the read models follow every part; a game whose id predates the
parts lives in the first; parts may be added to a running store, never taken away; a part may
live in another database."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import psycopg
import pytest
from psycopg import sql

from application.errors import NotFound
from application.shards import shard_of
from infrastructure.config import ConfigurationError, Settings
from infrastructure.container import Services, build_services
from tests.helpers import Table, listed, start_game

SQL_STORES = pytest.mark.parametrize(
    "store", ["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)


def games_in_every_part(app: Any, parts: int, seed: str) -> list[Table]:
    """Games made until every part holds some (each part is drawn at random for a game)."""
    tables: list[Table] = []
    while len({shard_of(t.game_id) for t in tables}) < parts or len(tables) < 2 * parts:
        tables.append(start_game(app, players=2, seed=f"{seed} {len(tables)}"))
        assert len(tables) < 200
    return tables


@pytest.fixture
def sharded(settings: Settings) -> Iterator[Services]:
    services = build_services(replace(settings, shards=3))
    yield services
    services.close()


def events_per_part(services: Services) -> list[int]:
    return [store.recorder.max_notification_id() or 0 for store in services.app.stores]


@SQL_STORES
def test_games_spread_over_the_parts_and_are_all_found(sharded: Services) -> None:
    app = sharded.app
    assert [store.name for store in app.stores] == ["gameledger", "gameledger_s1", "gameledger_s2"]
    tables = games_in_every_part(app, 3, "part")
    for table in tables:
        table.step()
    parts = {shard_of(table.game_id) for table in tables}
    assert parts == {0, 1, 2}
    assert all(count > 0 for count in events_per_part(sharded))
    for table in tables:  # each in its part and no other
        part = shard_of(table.game_id)
        for shard, store in enumerate(app.stores):
            held = list(store.recorder.select_events(table.game_id, limit=1))
            assert bool(held) == (shard == part)
        assert app.view(table.game_id)["moves"] == 1
    sharded.catch_up()
    rows = listed(sharded.games_list)
    assert {row.game_id for row in rows} == {str(t.game_id) for t in tables}
    versions = {str(t.game_id): app.view(t.game_id)["version"] for t in tables}
    assert {row.game_id: row.version for row in rows} == versions
    before = sharded.games_list.all_rows()
    sharded.rebuild()
    assert sharded.games_list.all_rows() == before
    for model in sharded.read_models.values():  # one position per part
        positions = [model.follower.position(store.name) for store in app.stores]
        assert positions == events_per_part(sharded)


@SQL_STORES
def test_a_game_made_before_the_parts_lives_in_the_first(sharded: Services) -> None:
    old_id = uuid.uuid4()  # ids were version 4 before the store had parts
    assert sharded.app.games.store_of(old_id) is sharded.app.stores[0]
    beyond = uuid.UUID(int=(uuid.uuid4().int & ~0xFF) | 7)
    beyond = uuid.UUID(int=(beyond.int & ~(0xF << 76)) | (8 << 76))
    assert shard_of(beyond) == 7
    with pytest.raises(NotFound) as missing:  # part 7 of a store that has three
        sharded.app.view(beyond)
    assert missing.value.code == "game-not-found"


@pytest.mark.parametrize("store", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_parts_may_be_added_never_taken_away(settings: Settings) -> None:
    one = build_services(settings)
    try:
        first = start_game(one.app, players=2, seed="before more parts")
        first.step()
    finally:
        one.close()
    three = build_services(replace(settings, shards=3))
    try:
        assert three.app.view(first.game_id)["moves"] == 1  # still where its id says
        later = games_in_every_part(three.app, 3, "after")
        assert {shard_of(t.game_id) for t in later} == {0, 1, 2}
    finally:
        three.close()
    with pytest.raises(ConfigurationError, match="GAMELEDGER_SHARDS"):
        build_services(replace(settings, shards=2))


@pytest.fixture
def other_database(postgres_database: dict[str, str]) -> Iterator[str]:
    name = f"gameledger_part_{uuid.uuid4().hex[:8]}"
    admin = {**postgres_database, "dbname": "postgres"}
    with psycopg.connect(**admin, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    yield name
    with psycopg.connect(**admin, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.mark.postgres
def test_a_part_in_another_database(postgres_settings: Settings, other_database: str) -> None:
    with psycopg.connect(
        **{**_server(postgres_settings), "dbname": other_database}, autocommit=True
    ) as conn:
        conn.execute(
            sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(postgres_settings.postgres.schema))
        )
    elsewhere = replace(postgres_settings.postgres, dbname=other_database)
    settings = replace(postgres_settings, shards=2, shard_postgres=((1, elsewhere),))
    services = build_services(settings)
    try:
        services.start_following()
        tables = games_in_every_part(services.app, 2, "far")
        assert {shard_of(t.game_id) for t in tables} == {0, 1}
        far = next(t for t in tables if shard_of(t.game_id) == 1)
        far.step()
        with psycopg.connect(**{**_server(postgres_settings), "dbname": other_database}) as conn:
            found = conn.execute(
                sql.SQL("SELECT count(*) FROM {} WHERE originator_id = %s").format(
                    sql.Identifier(postgres_settings.postgres.schema, "gameledger_s1_events")
                ),
                (far.game_id,),
            ).fetchone()
        assert found is not None and found[0] == services.app.view(far.game_id)["version"]
        assert services.wait(timeout=20)
        assert {row.game_id for row in listed(services.games_list)} == {
            str(t.game_id) for t in tables
        }
    finally:
        services.close()


def _server(settings: Settings) -> dict[str, Any]:
    pg = settings.postgres
    return {"host": pg.host, "port": pg.port, "user": pg.user, "password": pg.password}
