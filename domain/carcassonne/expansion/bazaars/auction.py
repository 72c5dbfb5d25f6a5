"""Bazaars (expansion Bridges, Castles & Bazaars; docs/carcassonne.md, "Bazaars";
seed 001, "Базары", which wins where they differ): the auction's state, who acts and the legal
bids.

A bazaar placed in a normal turn opens an auction after that turn when at least as many
tiles are left as there are players: as many tiles as players are revealed. Starting left
of the active player, each player without a tile is auctioneer in turn (the first seat
without a tile clockwise from the last auctioneer's left, so a seller may be auctioneer
again): they pick a revealed tile and open with a bid of 0 or more; every other player
without a tile, clockwise, raises once or passes; the auctioneer buys (pays the highest bid
to its bidder, to nobody when their own bid stayed highest) or sells (the highest bidder
pays the auctioneer and takes the tile). The last player without a tile gets the last tile
free. Then, from the active player's left, each plays their tile as a normal turn. In the
variant without bids (seed 001, «аукцион без ставок») each seat from the active player's
left picks a tile and plays it before the next seat picks; the active player gets the last.
"""

from __future__ import annotations

from typing import Final

from domain.carcassonne.catalogue import CATALOGUE
from domain.carcassonne.decisions import Bazaar
from domain.carcassonne.expansion.bazaars.moves import MAX_BID, BazaarMove, Bid, Deal, Pass, Pick
from domain.carcassonne.state import CarcassonneState
from domain.carcassonne.tiles import TYPES

BAZAARS: Final = frozenset(str(tile["type"]) for tile in CATALOGUE if tile["bazaar"])
"""The letters of the bazaar tiles (BB1, BB3, BB5, BB6, BB9, BB10, BB11)."""


def is_bazaar(kind: int) -> bool:
    """Whether tile type ``kind`` (or its bridged variant) shows a bazaar."""
    return TYPES[kind].letter in BAZAARS


def first_without(bazaar: Bazaar, start: int) -> int:
    """The first seat clockwise from ``start`` (itself included) without a tile; -1."""
    won = bazaar["won"]
    for step in range(len(won)):
        seat = (start + step) % len(won)
        if won[seat] is None:
            return seat
    return -1


def deciding(state: CarcassonneState) -> int:
    """The seat that acts in the auction (picks, opens, answers, buys or sells); -1 when
    no auction is under way."""
    bazaar = state.bazaar
    if bazaar is None or bazaar["stage"] != "auction":
        return -1
    if bazaar["lot"] is not None and bazaar["queue"]:
        return int(bazaar["queue"][0])
    return int(bazaar["auctioneer"])


def offered(bazaar: Bazaar) -> list[str]:
    """The revealed tiles nobody has yet, each type once, in the order revealed."""
    return list(dict.fromkeys(bazaar["tiles"]))


RAISES: Final = tuple(Bid(None, amount) for amount in range(MAX_BID + 1))
"""Every raise, by amount (``RAISES[a]`` is ``Bid(None, a)``)."""
OPENINGS: Final = {
    letter: tuple(Bid(letter, amount) for amount in range(MAX_BID + 1))
    for letter in dict.fromkeys(tile.letter for tile in TYPES)
}
"""Every opening bid on a tile, by its letter and amount (ready-made, as the placements
are: :mod:`domain.carcassonne.moves`)."""


def auction_moves(state: CarcassonneState, player: int) -> list[BazaarMove]:
    """The moves ``player`` may make in the auction: every tile with every opening bid
    0..``MAX_BID``, or a pass and every raise up to ``MAX_BID`` (none once the highest bid
    is ``MAX_BID``), or buy and sell; in the variant without auction one pick per tile."""
    bazaar = state.bazaar
    if bazaar is None or player != deciding(state):
        return []
    if bazaar["variant"] == "no-auction":
        return [Pick(tile) for tile in offered(bazaar)]
    if bazaar["lot"] is None:
        return [bid for tile in offered(bazaar) for bid in OPENINGS[tile]]
    if bazaar["queue"]:
        return [Pass(), *RAISES[bazaar["bid"] + 1 :]]
    return [Deal(True), Deal(False)]


def held(state: CarcassonneState) -> int:
    """Revealed tiles not yet placed nor discarded (for the tile count)."""
    bazaar = state.bazaar
    if bazaar is None:
        return 0
    return len(bazaar["tiles"]) + sum(1 for tile in bazaar["won"] if tile is not None)
