"""The bazaar's events (docs/carcassonne.md, "Bazaars"), each with its one typed definition
and its kind."""

from __future__ import annotations

from typing import Final

from typing_extensions import TypedDict

from domain.events import EventKind


class AuctionOpened(TypedDict):
    """After ``player``'s turn placed a bazaar, as many ``tiles`` as players are revealed
    (drawn as any draw is), with the stream position after them."""

    player: int
    tiles: list[str]
    variant: str
    tiles_left: int
    random_position: int


class BidMade(TypedDict):
    """``player`` opens the round on ``tile`` with ``amount`` (the auctioneer) or raises."""

    player: int
    tile: str
    amount: int


class BidPassed(TypedDict):
    """``player`` passes in the round on ``tile``."""

    player: int
    tile: str


class TileBought(TypedDict):
    """The auctioneer ``player`` buys ``tile``, paying ``price`` to the highest bidder
    ``to`` (``null``: nobody, their own bid stayed highest)."""

    player: int
    tile: str
    price: int
    to: int | None


class TileSold(TypedDict):
    """The auctioneer ``player`` sells ``tile``: the highest bidder ``buyer`` pays them
    ``price`` and takes it."""

    player: int
    buyer: int
    tile: str
    price: int


class TileTakenFree(TypedDict):
    """The last seat without a tile takes the last one for nothing."""

    player: int
    tile: str


class TilePicked(TypedDict):
    """Variant without bids: ``player`` picks ``tile``."""

    player: int
    tile: str


class BazaarTileTaken(TypedDict):
    """``player``'s bazaar tile is in their hand: their bazaar turn."""

    player: int
    tile: str


class BazaarClosed(TypedDict):
    """Every bazaar tile was played; normal drawing resumes left of the active ``player``."""

    player: int


class PickOffered(TypedDict):
    """Variant without bids: the previous pick was played; ``player`` picks next."""

    player: int


AUCTION_OPENED: Final = EventKind(AuctionOpened)
BID_MADE: Final = EventKind(BidMade)
BID_PASSED: Final = EventKind(BidPassed)
TILE_BOUGHT: Final = EventKind(TileBought)
TILE_SOLD: Final = EventKind(TileSold)
TILE_TAKEN_FREE: Final = EventKind(TileTakenFree)
TILE_PICKED: Final = EventKind(TilePicked)
BAZAAR_TILE_TAKEN: Final = EventKind(BazaarTileTaken)
BAZAAR_CLOSED: Final = EventKind(BazaarClosed)
PICK_OFFERED: Final = EventKind(PickOffered)
