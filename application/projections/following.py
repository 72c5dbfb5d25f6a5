"""What every projection of games shares: following each game through its events.

The games a projection is following stay in a cache bounded in bytes
(:class:`application.cache.GameCache`) and move on by the event itself (``event.mutate``,
the same code that rebuilds an aggregate); a game not in the cache, or one that an undo takes
back further than the line of play it keeps (:mod:`domain.line`), is loaded at the event's
version. Projections then derive their rows from the whole game, so no rule of a game is
repeated in a projection."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Protocol
from uuid import UUID

from eventsourcing.persistence import Tracking
from eventsourcing.utils import resolve_topic

from application.cache import GameCache
from domain.game import Game
from domain.line import LineNeeded

KNOWN_GAMES = 200_000
"""How many games' answers a :class:`GamesMarked` keeps (then forgets and looks up again)."""

CACHE_BYTES = 16 * 1024 * 1024
"""The games a projection keeps in memory while following them, in estimated bytes."""


class GameSource(Protocol):
    """How a projection loads a game it has not followed from its start."""

    def game_at(self, game_id: UUID, version: int) -> Game:
        """The game as it was at ``version``."""
        ...


class FollowingProjection:
    """Base of the projections of games: subclasses write rows in ``process_batch``."""

    name = ""
    view: Any
    """Where the rows go (a read model's store; subclasses set it)."""

    def __init__(self, source: GameSource, cache_bytes: int = CACHE_BYTES) -> None:
        self._source = source
        self._cache = GameCache(cache_bytes)

    def process_batch(self, events: list[Any], tracking: Tracking) -> None:
        """Apply consecutive stored events ending at ``tracking`` in one transaction."""
        raise NotImplementedError

    def follow(self, events: list[Any]) -> Iterator[tuple[Game.Event, Game]]:
        """Each game event with its game as it is just after it."""
        for stored in events:
            if isinstance(stored, Game.Event):
                yield stored, self._advance(stored)

    def forget(self) -> None:
        """Drop the cached games (after a rebuild)."""
        self._cache.clear()

    def _advance(self, stored: Game.Event) -> Game:
        game_id = stored.originator_id
        version = stored.originator_version
        cached = self._cache.get(game_id)
        game: Game | None = None
        if version == 1:
            game = stored.mutate(None)
        elif cached is not None and cached.version == version - 1:
            try:
                game = stored.mutate(cached)
            except LineNeeded:  # an undo reaching back further than the kept line
                self._cache.discard(game_id)
        if game is None:
            game = self._source.game_at(game_id, version)
        assert isinstance(game, Game)
        self._cache.put(game)
        return game


class GamesMarked:
    """Which games carry a mark fixed at their creation (a tournament table's, a clock's):
    a projection that writes only for those follows only those. A game's ``Created`` says;
    a game first met later is loaded once and remembered (at most :data:`KNOWN_GAMES`)."""

    def __init__(
        self,
        source: GameSource,
        created: Callable[[Game.Created], bool],
        game: Callable[[Game], bool],
    ) -> None:
        self._source = source
        self._created = created
        self._game = game
        self._known: dict[UUID, bool] = {}

    def __call__(self, stored: Game.Event) -> bool:
        """Whether the event's game carries the mark."""
        game_id = stored.originator_id
        known = self._known.get(game_id)
        if known is None:
            if isinstance(stored, Game.Created):
                known = self._created(stored)
            else:
                known = self._game(self._source.game_at(game_id, stored.originator_version))
            if len(self._known) >= KNOWN_GAMES:
                self._known.clear()
            self._known[game_id] = known
        return known

    def may_be(self, game_id: UUID | str) -> bool:
        """False only when the game is known to carry no mark (its events need not be
        decoded: infrastructure/follower.py, ``Sifting``)."""
        return not isinstance(game_id, UUID) or self._known.get(game_id) is not False

    def among(self, events: list[Any]) -> list[Game.Event]:
        """The events of marked games, in order."""
        return [e for e in events if isinstance(e, Game.Event) and self(e)]

    def forget(self) -> None:
        """Forget every answer."""
        self._known.clear()


def topics_of(kind: type) -> Callable[[str], bool]:
    """Whether a stored event's topic names an event class of ``kind`` (or a subclass),
    remembered per topic; a topic that names no class answers yes (the event is decoded, and
    what fails is the follower's to report)."""
    known: dict[str, bool] = {}

    def of_kind(topic: str) -> bool:
        found = known.get(topic)
        if found is None:
            try:
                found = issubclass(resolve_topic(topic), kind)
            except Exception:
                found = True
            known[topic] = found
        return found

    return of_kind
