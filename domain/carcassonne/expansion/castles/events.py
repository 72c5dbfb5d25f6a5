"""The castle and fief events (docs/carcassonne.md, "Castles"), each with its one typed
definition and its kind."""

from __future__ import annotations

from typing import Final

from typing_extensions import TypedDict

from domain.carcassonne.decisions import FiefOption
from domain.carcassonne.events import Follower, Segment, Square
from domain.events import EventKind


class CastleOffered(TypedDict):
    """A completed city of two caps with one follower may become a castle: its owner
    chooses, castle or ``points``."""

    player: int
    at: Segment
    follower: Follower
    points: int


class CastleBuilt(TypedDict):
    """The city becomes a castle on its two ``tiles``, with its ``fief``; its follower
    stays; no points."""

    player: int
    at: Segment
    follower: Follower
    tiles: list[Square]
    fief: list[Square]


class CastleDeclined(TypedDict):
    """The city is scored as usual (the ``FeatureScored`` after it)."""

    player: int
    at: Segment


class FiefOffered(TypedDict):
    """The castle's owner chooses which feature the castle scores."""

    player: int
    castle: Segment
    options: list[FiefOption]


class CastleSource(TypedDict):
    """What a castle scored: the feature's kind and a segment of it."""

    feature: str
    at: Segment


class CastleScored(TypedDict):
    """The castle's owner gains ``points``; its follower returns; the token stays."""

    player: int
    castle: Segment
    points: int
    source: CastleSource
    follower: Follower


class CastleVacated(TypedDict):
    """At the end an occupied castle scores nothing; its follower is removed."""

    player: int
    castle: Segment
    follower: Follower


CASTLE_OFFERED: Final = EventKind(CastleOffered)
CASTLE_BUILT: Final = EventKind(CastleBuilt)
CASTLE_DECLINED: Final = EventKind(CastleDeclined)
FIEF_OFFERED: Final = EventKind(FiefOffered)
CASTLE_SCORED: Final = EventKind(CastleScored)
CASTLE_VACATED: Final = EventKind(CastleVacated)
