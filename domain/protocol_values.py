"""The values the game protocol (:mod:`domain.protocol`) speaks in (docs/architecture.md, "One
protocol for every game" and "Typed events, moves and views"): who is looking (:class:`Viewer`),
a finished game's result (:class:`Outcome`), a game's description to clients
(:class:`OptionInfo`, :class:`PlayerRange`, :class:`Shapes`; docs/api.md, "Game types"), and
what every move value object offers (:class:`MoveValue`). Plain frozen values, no rules;
re-exported by :mod:`domain.protocol`, where every game and caller imports them from."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

JSON = Any
"""A JSON-ready value (the result of ``json.loads``)."""


class MoveValue(Protocol):
    """A move as every game makes it: a value object that prints its own JSON form and its
    notation (docs/architecture.md, "Typed events, moves and views": after python-chess's
    ``Move.uci()``)."""

    def to_json(self) -> Mapping[str, object]:
        """The move's JSON form (a ``TypedDict`` of the game's ``shapes.move``)."""
        ...

    def notation(self) -> str:
        """The move's compact notation."""
        ...


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking: a seat (sees its own hidden information), a spectator
    (``seat is None``) or an arbiter (sees what every seat sees, never the seed)."""

    seat: int | None = None
    arbiter: bool = False

    @classmethod
    def spectator(cls) -> Viewer:
        """A viewer who holds no seat."""
        return cls()


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game: final scores and 1-based ranks per seat (equal
    ranks mean a shared place), the winning seats, and game-specific details."""

    scores: list[int]
    ranks: list[int]
    winners: list[int]
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The outcome as JSON-ready primitives."""
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "details": dict(self.details),
        }


@dataclass(frozen=True)
class OptionInfo:
    """One option of a game, as ``GET /game-types`` describes it to a client (docs/api.md,
    "Game types"): its JSON type, its default (``None``: absent unless given), and either the
    few values it takes or the range of an integer (of each item, for an array)."""

    name: str
    type: str
    """The JSON type: ``string``, ``integer``, ``boolean`` or ``array``."""
    default: JSON
    description: str
    values: tuple[JSON, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The description as JSON-ready primitives (``values`` empty and the bounds null
        where they do not apply)."""
        return {
            "name": self.name,
            "type": self.type,
            "default": self.default,
            "description": self.description,
            "values": list(self.values),
            "minimum": self.minimum,
            "maximum": self.maximum,
        }


@dataclass(frozen=True)
class PlayerRange:
    """How many players a game takes with the given options (a set of options that changes
    the range, e.g. an expansion that seats more players; ``{}`` for the defaults)."""

    options: dict[str, Any]
    min_players: int
    max_players: int


@dataclass(frozen=True)
class Shapes:
    """The typed definitions of a game's JSON (docs/architecture.md, "Typed events, moves and
    views"): each a ``TypedDict`` or a union of them, from which the JSON Schema a client
    reads is generated (:mod:`application.contract`). Events have theirs in the game's
    :class:`~domain.events.EventCatalogue`."""

    move: object
    """A move's JSON form (``parse_move`` reads it, ``move_to_json`` writes it)."""
    view: object
    """What :meth:`Rules.view` returns."""
    options: object
    """The game's options, as fixed at creation (``normalise_options``)."""
    outcome_details: object
    """What :attr:`Outcome.details` holds (docs/api.md, "The typed document")."""
