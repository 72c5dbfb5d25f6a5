"""The game aggregate: one event-sourced aggregate per game, for every registered game
(DESIGN.md, "Events are the record"; "Write side").

The aggregate is written once against the protocol (:mod:`domain.protocol`). The events it
stores are:

* ``Game.Created`` — which game, how many seats, the options fixed at creation, the public
  SHA-256 commitment to the secret seed (and the seed itself, which every reader of the log
  has redacted until the game ends; see :data:`SECRET_FIELDS`);
* ``Game.SeatJoined`` — a seat taken, with the SHA-256 of its secret token;
* ``Game.MoveMade`` — who moved and the move, in JSON and in notation: what the player did;
* one event class per event type of the game, in the game's own words (``TilesTaken``,
  ``WallTiled``, ...), whose topic is ``domain.<game>:<Type>``: what the rules made of it.

A turn's events are triggered together and saved by one ``Application.save`` call, so a
turn is all or nothing. Every random outcome is drawn before its event is triggered (inside
``Rules.apply``) and stored in the event; the event bodies only call ``Rules.evolve``.
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

from eventsourcing.domain import Aggregate, event
from eventsourcing.utils import register_topic

from domain.protocol import Event as RulesEvent
from domain.protocol import GameError, Rules
from domain.randomness import RandomStream
from domain.registry import rules_for

SECRET_FIELDS: dict[str, frozenset[str]] = {
    "Created": frozenset({"seed"}),
    "SeatJoined": frozenset({"token_sha256"}),
}
"""Fields of ledger events that no reader of the event log is shown."""


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON-safe value (faster than ``copy.deepcopy`` for such data)."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    return value


class GameNotReady(GameError):
    """A move on a game whose seats are not all taken yet."""


class SeatUnavailable(GameError):
    """A seat that does not exist or is already taken."""


class Game(Aggregate):
    """One game of any registered kind, rebuilt from its events."""

    class_version = 1

    class Event(Aggregate.Event):
        """Base of every event of a game."""

        class_version = 1

    class Created(Event, Aggregate.Created):
        """The game was created: its kind, seats, options and seed commitment."""

        game: str
        players: int
        options: dict[str, Any]
        seed: str
        seed_sha256: str

    class Played(Event):
        """Base of the game's own events: ``data`` is the protocol event's data."""

        data: dict[str, Any]
        game_event_type: ClassVar[str] = ""

        def apply(self, aggregate: Aggregate) -> None:
            """Evolve the state by this event (the rules' ``evolve``, nothing else)."""
            game = cast(Game, aggregate)
            domain_event = RulesEvent(self.game_event_type, copy_json(self.data))
            game.state = game.rules.evolve(game.state, domain_event)

    @event(Created)
    def __init__(
        self, game: str, players: int, options: dict[str, Any], seed: str, seed_sha256: str
    ) -> None:
        self.game = game
        self.players = players
        self.options = copy_json(options)
        self.seed = seed
        self.seed_sha256 = seed_sha256
        self.seats: list[dict[str, str] | None] = [None] * players
        self.moves = 0
        self.state: Any = rules_for(game).setup(players, self.options)

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        """A copy for one command or query: the rules copy the state (their
        ``copy_state`` is far cheaper than a generic deep copy); the rest is small."""
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.options = copy_json(self.options)
        clone.seats = [None if seat is None else dict(seat) for seat in self.seats]
        clone.state = self.rules.copy_state(self.state)
        clone.__dict__["_pending_events"] = list(self.__dict__.get("_pending_events", []))
        return clone

    @property
    def rules(self) -> Rules[Any, Any]:
        """The rules of this game's kind."""
        return rules_for(self.game)

    @property
    def started(self) -> bool:
        """Play starts when every seat is taken."""
        return all(seat is not None for seat in self.seats)

    @property
    def finished(self) -> bool:
        """The rules say the game is over."""
        return self.rules.outcome(self.state) is not None

    def seat_of(self, token_sha256: str) -> int | None:
        """The seat whose token has this SHA-256, if any."""
        for index, seat in enumerate(self.seats):
            if seat is not None and seat["token_sha256"] == token_sha256:
                return index
        return None

    def join(self, seat: int, name: str, token_sha256: str) -> None:
        """Take a free seat; when the last seat is taken, the game begins (its opening
        random outcomes are drawn and recorded)."""
        if not 0 <= seat < self.players:
            raise SeatUnavailable("no-such-seat", f"Seat {seat} does not exist in this game.")
        if self.seats[seat] is not None:
            raise SeatUnavailable("seat-taken", f"Seat {seat} is already taken.")
        self._seat_joined(seat=seat, name=name, token_sha256=token_sha256)
        if self.started:
            self._record(self.rules.begin(self.state, self._random_stream()))

    @event("SeatJoined")
    def _seat_joined(self, seat: int, name: str, token_sha256: str) -> None:
        self.seats[seat] = {"name": name, "token_sha256": token_sha256}

    def play(self, seat: int, move_json: Any) -> None:
        """A seat makes a move: the rules decide every consequence, recorded as the move
        followed by the game's own events. Raises ``GameError``; on error nothing is
        recorded."""
        if not self.started:
            raise GameNotReady("game-not-started", "Not every seat has been taken yet.")
        rules = self.rules
        move = rules.parse_move(move_json)
        events = rules.apply(self.state, seat, move, self._random_stream())
        self._move_made(seat=seat, move=rules.move_to_json(move), notation=rules.notation(move))
        self._record(events)

    @event("MoveMade")
    def _move_made(self, seat: int, move: dict[str, Any], notation: str) -> None:
        self.moves += 1

    def _random_stream(self) -> RandomStream:
        return RandomStream(self.seed, self.state.random_position)

    def _record(self, events: list[RulesEvent]) -> None:
        for domain_event in events:
            event_class = played_event_class(self.game, domain_event.type)
            self.trigger_event(event_class, data=domain_event.data)


_played_classes: dict[tuple[str, str], type[Game.Played]] = {}


def played_event_class(game: str, type_name: str) -> type[Game.Played]:
    """The stored event class for a game's event type, topic ``domain.<game>:<type>``."""
    key = (game, type_name)
    found = _played_classes.get(key)
    if found is None:
        module = f"domain.{game}"
        found = cast(
            type[Game.Played],
            type(
                type_name,
                (Game.Played,),
                {"__module__": module, "__qualname__": type_name, "game_event_type": type_name},
            ),
        )
        register_topic(f"{module}:{type_name}", found)
        _played_classes[key] = found
    return found


def register_game_events(rules: Rules[Any, Any]) -> None:
    """Make every event type of a game resolvable before its stored events are read."""
    for type_name in rules.event_types:
        played_event_class(rules.name, type_name)
