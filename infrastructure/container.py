"""Wiring: the storage, the application, its read models and their followers, built from
settings (docs/architecture.md, "Layers").

Built inside factories (the CLI, the Flask app factory, tests), never at import time."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

import psycopg
from eventsourcing.persistence import PersistenceError, Tracking

from application.checkpointer import CheckpointProjection
from application.projections.clocks import ClocksProjection, ClocksView
from application.projections.following import FollowingProjection
from application.projections.games_list import GamesListProjection, GamesListView, ListPages
from application.projections.tournaments import TournamentReads, TournamentsProjection
from application.projections.turns import TurnsProjection, TurnsView
from application.records import RecordStore
from application.service import GameLedger
from application.shards import store_name
from application.store import EventStorage, GameStore
from application.tournament_results import ResultsManager
from application.tournaments import Tournaments
from infrastructure import schema
from infrastructure.checkpoint_schedule import CheckpointSchedule
from infrastructure.clock_schedule import ClockSchedule
from infrastructure.config import ConfigurationError, Settings
from infrastructure.follower import FollowedProjection, FollowerFailure, LogFollower
from infrastructure.log_reading import LogReading
from infrastructure.rebuild import rebuild_read_model
from infrastructure.signing_keys import KeyService, SigningSettings
from infrastructure.storage import MANAGERS, READ_MODELS, Storage
from infrastructure.watcher import LogWatcher


@dataclass
class ReadModel:
    """One read model: its store, the projection that writes it, the follower that
    drives the projection."""

    view: Any
    projection: Projection
    follower: LogFollower


class Projection(Protocol):
    """What a follower drives and a rebuild makes anew (a read model's projection, or a
    process manager)."""

    name: str

    @property
    def view(self) -> Any:
        """Where its rows (or only its position) are kept."""
        ...

    def process_batch(self, events: list[Any], tracking: Tracking) -> None:
        """Apply consecutive events of one log, ending at ``tracking``."""
        ...

    def forget(self) -> None:
        """Drop what it keeps in memory (after a rebuild)."""
        ...


@dataclass
class TransparencyLog:
    """The transparency log (docs/audit.md, "The transparency log"): its store, the
    checkpointer that follows the event log into it, and the schedule of running games'
    checkpoints. Not a read model: never rebuilt."""

    store: Any
    projection: CheckpointProjection
    follower: LogFollower
    schedule: CheckpointSchedule


@dataclass
class Services:
    """The running parts of one process."""

    settings: Settings
    storage: Storage
    app: GameLedger
    watcher: LogWatcher
    records: RecordStore
    list_pages: ListPages
    keys: KeyService
    """The service signing key (docs/audit.md, "Service signing key")."""
    tlog: TransparencyLog
    read_models: dict[str, ReadModel] = field(default_factory=dict)
    managers: dict[str, ReadModel] = field(default_factory=dict)
    """The process managers (the tournaments' results manager): followers with a position
    of their own, never rebuilt."""
    clock_schedule: ClockSchedule | None = None
    """The clock scheduler (docs/api.md, "Clocks"), run beside the followers."""

    def followers(self) -> list[LogFollower]:
        """Every follower of the event log: the read models', the process managers' and the
        checkpointer's."""
        return [
            *(model.follower for model in self.read_models.values()),
            *(manager.follower for manager in self.managers.values()),
            self.tlog.follower,
        ]

    @property
    def tournaments(self) -> Tournaments:
        """The tournaments' use cases (docs/tournaments.md)."""
        return Tournaments(self.app.games)

    @property
    def tournament_reads(self) -> TournamentReads:
        """The tournaments read model's queries."""
        return TournamentReads(self.read_models["tournaments"].view)

    @property
    def games_list(self) -> GamesListView:
        """The games-list store."""
        view: GamesListView = self.read_models["games_list"].view
        return view

    @property
    def clocks(self) -> ClocksView:
        """The clocks read-model store."""
        view: ClocksView = self.read_models["clocks"].view
        return view

    @property
    def turns(self) -> TurnsView:
        """The turn-index store."""
        view: TurnsView = self.read_models["turns"].view
        return view

    def failures(self) -> list[FollowerFailure]:
        """The read models (and the checkpointer, and the schedules) this process follows that
        cannot apply their next notification (docs/operations.md, "Health")."""
        found = [follower.failure for follower in self.followers()]
        found += [self.tlog.schedule.failure, self.schedule().failure]
        return [f for f in found if f is not None]

    def schedule(self) -> ClockSchedule:
        """The clock scheduler, made on first use (it follows the clocks read model)."""
        if self.clock_schedule is None:
            self.clock_schedule = ClockSchedule(self.app, self.clocks, self.settings.clock_interval)
        return self.clock_schedule

    def start_following(self) -> None:
        """Keep the read models and the transparency log up to date in background threads,
        and run the schedule of running games' checkpoints and the clock scheduler."""
        self.watcher.start()
        for follower in self.followers():
            follower.start()
        self.tlog.schedule.start()
        self.schedule().start()

    def catch_up(self) -> None:
        """Bring every read model and the transparency log up to date now (in this thread)."""
        for follower in self.followers():
            follower.catch_up()

    def wait(self, timeout: float = 5.0) -> bool:
        """Wait until every read model and the checkpointer have applied everything written
        so far."""
        return all(
            follower.wait(store.name, store.recorder.max_notification_id() or 0, timeout)
            for store in self.app.stores
            for follower in self.followers()
        )

    def rebuild(self) -> int:
        """Rebuild every read model from zero, each swapped in atomically
        (:mod:`infrastructure.rebuild`); the events applied (per model)."""
        applied = 0
        for name, model in self.read_models.items():
            applied = rebuild_read_model(
                self.storage,
                name,
                self.app.stores,
                _PROJECTIONS[name](self.app, projection_cache_bytes(self.settings)),
                batch=model.follower.batch,
            )
            model.projection.forget()
        return applied

    def close(self) -> None:
        """Stop the followers and the schedules, and close the stores."""
        self.tlog.schedule.stop()
        if self.clock_schedule is not None:
            self.clock_schedule.stop()
        for follower in self.followers():
            follower.stop()
        self.watcher.stop()
        self.app.close()
        self.storage.close()


def _games_list(app: GameLedger, cache_bytes: int) -> Callable[[Any], FollowingProjection]:
    return lambda view: GamesListProjection(view, app, cache_bytes)


def _turns(app: GameLedger, cache_bytes: int) -> Callable[[Any], FollowingProjection]:
    return lambda view: TurnsProjection(view, app, cache_bytes)


def _clocks(app: GameLedger, cache_bytes: int) -> Callable[[Any], FollowingProjection]:
    return lambda view: ClocksProjection(view, app, cache_bytes)


def _tournaments(app: GameLedger, _: int) -> Callable[[Any], Projection]:
    return lambda view: TournamentsProjection(view, Tournaments(app.games))


def _results(app: GameLedger, cache_bytes: int) -> Callable[[Any], Projection]:
    return lambda view: ResultsManager(view, app, Tournaments(app.games), cache_bytes)


def projection_cache_bytes(settings: Settings) -> int:
    """The games each projection keeps while following them: a quarter of the game cache."""
    return int(settings.game_cache_mb * 1024 * 1024 / 4)


_PROJECTIONS: dict[str, Callable[[GameLedger, int], Callable[[Any], Projection]]] = {
    "games_list": _games_list,
    "turns": _turns,
    "clocks": _clocks,
    "tournaments": _tournaments,
    "tournament_results": _results,
}


def require_store_file(settings: Settings) -> None:
    """Refuse to go on when the configured SQLite store does not exist (commands that only
    read a store never create one in the wrong place)."""
    if settings.store == "sqlite" and not settings.sqlite_path.is_file():
        raise ConfigurationError(
            f"there is no GameLedger store at {settings.sqlite_path} (set GAMELEDGER_DATA_DIR "
            "or GAMELEDGER_SQLITE_PATH to the store the service writes; docs/operations.md)"
        )


def prepare_schema(storage: Storage, *, create: bool) -> None:
    """Bring the schema up to date (``create`` and auto-upgrade on), or refuse a store whose
    schema is missing or behind; a server that cannot be reached is a clear
    :class:`ConfigurationError`, never a hang (docs/operations.md, "Connections")."""
    with unreachable_store(storage.settings):
        if create and storage.settings.auto_upgrade:
            schema.upgrade(storage)
        else:
            schema.require_current(storage)


@contextmanager
def unreachable_store(settings: Settings) -> Iterator[None]:
    """Turn a store that cannot be used (a server down, refusing connections, out of
    connection slots, the pool's wait run out) into a :class:`ConfigurationError` that says
    where and why."""
    try:
        yield
    except (psycopg.Error, PersistenceError) as error:
        raise ConfigurationError(store_failure(settings, error)) from None


def store_failure(settings: Settings, error: Exception) -> str:
    """What went wrong with the store, for an operator: on PostgreSQL, why one connection
    cannot be opened when that is the cause (the pool only says it waited too long)."""
    if settings.store != "postgres":
        return f"the store failed: {type(error).__name__}: {error}"
    pg = settings.postgres
    reason = f"{type(error).__name__}: {error}"
    try:
        with psycopg.connect(**pg.conninfo()):
            pass
    except psycopg.Error as direct:
        reason = str(direct).strip() or reason
    return f"cannot use PostgreSQL at {pg.host}:{pg.port} (database {pg.dbname}): {reason}"


def listens(storage: Storage) -> list[tuple[dict[str, Any], list[str]]]:
    """On PostgreSQL, each database that holds parts of the event store, with the channels
    its parts NOTIFY on, and the channels of the games list and the tournaments read model
    (the lobby stream's; one LISTEN connection per database; docs/operations.md)."""
    if storage.kind != "postgres":
        return []
    found: dict[tuple[str, int, str, str], tuple[dict[str, Any], list[str]]] = {}
    for shard, recorders in enumerate(storage.shards):
        database = storage.settings.shard_database(shard)
        entry = found.setdefault(database.server(), (database.listen_conninfo(), []))
        entry[1].append(recorders.events_table)
    main = storage.settings.postgres
    entry = found.setdefault(main.server(), (main.listen_conninfo(), []))
    # the games list's pages and the lobby stream's tournaments (docs/api.md, "Live updates")
    entry[1].extend(read_model_channels(storage))
    return list(found.values())


def log_versions(storage: Storage) -> Callable[[], object] | None:
    """On SQLite, the ``data_version`` of every part of the event store's file, on
    connections of the watcher's own (:class:`infrastructure.watcher.LogWatcher`)."""
    if storage.kind != "sqlite":
        return None
    parts = [storage.data_version(storage.shard_file(n)) for n in range(len(storage.shards))]
    return lambda: tuple(part() for part in parts)


def read_model_channels(storage: Storage) -> list[str]:
    """The channels among :func:`listens`' that are read models' (not the event log's)."""
    if storage.kind != "postgres":
        return []
    return [storage.read_model(name).channel for name in ("games_list", "tournaments")]


def build_services(settings: Settings | None = None, *, create: bool = True) -> Services:
    """Everything one process needs, configured from ``settings`` (or the environment).

    ``create=False`` is for commands that only read a store (``export``, ``projections``):
    a store that does not exist yet, or whose schema is behind, is a
    :class:`ConfigurationError`, never created or changed."""
    settings = settings or Settings.from_env()
    if not create:
        require_store_file(settings)
    keys = KeyService(SigningSettings.from_env(settings))
    with unreachable_store(settings):
        storage = Storage(settings)
    try:
        prepare_schema(storage, create=create)
    except BaseException:
        storage.close()
        raise
    watcher = LogWatcher(
        interval=settings.follow_interval,
        listens=listens(storage),
        read_models=read_model_channels(storage),
        log_versions=log_versions(storage),
    )
    app = GameLedger(
        [
            GameStore(
                EventStorage(
                    recorders.events,
                    recorders.snapshots,
                    recorders.change_token,
                    recorders.by_topic,
                    notified_token(watcher, recorders.channel),
                ),
                name=store_name(shard),
            )
            for shard, recorders in enumerate(storage.shards)
        ],
        cache_bytes=int(settings.game_cache_mb * 1024 * 1024),
    )
    reading = LogReading()  # one read of the log for all of this process's followers

    def follower(projection: FollowedProjection) -> LogFollower:
        return LogFollower(
            app.stores, projection, watcher, gather=settings.follow_gather, reading=reading
        )

    views = {name: storage.read_model(name) for name in READ_MODELS}
    services = Services(
        settings=settings,
        storage=storage,
        app=app,
        watcher=watcher,
        records=storage.record_store(),
        list_pages=ListPages(views["games_list"], list_changes(storage, watcher, views)),
        keys=keys,
        tlog=transparency_log(storage, app, keys, follower),
    )
    for name, view in views.items():
        projection = _PROJECTIONS[name](app, projection_cache_bytes(settings))(view)
        services.read_models[name] = ReadModel(view, projection, follower(projection))
    for name in MANAGERS:
        view = storage.read_model(name)
        manager = _PROJECTIONS[name](app, projection_cache_bytes(settings))(view)
        services.managers[name] = ReadModel(view, manager, follower(manager))
    return services


def transparency_log(
    storage: Storage,
    app: GameLedger,
    keys: KeyService,
    follower: Callable[[FollowedProjection], LogFollower],
) -> TransparencyLog:
    """The transparency log's store, its checkpointer (a follower of the event log like a read
    model's) and the schedule (``GAMELEDGER_CHECKPOINT_INTERVAL``)."""
    store = storage.tlog_store()
    projection = CheckpointProjection(store, keys, app, projection_cache_bytes(storage.settings))
    return TransparencyLog(
        store,
        projection,
        follower(projection),
        CheckpointSchedule(store, keys, storage.settings.checkpoint_interval),
    )


def notified_token(watcher: LogWatcher, channel: str) -> Callable[[], object] | None:
    """A part's notified change token: on PostgreSQL its channel's, from the watcher; on
    SQLite the watcher's, which looks for commits to every part's file."""
    if not channel:
        return watcher.polled_token
    return lambda: watcher.token(channel)


def list_changes(
    storage: Storage, watcher: LogWatcher, views: dict[str, Any]
) -> Callable[[], object]:
    """The games list's change token (:class:`application.projections.games_list.ListPages`):
    SQLite's ``data_version`` of its file; on PostgreSQL the NOTIFYs of its follower, which
    the process's watcher listens to; none in memory."""
    if storage.kind == "sqlite":
        return storage.data_version("games_list")
    if storage.kind == "postgres":
        channel = views["games_list"].channel
        return lambda: watcher.token(channel)
    return lambda: None
