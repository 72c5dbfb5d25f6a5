"""The write path (issue 12, parts 4, 5 and 7; docs/architecture.md, "The flow of a move"):

* a move on the version the client saw costs no read of the store before its save: the game
  is the cached one, changed in place;
* several processes on one store stay right: a process whose cached game is behind refuses a
  move decided on an old version, takes a seat on the store's game, and shows moves made
  elsewhere;
* snapshots hold the state and what is needed to go on, not the line of play: their size does
  not grow with the game;
* an undo reaching back past the snapshots (and past what a cached game keeps of its line of
  play) takes the game where a replay from the first event takes it, at every version."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import OperationalError

from application.errors import Conflict
from application.lobby import resign
from application.service import GameLedger
from application.store import GameStore
from infrastructure.config import Settings
from infrastructure.container import Services, build_services
from tests.helpers import Table, start_game


class CountingReads:
    """Counts the store's reads of a game's events (a wrapper around the real recorder's
    method, which still answers)."""

    def __init__(self, store: GameStore) -> None:
        self.count = 0
        self._select = store.recorder.select_events

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return self._select(*args, **kwargs)

        self.counted = counted


def test_a_move_on_the_cached_version_reads_nothing_before_its_save(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = services.app
    table = start_game(app, players=4)
    for _ in range(3):
        table.step()
    [store] = app.stores
    reads = CountingReads(store)
    monkeypatch.setattr(store.recorder, "select_events", reads.counted)
    version, seats = app.whose_turn(table.game_id)  # what a client saw
    move = app.legal_moves(table.game_id, table.tokens[seats[0]])["moves"][0]["move"]
    reads.count = 0
    played = app.play(table.game_id, table.tokens[seats[0]], move, version)
    assert reads.count == 0
    assert played.version > version
    assert app.view(table.game_id)["version"] == played.version


def two_processes(settings: Settings) -> tuple[Services, Services]:
    """Two services on one store, each with its own cache, as two processes have."""
    return build_services(settings), build_services(settings)


@pytest.mark.parametrize("store", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_two_processes_on_one_store(settings: Settings) -> None:
    first, second = two_processes(settings)
    try:
        table = start_game(first.app, players=2)
        table.step()
        seen = second.app.view(table.game_id)["version"]  # the second caches the game
        table.step()  # made in the first process
        assert second.app.view(table.game_id) == first.app.view(table.game_id)
        assert second.app.view(table.game_id)["version"] > seen
        version, seats = first.app.whose_turn(table.game_id)
        move = first.app.legal_moves(table.game_id, table.tokens[seats[0]])["moves"][0]["move"]
        with pytest.raises(Conflict) as stale:  # decided on a version seen before
            second.app.play(table.game_id, table.tokens[seats[0]], move, seen)
        assert stale.value.code == "stale-version"
        second.app.play(table.game_id, table.tokens[seats[0]], move, version)
        assert first.app.view(table.game_id) == second.app.view(table.game_id)

        waiting = first.app.create_game("azul", 3)
        second.app.view(waiting)  # cached with every seat free
        first.app.join(waiting, "Ann")  # seat 0, elsewhere
        assert second.app.join(waiting, "Bob").seat == 1  # decided on the store's game
        assert [s["name"] for s in first.app.view(waiting)["seats"]] == ["Ann", "Bob", None]
    finally:
        first.close()
        second.close()


def snapshot_sizes(app: GameLedger, game_id: Any) -> dict[int, int]:
    [store] = app.stores
    assert store.snapshots is not None
    return {  # the bytes stored
        stored.originator_version: len(stored.state)
        for stored in store.snapshots.recorder.select_events(game_id)
    }


def long_game(app: GameLedger, events: int) -> Table:
    """An Azul game lengthened past ``events`` events by taking back its last four turns
    again and again, with consent (its state stays the size of an Azul table)."""
    game_id = app.create_game("azul", 2, settings={"undo": "consent"}, seed="long")
    tokens = [app.join(game_id, f"p{n}", n).token for n in range(2)]
    table = Table(app, game_id, tokens)
    for _ in range(4):
        table.step()
    while app.view(game_id)["version"] < events:
        for _ in range(4):
            table.step()
        seat = app.games.at(game_id, whole_line=True).line.turns[-4][1]
        app.request_undo(game_id, tokens[seat], turns=4)
        app.answer_undo(game_id, tokens[1 - seat], True)
    return table


def test_snapshots_do_not_grow_with_the_game(services: Services) -> None:
    table = long_game(services.app, 700)
    sizes = snapshot_sizes(services.app, table.game_id)
    assert len(sizes) >= 13
    first, last = min(sizes), max(sizes)
    assert sizes[last] < 1.5 * sizes[first], sizes  # whole lines would be 10x by now


def test_an_undo_past_every_snapshot_is_a_replay_at_every_version(services: Services) -> None:
    app = services.app
    game_id = app.create_game(
        "azul", 2, settings={"tournament": True}, arbiter_token="arbiter", seed="far"
    )
    tokens = [app.join(game_id, f"p{n}", n).token for n in range(2)]
    table = Table(app, game_id, tokens)
    while app.view(game_id)["version"] < 130:
        table.step()
    app.arbiter_undo(game_id, "arbiter", 3, "back to the start")  # past the snapshots
    for _ in range(30):
        table.step()
    [store] = app.stores
    last = app.view(game_id)["version"]
    for version in range(1, last + 1):
        replayed = store.load(game_id, version, whole_line=True)
        loaded = store.load(game_id, version)
        assert loaded.state == replayed.state, version
        assert loaded.moves == replayed.moves and loaded.chain_head == replayed.chain_head
    cold = GameLedger(app.stores)  # the same store, nothing cached
    assert app.view(game_id) == cold.view(game_id)
    assert app.view(game_id)["moves"] == 3 + 30


def test_on_sqlite_a_read_of_an_unchanged_store_makes_no_query(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's data_version tells a process that nobody has committed since it last looked:
    its views then need no query; a commit by another process is seen at the next read."""
    settings = Settings(
        store="sqlite", sqlite_path=tmp_path / "quiet.db", embedded_projections=False
    )
    first, second = two_processes(settings)
    try:
        table = start_game(first.app, players=2)
        table.step()
        [store] = second.app.stores
        seen = second.app.view(table.game_id)
        reads = CountingReads(store)
        monkeypatch.setattr(store.recorder, "select_events", reads.counted)
        for _ in range(5):
            assert second.app.view(table.game_id) == seen
        assert reads.count == 0
        table.step()  # in the other process
        assert second.app.view(table.game_id)["version"] > seen["version"]
        assert reads.count == 1
    finally:
        first.close()
        second.close()


@pytest.mark.postgres
def test_on_postgres_a_spectators_view_follows_notifications(
    postgres_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A spectator's view of an unchanged game needs no query once the process LISTENs (it may
    trail another process's commit by the notification's moment); a seat's view always asks
    the store, so a player always sees their own move (docs/api.md, "Consistency")."""
    first, second = two_processes(postgres_settings)
    try:
        second.watcher.start()
        assert second.watcher.listening.wait(10)
        table = start_game(first.app, players=2)
        table.step()
        [store] = second.app.stores
        seen = second.app.view(table.game_id)
        reads = CountingReads(store)
        monkeypatch.setattr(store.recorder, "select_events", reads.counted)
        for _ in range(20):
            assert second.app.view(table.game_id) == seen
        # Without notifications every view would ask; a notification on the channel (it is
        # named after the table, shared by the other tests' schemas) costs one more look.
        assert reads.count <= 2
        before = reads.count
        second.app.view(table.game_id, table.tokens[0])
        assert reads.count == before + 1  # a seat's view always asks
        table.step()  # in the other process: NOTIFY reaches the second's watcher
        spectators_catch_up(second, first, table.game_id)
    finally:
        first.close()
        second.close()


def test_on_sqlite_a_spectators_view_follows_the_watchers_looks(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the process's watcher looks for commits itself (a server), a spectator's view of
    an unchanged game asks SQLite nothing at all — not even data_version — and shows another
    process's commit once the watcher has seen it (within a polling interval or two); a seat's
    view still asks data_version, so a player always sees their own move (docs/api.md,
    "Consistency")."""
    settings = Settings(
        store="sqlite", sqlite_path=tmp_path / "watched.db", embedded_projections=False
    )
    first, second = two_processes(settings)
    try:
        second.watcher.start()
        table = start_game(first.app, players=2)
        table.step()
        [store] = second.app.stores
        seen = spectators_catch_up(second, first, table.game_id)  # the watcher's first look
        looks = CountingLooks(store)
        storage = store._storage
        assert storage is not None and storage.change_token is not None
        monkeypatch.setattr(store, "_storage", replace(storage, change_token=looks.counted))
        for _ in range(20):
            assert second.app.view(table.game_id) == seen
        assert looks.count == 0
        second.app.view(table.game_id, table.tokens[0])
        assert looks.count == 1  # a seat's view asks
        table.step()  # in the other process: the watcher sees it at its next look
        spectators_catch_up(second, first, table.game_id)
    finally:
        first.close()
        second.close()


class CountingLooks:
    """A part's exact change token (SQLite's data_version), counting the looks."""

    def __init__(self, store: GameStore) -> None:
        storage = store._storage
        assert storage is not None and storage.change_token is not None
        self.token = storage.change_token
        self.count = 0

    def counted(self) -> object:
        self.count += 1
        return self.token()


def spectators_catch_up(reader: Services, writer: Services, game_id: UUID) -> dict[str, Any]:
    """Wait (2 s at most) until a spectator's view in ``reader`` is the one ``writer``, which
    committed last, shows; that view."""
    latest = writer.app.view(game_id)
    for _ in range(200):
        if reader.app.view(game_id)["version"] >= latest["version"]:
            break
        time.sleep(0.01)
    shown = reader.app.view(game_id)
    assert shown == latest
    return shown


class FailingOnce:
    """The store's own save, failing the first time as a store that cannot be reached or
    stays locked would (then saving as usual)."""

    def __init__(self, store: GameStore) -> None:
        self.save = store.recorder.insert_events
        self.failed = False

    def insert_events(self, *args: Any, **kwargs: Any) -> Any:
        if not self.failed:
            self.failed = True
            raise OperationalError("database is locked")
        return self.save(*args, **kwargs)


@pytest.mark.parametrize("store", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_a_move_whose_save_fails_is_neither_shown_nor_built_on(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save that fails for any reason (not only another save first) drops the game the
    command changed in place: no view shows the unsaved move, and the next move is saved
    right after the last saved one, with no gap in the game's versions."""
    app = services.app
    table = start_game(app, players=2)
    [store] = app.stores
    version, seat, move = table.mover()
    failing = FailingOnce(store)
    monkeypatch.setattr(store.recorder, "insert_events", failing.insert_events)
    with pytest.raises(OperationalError):
        app.play(table.game_id, table.tokens[seat], move, version)
    assert app.view(table.game_id)["version"] == version
    assert app.view(table.game_id, table.tokens[seat])["version"] == version
    table.step()
    versions = [e.originator_version for e in store.recorder.select_events(table.game_id)]
    assert versions == list(range(1, len(versions) + 1)) and len(versions) > version


@pytest.mark.parametrize("store", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_a_command_refused_on_a_cached_game_another_process_passed_is_a_conflict(
    settings: Settings,
) -> None:
    """A client acts on the version a lagging view showed it (a spectator's view may trail
    another process's commit, docs/api.md "Consistency"): a process whose cached game is that
    version must not refuse a token issued since as invalid (a 403 for a seat the client
    holds) — the command was decided on a version that is no longer the store's: 409
    ``stale-version``. Without an expected version it is decided on the store's game."""
    first, second = two_processes(settings)
    try:
        game_id = first.app.create_game("azul", 2, seed="lagging")
        shown = first.app.view(game_id)["version"]  # the first process keeps this version
        tokens = [second.app.join(game_id, f"p{n}", n).token for n in range(2)]
        with pytest.raises(Conflict) as refused:
            resign(first.app, game_id, tokens[0], shown)
        assert refused.value.code == "stale-version"
        resign(first.app, game_id, tokens[0], None)  # decided on the store's game
        assert first.app.view(game_id)["version"] == second.app.view(game_id)["version"]
    finally:
        first.close()
        second.close()
