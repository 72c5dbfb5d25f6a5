"""The turn index (issue 3, part 1): for each game, turn number → the player who moved, the
version range of the turn, and a one-line summary in the game's notation.

A turn starts with a ``MoveMade`` event and runs to the last event its move caused. Turns
taken back by an undo stay in the index, marked with the version of the ``TurnsUndone``
that took them back; the turns played after it carry the same numbers again (a turn number
is a position on the line of play). Every undo marks the turns it took back, back to any
turn boundary including before the first turn (issue 10, part 3; docs/audit.md, "Undo");
the index is read a page at a time, like the event log (:func:`turns_page`; docs/api.md)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Protocol

from eventsourcing.persistence import Tracking

from application.paging import check_page
from application.projections.following import CACHE_BYTES, FollowingProjection, GameSource
from application.projections.storable import storable
from domain.game import Game
from domain.protocol import Event, Viewer


@dataclass(frozen=True)
class TurnRow:
    """One turn of one game."""

    game_id: str
    turn: int
    seat: int
    first_version: int
    last_version: int
    notation: str
    summary: str
    undone_at: int | None

    def as_params(self) -> tuple[Any, ...]:
        """The row's values in column order (game id first), for SQL. (Field by field:
        ``dataclasses.astuple`` deep-copies each value, a twentieth of a follower's time.)"""
        return (
            self.game_id,
            self.turn,
            self.seat,
            self.first_version,
            self.last_version,
            self.notation,
            self.summary,
            self.undone_at,
        )

    def to_json(self) -> dict[str, Any]:
        """The row as JSON-ready primitives."""
        return {
            "turn": self.turn,
            "seat": self.seat,
            "first_version": self.first_version,
            "last_version": self.last_version,
            "notation": self.notation,
            "summary": self.summary,
            "undone_at": self.undone_at,
        }


class TurnsView(Protocol):
    """Where the turn index is kept (infrastructure/readmodels/)."""

    def apply_turns(
        self, rows: list[TurnRow], undone: list[tuple[str, int, int]], tracking: Tracking
    ) -> None:
        """In one transaction: first mark the stored turns of game ``g`` that start after
        version ``v`` and are not yet undone as undone at version ``u``, for each
        ``(g, v, u)`` in ``undone``; then write ``rows`` (by game and first version; they
        already carry their own marks); record the position (a position already recorded
        raises ``IntegrityError`` and nothing is written)."""
        ...

    def turns_of(
        self, game_id: str, *, include_undone: bool, after: int = 0, limit: int | None = None
    ) -> list[TurnRow]:
        """A game's turns by first version: those starting after version ``after``, at
        most ``limit`` of them (all without a limit)."""
        ...

    def clear(self, application_name: str) -> None:
        """Delete every row and the tracking position."""
        ...

    def max_tracking_id(self, application_name: str) -> int | None:
        """The last notification id applied."""
        ...


def turns_page(
    view: TurnsView, game_id: str, *, include_undone: bool, after: int = 0, limit: int = 100
) -> dict[str, Any]:
    """A page of a game's turn index, paged like its event log (docs/api.md): the turns whose
    ``first_version`` is after version ``after``, at most ``limit``; ``next_after`` is the
    ``after`` of the next page (the last turn's ``first_version``), ``None`` on the last;
    ``limit`` is bounded as the event log's (``MAX_PAGE``)."""
    check_page(after, limit)
    rows = view.turns_of(game_id, include_undone=include_undone, after=after, limit=limit + 1)
    more = len(rows) > limit
    rows = rows[:limit]
    return {
        "items": [row.to_json() for row in rows],
        "next_after": rows[-1].first_version if more else None,
    }


def public_notation(game: Game, stored: Game.Event) -> str:
    """A move's notation as a spectator may read it: the turn index is public, so a move
    that names hidden facts (a Risk deal's cards) is shown by the game's ``event_view``."""
    data = game.rules.event_view(Event("MoveMade", stored.public_data()), Viewer.spectator())
    return str(data["notation"])


def summary_of(game: Game, seat: int, notation: str) -> str:
    """One line: who moved and what, in the game's notation."""
    name = (game.seats[seat] or {}).get("name") or f"seat {seat}"
    return f"{name}: {notation}"


class TurnsProjection(FollowingProjection):
    """Keeps the turn index of every game."""

    name = "turns"
    view: TurnsView

    def __init__(self, view: TurnsView, source: GameSource, cache_bytes: int = CACHE_BYTES) -> None:
        super().__init__(source, cache_bytes)
        self.view = view

    def process_batch(self, events: list[Any], tracking: Tracking) -> None:
        """New turns, turns grown by their events, and turns undone, in one transaction."""
        rows: dict[tuple[str, int], TurnRow] = {}
        undone: list[tuple[str, int, int]] = []
        for stored, game in self.follow(events):
            game_id = str(game.id)
            name = stored.type_name
            if name == "TurnsUndone":  # also one back to before the first turn (no turns left)
                to_version: int = stored.to_version  # type: ignore[attr-defined]
                at = stored.originator_version
                undone.append((game_id, to_version, at))
                for key, row in rows.items():  # turns of this batch, in event order
                    if (
                        key[0] == game_id
                        and row.first_version > to_version
                        and row.undone_at is None
                    ):
                        rows[key] = replace(row, undone_at=at)
                continue
            current_turn = game.line.current
            if current_turn is None or isinstance(stored, Game.Created):
                continue  # the opening (a begin's events) and seats belong to no turn
            start, seat = current_turn
            if name == "MoveMade":
                notation = public_notation(game, stored)
                rows[(game_id, start)] = TurnRow(
                    game_id,
                    game.moves,
                    seat,
                    start,
                    start,
                    storable(notation),
                    storable(summary_of(game, seat, notation)),
                    None,
                )
            elif isinstance(stored, Game.Played):
                current = rows.get((game_id, start)) or self._open_turn(game_id, start)
                if current is not None:
                    rows[(game_id, start)] = replace(
                        current, last_version=stored.originator_version
                    )
        self.view.apply_turns(list(rows.values()), undone, tracking)

    def _open_turn(self, game_id: str, start: int) -> TurnRow | None:
        for row in self.view.turns_of(game_id, include_undone=False):
            if row.first_version == start:
                return row
        return None
