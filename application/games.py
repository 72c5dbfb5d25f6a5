"""Where the use cases get their games (docs/architecture.md, "Write side"; "The flow of a
move"): the parts of the event store, the process's cache of games, and the rule of each.

* **A command** (:meth:`Games.command`) runs on the cached game in place, under the game's
  lock, and saves its events in one transaction: one load of the game when it is not cached,
  no query at all before the save when the client's expected version is the cached one, no
  copy of the game. If the store has moved on meanwhile (another process saved first), the
  save is refused by the store's version check: the command is a ``stale-version`` conflict,
  or, for a command that carries no expected version, is decided again on the game as the
  store now has it. A command that fails after changing the game, or whose save fails, drops
  the game from the cache: nothing half done is ever kept.
* **A query** (:meth:`Games.reading`) reads the cached game under its lock after bringing it
  up to date with the store: one query for events after its version, or none at all where
  the store has a change token that has not changed since the game was last known to be the
  store's latest (SQLite; :class:`application.store.EventStorage`).
* **A view asked again** (:meth:`Games.look`) is answered without the game's lock when the
  version of the views kept with the game is known to be the store's latest and that view is
  serialised already (:class:`application.cache.Shown`).
* **A game at an old version** (:meth:`Games.at`) is loaded from the snapshot before it and
  never cached."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import NamedTuple, TypeVar
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from application.cache import GameCache, Kept
from application.errors import Conflict, NotFound
from application.shards import new_game_id, shard_of
from application.store import SNAPSHOT_INTERVAL, GameStore
from domain.errors import GameError
from domain.game import Game

T = TypeVar("T")

ATTEMPTS = 5
"""How often a command without an expected version is decided again when other saves win."""


class Look(NamedTuple):
    """What a reader learnt of a game before taking its lock (:meth:`Games.look`)."""

    token: object
    """The store's change token then."""
    kept: Kept | None
    """The kept game then, if any."""
    seen: int = 0
    """The version the store was asked for what came after (0: not asked)."""
    newer: list[Game.Event] | None = None
    """What the store held after version :attr:`seen` (``None``: not asked)."""
    latest: int = 0
    """The version known to be the store's latest as of :attr:`token` (0: not known): the
    views of it already serialised may be read without the game's lock
    (:meth:`application.cache.Kept.shown_to`)."""

    @property
    def current(self) -> Kept | None:
        """The kept game, when a version of it is known to be the store's latest."""
        return self.kept if self.latest else None


@dataclass(frozen=True)
class Saved:
    """A command saved: the game's version after it and the number of events it caused."""

    version: int
    events: int


class Games:
    """The games of every part of the event store, as the use cases reach them."""

    def __init__(self, stores: Sequence[GameStore], cache: GameCache) -> None:
        self.stores = list(stores)
        self.cache = cache

    def store_of(self, game_id: UUID) -> GameStore:
        """The part of the event store that holds ``game_id`` (:mod:`application.shards`); an
        id naming a part this store does not have is a game it does not have."""
        shard = shard_of(game_id)
        if shard >= len(self.stores):
            raise NotFound("game-not-found", f"There is no game {game_id}.")
        return self.stores[shard]

    def new_id(self) -> UUID:
        """An id for a new game, in a part drawn at random (docs/operations.md, "Shards")."""
        return new_game_id(secrets.randbelow(len(self.stores)))

    def add(self, game: Game) -> Saved:
        """Save a new game (its creation event) and keep it."""
        with self.cache.locked(game.id):
            count = self.store_of(game.id).record(game)
            self.cache.put(game, measure=True)
        return Saved(game.version, count)

    @contextmanager
    def reading(self, game_id: UUID) -> Iterator[Game]:
        """The game as the store has it now, to read under its lock (never to change)."""
        with self.viewing(game_id) as kept:
            yield kept.game

    def look(self, game_id: UUID, *, may_lag: bool = False) -> Look:
        """What a reader can learn of a game without its lock: the store's change token now,
        the kept game, and — unless the token vouches for the version of the views kept with
        it — what the store holds after that version; when that is nothing, the token
        vouches for that version from then on (``may_lag`` as for :meth:`viewing`)."""
        store = self.store_of(game_id)
        token = store.change_token(may_lag=may_lag)
        kept = self.cache.entry(game_id)
        if kept is None:
            return Look(token, None)
        shown = kept.shown.version  # a saved version (views are made under the lock)
        known = kept.known(token)
        if known is not None and known == shown:
            return Look(token, kept, latest=known)
        # Never ask after kept.game.version without the lock: a command may have changed the
        # game in place (unsaved), and another process may have saved that version already.
        seen = shown or kept.game.version
        newer = store.events_after(game_id, seen)
        if newer or not shown:
            return Look(token, kept, seen, newer)
        kept.vouch(token, seen)  # the store holds nothing after it: its latest as of token
        return Look(token, kept, seen, newer, latest=seen)

    @contextmanager
    def viewing(
        self, game_id: UUID, *, may_lag: bool = False, look: Look | None = None
    ) -> Iterator[Kept]:
        """The game as the store has it now with what the process keeps of it (its views
        already serialised), to read under its lock. The store is asked for what came after
        the kept game *before* the lock is taken (:meth:`look`), so that readers of one game
        wait for each other only while they read it, not while the store answers.
        ``may_lag``: a spectator's read, which may trail another process's commit by the
        moment its notification takes to arrive (PostgreSQL; docs/api.md, "Consistency");
        ``look``: what the reader learnt already (with the same ``may_lag``)."""
        store = self.store_of(game_id)
        token, _, seen, newer, _ = look if look is not None else self.look(game_id, may_lag=may_lag)
        with self.cache.locked(game_id):
            yield self._latest(store, game_id, token, seen, newer)

    def _latest(
        self,
        store: GameStore,
        game_id: UUID,
        token: object,
        seen: int,
        newer: list[Game.Event] | None,
    ) -> Kept:
        """The kept game, known to be the store's latest (the caller holds its lock): as it
        is while the store's change token has not changed since it was last known so; else
        moved on by ``newer``, the events the store held after version ``seen`` (read before
        the lock), when it is still at ``seen``; else brought up to date (or loaded). The
        token is read before the store is: a commit in between only makes the next read look
        again."""
        kept = self.cache.entry(game_id)
        if kept is None:
            return self.cache.put(store.load(game_id), measure=True, synced=token)
        if kept.knows(token):
            return kept
        version = kept.game.version
        if newer is not None and version == seen:
            game = store.advance(kept.game, newer)
        else:
            game = store.catch_up(kept.game)
        if game is kept.game and game.version == version:
            kept.vouch(token)
            return kept
        return self.cache.put(game, measure=_passed_snapshot(version, game.version), synced=token)

    def at(self, game_id: UUID, version: int | None = None, *, whole_line: bool = False) -> Game:
        """A game of its own (not the cached one) as it was at ``version`` (now: ``None``),
        with its whole line of play if asked."""
        return self.store_of(game_id).load(game_id, version, whole_line=whole_line)

    def command(
        self,
        game_id: UUID,
        expected_version: int | None,
        decide: Callable[[Game], T],
        *,
        whole_line: bool = False,
    ) -> tuple[Saved, T]:
        """Run ``decide`` on the game (which raises to refuse, or triggers events) and save
        what it triggered, as the module's docstring says; ``whole_line`` for commands that
        need the game's whole line of play (an undo). The save, and what ``decide`` gave."""
        store = self.store_of(game_id)
        for _ in range(ATTEMPTS):
            with self.cache.locked(game_id):
                game = self._for_command(store, game_id, expected_version, whole_line)
                check_version(game, expected_version)
                before = game.version
                try:
                    answer = decide(game)
                except GameError:
                    if game.pending_events:
                        self.cache.discard(game_id)
                    elif store.moved_on(game_id, before):
                        # Refused on the cached game, which the store has passed (another
                        # process saved since): the refusal may be the stale game's — a seat
                        # taken since, a turn moved on. Decided on a version that is no
                        # longer the store's, the command is a conflict; without one, it is
                        # decided again on the store's game.
                        self.cache.discard(game_id)
                        if expected_version is not None:
                            raise Conflict(
                                "stale-version",
                                f"The command was decided on version {expected_version}, "
                                "but the game has moved on; reload and try again.",
                            ) from None
                        continue
                    raise
                except BaseException:
                    if game.pending_events:
                        self.cache.discard(game_id)
                    raise
                try:
                    count = store.record(game)
                except IntegrityError:
                    self.cache.discard(game_id)
                    if expected_version is not None:
                        raise Conflict(
                            "stale-version",
                            "Another command was saved first; reload and try again.",
                        ) from None
                    continue
                except BaseException:
                    # Not saved (the store unreachable, locked past its timeout, …): the game
                    # changed in place must not be kept, or its unsaved events would be shown
                    # and the next command saved after a gap in its versions.
                    self.cache.discard(game_id)
                    raise
                self.cache.put(game, measure=whole_line or _passed_snapshot(before, game.version))
                return Saved(game.version, count), answer
        raise Conflict("concurrent-update", "The game kept changing; try again.")

    def _for_command(
        self, store: GameStore, game_id: UUID, expected_version: int | None, whole_line: bool
    ) -> Game:
        """The game a command runs on: the cached one when it is the version the client saw
        (no query), else brought up to date; a whole line of play means a load from the
        first event."""
        if whole_line:
            return store.load(game_id, whole_line=True)
        cached = self.cache.get(game_id)
        if cached is None:
            return store.load(game_id)
        if expected_version is None or cached.version < expected_version:
            return store.catch_up(cached)
        return cached


def check_version(game: Game, expected_version: int | None) -> None:
    """A command decided on an older version than the game's is a conflict."""
    if expected_version is not None and expected_version != game.version:
        raise Conflict(
            "stale-version",
            f"The command was decided on version {expected_version}, "
            f"but the game is at version {game.version}.",
        )


def _passed_snapshot(before: int, after: int) -> bool:
    """Whether a game went past a multiple of the snapshot interval (its cost in memory is
    then estimated again)."""
    return after // SNAPSHOT_INTERVAL > before // SNAPSHOT_INTERVAL
