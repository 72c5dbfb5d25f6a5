"""The guard of domain/aggregate_adapter.py (issue 11, part 5): what the adapter relies on in
the ``eventsourcing`` library beyond its public API still holds. If one of these fails after
an upgrade of the library, the adapter (and only the adapter) must change."""

from __future__ import annotations

import copy
import inspect
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate, BaseAggregate, event

from domain import aggregate_adapter
from domain.game import Game

LIBRARY_ATTRIBUTES = {"_id", "_version", "_created_on", "_modified_on", "_pending_events"}
"""The attributes the library keeps on an aggregate instance (9.5.6)."""


class Counter(Aggregate):
    """A tiny aggregate with a created event of its own, as the game has."""

    class Started(Aggregate.Created):
        """Created with a label."""

        label: str

    @event(Started)
    def __init__(self, label: str) -> None:
        self.label = label
        self.count = 0

    @event("Counted")
    def count_one(self) -> None:
        """One more."""
        self.count += 1


def started(label: str = "x") -> Counter:
    """A new counter made through the adapter, with a chosen id and time."""
    return aggregate_adapter.create(
        Counter,
        Counter.Started,
        id=UUID(int=7),
        timestamp=datetime(2026, 1, 1, tzinfo=UTC),
        label=label,
    )


def test_the_protected_create_still_takes_an_event_class_an_id_and_the_fields() -> None:
    parameters = inspect.signature(BaseAggregate._create).parameters
    assert list(parameters)[:2] == ["event_class", "id"]
    counter = started()
    assert counter.id == UUID(int=7) and counter.version == 1 and counter.label == "x"
    (created,) = counter.pending_events
    assert isinstance(created, Counter.Started)
    assert created.timestamp == datetime(2026, 1, 1, tzinfo=UTC) and created.label == "x"


def test_the_library_keeps_these_attributes_and_they_are_immutable_but_the_list() -> None:
    counter = started()
    library = {name for name in vars(counter) if name.startswith("_")}
    assert library == LIBRARY_ATTRIBUTES
    assert aggregate_adapter.PENDING_EVENTS in LIBRARY_ATTRIBUTES
    assert vars(counter)[aggregate_adapter.PENDING_EVENTS] is counter.pending_events
    immutable = (UUID, int, datetime)
    for name in LIBRARY_ATTRIBUTES - {aggregate_adapter.PENDING_EVENTS}:
        assert isinstance(vars(counter)[name], immutable), name


def test_a_clone_has_pending_events_of_its_own() -> None:
    counter = started()
    clone = aggregate_adapter.clone(counter)
    assert clone is not counter and clone == counter
    assert clone.pending_events == counter.pending_events
    assert clone.pending_events is not counter.pending_events
    clone.count_one()
    assert (clone.version, len(clone.pending_events)) == (2, 2)
    assert (counter.version, len(counter.pending_events)) == (1, 1)
    assert len(clone.collect_events()) == 2 and len(counter.pending_events) == 1


def test_a_copied_game_shares_nothing_that_a_command_changes() -> None:
    game = Game.create(
        game="azul",
        players=2,
        options={},
        settings={"undo": "consent", "tournament": False},
        seed="s",
        seed_sha256="",
    )
    game.join(0, "a", "t0")
    clone = copy.deepcopy(game)
    clone.join(1, "b", "t1")
    assert (game.version, len(game.pending_events), game.seats[1]) == (2, 2, None)
    assert clone.version > 2 and clone.seats[1] == {"name": "b", "token_sha256": "t1"}
    assert clone.id == game.id and clone.chain_head != game.chain_head


def test_a_game_snapshot_leaves_out_the_library_attributes_it_puts_back() -> None:
    game = Game.create(
        game="azul",
        players=2,
        options={},
        settings={"undo": "consent", "tournament": False},
        seed="s",
        seed_sha256="",
    )
    snapshot = Game.Snapshot.take(game)
    state: dict[str, Any] = snapshot.state
    assert not {"_id", "_version", "_pending_events"} & set(state)
    restored = snapshot.mutate(None)
    assert isinstance(restored, Game)
    assert (restored.id, restored.version, restored.pending_events) == (game.id, 1, [])
    assert restored.state == game.state and restored.chain_head == game.chain_head
