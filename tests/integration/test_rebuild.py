"""Rebuilding the read models is atomic (issue 12, part 1; docs/operations.md, "Read models"):
the rows are rebuilt beside the live ones and swapped in at once, so a rebuild that fails
leaves the old rows and positions as they were, and a later rebuild succeeds — on every store."""

from __future__ import annotations

from typing import Any

import pytest
from eventsourcing.persistence import Tracking

from application.projections.games_list import GamesListProjection
from application.projections.turns import TurnsProjection
from infrastructure.container import Services
from infrastructure.follower import BatchFailed
from tests.helpers import start_game


class ProjectionBroke(Exception):
    """The failure of a rebuild half way (a projection that cannot go on)."""


def played(services: Services, games: int = 3, moves: int = 15) -> None:
    for n in range(games):
        table = start_game(services.app, seed=f"rebuild {n}")
        for _ in range(moves):
            table.step()
    services.catch_up()


def snapshot_of(services: Services) -> tuple[Any, ...]:
    """Everything a reader sees of both read models, and their positions."""
    turns = tuple(
        tuple(services.turns.turns_of(row.game_id, include_undone=True))
        for row in services.games_list.all_rows()
    )
    positions = tuple(
        model.follower.position(services.app.stores[0].name)
        for model in services.read_models.values()
    )
    return tuple(services.games_list.all_rows()), turns, positions


@pytest.mark.parametrize("broken", [GamesListProjection, TurnsProjection])
def test_a_failed_rebuild_leaves_the_old_rows(
    services: Services, monkeypatch: pytest.MonkeyPatch, broken: type[Any]
) -> None:
    played(services)
    before = snapshot_of(services)
    original = broken.process_batch
    calls = 0

    def fails_on_the_second_batch(self: Any, events: list[Any], tracking: Tracking) -> None:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise ProjectionBroke("half way")
        original(self, events, tracking)

    monkeypatch.setattr(broken, "process_batch", fails_on_the_second_batch)
    for model in services.read_models.values():
        model.follower.batch = 10  # many batches: the failure comes half way
    with pytest.raises(BatchFailed) as failed:
        services.rebuild()
    assert isinstance(failed.value.error, ProjectionBroke)
    assert snapshot_of(services) == before

    monkeypatch.setattr(broken, "process_batch", original)
    services.rebuild()
    assert snapshot_of(services) == before
    more = start_game(services.app, seed="after the rebuild")
    more.step()
    services.catch_up()  # the live followers go on from the rebuilt positions
    assert str(more.game_id) in {row.game_id for row in services.games_list.all_rows()}
