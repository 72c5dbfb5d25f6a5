"""The games a process keeps in memory, bounded in bytes (docs/operations.md, "Memory").

A game in the cache is the one copy the process's commands and queries work on: a command
runs on it in place (no copy) while holding the game's lock, and a query reads it under the
same lock, so nobody sees a game half changed. The views of a game already serialised are
kept with it whole (:class:`Shown`: replaced, never changed), so that a view asked again is
answered without the lock (:meth:`Kept.shown_to`): many watching one game do not queue for
it. What a game costs is estimated from the size of its state's JSON form (measured when it
enters the cache and again whenever a snapshot of it is taken) times
:data:`MEMORY_PER_JSON_BYTE`, plus a little per event of its line of play kept in memory; the
cache drops the least recently used games once the estimates add up to more than its budget.
Games kept in memory also forget the past of their line of play
(:meth:`domain.game.Game.trim_line`), so a game's cost follows its state, not its length."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping
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


@dataclass(frozen=True)
class Shown:
    """The views of one version of a game made so far, serialised: by viewer (the arbiter, a
    seat, or a spectator; :func:`application.reads.viewer_key`), and which viewer each token
    seen stands for, by its commitment (``None``: no token). Never changed, only replaced
    whole, so a reader without the game's lock sees one version's views or none."""

    version: int = 0
    bodies: Mapping[str, bytes] = field(default_factory=dict)
    viewers: Mapping[str | None, str] = field(default_factory=dict)


NOTHING_SHOWN = Shown()


@dataclass
class Kept:
    """A game kept in memory, with what the process knows about it."""

    game: Game
    size: int
    synced: tuple[tuple[object, int], ...] = ()
    """The store's change tokens (:meth:`application.store.GameStore.change_token`) as of
    which the game was known to be the store's latest, with the (saved) version it had then,
    the last two (on SQLite a spectator's token and a seat's are of two kinds,
    :meth:`application.store.GameStore.change_token`). A game known to be the latest as of a
    token stays so while the store's token is that one: it only ever moves on with the store.
    The version is kept with the token because a command changes the game in place (unsaved)
    and a command refused after catching the game up moves it on in place (saved): a token
    vouches for a version of the store, not for whatever the game object holds now."""
    shown: Shown = NOTHING_SHOWN
    """The views of the game already serialised (of its version, or of an older one: then
    none is of use)."""

    def known(self, token: object) -> int | None:
        """The version the game had when it was known to be the store's latest as of
        ``token``, if it was (``None``: not known)."""
        if token is not None:
            for seen, version in self.synced:
                if seen == token:
                    return version
        return None

    def knows(self, token: object) -> bool:
        """Whether the game, as it is, is known to be the store's latest as of ``token``; the
        caller holds the game's lock."""
        return self.known(token) == self.game.version

    def vouch(self, token: object, version: int | None = None) -> None:
        """The game at ``version`` (by default as it is; the caller then holds its lock) is
        known to be the store's latest as of ``token`` (``None``: nothing)."""
        if token is None:
            return
        pair = (token, self.game.version if version is None else version)
        synced = self.synced
        if pair not in synced:
            self.synced = (pair, *[p for p in synced if p[0] != token][:1])

    def document(self, viewer: str) -> bytes | None:
        """The serialised view for ``viewer`` of the game as it is, if made already; the
        caller holds the game's lock."""
        shown = self.shown
        return shown.bodies.get(viewer) if shown.version == self.game.version else None

    def keep_document(self, viewer: str, body: bytes, holder: str | None) -> None:
        """Remember the serialised view for ``viewer`` of the game as it is, asked for with
        the token whose commitment is ``holder`` (``None``: no token); the caller holds the
        game's lock."""
        shown = self.shown
        version = self.game.version
        if shown.version != version:
            shown = Shown(version)
        elif shown.viewers.get(holder) == viewer and shown.bodies.get(viewer) == body:
            return
        self.shown = Shown(
            version, {**shown.bodies, viewer: body}, {**shown.viewers, holder: viewer}
        )

    def shown_to(self, holder: str | None, version: int) -> tuple[int, bytes] | None:
        """Without the game's lock: the view of the game at ``version``, serialised, for the
        token whose commitment is ``holder`` (``None``: no token) — if made already. The
        caller knows ``version`` to be the store's latest (:class:`application.games.Look`);
        the views kept are of a version the store holds (made under the lock, never while a
        command has the game changed in place), but maybe not of that one: then none."""
        shown = self.shown
        viewer = shown.viewers.get(holder)
        if viewer is None or shown.version != version:
            return None
        return shown.version, shown.bodies[viewer]


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
        kept = Kept(game, size)
        kept.vouch(synced, game.version)
        if previous is not None and previous.shown.version == game.version:
            kept.shown = previous.shown  # (a new entry's views are of its game's version)
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
