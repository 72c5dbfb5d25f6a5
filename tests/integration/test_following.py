"""How followers keep their positions (infrastructure/follower.py; docs/operations.md,
"Read models"), on real SQLite and PostgreSQL stores:

* two followers of one view, reading batches of different lengths, apply every event exactly
  once: a position is recorded only over the position its follower started from;
* a projection with nothing to write for a batch (the tournaments read model while only games
  move) costs no transaction: its position moves in memory and is recorded with its next
  batch, at shutdown, or after ``PASS_OVER_MOST`` notifications;
* on PostgreSQL a read model's own notification (the games list's) wakes the lobby's waiters,
  not the event log's followers."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import psycopg
import pytest
from eventsourcing.persistence import Tracking
from psycopg import sql

import infrastructure.follower
import infrastructure.watcher
from infrastructure.config import ConfigurationError, Settings
from infrastructure.container import Services, build_services, listens, read_model_channels
from infrastructure.follower import LogFollower
from infrastructure.readmodels.tracking_only import PostgresTrackingView, SQLiteTrackingView
from infrastructure.watcher import LogWatcher
from tests.helpers import start_game

both_stores = pytest.mark.parametrize(
    "store", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)


class Counting:
    """A projection that notes each event it applied, once its position is recorded."""

    name = "counting"

    def __init__(self, view: Any, *, wanted: bool = True) -> None:
        self.view = view
        self.applied: list[tuple[str, int]] = []
        self.batches = 0
        self.wanted = wanted

    def wants(self, events: list[Any]) -> bool:
        return self.wanted

    def process_batch(self, events: list[Any], tracking: Tracking) -> None:
        self.view.track(tracking)  # IntegrityError when refused: nothing noted
        self.batches += 1
        self.applied.extend((str(e.originator_id), e.originator_version) for e in events)


def tracking_view(services: Services, name: str) -> Any:
    """A tracking table of its own, made in the store under test."""
    storage = services.storage
    if storage.postgres is not None:
        view: Any = PostgresTrackingView(storage.postgres, name=name)
        with storage.postgres.transaction(commit=True) as curs:
            for statement in view.ddl():
                curs.execute(statement)
        return view
    view = SQLiteTrackingView(storage.sqlite(name), name=name)
    with view.datastore.transaction(commit=True) as c:
        for statement in view.ddl():
            c.execute(statement)
    return view


@both_stores
def test_two_followers_with_different_batches_apply_each_event_once(
    services: Services,
) -> None:
    view = tracking_view(services, "counting")
    watcher = LogWatcher(interval=0.0)
    slow = Counting(view)
    fast = Counting(view)
    short = LogFollower(services.app.stores, slow, watcher, batch=3)
    long = LogFollower(services.app.stores, fast, watcher, batch=10)
    long.catch_up()  # reads the empty view's position (0) and keeps it
    table = start_game(services.app, players=2, seed="two followers")
    for _ in range(6):
        table.step()
    short.catch_up()  # records every event, 3 at a time, past the position `long` keeps
    long.catch_up()  # its first batch is refused: it reads the position again, finds it done

    every = [(str(e.originator_id), e.originator_version) for e in events_of(services)]
    assert len(every) > 10
    assert sorted(slow.applied + fast.applied) == sorted(every)  # each once, none twice
    assert fast.applied == []
    table.step()
    long.catch_up()
    later = [(str(e.originator_id), e.originator_version) for e in events_of(services)]
    assert fast.applied == later[len(every) :] != []
    assert long.position(services.app.stores[0].name) == len(later)


def events_of(services: Services) -> list[Any]:
    store = services.app.stores[0]
    found = store.recorder.select_notifications(1, 10_000)
    return [store.mapper.to_domain_event(n) for n in found]


@both_stores
def test_a_batch_nobody_wants_moves_the_position_in_memory_only(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = tracking_view(services, "passing")
    log = services.app.stores[0].name
    projection = Counting(view, wanted=False)
    follower = LogFollower(services.app.stores, projection, LogWatcher(interval=0.0), batch=2)
    table = start_game(services.app, players=2, seed="passed over")
    table.step()
    follower.catch_up()
    last = len(events_of(services))
    assert follower.position(log) == last
    assert view.max_tracking_id(log) is None  # no transaction at all
    assert projection.batches == 0

    follower.record_passed()  # as at shutdown, and at the end of a rebuild
    assert view.max_tracking_id(log) == last
    assert projection.applied == []  # an empty batch: only the position

    monkeypatch.setattr(infrastructure.follower, "PASS_OVER_MOST", 3)
    for _ in range(4):
        table.step()
    follower.catch_up()
    recorded = view.max_tracking_id(log)
    assert recorded is not None and last < recorded  # at most 3 gone by unrecorded
    assert follower.position(log) - recorded < 3
    projection.wanted = True
    table.step()
    follower.catch_up()
    assert view.max_tracking_id(log) == follower.position(log) == len(events_of(services))


@both_stores
def test_games_moving_write_no_tournament_position(services: Services) -> None:
    """The tournaments read model and the results manager want only tournaments' events:
    a game moving costs them no transaction (issue 12, part 5: the followers' commits per
    move)."""
    log = services.app.stores[0].name
    table = start_game(services.app, players=2, seed="no tournament")
    services.catch_up()
    tournaments = services.read_models["tournaments"]
    results = services.managers["tournament_results"]
    before = (
        tournaments.view.max_tracking_id(log),
        results.view.max_tracking_id(log),
    )
    for _ in range(5):
        table.step()
    services.catch_up()
    last = len(events_of(services))
    assert (tournaments.view.max_tracking_id(log), results.view.max_tracking_id(log)) == before
    assert tournaments.follower.position(log) == results.follower.position(log) == last
    assert services.read_models["games_list"].view.max_tracking_id(log) == last

    services.tournaments.create("azul", {}, None, {"kind": "swiss", "rounds": 1}, "At Last")
    services.catch_up()
    assert tournaments.view.max_tracking_id(log) == last + 1
    assert results.view.max_tracking_id(log) == before[1]  # nothing paired yet


@both_stores
def test_events_no_projection_wants_are_not_even_decoded_for_it(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clocks read model, the tournaments read model and the results manager decode no
    event of a game known to have no clock and to be no table (after its first), while the
    games list decodes every one; their read models stay right (a tournament still counts)."""
    [store] = services.app.stores
    decoded: dict[str, int] = {}
    to_domain_event = store.mapper.to_domain_event
    current: list[str] = ["the test"]

    def counted(notification: Any) -> Any:
        decoded[current[0]] = decoded.get(current[0], 0) + 1
        return to_domain_event(notification)

    monkeypatch.setattr(store.mapper, "to_domain_event", counted)
    table = start_game(services.app, players=2, seed="sifted")
    followers = {
        "clocks": services.read_models["clocks"].follower,
        "tournaments": services.read_models["tournaments"].follower,
        "tournament_results": services.managers["tournament_results"].follower,
        "games_list": services.read_models["games_list"].follower,
    }
    for name, follower in followers.items():
        current[:] = [name]
        follower.catch_up()  # each learns the game's marks from its Created
    current[:] = ["the test"]
    before = len(events_of(services))
    decoded.clear()
    for _ in range(6):
        table.step()
    for name, follower in followers.items():
        current[:] = [name]
        follower.catch_up()
    current[:] = ["the test"]
    moved = len(events_of(services))
    assert decoded.get("games_list") == moved - before  # every event of the six moves
    assert "clocks" not in decoded and "tournament_results" not in decoded
    assert "tournaments" not in decoded
    log = store.name
    assert all(f.position(log) == moved for f in followers.values())
    tid = services.tournaments.create("azul", {}, None, {"kind": "swiss", "rounds": 1}, "Sift")
    for name, follower in followers.items():
        current[:] = [name]
        follower.catch_up()
    assert decoded.get("tournaments") == 1  # the tournament's event is decoded for it
    assert services.read_models["tournaments"].view.max_tracking_id(log) == moved + 1
    assert tid


@pytest.mark.postgres
@pytest.mark.parametrize("store", ["postgres"])
def test_a_read_models_notification_does_not_wake_the_logs_followers(
    services: Services,
) -> None:
    """A watcher of a log channel and a read model's channel of this test's own (on the
    service's database): the read model's NOTIFY wakes ``wait``, not ``wait_log``; the log's
    wakes both. The service's own watcher takes the games list's and the tournaments'
    channels as read models'."""
    storage = services.storage
    assert set(read_model_channels(storage)) == {
        storage.read_model("games_list").channel,
        storage.read_model("tournaments").channel,
    }
    assert all(
        channel in channels
        for _, channels in listens(storage)
        for channel in read_model_channels(storage)
    )
    conninfo = services.settings.postgres.conninfo()
    with two_channels(conninfo) as (watcher, log_channel, model_channel):
        generation, log_generation = watcher.generation, watcher.log_generation
        notify(conninfo, model_channel)
        assert watcher.wait(generation, timeout=10) > generation  # the lobby's waiters wake
        assert watcher.log_generation == log_generation  # the followers do not
        generation = watcher.generation
        notify(conninfo, log_channel)
        assert watcher.wait_log(log_generation, timeout=10) > log_generation
        assert watcher.generation > generation  # a log's notification wakes both


@pytest.mark.postgres
@pytest.mark.parametrize("store", ["postgres"])
def test_a_read_models_notification_does_not_end_a_log_wait(services: Services) -> None:
    """``wait_log`` shares its condition with ``wait``: a read model's NOTIFY must not end a
    follower's wait (it would look at the log again for nothing)."""
    conninfo = services.settings.postgres.conninfo()
    with two_channels(conninfo) as (watcher, _, model_channel):
        seen = watcher.log_generation
        ended: list[float] = []

        def waiting() -> None:
            began = time.monotonic()
            watcher.wait_log(seen, timeout=3.0)
            ended.append(time.monotonic() - began)

        thread = threading.Thread(target=waiting)
        thread.start()
        time.sleep(0.2)
        notify(conninfo, model_channel)
        thread.join(10)
        assert ended[0] > 2.5  # waited its time out: nothing happened to the log


@contextmanager
def two_channels(conninfo: dict[str, Any]) -> Iterator[tuple[LogWatcher, str, str]]:
    """A watcher listening to a log channel and a read model's channel of the test's own
    (names no other test uses), listening; stopped afterwards."""
    suffix = uuid.uuid4().hex[:12]
    log_channel, model_channel = f"log_{suffix}", f"model_{suffix}"
    watcher = LogWatcher(
        interval=1.0,
        listens=[(conninfo, [log_channel, model_channel])],
        read_models=[model_channel],
    )
    watcher.start()
    try:
        assert watcher.listening.wait(10)
        yield watcher, log_channel, model_channel
    finally:
        watcher.stop()


def notify(conninfo: dict[str, Any], channel: str) -> None:
    with psycopg.connect(**conninfo, autocommit=True) as conn:
        conn.execute(sql.SQL("NOTIFY {}").format(sql.Identifier(channel)))


@both_stores
def test_a_busy_follower_gathers_the_next_events_into_one_batch(services: Services) -> None:
    """After a batch, a follower waits ``gather`` seconds before it looks again: the moves
    saved meanwhile are applied in one transaction (docs/operations.md, "Read models")."""
    view = tracking_view(services, "gathering")
    projection = Counting(view)
    # Three seconds to gather in: three moves saved on a machine busy with the rest of the
    # suite once took longer than one.
    follower = LogFollower(services.app.stores, projection, services.watcher, gather=3.0)
    table = start_game(services.app, players=2, seed="gathered")
    services.watcher.start()
    follower.start()
    try:
        assert follower.wait(services.app.stores[0].name, len(events_of(services)))
        batches = projection.batches
        for _ in range(3):  # saved within the seconds the follower lets them gather
            table.step()
        assert follower.wait(services.app.stores[0].name, len(events_of(services)), timeout=10)
        assert projection.batches == batches + 1
    finally:
        follower.stop()


def test_the_gathering_is_a_setting() -> None:
    assert Settings.from_env({}).follow_gather == 0.02
    assert Settings.from_env({"GAMELEDGER_FOLLOW_GATHER": "0"}).follow_gather == 0.0
    for wrong in ("-0.1", "2"):
        with pytest.raises(ConfigurationError, match="GAMELEDGER_FOLLOW_GATHER"):
            Settings.from_env({"GAMELEDGER_FOLLOW_GATHER": wrong})
    with pytest.raises(ConfigurationError, match="not a number"):
        Settings.from_env({"GAMELEDGER_FOLLOW_GATHER": "soon"})


def test_the_polling_interval_is_never_zero() -> None:
    """SQLite's watcher looks at the store once per interval: 0 would make it spin."""
    assert Settings.from_env({"GAMELEDGER_FOLLOW_INTERVAL": "0.01"}).follow_interval == 0.01
    for wrong in ("0", "-1", "61"):
        with pytest.raises(ConfigurationError, match="GAMELEDGER_FOLLOW_INTERVAL"):
            Settings.from_env({"GAMELEDGER_FOLLOW_INTERVAL": wrong})


@both_stores
def test_two_threads_catching_up_one_follower_take_turns(services: Services) -> None:
    """The follower's own thread and another (a test's, a command's) catching up at once:
    neither sees the other's refused write as a failure, every event is applied once."""
    view = tracking_view(services, "shared")
    projection = Counting(view)
    follower = LogFollower(services.app.stores, projection, LogWatcher(interval=0.0))
    table = start_game(services.app, players=2, seed="two threads")
    failures: list[BaseException] = []

    def keep_catching_up() -> None:
        try:
            for _ in range(40):
                follower.catch_up()
        except BaseException as error:  # reported below
            failures.append(error)

    threads = [threading.Thread(target=keep_catching_up) for _ in range(2)]
    for thread in threads:
        thread.start()
    for _ in range(8):
        table.step()
    for thread in threads:
        thread.join(30)
    follower.catch_up()
    assert failures == []
    every = [(str(e.originator_id), e.originator_version) for e in events_of(services)]
    assert projection.applied == every


@pytest.mark.parametrize("store", ["sqlite"])
def test_on_sqlite_one_look_per_interval_wakes_the_logs_followers_only_after_a_commit(
    settings: Settings,
) -> None:
    """SQLite cannot notify: the process's watcher asks SQLite whether the event store's file
    has had a commit (``data_version``) and wakes the log's waiters only then, so that idle
    followers do not each read the log every interval; another process's commit (here
    another set of connections to the same file) wakes them within a few intervals."""
    watching = build_services(settings)
    other = build_services(settings)
    try:
        watcher = watching.watcher
        watcher.fallback = 30.0  # a wake-up can only come from a look or a save
        watcher.start()
        seen = watcher.wait_log(watcher.log_generation, timeout=0.5)  # the first look
        assert watcher.wait_log(seen, timeout=0.5) == seen  # nothing committed: nobody woken

        started = time.monotonic()
        woken: list[int] = []
        waiter = threading.Thread(target=lambda: woken.append(watcher.wait_log(seen)))
        waiter.start()
        start_game(other.app, players=2, seed="another process")
        waiter.join(10)
        assert woken and woken[0] > seen
        assert time.monotonic() - started < 5
    finally:
        other.close()
        watching.close()


@pytest.mark.parametrize("store", ["sqlite"])
def test_a_restarted_watcher_vouches_for_no_game_seen_before_it(settings: Settings) -> None:
    """A spectator's view made while the watcher stops, then commits of another process while
    it is stopped: once it starts again, the token it gives no longer vouches for the game
    seen before (each start and stop moves it)."""
    watched = replace(settings, follow_interval=2.0)
    writer, reader = build_services(watched), build_services(watched)
    try:
        table = start_game(writer.app, players=2, seed="restart")
        table.step()
        watcher = reader.watcher
        watcher.start()
        [poller] = watcher._threads
        join = poller.join

        def join_after_a_view(timeout: float | None = None) -> None:
            reader.app.view(table.game_id)  # a spectator's view while the watcher stops
            join(timeout)

        poller.join = join_after_a_view  # type: ignore[method-assign]
        watcher.stop()
        table.step()  # another process's move while the watcher is stopped
        latest = writer.app.view(table.game_id)["version"]
        watcher.start()
        assert reader.app.view(table.game_id)["version"] == latest
    finally:
        reader.close()
        writer.close()


def test_a_watcher_started_again_never_revives_a_thread_that_outlived_its_stop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A look that hangs past the stop's wait leaves its thread running; a start after it
    must not have that thread poll again beside the new one."""
    monkeypatch.setattr(infrastructure.watcher, "STOP_WAIT", 0.05)
    hang, hanging = threading.Event(), threading.Event()
    pollers: set[int] = set()

    def versions() -> object:
        pollers.add(threading.get_ident())
        if not hanging.is_set():
            hanging.set()
            hang.wait(10)  # the first look hangs
        return 1

    watcher = LogWatcher(interval=0.01, log_versions=versions)
    watcher.start()
    assert hanging.wait(5)
    [first] = watcher._threads
    watcher.stop()  # gives up waiting for the hanging look
    assert first.is_alive()
    watcher.start()
    try:
        hang.set()
        first.join(5)
        assert not first.is_alive()  # it ended instead of looking on
        pollers.clear()
        time.sleep(0.2)
        assert len(pollers) == 1  # one thread looks
    finally:
        watcher.stop()


@pytest.mark.postgres
@pytest.mark.parametrize("store", ["postgres"])
def test_a_listen_thread_that_outlived_its_stop_leaves_the_new_ones_token_alone(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by review: a LISTEN connection of an earlier start that came up only after the
    next start marked the channels as its own, then, stopping at once, as down: the token
    was None for good (every spectator's view asked the store) while the new connection
    listened."""
    monkeypatch.setattr(infrastructure.watcher, "STOP_WAIT", 0.05)
    assert settings.postgres is not None
    conninfo = settings.postgres.listen_conninfo()
    real = psycopg.connect
    release, first = threading.Event(), threading.Event()

    def connect(*args: Any, **kwargs: Any) -> Any:
        if not first.is_set():
            first.set()
            release.wait(10)  # the first start's connection hangs
        return real(*args, **kwargs)

    monkeypatch.setattr(infrastructure.watcher.psycopg, "connect", connect)
    channel = f"outlived_{uuid.uuid4().hex[:8]}"
    watcher = LogWatcher(interval=0.05, listens=[(conninfo, [channel])])
    watcher.start()
    assert first.wait(5)
    [old] = watcher._threads
    watcher.stop()
    assert old.is_alive()
    watcher.start()
    try:
        deadline = time.monotonic() + 5
        while watcher.token(channel) is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert watcher.token(channel) is not None
        release.set()
        old.join(5)
        assert not old.is_alive()
        with real(**conninfo, autocommit=True) as conn:
            conn.execute(sql.SQL("NOTIFY {}").format(sql.Identifier(channel)))
        time.sleep(0.5)
        assert watcher.token(channel) is not None
    finally:
        release.set()
        watcher.stop()
