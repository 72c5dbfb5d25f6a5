"""The game protocol every game implements (docs/architecture.md, "One protocol
for every game").

The application, the API, the bots and the conformance tests are written once against
:class:`Rules`; a game joins the service by registering an object that satisfies it
(see :mod:`domain.registry`). The values it speaks in (:class:`Viewer`, :class:`Outcome`,
:class:`OptionInfo`, :class:`PlayerRange`, :class:`Shapes`, :class:`MoveValue`) are defined in
:mod:`domain.protocol_values` and re-exported here.

Conventions shared by every game:

* Seats are numbered ``0 .. players-1``; a *player* in this protocol is a seat number.
* A state is owned by whoever holds it. :meth:`Rules.evolve` may change the state it is
  given in place and returns the state to use afterwards; :meth:`Rules.apply`,
  :meth:`Rules.legal_moves`, :meth:`Rules.view` and :meth:`Rules.outcome` never change it.
* Every state has an integer attribute ``random_position``: how many numbers of the game's
  random stream (:mod:`domain.randomness`) have been used. An event that consumed random
  numbers carries the position after it in its data (``"random_position"``), and
  :meth:`Rules.evolve` stores it, so replaying events never needs a random generator and
  a state knows where its stream continues (undo rewinds luck with the state).
* ``legal_moves`` lists every legal move, unless the rules declare the capability
  :attr:`Rules.open_moves` (``False`` in :class:`RulesBase`; Risk sets it, for a deal may give
  any combination of territories, cards, units and money): then it lists the typical moves
  and :meth:`Rules.apply` alone judges a move.
* Event data holds JSON-safe primitives only: ``dict`` with ``str`` keys, ``list``,
  ``str``, ``int``, ``float``, ``bool`` and ``None``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, Generic, Protocol, TypeVar, cast, runtime_checkable

from domain.errors import GameError, IllegalMove, InvalidMove, InvalidOptions
from domain.events import Event, EventCatalogue, Positioned
from domain.protocol_values import (
    JSON,
    MoveValue,
    OptionInfo,
    Outcome,
    PlayerRange,
    Shapes,
    Viewer,
)
from domain.randomness import RandomStream
from domain.turn import Turn

__all__ = [
    "JSON",
    "Event",
    "GameError",
    "IllegalMove",
    "InvalidMove",
    "InvalidOptions",
    "MoveValue",
    "OptionInfo",
    "Outcome",
    "PlayerRange",
    "Rules",
    "RulesBase",
    "Shapes",
    "Viewer",
]

State = TypeVar("State")
Move = TypeVar("Move")
Positional = TypeVar("Positional", bound=Positioned)


Valued = TypeVar("Valued", bound=MoveValue)
"""The move type of a :class:`RulesBase`: value objects with their own JSON and notation."""


@runtime_checkable
class Rules(Protocol[State, Move]):
    """What a game must provide to be played through the service."""

    name: str
    """The registry key, e.g. ``"azul"``."""
    min_players: int
    max_players: int
    """The player range with the default options (``player_ranges`` lists the others)."""
    rules_version: str
    """Changes whenever the rules' decisions change; game records name it."""
    options_info: tuple[OptionInfo, ...]
    """Every option the game takes, with its values and default."""
    player_ranges: tuple[PlayerRange, ...]
    """The player range with the default options first, then each set of options that
    changes it."""
    events: EventCatalogue[Any]
    """Every event the game records, each with its typed data and the handler replay runs."""
    shapes: Shapes
    """The typed definitions of a move, a view and the options."""

    @property
    def event_types(self) -> tuple[str, ...]:
        """Every event type the game records, in its own words (``TilesTaken``, ...)."""
        ...

    def setup(self, players: int, options: Mapping[str, Any]) -> State:
        """Validate ``players`` and ``options`` and return the state before anything
        random has happened. Raises :class:`InvalidOptions`."""
        ...

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Options with defaults filled in, as fixed at creation. Raises InvalidOptions."""
        ...

    def begin(self, state: State, rng: RandomStream) -> list[Event]:
        """The opening events (the first random outcomes, e.g. factories filled)."""
        ...

    def current_players(self, state: State) -> list[int]:
        """The seats that may act now (several during simultaneous phases); empty once
        the game is over."""
        ...

    def legal_moves(self, state: State, player: int) -> list[Move]:
        """Every move ``player`` may make now; empty when it is not their turn."""
        ...

    def apply(self, state: State, player: int, move: Move, rng: RandomStream) -> list[Event]:
        """The events that ``player`` making ``move`` causes, including everything that
        follows automatically (scoring, refills, the end of the game). Raises
        :class:`IllegalMove`; the state is never changed."""
        ...

    def copy_state(self, state: State) -> State:
        """An independent copy of ``state`` (evolving one never changes the other)."""
        ...

    def state_to_json(self, state: State) -> dict[str, Any]:
        """The whole state as JSON-safe primitives (snapshots store it)."""
        ...

    def state_from_json(self, data: dict[str, Any]) -> State:
        """The state that ``state_to_json`` gave ``data`` for."""
        ...

    def evolve(self, state: State, event: Event) -> State:
        """The state after a recorded event. Replay uses only this."""
        ...

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` may see of the state, as JSON-ready primitives."""
        ...

    def outcome(self, state: State) -> Outcome | None:
        """``None`` while the game runs; scores, ranks and winners once it has ended."""
        ...

    def summary(self, state: State) -> dict[str, Any]:
        """A short public summary for lists and lobbies: at least ``scores`` (one per
        seat) and ``round`` or ``turn`` as the game counts them."""
        ...

    def parse_move(self, data: JSON) -> Move:
        """A move from its JSON form. Raises :class:`InvalidMove`."""
        ...

    def move_to_json(self, move: Move) -> dict[str, Any]:
        """The JSON form of a move (``parse_move`` reads it back)."""
        ...

    def parse_notation(self, text: str) -> Move:
        """A move from its compact text notation. Raises :class:`InvalidMove`."""
        ...

    def notation(self, move: Move) -> str:
        """The compact text notation of a move."""
        ...

    def check_invariants(self, state: State) -> list[str]:
        """Conservation laws of the game (all pieces accounted for, no negative score):
        one sentence per violation, empty when the state is sound. Used by the
        conformance run."""
        ...

    # Capabilities: :class:`RulesBase` gives each its documented default.

    simultaneous_moves: bool
    """``current_players`` may name several seats at once (Azul's gray-wall tiling)."""
    hides_information: bool
    """Some events show some viewers less than their whole data (Risk's hands)."""
    open_moves: bool
    """``legal_moves`` lists the typical moves only; ``apply`` alone judges a move."""

    def event_view(self, event: Event, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` may see of a recorded event's data."""
        ...

    def bot_move(self, state: State, player: int, bot: random.Random) -> Move | None:
        """The game's own bot policy, or ``None`` for a uniformly drawn legal move."""
        ...

    def out_of_play(self, state: State) -> list[int]:
        """The seats the rules have already put out of the game (Risk's eliminated
        players), in the order they went out; a resignation cannot leave them playing
        (docs/api.md, "Lobby")."""
        ...

    def is_scenario(self, options: Mapping[str, Any]) -> bool:
        """Normalised ``options`` that make a scenario: an analysis game, never a result."""
        ...


class RulesBase(ABC, Generic[Positional, Valued]):
    """The base class of every game's rules (docs/architecture.md, "Adding a game").

    It gives every game the same shape:

    * :meth:`begin` and :meth:`apply` are written here once: each opens a
      :class:`~domain.turn.Turn` on the state and lets the game :meth:`open` or
      :meth:`decide` into it; the events the turn collected are the answer. So every game
      decides a move the same way, and no game changes the state it was given.
    * :meth:`evolve` is the game's :class:`~domain.events.EventCatalogue`.
    * The optional capabilities of :class:`Rules` have their documented defaults here, so the
      application asks each game the same questions and never looks an attribute up. A game
      overrides what it has.
    """

    # The game described: class attributes every game sets (docs/architecture.md, "Adding a
    # game"; Rules documents each).
    name: str
    min_players: int
    max_players: int
    rules_version: str
    options_info: tuple[OptionInfo, ...]
    player_ranges: tuple[PlayerRange, ...]
    events: EventCatalogue[Positional]
    shapes: Shapes

    @property
    def event_types(self) -> tuple[str, ...]:
        """Every event type of the catalogue, in declaration order."""
        return self.events.types

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A game that declares its catalogue evolves through it directly: ``evolve`` is the
        catalogue's own (one call less on every event replayed, the hottest path there is)."""
        super().__init_subclass__(**kwargs)
        catalogue = cls.__dict__.get("events")
        if isinstance(catalogue, EventCatalogue) and "evolve" not in cls.__dict__:
            setattr(cls, "evolve", staticmethod(catalogue.evolve))  # noqa: B010

    simultaneous_moves: bool = False
    """Default: one seat acts at a time. ``True``: ``current_players`` may name several seats
    at once, each of whom may move in any order (Azul's gray-wall tiling)."""
    hides_information: bool = False
    """Default: every viewer sees every event whole; events carry no seal (docs/audit.md,
    "Hidden information")."""
    open_moves: bool = False
    """Default: ``legal_moves`` lists every legal move, and the record verifier checks each
    recorded move against the list."""

    # What every game implements (Rules documents each; a game that leaves one out cannot be
    # instantiated).

    @abstractmethod
    def setup(self, players: int, options: Mapping[str, Any]) -> Positional:
        """The state before anything random has happened (:meth:`Rules.setup`)."""

    @abstractmethod
    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Options with defaults filled in (:meth:`Rules.normalise_options`)."""

    @abstractmethod
    def open(self, turn: Turn[Positional], rng: RandomStream) -> None:
        """Emit the opening events into ``turn`` (the first random outcomes)."""

    @abstractmethod
    def decide(self, turn: Turn[Positional], player: int, move: Valued, rng: RandomStream) -> None:
        """Judge ``player``'s ``move`` against ``turn.state`` and emit into ``turn`` every
        event it causes, everything that follows automatically included; raise
        :class:`IllegalMove` (or :class:`InvalidMove`) before emitting anything."""

    @abstractmethod
    def current_players(self, state: Positional) -> list[int]:
        """The seats that may act now (:meth:`Rules.current_players`)."""

    @abstractmethod
    def legal_moves(self, state: Positional, player: int) -> list[Valued]:
        """Every move ``player`` may make now (:meth:`Rules.legal_moves`)."""

    @abstractmethod
    def copy_state(self, state: Positional) -> Positional:
        """An independent copy of ``state``."""

    @abstractmethod
    def state_to_json(self, state: Positional) -> dict[str, Any]:
        """The whole state as JSON-safe primitives (snapshots store it)."""

    @abstractmethod
    def state_from_json(self, data: dict[str, Any]) -> Positional:
        """The state that :meth:`state_to_json` gave ``data`` for."""

    @abstractmethod
    def view(self, state: Positional, viewer: Viewer) -> Any:
        """What ``viewer`` may see of the state, following ``shapes.view``."""

    @abstractmethod
    def outcome(self, state: Positional) -> Outcome | None:
        """``None`` while the game runs; the result once it has ended."""

    @abstractmethod
    def summary(self, state: Positional) -> dict[str, Any]:
        """A short public summary for lists (:meth:`Rules.summary`)."""

    @abstractmethod
    def parse_move(self, data: JSON) -> Valued:
        """A move from its JSON form; raises :class:`InvalidMove`."""

    @abstractmethod
    def parse_notation(self, text: str) -> Valued:
        """A move from its notation; raises :class:`InvalidMove`."""

    @abstractmethod
    def check_invariants(self, state: Positional) -> list[str]:
        """The game's conservation laws broken by ``state``, one sentence each."""

    def begin(self, state: Positional, rng: RandomStream) -> list[Event]:
        """The opening events: a :class:`Turn` on ``state``, opened by the game's :meth:`open`."""
        turn = Turn(state, self)
        self.open(turn, rng)
        return turn.events

    def apply(self, state: Positional, player: int, move: Valued, rng: RandomStream) -> list[Event]:
        """The events of ``player`` making ``move``: a :class:`Turn` on ``state``, decided by
        the game's :meth:`decide`; ``state`` is never changed."""
        turn = Turn(state, self)
        self.decide(turn, player, move, rng)
        return turn.events

    def evolve(self, state: Positional, event: Event) -> Positional:
        """The state after ``event``, changed in place: the catalogue's handler."""
        return self.events.evolve(state, event)

    def move_to_json(self, move: Valued) -> dict[str, Any]:
        """The JSON form of a move, following ``shapes.move``: the move value object's own
        (:meth:`MoveValue.to_json`; docs/architecture.md, "Typed events, moves and views")."""
        return cast(dict[str, Any], move.to_json())

    def notation(self, move: Valued) -> str:
        """The notation of a move: the move value object's own (:meth:`MoveValue.notation`;
        docs/architecture.md, "Typed events, moves and views")."""
        return move.notation()

    def event_view(self, event: Event, viewer: Viewer) -> dict[str, Any]:
        """Default: the whole data, for everyone."""
        del viewer
        return dict(event.data)

    def bot_move(self, state: Positional, player: int, bot: random.Random) -> Valued | None:
        """Default: no policy of the game's own (bots draw a legal move uniformly)."""
        del state, player, bot
        return None

    def out_of_play(self, state: Positional) -> list[int]:
        """Default: every seat plays until the end."""
        del state
        return []

    def is_scenario(self, options: Mapping[str, Any]) -> bool:
        """Default: no options make a scenario."""
        del options
        return False
