"""The queries that read one game (docs/api.md, "Endpoints"; docs/architecture.md,
"Read side"): the aggregate at a version, its rules, whose turn it is, the view of the game now,
at a version or after a turn (serialised once per viewer and version, docs/api.md,
"Conditional requests"), the legal moves and a bot's move of a seat, and a page of its event
log. :class:`GameReads` is the read half of :class:`application.service.GameLedger`, which
adds the commands; lists of games come from the read models (application/projections/)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, cast
from uuid import UUID

import orjson

from application.errors import BadRequest, NotFound
from application.games import Games
from application.paging import check_page
from application.presenters import present_event, present_game
from application.seats import seat_of, viewer_of
from domain.bots import choose_move
from domain.game import LEDGER_EVENT_NAMES, Game, event_topic
from domain.line import LineNeeded
from domain.protocol import Rules, Viewer
from domain.randomness import commitment


@dataclass(frozen=True)
class Document:
    """A view serialised as JSON, and the game's version it shows (its entity tag)."""

    version: int
    body: bytes


def serialised(value: Any) -> bytes:
    """``value`` as JSON (UTF-8; keys that are not strings written as strings, as the
    standard library does)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def viewer_key(viewer: Viewer) -> str:
    """Who sees a view, as a key of the views kept: the arbiter, a seat, or a spectator."""
    if viewer.arbiter:
        return "arbiter"
    return "spectator" if viewer.seat is None else f"seat {viewer.seat}"


class GameReads:
    """The queries of one game, on the games of :attr:`games` (:mod:`application.games`)."""

    games: Games

    def game_at(self, game_id: UUID, version: int) -> Game:
        """The game aggregate as it was at ``version``, a copy of its own (read models
        rebuild from it)."""
        return self.games.at(game_id, version)

    def rules_of(self, game_id: UUID) -> Rules[Any, Any]:
        """The rules of the game's kind."""
        with self.games.reading(game_id) as game:
            return game.rules

    def finished_at(self, game_id: UUID, token: str | None = None) -> tuple[bool, int]:
        """Whether the game has ended, and its version, for a valid viewer (an invalid
        token is refused)."""
        with self.games.reading(game_id) as game:
            viewer_of(game, token)
            return game.finished, game.version

    def whose_turn(self, game_id: UUID) -> tuple[int, list[int]]:
        """The game's version and the seats that may act now (none before it starts or
        after it ends)."""
        with self.games.reading(game_id) as game:
            return game.version, game.current_players

    def viewer(self, game_id: UUID, token: str | None) -> Viewer:
        """The viewer a token stands for: its seat, or a spectator without a token."""
        with self.games.reading(game_id) as game:
            return viewer_of(game, token)

    def view_after_turn(self, game_id: UUID, turn: int, token: str | None = None) -> dict[str, Any]:
        """The game as it was after ``turn`` of the current line of play (0: before the
        first move), for the token's holder."""
        with self.games.reading(game_id) as game:
            viewer_of(game, token)
            version = self._version_after_turn(game, turn)
        return self.view(game_id, token, version)

    def _version_after_turn(self, game: Game, turn: int) -> int:
        """The version after ``turn``; a turn older than the line of play the game keeps
        is found by replaying the game from its first event (:mod:`domain.line`)."""
        if not 0 <= turn <= game.moves:
            raise NotFound("no-such-turn", f"The game has turns 0 to {game.moves}.")
        try:
            return game.version_after_turn(turn)
        except LineNeeded:
            return self.games.at(game.id, game.version, whole_line=True).version_after_turn(turn)

    def view(
        self, game_id: UUID, token: str | None = None, version: int | None = None
    ) -> dict[str, Any]:
        """The game as ``token``'s holder may see it, now or as it was at ``version``."""
        shown: dict[str, Any] = orjson.loads(self.view_document(game_id, token, version).body)
        return shown

    def view_document(
        self, game_id: UUID, token: str | None = None, version: int | None = None
    ) -> Document:
        """:meth:`view` serialised, with the version it shows. The view of the game as it is
        is serialised once per viewer and version and kept with the game (docs/api.md,
        "Conditional requests"), and asked again with the same token it is found without the
        game's lock while the kept game is known to be the store's latest
        (:class:`application.games.Look`); a view at an older version is made each time."""
        holder = commitment(token) if token else None
        look = self.games.look(game_id, may_lag=not token)
        current = look.current if version is None else None
        found = current.shown_to(holder, look.latest) if current is not None else None
        if found is not None:  # made already for this version and token: no lock
            return Document(*found)
        with self.games.viewing(game_id, may_lag=not token, look=look) as kept:
            latest = kept.game
            viewer = viewer_of(latest, token)
            if version is None or version == latest.version:
                key = viewer_key(viewer)
                body = kept.document(key)
                if body is None:
                    body = serialised(present_game(latest, viewer))
                kept.keep_document(key, body, holder)
                return Document(latest.version, body)
            if not 1 <= version <= latest.version:
                raise NotFound("no-such-version", f"The game has versions 1 to {latest.version}.")
        return Document(version, serialised(present_game(self.games.at(game_id, version), viewer)))

    def legal_moves(self, game_id: UUID, token: str) -> dict[str, Any]:
        """Every move the seat holding ``token`` may make now, in JSON and notation."""
        with self.games.reading(game_id) as game:
            seat = seat_of(game, token)
            rules = game.rules
            running = bool(game.current_players) and seat not in game.resigned
            moves = rules.legal_moves(game.state, seat) if running else []
            return {
                "game": game.game,
                "seat": seat,
                "version": game.version,
                "moves": [
                    {"move": rules.move_to_json(m), "notation": rules.notation(m)} for m in moves
                ],
            }

    def bot_move(self, game_id: UUID, token: str, bot: random.Random) -> dict[str, Any]:
        """The move a random bot would make for the seat holding ``token`` now, in JSON
        (:func:`domain.bots.choose_move`: the game's bot policy, else a uniform legal move)."""
        with self.games.reading(game_id) as game:
            seat = seat_of(game, token)
            return game.rules.move_to_json(choose_move(game.rules, game.state, seat, bot))

    def event_log(
        self,
        game_id: UUID,
        token: str | None = None,
        after: int = 0,
        limit: int = 100,
        types: frozenset[str] | None = None,
    ) -> dict[str, Any]:
        """A page of the game's events after version ``after``, as the viewer may see them,
        optionally only of the given types."""
        check_page(after, limit)
        with self.games.reading(game_id) as game:
            viewer = viewer_of(game, token)
            kind, rules, finished, version = game.game, game.rules, game.finished, game.version
        store = self.games.store_of(game_id)
        if types is not None:  # through the store's index of topics
            unknown = types - set(rules.event_types) - LEDGER_EVENT_NAMES
            if unknown:
                raise BadRequest(
                    "unknown-event-type",
                    f"A game of {kind} has no event of type {', '.join(sorted(unknown))}: "
                    f"its types are the keys of 'events' and 'ledger_events' in "
                    f"GET /game-types/{kind}/schemas.",
                )
            topics = [event_topic(kind, type_name) for type_name in sorted(types)]
            found = store.events_of(game_id, topics, after, version, limit)
            items = [present_event(rules, finished, stored, viewer) for stored in found]
            more = len(found) == limit
            next_after = found[-1].originator_version if more else None
            return {"game": kind, "items": items, "next_after": next_after, "version": version}
        events = list(store.events.get(game_id, gt=after, lte=version, limit=limit))
        page = [present_event(rules, finished, cast(Game.Event, e), viewer) for e in events]
        last = events[-1].originator_version if events else after
        more = last < version
        return {
            "game": kind,
            "items": page,
            "next_after": last if more else None,
            "version": version,
        }
