"""The lobby's events of a game record decided again (issue 13, part 4; docs/audit.md,
"Lobby events"): ``SeatLeft``, ``SeatResigned``, ``GameAborted``, ``GameExpired`` and
``RematchCreated`` must each be a command the game allowed at that point, and a move the bot
made for a resigned seat must be the bot's own choice, drawn again from the revealed seed by
the very functions the game aggregate uses (:mod:`domain.lobby`,
:func:`domain.bots.choose_move`). The referee that follows the record
(:class:`application.audit_rules.Referee`) is seen through :class:`LobbyReferee`."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol
from uuid import UUID

from application.audit_format import Discrepancy, first_difference, show
from domain import lobby
from domain.bots import choose_move
from domain.protocol import Outcome, Rules


class LobbyReferee(Protocol):
    """What the lobby checks need of the referee that follows a record."""

    events: list[dict[str, Any]]
    seed: str | None
    rules: Rules[Any, Any]
    state: Any
    players: int
    seated: list[bool]
    resigned: list[int]
    closed: str
    rematch: str
    request: dict[str, Any] | None

    def data(self, item: dict[str, Any]) -> dict[str, Any]:
        """A ledger event's data, once it has exactly the fields of its type."""
        ...

    def outcome(self) -> Outcome | None:
        """The outcome as the game would give it at this point."""
        ...


def _seat(referee: LobbyReferee, item: dict[str, Any]) -> int:
    seat = referee.data(item)["seat"]
    if type(seat) is not int or not 0 <= seat < referee.players:
        raise Discrepancy(f"seat {show(seat)} does not exist", item["version"], item["type"])
    return seat


def _waiting(referee: LobbyReferee, item: dict[str, Any], what: str) -> None:
    """The game must still be waiting for players (not started, not called off)."""
    where = (item["version"], item["type"])
    if referee.closed:
        raise Discrepancy(f"{what} after the game was {referee.closed}", *where)
    if all(referee.seated):
        raise Discrepancy(f"{what} after the game started", *where)


def check_open(referee: LobbyReferee, item: dict[str, Any]) -> None:
    """Nothing is recorded in a game called off, but nothing (a seat taken) either."""
    if referee.closed:
        raise Discrepancy(
            f"an event after the game was {referee.closed}", item["version"], item["type"]
        )


def check_undo(referee: LobbyReferee, item: dict[str, Any]) -> None:
    """A player's undo request (or undo at once) after a seat resigned: refused by the game
    (:meth:`domain.game.Game.request_undo`)."""
    if referee.resigned:
        raise Discrepancy("a player's undo after a seat resigned", item["version"], item["type"])


def seat_left(referee: LobbyReferee, index: int) -> int:
    """``SeatLeft``: a taken seat of a game still waiting is free again."""
    item = referee.events[index]
    seat = _seat(referee, item)
    _waiting(referee, item, "a seat left")
    if not referee.seated[seat]:
        raise Discrepancy(f"seat {seat} was not taken", item["version"], item["type"])
    referee.seated[seat] = False
    return index + 1


def seat_resigned(referee: LobbyReferee, index: int) -> int:
    """``SeatResigned``: a seat still playing (not resigned, not put out by the rules)
    resigns from a game running with no undo request waiting."""
    item = referee.events[index]
    seat = _seat(referee, item)
    where = (item["version"], item["type"])
    if not all(referee.seated) or referee.closed:
        raise Discrepancy("a resignation before the game started", *where)
    if referee.outcome() is not None:
        raise Discrepancy("a resignation after the game ended", *where)
    if seat in referee.resigned:
        raise Discrepancy(f"seat {seat} had resigned already", *where)
    if seat in referee.rules.out_of_play(referee.state):
        raise Discrepancy(f"seat {seat} was out of the game already", *where)
    if referee.request is not None:
        raise Discrepancy("a resignation while an undo request waits", *where)
    referee.resigned = [*referee.resigned, seat]
    return index + 1


def game_aborted(referee: LobbyReferee, index: int) -> int:
    """``GameAborted``: by the creator, of a game still waiting."""
    item = referee.events[index]
    data = referee.data(item)
    _waiting(referee, item, "an abort")
    if data["by"] != "creator":
        why = f"data.by is {show(data['by'])}, not 'creator'"
        raise Discrepancy(why, item["version"], item["type"])
    referee.closed = "aborted"
    return index + 1


def game_expired(referee: LobbyReferee, index: int) -> int:
    """``GameExpired``: a game still waiting, at least ``after_seconds`` after its
    creation (the two events' timestamps)."""
    item = referee.events[index]
    data = referee.data(item)
    _waiting(referee, item, "an expiry")
    after = data["after_seconds"]
    where = (item["version"], item["type"])
    if type(after) is not int or after <= 0:
        raise Discrepancy(f"data.after_seconds is {show(after)}, not a positive number", *where)
    created = datetime.fromisoformat(referee.events[0]["timestamp"])
    if not lobby.expired(created, datetime.fromisoformat(item["timestamp"]), after):
        raise Discrepancy(f"the game had not waited {after} seconds yet", *where)
    referee.closed = "expired"
    return index + 1


def rematch_created(referee: LobbyReferee, index: int) -> int:
    """``RematchCreated``: once, after the game ended, naming a game id."""
    item = referee.events[index]
    data = referee.data(item)
    where = (item["version"], item["type"])
    if referee.outcome() is None:
        raise Discrepancy("a rematch of a game that has not ended", *where)
    if referee.rematch:
        raise Discrepancy("a second rematch", *where)
    try:
        UUID(str(data["rematch"]))
    except ValueError:
        raise Discrepancy(
            f"data.rematch is {show(data['rematch'])}, not a game id", *where
        ) from None
    referee.rematch = str(data["rematch"])
    return index + 1


def check_move(referee: LobbyReferee, item: dict[str, Any], seat: int, acting: list[int]) -> None:
    """A move in a game some seats resigned from: never after the game ended by
    resignation; a resigned seat that may act moves before anyone else (the bot moves at
    once); and a resigned seat's move is the bot's choice (once the seed is revealed)."""
    where = (item["version"], "MoveMade")
    if lobby.ends_game(referee.players, referee.resigned, referee.rules.out_of_play(referee.state)):
        raise Discrepancy("a move after the game ended by resignation", *where)
    bots = [other for other in acting if other in referee.resigned]
    if bots and seat != bots[0]:
        raise Discrepancy(f"resigned seat {bots[0]}'s bot moves first", *where)
    if seat not in referee.resigned or referee.seed is None:
        return
    bot = lobby.bot_random(referee.seed, item["version"])
    rules = referee.rules
    expected = rules.move_to_json(choose_move(rules, referee.state, seat, bot))
    difference = first_difference("data.move", item["data"]["move"], expected, "the bot plays")
    if difference:
        raise Discrepancy(f"resigned seat {seat} is the bot's: {difference}", *where)
