"""One part of the event store of the games (docs/architecture.md, "Write side"): an
``eventsourcing`` application on recorders the infrastructure gives it, which loads games,
brings a game up to date with what was stored after it, records a command's events, and
takes a snapshot of a game every :data:`SNAPSHOT_INTERVAL` events.

Snapshots are taken from the game just saved, with the project's own projector: never by
reading the game back. A snapshot holds the state and what the game needs to go on, not its
line of play (:mod:`domain.line`), so it does not grow with the game."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import (
    AggregateRecorder,
    ApplicationRecorder,
    EventStore,
    IntegrityError,
    StoredEvent,
)

from application.errors import NotFound
from application.shards import FIRST
from domain.game import Game, register_game_events
from domain.line import LineNeeded
from domain.registry import games

log = logging.getLogger(__name__)

SNAPSHOT_INTERVAL = 50
"""A snapshot at least every 50 events: a view at any version replays at most 49 events
after the snapshot before it (more only after an undo that reaches further back: the game
is then replayed from its first event, docs/performance.md)."""

STORE_NAME = FIRST
"""The name of the first part of the event store (PostgreSQL tables are named after it)."""


@dataclass(frozen=True)
class EventStorage:
    """Where one part's events and snapshots are recorded (built by infrastructure/), and,
    where the store has one, a cheap token that changes whenever anyone commits events to it
    (SQLite: the last event's id, :class:`infrastructure.storage.SQLiteLastEvent`): while it
    has not changed, a game kept in memory is still the store's latest and a read needs no
    query of its events."""

    events: ApplicationRecorder
    snapshots: AggregateRecorder
    change_token: Callable[[], object] | None = None
    by_topic: EventsByTopic | None = None
    notified_token: Callable[[], object] | None = None
    """A token that changes whenever the process learns of a commit: notified (PostgreSQL's
    LISTEN/NOTIFY) or seen by the process's watcher (SQLite: one look at ``data_version`` per
    polling interval); ``None`` while the process is not told. It may lag a commit by the
    moment the news takes to arrive, so only reads that may lag use it, in place of any exact
    token (docs/api.md, "Consistency"); a command of this process is seen at once all the
    same, since it leaves its game in the cache as the store now has it."""


class EventsByTopic(Protocol):
    """A game's stored events of some topics, found through an index (docs/api.md, "Event
    log": ``?type=``), never by reading the whole game."""

    def __call__(
        self, game_id: UUID, topics: Sequence[str], after: int, up_to: int, limit: int
    ) -> Sequence[StoredEvent]:
        """At most ``limit`` of the game's events of these topics with a version above
        ``after`` and at most ``up_to``, by version."""
        ...


def project_game(game: Game | None, events: Iterable[Any]) -> Game | None:
    """Apply stored events in order (the library's default projector checks each event
    against a runtime protocol, which costs more than applying it)."""
    for stored in events:
        game = stored.mutate(game)
    return game


class GameStore(Application[UUID]):
    """One part (shard) of the event store: its games, their events and their snapshots."""

    name = STORE_NAME

    def __init__(self, storage: EventStorage | None = None, name: str = STORE_NAME) -> None:
        """The games recorded on ``storage`` (the library's in-memory recorders when
        omitted), under the application name ``name``."""
        self._storage = storage
        self.name = name
        super().__init__(
            {"PERSISTENCE_MODULE": "eventsourcing.popo", "IS_SNAPSHOTTING_ENABLED": "y"}
        )
        for rules in games().values():
            register_game_events(rules)

    def construct_recorder(self) -> ApplicationRecorder:
        """The events' recorder given by the storage (the library's extension point)."""
        if self._storage is None:
            return super().construct_recorder()
        return self._storage.events

    def construct_snapshot_store(self) -> EventStore[UUID]:
        """The snapshots' store, on the storage's recorder."""
        if self._storage is None:
            return super().construct_snapshot_store()
        return EventStore(mapper=self.mapper, recorder=self._storage.snapshots)

    def events_of(
        self, game_id: UUID, topics: Sequence[str], after: int, up_to: int, limit: int
    ) -> list[Game.Event]:
        """The game's events of ``topics`` after version ``after`` (to ``up_to``), at most
        ``limit``: through the store's index, or (the in-memory store) by reading them."""
        if self._storage is not None and self._storage.by_topic is not None:
            stored = self._storage.by_topic(game_id, topics, after, up_to, limit)
            return [cast(Game.Event, self.mapper.to_domain_event(item)) for item in stored]
        wanted = set(topics)
        found = [
            cast(Game.Event, self.mapper.to_domain_event(item))
            for item in self.recorder.select_events(game_id, gt=after, lte=up_to)
            if item.topic in wanted
        ]
        return found[:limit]

    def change_token(self, *, may_lag: bool = False) -> object:
        """The store's change token now (``None``: the store has none, ask it each time); with
        ``may_lag``, the notified token while the process is told of commits (no query)."""
        if self._storage is None:
            return None
        notified = self._storage.notified_token
        if may_lag and notified is not None:
            token = notified()
            if token is not None:
                return token
        exact = self._storage.change_token
        return exact() if exact is not None else None

    def load(self, game_id: UUID, version: int | None = None, *, whole_line: bool = False) -> Game:
        """The game now or at ``version``: from the snapshot before it and the events after,
        or (``whole_line``, or when an undo after that snapshot reaches further back) from
        its first event, with its whole line of play. Raises ``game-not-found``."""
        found: Any = None
        try:
            if whole_line:
                found = self._replayed(game_id, version)
            else:
                try:
                    found = self.repository.get(
                        game_id, version=version, projector_func=project_game
                    )
                except LineNeeded:
                    found = self._replayed(game_id, version)
        except AggregateNotFoundError:
            found = None
        if not isinstance(found, Game):
            raise NotFound("game-not-found", f"There is no game {game_id}.")
        return found

    def _replayed(self, game_id: UUID, version: int | None) -> Game | None:
        found = project_game(None, self.events.get(game_id, lte=version))
        if found is None:
            raise AggregateNotFoundError(game_id)
        return found

    def catch_up(self, game: Game) -> Game:
        """``game`` brought up to date with the events stored after its version, in place;
        or, when one of them needs the whole line of play, the game loaded again."""
        return self.advance(game, self.events_after(game.id, game.version))

    def events_after(self, game_id: UUID, version: int) -> list[Game.Event]:
        """The game's events stored after ``version``."""
        return [cast(Game.Event, stored) for stored in self.events.get(game_id, gt=version)]

    def moved_on(self, game_id: UUID, version: int) -> bool:
        """Whether the store holds an event of the game after ``version`` (one read at most,
        nothing decoded but it)."""
        return bool(list(self.events.get(game_id, gt=version, limit=1)))

    def advance(self, game: Game, events: list[Game.Event]) -> Game:
        """``game`` moved on by ``events`` (the ones after its version), in place; or, when
        one of them needs the whole line of play, the game loaded again."""
        try:
            for stored in events:
                stored.mutate(game)
        except LineNeeded:
            return self.load(game.id)
        return game

    def record(self, game: Game) -> int:
        """Save the game's pending events in one transaction (``IntegrityError`` when another
        save came first); take a snapshot when its version passed a multiple of
        :data:`SNAPSHOT_INTERVAL`, or when it was taken back by an undo (a game loaded from an
        earlier snapshot would have to be replayed from its first event to undo; the snapshot
        after the undo spares every later load that). The number of events saved."""
        pending = game.pending_events
        count = len(pending)
        undone = any(isinstance(event, Game.TurnsUndone) for event in pending)
        before = game.version - count
        self.save(game)
        if undone or game.version // SNAPSHOT_INTERVAL > before // SNAPSHOT_INTERVAL:
            try:
                self.take_game_snapshot(game)
            except Exception:  # the events are saved: a later snapshot serves as well
                log.warning("could not take a snapshot of game %s", game.id, exc_info=True)
        return count

    def take_game_snapshot(self, game: Game) -> None:
        """Store a snapshot of ``game`` as it is (one already taken at its version stays)."""
        assert self.snapshots is not None
        with contextlib.suppress(IntegrityError):
            self.snapshots.put([Game.Snapshot.take(game)])
