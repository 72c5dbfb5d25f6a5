"""Followers that keep their position in memory (infrastructure/follower.py) against what can
move it under them, on real SQLite and PostgreSQL stores: a rebuild swapped in while a
server's follower runs, a view's position moved behind its back, a batch refused for a reason
other than its position. (Each test failed on the first version of the in-memory positions,
found by a review.)"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from eventsourcing.persistence import Tracking
from psycopg import sql

import infrastructure.follower
import infrastructure.rebuild
from infrastructure.container import _PROJECTIONS, Services, projection_cache_bytes
from infrastructure.follower import LogFollower
from infrastructure.readmodels import tracking
from infrastructure.rebuild import rebuild_read_model
from infrastructure.watcher import LogWatcher
from tests.helpers import eventually, start_game
from tests.integration.test_following import Counting, events_of, tracking_view

both_stores = pytest.mark.parametrize(
    "store", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)


def rebuild_with_a_save_before_the_swap(
    services: Services, name: str, save: Callable[[], object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``infrastructure.rebuild.rebuild_read_model``, with ``save`` run between the rebuild's
    last read of the log and its swap, and the running follower catching up meanwhile (what a
    running server does while ``gameledger rebuild`` finishes)."""
    swap = infrastructure.rebuild._swap

    def late_swap(storage: Any, live: Any, shadow: Any) -> None:
        save()
        services.read_models[name].follower.catch_up()  # the running server: the old tables
        swap(storage, live, shadow)

    monkeypatch.setattr(infrastructure.rebuild, "_swap", late_swap)
    make = _PROJECTIONS[name](services.app, projection_cache_bytes(services.settings))
    rebuild_read_model(services.storage, name, services.app.stores, make)
    monkeypatch.setattr(infrastructure.rebuild, "_swap", swap)


@both_stores
def test_a_rebuild_swapped_in_under_a_running_follower_loses_no_event(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = services.app.stores[0].name
    table = start_game(services.app, players=2, seed="rebuilt under a follower")
    table.step()
    services.catch_up()
    rebuild_with_a_save_before_the_swap(services, "games_list", table.step, monkeypatch)
    model = services.read_models["games_list"]
    model.follower.catch_up()  # the log has not grown since: nothing more comes
    last = len(events_of(services))
    version = max(
        e.originator_version for e in events_of(services) if e.originator_id == table.game_id
    )
    assert model.follower.wait(log, last, timeout=0.2)  # the follower says it is there ...
    [row] = [r for r in services.games_list.all_rows() if r.game_id == str(table.game_id)]
    assert (model.view.max_tracking_id(log), row.version) == (last, version)  # ... and it is


@both_stores
def test_a_view_moved_behind_a_followers_back_is_read_again(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A view whose recorded position is no longer the one its follower keeps (tables swapped
    in by a rebuild that stopped before it caught up, in another process): the follower reads
    it again when its log has nothing new (at most every LOOK_AGAIN seconds) and applies what
    the view lacks."""
    monkeypatch.setattr(infrastructure.follower, "LOOK_AGAIN", 0.0)
    log = services.app.stores[0].name
    table = start_game(services.app, players=2, seed="moved behind its back")
    table.step()
    services.catch_up()
    model = services.read_models["turns"]
    last = len(events_of(services))
    set_position(model.view, log, 3)  # as a rebuilt table at an older position
    model.follower.catch_up()
    assert model.view.max_tracking_id(log) == last
    assert len(services.turns.turns_of(str(table.game_id), include_undone=True)) == 1


def set_position(view: Any, log: str, position: int) -> None:
    """Write a view's recorded position directly (what a swap of rebuilt tables does)."""
    with view.datastore.transaction(commit=True) as c:
        if hasattr(view.datastore, "schema"):
            c.execute(
                sql.SQL("UPDATE {} SET notification_id = %s WHERE application_name = %s").format(
                    sql.Identifier(view.datastore.schema, view.tracking_name)
                ),
                (position, log),
            )
        else:
            c.execute(
                f"UPDATE {view.tracking_name} SET notification_id = ? WHERE application_name = ?",
                (position, log),
            )


@both_stores
def test_a_tournament_created_while_a_rebuild_ends_is_listed_once_games_move(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tournaments read model wants tournaments' events only: a tournament saved while a
    rebuild ends is listed though no later event is one it wants."""
    table = start_game(services.app, players=2, seed="games go on")
    services.catch_up()
    created: list[uuid.UUID] = []

    def create() -> None:
        made = services.tournaments.create(
            "azul", {}, None, {"kind": "swiss", "rounds": 1}, "Made during a rebuild"
        )
        created.append(made.tournament_id)

    rebuild_with_a_save_before_the_swap(services, "tournaments", create, monkeypatch)
    for _ in range(20):  # the games go on: plenty of notifications, none a tournament's
        table.step()
    services.catch_up()
    ids = {s["tournament_id"] for s in services.tournament_reads.recent(50)}
    assert str(created[0]) in ids


class WritesRows(Counting):
    """A projection writing a row per batch beside its position, in one transaction; while
    ``broken``, the row breaks a NOT NULL constraint (a real IntegrityError, as any
    projection bug or bad data would raise)."""

    def __init__(self, view: Any) -> None:
        super().__init__(view)
        self.broken = True
        self.calls = 0
        self.table = f"review_rows_{uuid.uuid4().hex[:8]}"
        with view.datastore.transaction(commit=True) as c:
            c.execute(self._sql("CREATE TABLE {} (n INTEGER NOT NULL)"))

    def _sql(self, text: str) -> Any:
        if hasattr(self.view.datastore, "schema"):
            return sql.SQL(text).format(sql.Identifier(self.view.datastore.schema, self.table))
        return text.format(self.table)

    def process_batch(self, events: list[Any], position: Tracking) -> None:
        self.calls += 1
        with self.view.datastore.transaction(commit=True) as c:
            if hasattr(self.view.datastore, "schema"):
                tracking.record_postgres(
                    c, self.view.datastore.schema, self.view.tracking_name, position
                )
                c.execute(self._sql("INSERT INTO {} VALUES (%s)"), (None if self.broken else 1,))
            else:
                tracking.record_sqlite(c, self.view.tracking_name, position)
                c.execute(self._sql("INSERT INTO {} VALUES (?)"), (None if self.broken else 1,))
        self.batches += 1


@both_stores
def test_a_batch_that_keeps_failing_with_an_integrity_error_is_reported(
    services: Services,
) -> None:
    """docs/operations.md, "Health": a batch that cannot be applied is reported and tried
    again after 1 s, 2 s, ... — not retried at once, forever, unreported."""
    view = tracking_view(services, "broken_rows")
    projection = WritesRows(view)
    follower = LogFollower(services.app.stores, projection, LogWatcher(interval=0.05))
    start_game(services.app, players=2, seed="a constraint broken")
    follower.start()
    try:
        reported = eventually(lambda: follower.failure is not None, timeout=2.0)
        calls = projection.calls
        assert (reported, calls < 10) == (True, True)
    finally:
        projection.broken = False  # mended: the follower's thread can end
        follower.stop()
