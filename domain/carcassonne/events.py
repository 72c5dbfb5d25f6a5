"""The events of the base game, each with its one typed definition and its kind
(docs/carcassonne.md, "Events"; docs/architecture.md, "Typed events, moves and views").

A segment is named ``{"x", "y", "segment"}`` (:class:`Segment`), a follower
``{"player", "x", "y", "segment"}`` (:class:`Follower`). The expansion's events are in
:mod:`domain.carcassonne.expansion` (bridges, castles, bazaars).
"""

from __future__ import annotations

from typing import Final, Literal, NotRequired

from typing_extensions import TypedDict

from domain.events import EventKind

Axis = Literal["NS", "WE"]
"""A bridge's axis as it lies on the table (rules, "Bridges")."""


class Square(TypedDict):
    """A square of the table."""

    x: int
    y: int


class Segment(TypedDict):
    """A segment of a placed tile: its square and its id (``c0``, ``r1``, ``f2``, ``m0``,
    ``b0``)."""

    x: int
    y: int
    segment: str


class Follower(TypedDict):
    """A follower on the table: its owner and the segment it stands on."""

    player: int
    x: int
    y: int
    segment: str


class FirstPlayerChosen(TypedDict):
    """The first player drawn at ``begin`` (rules, "Base game"), with the stream position
    after the draw."""

    player: int
    random_position: int


class TileDrawn(TypedDict):
    """``player`` draws ``tile``, and it is their turn (rules, "A turn: draw a tile, show
    it"; docs/carcassonne.md, "Draw on demand")."""

    player: int
    tile: str
    tiles_left: int
    random_position: int


class TileDiscarded(TypedDict):
    """The drawn tile fits nowhere and leaves the game (rules, "Placing")."""

    player: int
    tile: str


class TilePlaced(TypedDict):
    """The tile in hand joins the table (rules, "Placing"); with the expansion maybe with a
    bridge across ``bridge`` (rules, "Bridges")."""

    player: int
    tile: str
    x: int
    y: int
    rotation: int
    bridge: NotRequired[Axis]


class FollowerDeployed(TypedDict):
    """A follower leaves the supply for a segment of the tile just placed (rules,
    "Deploying"); ``role`` is ``knight``, ``thief``, ``farmer`` or ``monk``."""

    player: int
    x: int
    y: int
    segment: str
    role: str


class FeatureScored(TypedDict):
    """A completed road, city or monastery with followers is scored (rules, "Scoring a
    completed feature"): the ``scorers`` gain ``points``, the ``followers`` return."""

    feature: str
    at: Segment
    tiles: int
    pennants: int
    points: int
    scorers: list[int]
    followers: list[Follower]


class FinalFeatureScored(FeatureScored):
    """An incomplete feature with followers is scored at the end (rules, "Final scoring",
    1): the same fields as :class:`FeatureScored`."""


class Award(TypedDict):
    """Points a farm pays one seat."""

    player: int
    points: int


class FarmScored(TypedDict):
    """A farm (or, ``per-city``, a supplied city) pays its farmers' majority (rules,
    "Final scoring", 2); the farmers stay."""

    variant: str
    farms: list[Segment]
    cities: list[Segment]
    farmers: list[Follower]
    scorers: list[int]
    awards: list[Award]


class Breakdown(TypedDict):
    """Per seat, the points from play, from incomplete features and from farms."""

    play: list[int]
    features: list[int]
    farms: list[int]


class GameEnded(TypedDict):
    """The final scores, ranks and winners, and the revealed seed (rules, "Highest total
    wins; ties share the victory")."""

    scores: list[int]
    ranks: list[int]
    winners: list[int]
    breakdown: Breakdown
    seed: str


FIRST_PLAYER_CHOSEN: Final = EventKind(FirstPlayerChosen)
TILE_DRAWN: Final = EventKind(TileDrawn)
TILE_DISCARDED: Final = EventKind(TileDiscarded)
TILE_PLACED: Final = EventKind(TilePlaced)
FOLLOWER_DEPLOYED: Final = EventKind(FollowerDeployed)
FEATURE_SCORED: Final = EventKind(FeatureScored)
FINAL_FEATURE_SCORED: Final = EventKind(FinalFeatureScored)
FARM_SCORED: Final = EventKind(FarmScored)
GAME_ENDED: Final = EventKind(GameEnded)
