"""The games a process keeps in memory, bounded in bytes (docs/operations.md, "Memory").

A game in the cache is the one copy the process's commands and queries work on: a command
runs on it in place (no copy) while holding the game's lock, and a query reads it under the
same lock, so nobody sees a game half changed. What a game costs is estimated from the size
of its state's JSON form (measured when it enters the cache and again whenever a snapshot of
it is taken) times :data:`MEMORY_PER_JSON_BYTE`, plus a little per event of its line of play
kept in memory; the cache drops the least recently used games once the estimates add up to
more than its budget. Games kept in memory also forget the past of their line of play
(:meth:`domain.game.Game.trim_line`), so a game's cost follows its state, not its length."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from uuid import UUID

import orjson

from domain.game import Game

MEMORY_PER_JSON_BYTE = 9
"""Bytes of Python objects per byte of a state's JSON form, beyond :data:`MEMORY_PER_GAME`:
measured for the three games with ``bench/memory.py factor`` (4.6 for Risk, 6.3 for Azul, 8.8
for Carcassonne with or without the expansion; docs/performance.md, "Memory"), rounded up."""
MEMORY_PER_EVENT = 600
"""Bytes per event of a game's line of play held in memory (its data, in the line)."""
MEMORY_PER_GAME = 4096
"""Bytes every game costs whatever its state (the aggregate, its seats, settings)."""

LOCK_STRIPES = 256


def estimated_bytes(game: Game) -> int:
    """What keeping ``game`` in memory costs, estimated (see the module's docstring)."""
    state = orjson.dumps(game.rules.state_to_json(game.state))
    line = len(game.line.effective) + len(game.line.turns)
    return MEMORY_PER_GAME + MEMORY_PER_JSON_BYTE * len(state) + MEMORY_PER_EVENT * line


@dataclass
class Kept:
    """A game kept in memory, with what the process knows about it."""

    game: Game
    size: int
    synced: object = None
    """The store's change token (:meth:`application.store.GameStore.change_token`) when the
    game was last known to be the store's latest; ``None``: not known."""
    documents: dict[str, bytes] = field(default_factory=dict)
    """Views of the game at ``documents_version``, serialised, by viewer."""
    documents_version: int = 0

    def document(self, viewer: str) -> bytes | None:
        """The serialised view for ``viewer`` of the game as it is, if made already."""
        if self.documents_version != self.game.version:
            return None
        return self.documents.get(viewer)

    def keep_document(self, viewer: str, body: bytes) -> None:
        """Remember the serialised view for ``viewer`` of the game as it is."""
        if self.documents_version != self.game.version:
            self.documents = {}
            self.documents_version = self.game.version
        self.documents[viewer] = body


class GameCache:
    """Games by id, least recently used first, within ``max_bytes`` (0: keep none)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._games: OrderedDict[UUID, Kept] = OrderedDict()
        self._bytes = 0
        self._guard = threading.Lock()
        self._latest: UUID | None = None
        """The game at the end, the most recently used, when it was put or moved there last:
        a game read again and again (one many watch) is found without the lock."""
        self._stripes = [threading.RLock() for _ in range(LOCK_STRIPES)]

    @property
    def bytes(self) -> int:
        """The estimated bytes of the games kept."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._games)

    @contextmanager
    def locked(self, game_id: UUID) -> Iterator[None]:
        """Hold ``game_id``'s lock: commands and queries of one game take turns (a lock is
        shared by the games whose ids fall into the same of 256 stripes, :meth:`stripe_of`)."""
        with self._stripes[self.stripe_of(game_id)]:
            yield

    @staticmethod
    def stripe_of(game_id: UUID) -> int:
        """Which of the locks ``game_id`` takes: drawn from every bit of the id. (Not from its
        last byte alone: that byte names the game's part of the store (application/shards.py),
        so every game of a part would share one lock and wait for every other's commits.)"""
        return hash(game_id.int) % LOCK_STRIPES

    def get(self, game_id: UUID) -> Game | None:
        """The kept game, now the most recently used; the caller must hold its lock."""
        kept = self.entry(game_id)
        return None if kept is None else kept.game

    def entry(self, game_id: UUID) -> Kept | None:
        """The kept game with what is known about it, now the most recently used; the caller
        must hold its lock."""
        if game_id == self._latest:  # the most recently used already: no lock, no move
            kept: Kept | None = self._games.get(game_id)
            if kept is not None:
                return kept
        with self._guard:
            kept = self._games.get(game_id)
            if kept is not None:
                self._games.move_to_end(game_id)
                self._latest = game_id
            return kept

    def put(self, game: Game, *, measure: bool = False, synced: object = None) -> Kept:
        """Keep ``game`` (its line of play trimmed), at its last estimated cost unless
        ``measure`` (or it is new here: then estimated now), known to be the store's latest
        as of change token ``synced``; drop the least recently used games beyond the budget.
        The entry (not kept when the game alone is over the budget)."""
        game.trim_line()
        with self._guard:
            previous = self._games.get(game.id)
        size = previous.size if previous is not None and not measure else estimated_bytes(game)
        kept = Kept(game, size, synced)
        if previous is not None and previous.game is game:
            kept.documents, kept.documents_version = previous.documents, previous.documents_version
        with self._guard:
            previous = self._games.pop(game.id, None)
            if previous is not None:
                self._bytes -= previous.size
            if size > self.max_bytes:
                return kept
            self._games[game.id] = kept
            self._latest = game.id
            self._bytes += size
            while self._bytes > self.max_bytes:
                _, dropped = self._games.popitem(last=False)
                self._bytes -= dropped.size
        return kept

    def clear(self) -> None:
        """Forget every game."""
        with self._guard:
            self._games.clear()
            self._bytes = 0

    def discard(self, game_id: UUID) -> None:
        """Forget a game (its copy in memory is no longer the store's)."""
        with self._guard:
            kept = self._games.pop(game_id, None)
            if kept is not None:
                self._bytes -= kept.size
