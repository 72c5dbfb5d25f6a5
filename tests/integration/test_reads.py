"""Reads that never scan a whole game (issue 12, part 6): the event log filtered by type goes
through the store's index of topics, page by page; a finished game's record is built once and
served from storage, the same for every viewer."""

from __future__ import annotations

import time
from typing import Any

import orjson
import pytest

from application.records import export_record, record_document
from infrastructure.container import Services
from tests.helpers import start_game

SQL_STORES = pytest.mark.parametrize(
    "store", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)


def every_event(services: Services, game_id: Any) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = services.app.event_log(game_id, after=after, limit=50)
        items += page["items"]
        after = page["next_after"]
    return items


@SQL_STORES
def test_the_event_log_by_type_reads_only_those_events(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = start_game(services.app, players=3)
    table.play_out()
    whole = every_event(services, table.game_id)
    [store] = services.app.stores
    rows = 0  # events read the usual way (a freshness check reads none)
    select = store.recorder.select_events

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal rows
        found = select(*args, **kwargs)
        rows += len(found)
        return found

    monkeypatch.setattr(store.recorder, "select_events", counted)
    for types in ({"TilesTaken"}, {"WallTiled", "FactoriesFilled"}, {"GameEnded"}, {"Created"}):
        expected = [event for event in whole if event["type"] in types]
        found: list[dict[str, Any]] = []
        after: int | None = 0
        while after is not None:
            page = services.app.event_log(
                table.game_id, after=after, limit=7, types=frozenset(types)
            )
            found += page["items"]
            after = page["next_after"]
        assert found == expected, types
    assert rows == 0  # never the game's whole log


def test_a_finished_games_record_is_built_once(services: Services) -> None:
    table = start_game(services.app, players=2)
    table.step()
    running = record_document(services.app, services.records, table.game_id)
    assert services.records.get(table.game_id) is None  # a running game's is never kept
    table.play_out()
    first = record_document(services.app, services.records, table.game_id, table.tokens[0])
    kept = services.records.get(table.game_id)
    assert kept == (first.version, first.body)
    assert orjson.loads(first.body) == export_record(services.app, table.game_id)
    again = record_document(services.app, services.records, table.game_id)  # a spectator
    assert again == first
    assert running.version < first.version


@SQL_STORES
def test_a_page_of_the_games_list_is_kept_until_the_list_changes(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    services.watcher.start()
    assert services.storage.kind == "sqlite" or services.watcher.listening.wait(10)
    first = start_game(services.app, players=2, seed="kept 1")
    services.catch_up()
    pages = services.list_pages
    calls = 0
    list_games = services.games_list.list_games

    def counted(**kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        return list_games(**kwargs)

    monkeypatch.setattr(services.games_list, "list_games", counted)
    page = orjson.loads(pages.page(status=None, game=None, limit=50, cursor=None))
    assert [row["id"] for row in page["items"]] == [str(first.game_id)]

    def read_until(check: Any) -> dict[str, Any]:
        for _ in range(200):  # the follower's NOTIFY reaches the watcher in a moment
            found: dict[str, Any] = orjson.loads(
                pages.page(status=None, game=None, limit=50, cursor=None)
            )
            if check(found):
                return found
            time.sleep(0.01)
        raise AssertionError("the page never changed")

    before = calls
    for _ in range(5):
        assert orjson.loads(pages.page(status=None, game=None, limit=50, cursor=None)) == page
    assert calls == before  # kept: no query while the list is unchanged
    second = start_game(services.app, players=2, seed="kept 2")
    services.catch_up()  # the follower commits: the kept page is out of date
    page = read_until(lambda p: len(p["items"]) == 2)
    assert page["items"][0]["id"] == str(second.game_id)
