"""Wiring: the application, its read models and their followers, built from settings.

Built inside factories (the CLI, the Flask app factory, tests), never at import time."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from eventsourcing.persistence import InfrastructureFactory
from eventsourcing.utils import Environment

from application.projections.games_list import GamesListProjection, GamesListView
from application.service import GameLedger
from infrastructure.config import Settings
from infrastructure.follower import LogFollower
from infrastructure.readmodels.postgres_games_list import PostgresGamesListView
from infrastructure.readmodels.sqlite_games_list import SQLiteGamesListView


@dataclass
class Services:
    """The running parts of one process."""

    settings: Settings
    app: GameLedger
    games_list: GamesListView
    games_list_follower: LogFollower
    games_list_projection: GamesListProjection

    def start_following(self) -> None:
        """Keep the read models up to date in background threads."""
        self.games_list_follower.start()

    def catch_up(self) -> None:
        """Bring every read model up to date now (in this thread)."""
        self.games_list_follower.catch_up()

    def rebuild(self) -> int:
        """Rebuild every read model from zero; return the events applied."""
        self.games_list.clear(self.app.name)
        self.games_list_projection.forget()
        return self.games_list_follower.catch_up()

    def close(self) -> None:
        """Stop the followers and close the stores."""
        self.games_list_follower.stop()
        self.app.close()
        close = getattr(self.games_list, "close", None)
        if close is not None:
            close()


def games_list_view(settings: Settings) -> GamesListView:
    """The games-list store for the configured backend."""
    env = Environment("games_list", settings.read_model_env())
    factory: InfrastructureFactory[Any] = InfrastructureFactory.construct(env)
    view_class = PostgresGamesListView if settings.store == "postgres" else SQLiteGamesListView
    view: GamesListView = factory.tracking_recorder(view_class)
    return view


def build_services(settings: Settings | None = None) -> Services:
    """Everything one process needs, configured from ``settings`` (or the environment)."""
    settings = settings or Settings.from_env()
    app = GameLedger(env=settings.event_store_env())
    view = games_list_view(settings)
    projection = GamesListProjection(view, app)
    follower = LogFollower(app, projection, interval=settings.follow_interval)
    return Services(
        settings=settings,
        app=app,
        games_list=view,
        games_list_follower=follower,
        games_list_projection=projection,
    )
