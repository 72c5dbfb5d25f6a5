"""The games-list read model on every store: kept by following the log, each event applied
exactly once, rebuilt from zero to the same rows (issue 2, part 7)."""

from __future__ import annotations

import orjson
import pytest
from eventsourcing.persistence import IntegrityError, Tracking

from application.projections.games_list import games_page, row_of
from infrastructure.container import Services
from tests.helpers import listed, start_game


def test_rows_follow_the_games(services: Services) -> None:
    app = services.app
    waiting = app.create_game("azul", 3)
    app.join(waiting, "Ann")
    playing = start_game(app, players=2)
    for _ in range(5):
        playing.step()
    finished = start_game(app, players=2, seed="another")
    finished.play_out()
    services.catch_up()

    rows = listed(services.games_list)
    assert len(rows) == 3
    by_id = {row.game_id: row for row in rows}
    assert by_id[str(waiting)].status == "waiting"
    assert [s["joined"] for s in by_id[str(waiting)].seats] == [True, False, False]
    live = by_id[str(playing.game_id)]
    view = app.view(playing.game_id)
    assert live.status == "active"
    assert live.version == view["version"]
    assert live.current_players == view["current_players"]
    done = by_id[str(finished.game_id)]
    assert done.status == "finished" and done.current_players == []
    assert done.scores == app.view(finished.game_id)["outcome"]["scores"]
    assert rows[0].game_id == str(finished.game_id)  # most recent activity first

    only_active = listed(services.games_list, status="active", game="azul")
    assert [row.game_id for row in only_active] == [str(playing.game_id)]
    first_page = games_page(services.games_list, limit=2)
    assert [orjson.loads(d)["id"] for d in first_page.documents] == [r.game_id for r in rows[:2]]
    assert first_page.next_cursor is not None
    second_page = games_page(services.games_list, limit=2, cursor=first_page.next_cursor)
    assert [orjson.loads(d)["id"] for d in second_page.documents] == [rows[2].game_id]
    assert second_page.next_cursor is None
    assert listed(services.games_list, limit=1) == rows  # page by page, the same rows


def test_rebuild_gives_the_same_rows(services: Services) -> None:
    for seed in ("one", "two", "three"):
        table = start_game(services.app, seed=seed)
        for _ in range(20):
            table.step()
    services.catch_up()
    before = services.games_list.all_rows()
    applied = services.rebuild()
    assert applied == services.read_models["games_list"].follower.position(
        services.app.stores[0].name
    )
    assert services.games_list.all_rows() == before


def test_each_event_is_applied_exactly_once(services: Services) -> None:
    table = start_game(services.app)
    table.step()
    services.catch_up()
    position = services.read_models["games_list"].follower.position(services.app.stores[0].name)
    row = services.games_list.all_rows()[0]
    game = services.app.game_at(table.game_id, row.version)
    changed = row_of(game, "2000-01-01T00:00:00+00:00")
    with pytest.raises(IntegrityError):
        services.games_list.upsert_games([changed], Tracking(services.app.stores[0].name, position))
    assert services.games_list.all_rows() == [row]
    assert services.read_models["games_list"].follower.catch_up() == 0


def test_a_background_follower_keeps_up(services: Services) -> None:
    services.start_following()
    table = start_game(services.app)
    for _ in range(10):
        table.step()
    last = services.app.stores[0].recorder.max_notification_id() or 0
    assert services.read_models["games_list"].follower.wait(
        services.app.stores[0].name, last, timeout=10
    )
    [row] = services.games_list.all_rows()
    assert row.version == services.app.view(table.game_id)["version"]
