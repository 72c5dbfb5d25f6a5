"""Bazaars (expansion Bridges, Castles & Bazaars; docs/carcassonne.md, "Bazaars";
seed 001, "Базары", which wins where they differ): the auction's state, who acts, the legal
bids, and how its events change the state (the evolve handlers).

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

from typing import Any, Final

from domain.carcassonne.bazaar_moves import MAX_BID, Bid, Deal, Pass, Pick
from domain.carcassonne.catalogue import CATALOGUE
from domain.carcassonne.state import PLAY, CarcassonneState
from domain.carcassonne.tiles import TYPE_INDEX, TYPES

BAZAARS: Final = frozenset(str(tile["type"]) for tile in CATALOGUE if tile["bazaar"])
"""The letters of the bazaar tiles (BB1, BB3, BB5, BB6, BB9, BB10, BB11)."""

Data = dict[str, Any]


def is_bazaar(kind: int) -> bool:
    """Whether tile type ``kind`` (or its bridged variant) shows a bazaar."""
    return TYPES[kind].letter in BAZAARS


def first_without(bazaar: Data, start: int) -> int:
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


def offered(bazaar: Data) -> list[str]:
    """The revealed tiles nobody has yet, each type once, in the order revealed."""
    return list(dict.fromkeys(bazaar["tiles"]))


def auction_moves(state: CarcassonneState, player: int) -> list[Any]:
    """The moves ``player`` may make in the auction: every tile with every opening bid
    0..``MAX_BID``, or a pass and every raise up to ``MAX_BID`` (none once the highest bid
    is ``MAX_BID``), or buy and sell; in the variant without auction one pick per tile."""
    bazaar = state.bazaar
    if bazaar is None or player != deciding(state):
        return []
    if bazaar["variant"] == "no-auction":
        return [Pick(tile) for tile in offered(bazaar)]
    if bazaar["lot"] is None:
        return [Bid(tile, amount) for tile in offered(bazaar) for amount in range(MAX_BID + 1)]
    if bazaar["queue"]:
        return [Pass(), *(Bid(None, a) for a in range(bazaar["bid"] + 1, MAX_BID + 1))]
    return [Deal(True), Deal(False)]


def held(state: CarcassonneState) -> int:
    """Revealed tiles not yet placed nor discarded (for the tile count)."""
    bazaar = state.bazaar
    if bazaar is None:
        return 0
    return len(bazaar["tiles"]) + sum(1 for tile in bazaar["won"] if tile is not None)


# -- evolve ---------------------------------------------------------------------------


def auction_opened(state: CarcassonneState, data: Data) -> None:
    """``AuctionOpened``: the revealed tiles leave the stack (a scenario's listed ones
    first); the first auctioneer is the seat left of the active player."""
    for letter in data["tiles"]:
        if state.script:
            del state.script[0]
        state.stack[TYPE_INDEX[letter]] -= 1
    state.random_position = data["random_position"]
    active = data["player"]
    bazaar: Data = {
        "active": active,
        "variant": data["variant"],
        "stage": "auction",
        "tiles": list(data["tiles"]),
        "won": [None] * state.players,
        "auctioneer": (active + 1) % state.players,
        "lot": None,
        "bid": 0,
        "bidder": -1,
        "queue": [],
        "turns": [],
    }
    state.bazaar = bazaar


def bid_made(state: CarcassonneState, data: Data) -> None:
    """``BidMade``: an opening bid names the lot and queues the others without a tile
    clockwise; a raise takes the bidder out of the queue."""
    bazaar = state.bazaar
    assert bazaar is not None
    player = data["player"]
    if bazaar["lot"] is None:
        bazaar["lot"] = data["tile"]
        n = state.players
        seats = ((player + step) % n for step in range(1, n))
        bazaar["queue"] = [seat for seat in seats if bazaar["won"][seat] is None]
    else:
        bazaar["queue"].pop(0)
    bazaar["bid"] = data["amount"]
    bazaar["bidder"] = player


def bid_passed(state: CarcassonneState, data: Data) -> None:
    """``BidPassed``: the seat is out of this round."""
    assert state.bazaar is not None
    state.bazaar["queue"].pop(0)


def _assign(state: CarcassonneState, seat: int, tile: str) -> None:
    bazaar = state.bazaar
    assert bazaar is not None
    bazaar["won"][seat] = tile
    bazaar["tiles"].remove(tile)
    if bazaar["variant"] == "no-auction":  # the seat plays its pick before the next picks
        bazaar.update(stage="play", auctioneer=seat, turns=[seat])
        return
    bazaar.update(lot=None, bid=0, bidder=-1, queue=[])
    if bazaar["tiles"]:
        bazaar["auctioneer"] = first_without(bazaar, bazaar["auctioneer"] + 1)
        return
    n = state.players
    bazaar.update(stage="play", auctioneer=-1)
    bazaar["turns"] = [(bazaar["active"] + step) % n for step in range(1, n + 1)]


def tile_bought(state: CarcassonneState, data: Data) -> None:
    """``TileBought``: the auctioneer pays ``price`` to ``to`` (nobody when null)."""
    player, to, price = data["player"], data["to"], data["price"]
    state.scores[player] -= price
    if to is not None:
        state.scores[to] += price
    state.payments.append((player, -1 if to is None else to, price))
    _assign(state, player, data["tile"])


def tile_sold(state: CarcassonneState, data: Data) -> None:
    """``TileSold``: the buyer pays the auctioneer ``price`` and takes the tile."""
    player, buyer, price = data["player"], data["buyer"], data["price"]
    state.scores[buyer] -= price
    state.scores[player] += price
    state.payments.append((buyer, player, price))
    _assign(state, buyer, data["tile"])


def tile_free(state: CarcassonneState, data: Data) -> None:
    """``TileTakenFree`` / ``TilePicked``: the seat takes the tile for nothing."""
    _assign(state, data["player"], data["tile"])


def pick_offered(state: CarcassonneState, data: Data) -> None:
    """``PickOffered`` (variant without bids): the previous pick was played; ``player``
    picks next."""
    bazaar = state.bazaar
    assert bazaar is not None
    bazaar.update(stage="auction", auctioneer=data["player"])


def bazaar_tile_taken(state: CarcassonneState, data: Data) -> None:
    """``BazaarTileTaken``: the seat's bought tile is in their hand: their bazaar turn."""
    bazaar = state.bazaar
    assert bazaar is not None
    player = data["player"]
    bazaar["won"][player] = None
    bazaar["turns"].remove(player)
    state.in_hand = TYPE_INDEX[data["tile"]]
    state.current = player
    state.phase = PLAY


def bazaar_closed(state: CarcassonneState, data: Data) -> None:
    """``BazaarClosed``: every bought tile was played; normal drawing resumes."""
    state.bazaar = None


BAZAAR_HANDLERS: Final = {
    "AuctionOpened": auction_opened,
    "BidMade": bid_made,
    "BidPassed": bid_passed,
    "TileBought": tile_bought,
    "TileSold": tile_sold,
    "TileTakenFree": tile_free,
    "TilePicked": tile_free,
    "BazaarTileTaken": bazaar_tile_taken,
    "BazaarClosed": bazaar_closed,
    "PickOffered": pick_offered,
}
