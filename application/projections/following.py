"""What every projection of games shares: following each game through its events.

The games a projection is following stay in a small cache and move on by the event itself
(``event.mutate``, the same code that rebuilds an aggregate); a game not in the cache is
loaded at the event's version. Projections then derive their rows from the whole game, so
no rule of a game is repeated in a projection."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from typing import Any, Protocol
from uuid import UUID

from eventsourcing.persistence import Tracking

from domain.game import Game


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

    def __init__(self, source: GameSource, cache_size: int = 512) -> None:
        self._source = source
        self._cache: OrderedDict[UUID, Game] = OrderedDict()
        self._cache_size = cache_size

    def process_batch(self, events: list[Any], tracking: Tracking) -> None:
        """Apply consecutive stored events ending at ``tracking`` in one transaction."""
        raise NotImplementedError

    def follow(self, events: list[Any]) -> Iterator[tuple[Game.Event, Game]]:
        """Each game event with its game as it is just after it."""
        for stored in events:
            if isinstance(stored, Game.Event):
                yield stored, self._advance(stored)

    def forget(self) -> None:
        """Drop the cached games (before a rebuild)."""
        self._cache.clear()

    def _advance(self, stored: Game.Event) -> Game:
        game_id = stored.originator_id
        cached = self._cache.pop(game_id, None)
        if stored.originator_version == 1:
            game = stored.mutate(None)
        elif cached is not None and cached.version == stored.originator_version - 1:
            game = stored.mutate(cached)
        else:
            game = self._source.game_at(game_id, stored.originator_version)
        assert isinstance(game, Game)
        self._cache[game_id] = game
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return game
