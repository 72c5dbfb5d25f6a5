"""A game's events, each with one typed definition (docs/architecture.md, "Typed events,
moves and views").

An event's data has exactly one definition: a ``TypedDict`` named after the event
(``class TilesTaken(TypedDict)``). The code that builds the event and the code that evolves
the state by it both use that definition, so mypy checks both against it, and the JSON
Schema that clients read is generated from it (:mod:`application.contract`).

A game declares each event as an :class:`EventKind` and binds its handler in an
:class:`EventCatalogue`; the catalogue is the game's ``evolve``::

    TILES_TAKEN = EventKind(TilesTaken)
    EVENTS = EventCatalogue[AzulState]("Azul")
    EVENTS.on(TILES_TAKEN, tiles_taken)      # tiles_taken(state, data: TilesTaken)
    ...
    turn.emit(TILES_TAKEN({"player": 0, ...}))  # the literal is checked against TilesTaken

Conventions (docs/architecture.md, "One protocol for every game"): event data holds
JSON-safe primitives only, and an event that used numbers of the game's random stream
records the position after them as ``random_position``, which :meth:`EventCatalogue.evolve`
stores on the state, so replay never needs a random generator.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, Protocol, TypeVar, cast

from domain.errors import GameError


class Event(NamedTuple):
    """One domain event: ``type`` is its name in the game's words, in the past tense
    (``TilesTaken``, ``WallTiled``); ``data`` holds JSON-safe primitives only.

    An immutable value (a ``NamedTuple``: the cheapest immutable record Python makes, and
    events are made on every move and every replayed step)."""

    type: str
    data: dict[str, Any]


Data = TypeVar("Data", bound=Mapping[str, object])


class Positioned(Protocol):
    """A state that knows how far the game's random stream has been used."""

    random_position: int


State = TypeVar("State", bound=Positioned)


class EventKind(partial[Event], Generic[Data]):
    """One kind of event: its name (the ``TypedDict``'s name, in the past tense, in the game's
    own words) and the ``TypedDict`` its data follows. Calling it makes an event whose data
    mypy has checked against that definition.

    It is ``functools.partial(Event, name)``: making an event, done on every step of every
    move, runs no Python code of ours."""

    shape: type[Data]
    name: str

    def __new__(cls, shape: type[Data]) -> EventKind[Data]:
        kind = super().__new__(cls, Event, shape.__name__)
        kind.shape = shape
        kind.name = shape.__name__
        return kind

    if TYPE_CHECKING:

        def __call__(self, data: Data) -> Event:
            """The event with ``data``."""
            ...

    def __repr__(self) -> str:
        return f"EventKind({self.name})"


Handler = Callable[[State, Any], None]


class EventCatalogue(Generic[State]):
    """Every event a game records, each bound to the one handler that evolves a state by it.
    Replay runs only :meth:`evolve`."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.kinds: dict[str, EventKind[Any]] = {}
        self._handlers: dict[str, Handler[State]] = {}

    def on(self, kind: EventKind[Data], handler: Callable[[State, Data], None]) -> None:
        """Bind ``handler`` to ``kind``: it changes the state in place by the event's data,
        reads only the state and the data, keeps no reference to the data's lists and never
        draws random numbers. If the event's definition has a ``random_position``, the
        catalogue stores it on the state after the handler (only such events pay for it)."""
        if kind.name in self.kinds:
            raise ValueError(f"{self.game} declares the event {kind.name} twice.")
        self.kinds[kind.name] = kind
        definition = cast(Any, kind.shape)
        if "random_position" in definition.__required_keys__:
            handler = _then_position(handler)
        elif "random_position" in definition.__optional_keys__:
            handler = _then_position_if_recorded(handler)
        self._handlers[kind.name] = handler

    @property
    def types(self) -> tuple[str, ...]:
        """Every event type, in the order they were declared."""
        return tuple(self.kinds)

    def shape(self, type_name: str) -> type[Mapping[str, object]]:
        """The ``TypedDict`` of the event called ``type_name``; raises ``unknown-event``."""
        kind = self.kinds.get(type_name)
        if kind is None:
            raise self._unknown(type_name)
        return kind.shape

    def evolve(self, state: State, event: Event) -> State:
        """``state`` changed in place by ``event`` (the protocol's ``evolve``): its handler
        runs, and a recorded ``random_position`` moves the state's stream on. An event the
        game does not know raises ``GameError("unknown-event")``."""
        try:
            handler = self._handlers[event.type]
        except KeyError:
            raise self._unknown(event.type) from None
        handler(state, event.data)
        return state

    def _unknown(self, type_name: str) -> GameError:
        return GameError("unknown-event", f"{self.game} has no event called {type_name!r}.")


def _then_position(handler: Callable[[State, Data], None]) -> Callable[[State, Data], None]:
    """``handler``, then the event's ``random_position`` stored on the state (docs/architecture.md,
    "Randomness": replay never needs a random generator)."""

    def evolve_and_position(state: State, data: Data) -> None:
        handler(state, data)
        state.random_position = cast(Any, data)["random_position"]

    return evolve_and_position


def _then_position_if_recorded(
    handler: Callable[[State, Data], None],
) -> Callable[[State, Data], None]:
    """``handler``, then ``random_position`` stored if this event recorded one."""

    def evolve_and_position(state: State, data: Data) -> None:
        handler(state, data)
        position = cast(Any, data).get("random_position")
        if position is not None:
            state.random_position = position

    return evolve_and_position
