"""A read model that cannot apply the next event says so (docs/operations.md, "Health"):
the follower records which notification failed and why, the health endpoint answers 503
naming it, the log names the position, and the follower goes on trying, with growing pauses,
until the cause is mended (issue 12, part 1). The failure here is real: the games list's
table is dropped under a running follower, on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest
from psycopg.sql import SQL

import infrastructure.follower
from api.app import create_app
from infrastructure.container import Services
from tests.helpers import eventually, listed, start_game

pytestmark = pytest.mark.parametrize(
    "store", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)


def test_a_failing_read_model_is_reported_and_recovers(
    services: Services,
    store: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(infrastructure.follower, "RETRY_FIRST", 0.05)
    monkeypatch.setattr(infrastructure.follower, "RETRY_MOST", 0.2)
    client = create_app(services, follow=True).test_client()
    app = services.app
    app.create_game("azul", 2)
    assert services.wait()
    assert client.get("/api/v1/health").json == {"status": "ok"}

    model = services.read_models["games_list"]
    drop = (
        "DROP TABLE games_list"
        if store == "sqlite"
        else SQL("DROP TABLE {}").format(model.view.table)
    )
    with model.view.datastore.transaction(commit=True) as cursor:
        cursor.execute(drop)
    position = model.follower.position(app.stores[0].name)
    second = app.create_game("azul", 3)

    assert eventually(lambda: model.follower.failure is not None)
    health = client.get("/api/v1/health")
    assert health.status_code == 503
    assert health.json["status"] == "degraded"
    [failure] = health.json["read_models"]
    assert failure["read_model"] == "games_list"
    assert failure["notification_id"] == position + 1
    assert failure["attempts"] >= 1 and failure["error"]
    # the follower records the failure, then logs it (from its own thread): wait for the line
    assert eventually(lambda: f"cannot apply notification {position + 1}" in caplog.text)
    assert eventually(
        lambda: model.follower.failure is not None and model.follower.failure.attempts >= 2
    )
    playing = start_game(app, players=2, seed="while the games list fails")
    playing.step()
    assert eventually(  # the turn index is not held back by the games list
        lambda: len(services.turns.turns_of(str(playing.game_id), include_undone=True)) == 1
    )

    with model.view.datastore.transaction(commit=True) as cursor:
        for statement in model.view.ddl():  # the table made again: the cause is mended
            cursor.execute(statement)
    assert eventually(lambda: model.follower.failure is None)
    assert client.get("/api/v1/health").json == {"status": "ok"}
    assert eventually(
        lambda: any(row.game_id == str(second) for row in listed(services.games_list))
    )
