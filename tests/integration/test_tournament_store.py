"""The tournament aggregate's events are stored and read back by the real event store
(issue 15, part 1; docs/tournaments.md, "The tournament aggregate"): every field JSON-safe
through the store's transcoder, on every store (SQLite and PostgreSQL files and servers, not
only memory), with and without a snapshot, and its chain intact after the round trip."""

from __future__ import annotations

from uuid import UUID

import pytest

from domain.randomness import commitment
from domain.tournament.aggregate import Tournament
from domain.tournament.chain import GENESIS, event_link
from domain.tournament.invariants import check_invariants
from infrastructure.container import Services


def running() -> Tournament:
    seed = "ab" * 32
    t = Tournament.create(
        game="carcassonne",
        options={},
        settings=None,
        format={"kind": "swiss", "table_size": 3, "min_table_size": 2, "late_entry": True},
        name="Åland Cup",
        seed=seed,
        seed_sha256=commitment(seed),
        organiser_sha256="1" * 64,
        table_secret="7a" * 32,
        tournament_id=UUID(int=15),
    )
    for name in ("ann", "bo", "cé", "dai", "eve"):
        t.register(name, name.encode().hex().ljust(64, "0"), entrant_id=name)
    t.open_check_in()
    for name in ("ann", "bo", "cé", "dai"):
        t.check_in(name)
    t.start()
    t.remove("bo", "did not show")
    t.register("fay", "f" * 64, entrant_id="fay")
    first = t.rounds[0]["tables"][0]
    t.record_result(
        first["game"],
        [1, 2, 2][: len(first["seats"])],
        [9, 7, 7][: len(first["seats"])],
        30,
        "c" * 64,
    )
    t.penalise("cé", 0.5, "late to the table")
    return t


@pytest.mark.parametrize("snapshot", [False, True])
def test_a_tournament_round_trips_through_the_store(services: Services, snapshot: bool) -> None:
    store = services.app.stores[0]
    t = running()
    store.save(t)
    if snapshot:
        store.take_snapshot(t.id)
    loaded = store.repository.get(t.id)
    assert isinstance(loaded, Tournament)
    assert {k: v for k, v in vars(loaded).items() if k != "_pending_events"} == {
        k: v for k, v in vars(t).items() if k != "_pending_events"
    }
    assert check_invariants(loaded) == []
    head = GENESIS
    for stored in store.events.get(t.id):
        envelope = (
            type(stored).__name__,
            stored.originator_id,
            stored.originator_version,
            stored.timestamp,
        )
        assert stored.hash == event_link(head, envelope, stored.public_data())
        head = stored.hash
    assert head == loaded.chain_head
