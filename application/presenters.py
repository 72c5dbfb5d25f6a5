"""Plain-dict presentations of games and their events for a given viewer (docs/architecture.md,
"Read side": every read honours the viewer). Secret fields are never presented: the seed
(until the game has ended, when the game's own ``GameEnded`` reveals it) and seat tokens."""

from __future__ import annotations

from typing import Any

from domain import clocks
from domain.game import Game
from domain.protocol import Event, Rules, Viewer


def status_of(game: Game) -> str:
    """``waiting`` for players, ``active`` in play, ``finished``, or (called off before it
    started) ``aborted`` or ``expired`` (docs/api.md, "Lobby")."""
    if game.closed:
        return game.closed
    if not game.started:
        return "waiting"
    return "finished" if game.finished else "active"


def lobby_of(game: Game) -> dict[str, Any]:
    """The lobby's public facts of a game (docs/api.md, "Lobby"): whether it is private,
    the seats that resigned (in order), those whose clocks ran out (``flagged``, in order;
    docs/api.md, "Clocks"), the game it is a rematch of and its own rematch."""
    return {
        "private": game.private,
        "resigned": [seat for seat in game.resigned if seat not in game.flagged],
        "flagged": list(game.flagged),
        "rematch_of": game.rematch_of or None,
        "rematch": game.rematch or None,
        "tournament": game.tournament or None,
    }


def seats_of(game: Game) -> list[dict[str, Any]]:
    """The public side of the seats: number, name, whether taken."""
    return [
        {
            "seat": index,
            "name": seat["name"] if seat else None,
            "joined": seat is not None,
            "resigned": index in game.resigned and index not in game.flagged,
        }
        for index, seat in enumerate(game.seats)
    ]


def present_game(game: Game, viewer: Viewer) -> dict[str, Any]:
    """The view of a game for ``viewer``: the ledger's facts and the rules' view."""
    rules = game.rules
    outcome = game.outcome
    finished = outcome is not None
    return {
        "id": str(game.id),
        "game": game.game,
        "version": game.version,
        "status": status_of(game),
        "players": game.players,
        "options": game.options,
        "seats": seats_of(game),
        "viewer": {"seat": viewer.seat, "arbiter": viewer.arbiter},
        "current_players": game.current_players,
        "settings": game.settings,
        "analysis": game.analysis,
        "undo_request": game.undo_request,
        "chain_head": game.chain_head,
        "seed_sha256": game.seed_sha256,
        "seed": game.seed if finished else None,
        "moves": game.moves,
        "created_at": game.created_on.isoformat(),
        "updated_at": game.modified_on.isoformat(),
        "state": rules.view(game.state, viewer),
        "outcome": outcome.to_json() if outcome else None,
        "lobby": lobby_of(game),
        "clock": clock_view(game),
    }


def clock_view(game: Game) -> dict[str, Any] | None:
    """The clocks as a view shows them to everyone (docs/api.md, "Clocks"; nothing about
    them is hidden): the control, ``as_of`` (the last event's timestamp), each seat's
    remaining milliseconds as of it, whether its clock runs and when it runs out, and the
    first of those (``flag_at``, ``flag_seat``) — so a client counts down without asking
    again. ``None`` for a game without a clock."""
    if game.clock is None:
        return None
    clock = game.clock
    as_of = game.modified_on
    seats = []
    for seat in range(game.players):
        at = clocks.flag_at(clock, seat)
        seats.append(
            {
                "seat": seat,
                "remaining_ms": clocks.remaining_at(clock, seat, as_of),
                "running": at is not None,
                "flag_at": None if at is None else at.isoformat(),
                "flagged": seat in game.flagged,
            }
        )
    first = clocks.first_flag(clock)
    return {
        "control": dict(game.settings["clock"]),
        "as_of": as_of.isoformat(),
        "seats": seats,
        "flag_at": None if first is None else first[1].isoformat(),
        "flag_seat": None if first is None else first[0],
    }


def event_type(stored: Game.Event) -> str:
    """The event's name as the log shows it (``Created``, ``SeatJoined``, ``TilesTaken``)."""
    return stored.type_name


def present_event(
    rules: Rules[Any, Any], finished: bool, stored: Game.Event, viewer: Viewer
) -> dict[str, Any]:
    """One stored event of a game of ``rules`` as the log shows it to ``viewer``: envelope,
    redacted data (the rules' ``event_view``), the seal of an event that hides something
    (docs/audit.md, "Hidden information"), and its links of the hash chain. Once the game has
    ``finished`` nothing is hidden any more."""
    name = stored.type_name
    if finished:
        viewer = Viewer(seat=viewer.seat, arbiter=True)
    if isinstance(stored, Game.Played):
        data = rules.event_view(Event(name, stored.data), viewer)
    elif name == "MoveMade":
        data = rules.event_view(Event(name, stored.public_data()), viewer)
    else:
        data = stored.public_data()
    return {
        "version": stored.originator_version,
        "type": name,
        "timestamp": stored.timestamp.isoformat(),
        "data": data,
        "sealed": getattr(stored, "sealed", "") or None,
        "prev_hash": stored.prev_hash,
        "hash": stored.hash,
    }
