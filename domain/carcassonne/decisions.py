"""The decisions a game of Carcassonne may wait for, as the state holds them (expansion
Bridges, Castles & Bazaars; docs/carcassonne.md, "Castles" and "Bazaars"): a castle decision
(:class:`Decision`, with the features a castle may score, :class:`FiefOption`) and a bazaar
under way (:class:`Bazaar`). They are JSON-safe: the snapshot stores them as they are
(:mod:`domain.carcassonne.state`), and the view shows them with the same fields (a copy;
:mod:`domain.carcassonne.view`), so each has one definition for both.

They live apart from the castles and bazaars so that the state can name them without
importing the expansion, which imports the state.
"""

from __future__ import annotations

from typing import NotRequired

from typing_extensions import TypedDict

from domain.carcassonne.events import Segment


class FiefOption(TypedDict):
    """A feature a castle may score: a completed road, city or monastery in its fief, or a
    castle that scored this turn (``"castle"``), and its full value."""

    feature: str
    at: Segment
    points: int


class Decision(TypedDict):
    """A castle decision the game waits for (expansion, rules "Castles"; set by
    ``CastleOffered`` / ``FiefOffered``): ``kind`` (``"castle"`` or ``"fief"``), ``player``
    (who decides), ``at`` (the city or castle) and, for a fief, ``options``."""

    kind: str
    player: int
    at: Segment
    options: NotRequired[list[FiefOption]]


class Bazaar(TypedDict):
    """A bazaar under way (expansion, rules "Bazaars"; docs/carcassonne.md, "View"; see
    :mod:`domain.carcassonne.expansion.bazaars.auction`): ``active`` (who placed the
    bazaar), ``variant``, ``stage`` (``"auction"`` or ``"play"``), ``tiles`` (revealed,
    nobody's yet), ``won`` (per seat its tile or null), ``auctioneer``, ``lot``, ``bid``,
    ``bidder``, ``queue`` (seats still to answer) and ``turns`` (seats still to play their
    tile)."""

    active: int
    variant: str
    stage: str
    tiles: list[str]
    won: list[str | None]
    auctioneer: int
    lot: str | None
    bid: int
    bidder: int
    queue: list[int]
    turns: list[int]
