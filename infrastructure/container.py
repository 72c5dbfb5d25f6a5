"""Wiring: the application, its read models and their followers, built from settings.

Built inside factories (the CLI, the Flask app factory, tests), never at import time."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import psycopg
from eventsourcing.persistence import InfrastructureFactory
from eventsourcing.utils import Environment

from application.projections.following import FollowingProjection
from application.projections.games_list import GamesListProjection, GamesListView
from application.projections.turns import TurnsProjection, TurnsView
from application.service import GameLedger
from infrastructure.config import ConfigurationError, Settings
from infrastructure.follower import FollowerFailure, LogFollower
from infrastructure.readmodels.postgres_games_list import PostgresGamesListView
from infrastructure.readmodels.postgres_turns import PostgresTurnsView
from infrastructure.readmodels.sqlite_games_list import SQLiteGamesListView
from infrastructure.readmodels.sqlite_turns import SQLiteTurnsView


@dataclass
class ReadModel:
    """One read model: its store, the projection that writes it, the follower that
    drives the projection."""

    view: Any
    projection: FollowingProjection
    follower: LogFollower


@dataclass
class Services:
    """The running parts of one process."""

    settings: Settings
    app: GameLedger
    read_models: dict[str, ReadModel] = field(default_factory=dict)

    @property
    def games_list(self) -> GamesListView:
        """The games-list store."""
        view: GamesListView = self.read_models["games_list"].view
        return view

    @property
    def turns(self) -> TurnsView:
        """The turn-index store."""
        view: TurnsView = self.read_models["turns"].view
        return view

    def failures(self) -> list[FollowerFailure]:
        """The read models this process follows that cannot apply their next notification."""
        return [
            model.follower.failure
            for model in self.read_models.values()
            if model.follower.failure is not None
        ]

    def start_following(self) -> None:
        """Keep the read models up to date in background threads."""
        for model in self.read_models.values():
            model.follower.start()

    def catch_up(self) -> None:
        """Bring every read model up to date now (in this thread)."""
        for model in self.read_models.values():
            model.follower.catch_up()

    def wait(self, timeout: float = 5.0) -> bool:
        """Wait until every read model has applied everything written so far."""
        last = self.app.recorder.max_notification_id() or 0
        return all(m.follower.wait(last, timeout) for m in self.read_models.values())

    def rebuild(self) -> int:
        """Rebuild every read model from zero; return the events applied (per model)."""
        applied = 0
        for model in self.read_models.values():
            model.view.clear(self.app.name)
            model.projection.forget()
            applied = model.follower.catch_up()
        return applied

    def close(self) -> None:
        """Stop the followers and close the stores."""
        for model in self.read_models.values():
            model.follower.stop()
        self.app.close()
        for model in self.read_models.values():
            close = getattr(model.view, "close", None)
            if close is not None:
                close()


def require_store(settings: Settings) -> None:
    """Refuse to go on when the configured store holds no GameLedger event store."""
    if settings.store == "sqlite" and not settings.sqlite_path.is_file():
        raise ConfigurationError(
            f"there is no GameLedger store at {settings.sqlite_path} (set GAMELEDGER_DATA_DIR "
            "or GAMELEDGER_SQLITE_PATH to the store the service writes; docs/operations.md)"
        )
    if settings.store == "postgres":
        pg = settings.postgres
        table = f"{pg.schema}.{GameLedger.name}_events"
        try:
            with psycopg.connect(
                dbname=pg.dbname,
                host=pg.host,
                port=pg.port,
                user=pg.user,
                password=pg.password,
                connect_timeout=10,
            ) as conn:
                found = conn.execute("SELECT to_regclass(%s)", (table,)).fetchone()
        except psycopg.Error as error:
            raise ConfigurationError(f"cannot reach PostgreSQL: {error}") from None
        if not found or found[0] is None:
            raise ConfigurationError(
                f"database {pg.dbname} holds no GameLedger store (no table {table}); "
                "start the service once to create it (docs/operations.md)"
            )


def read_model_view(settings: Settings, name: str, sqlite_class: type, postgres_class: type) -> Any:
    """The store of one read model for the configured backend."""
    env = Environment(name, settings.read_model_env(name))
    factory: InfrastructureFactory[Any] = InfrastructureFactory.construct(env)
    return factory.tracking_recorder(
        postgres_class if settings.store == "postgres" else sqlite_class
    )


def build_services(settings: Settings | None = None, *, create: bool = True) -> Services:
    """Everything one process needs, configured from ``settings`` (or the environment).

    ``create=False`` is for commands that only read a store (``export``, ``projections``):
    a store that does not exist yet is a :class:`ConfigurationError`, never created empty."""
    settings = settings or Settings.from_env()
    if not create:
        require_store(settings)
    app = GameLedger(env=settings.event_store_env())
    services = Services(settings=settings, app=app)
    games_list = read_model_view(settings, "games_list", SQLiteGamesListView, PostgresGamesListView)
    turns = read_model_view(settings, "turns", SQLiteTurnsView, PostgresTurnsView)
    for projection, view in (
        (GamesListProjection(games_list, app), games_list),
        (TurnsProjection(turns, app), turns),
    ):
        follower = LogFollower(app, projection, interval=settings.follow_interval)
        services.read_models[projection.name] = ReadModel(view, projection, follower)
    return services
