"""How the bazaar's events change the state (docs/carcassonne.md, "Bazaars"; seed 001,
"Базары"; the handlers the game's catalogue binds, :mod:`domain.carcassonne.evolve`). The
auction under way is ``state.bazaar`` (:mod:`domain.carcassonne.expansion.bazaars.auction`).
"""

from __future__ import annotations

from domain.carcassonne.decisions import Bazaar
from domain.carcassonne.expansion.bazaars.auction import first_without
from domain.carcassonne.expansion.bazaars.events import (
    AuctionOpened,
    BazaarClosed,
    BazaarTileTaken,
    BidMade,
    BidPassed,
    PickOffered,
    TileBought,
    TilePicked,
    TileSold,
    TileTakenFree,
)
from domain.carcassonne.state import PLAY, CarcassonneState
from domain.carcassonne.tiles import TYPE_INDEX


def auction_opened(state: CarcassonneState, data: AuctionOpened) -> None:
    """``AuctionOpened``: the revealed tiles leave the stack (a scenario's listed ones
    first); the first auctioneer is the seat left of the active player."""
    for letter in data["tiles"]:
        if state.script:
            del state.script[0]
        state.stack[TYPE_INDEX[letter]] -= 1
    active = data["player"]
    bazaar: Bazaar = {
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


def bid_made(state: CarcassonneState, data: BidMade) -> None:
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


def bid_passed(state: CarcassonneState, data: BidPassed) -> None:
    """``BidPassed``: the seat is out of this round."""
    del data
    assert state.bazaar is not None
    state.bazaar["queue"].pop(0)


def _assign(state: CarcassonneState, seat: int, tile: str) -> None:
    bazaar = state.bazaar
    assert bazaar is not None
    bazaar["won"][seat] = tile
    bazaar["tiles"].remove(tile)
    if bazaar["variant"] == "no-auction":  # the seat plays its pick before the next picks
        bazaar.update({"stage": "play", "auctioneer": seat, "turns": [seat]})
        return
    bazaar.update({"lot": None, "bid": 0, "bidder": -1, "queue": []})
    if bazaar["tiles"]:
        bazaar["auctioneer"] = first_without(bazaar, bazaar["auctioneer"] + 1)
        return
    n = state.players
    bazaar.update({"stage": "play", "auctioneer": -1})
    bazaar["turns"] = [(bazaar["active"] + step) % n for step in range(1, n + 1)]


def tile_bought(state: CarcassonneState, data: TileBought) -> None:
    """``TileBought``: the auctioneer pays ``price`` to ``to`` (nobody when null)."""
    player, to, price = data["player"], data["to"], data["price"]
    state.scores[player] -= price
    if to is not None:
        state.scores[to] += price
    state.payments.append((player, -1 if to is None else to, price))
    _assign(state, player, data["tile"])


def tile_sold(state: CarcassonneState, data: TileSold) -> None:
    """``TileSold``: the buyer pays the auctioneer ``price`` and takes the tile."""
    player, buyer, price = data["player"], data["buyer"], data["price"]
    state.scores[buyer] -= price
    state.scores[player] += price
    state.payments.append((buyer, player, price))
    _assign(state, buyer, data["tile"])


def tile_free(state: CarcassonneState, data: TileTakenFree | TilePicked) -> None:
    """``TileTakenFree`` / ``TilePicked``: the seat takes the tile for nothing."""
    _assign(state, data["player"], data["tile"])


def pick_offered(state: CarcassonneState, data: PickOffered) -> None:
    """``PickOffered`` (variant without bids): the previous pick was played; ``player``
    picks next."""
    bazaar = state.bazaar
    assert bazaar is not None
    bazaar.update({"stage": "auction", "auctioneer": data["player"]})


def bazaar_tile_taken(state: CarcassonneState, data: BazaarTileTaken) -> None:
    """``BazaarTileTaken``: the seat's bought tile is in their hand: their bazaar turn."""
    bazaar = state.bazaar
    assert bazaar is not None
    player = data["player"]
    bazaar["won"][player] = None
    bazaar["turns"].remove(player)
    state.in_hand = TYPE_INDEX[data["tile"]]
    state.current = player
    state.phase = PLAY


def bazaar_closed(state: CarcassonneState, data: BazaarClosed) -> None:
    """``BazaarClosed``: every bought tile was played; normal drawing resumes."""
    del data
    state.bazaar = None
