"""The bazaar part of the game (expansion; docs/carcassonne.md, "Bazaars"; seed 001,
"Базары"): opening the auction after the turn that placed a bazaar, answering the auction
moves, and the bazaar turns in which each player plays their tile, after which normal
drawing resumes left of the active player. Every step reads the turn's state
(:class:`~domain.turn.Turn`) after the events emitted so far.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.carcassonne.events import TILE_DISCARDED
from domain.carcassonne.expansion.bazaars.auction import deciding, first_without, is_bazaar
from domain.carcassonne.expansion.bazaars.events import (
    AUCTION_OPENED,
    BAZAAR_CLOSED,
    BAZAAR_TILE_TAKEN,
    BID_MADE,
    BID_PASSED,
    PICK_OFFERED,
    TILE_BOUGHT,
    TILE_PICKED,
    TILE_SOLD,
    TILE_TAKEN_FREE,
)
from domain.carcassonne.expansion.bazaars.moves import Bid, Deal, Pass, Pick
from domain.carcassonne.expansion.bridges.placement import placeable
from domain.carcassonne.placement import has_placement_apart
from domain.carcassonne.stack import draw_tiles
from domain.carcassonne.state import CarcassonneState
from domain.carcassonne.tiles import TYPE_INDEX, TYPES
from domain.errors import IllegalMove
from domain.events import Event
from domain.randomness import RandomStream
from domain.turn import Turn

DrawTile = Callable[[Turn[CarcassonneState], int, RandomStream], bool]
"""The ordinary draw of a seat until a tile can be placed (True) or the stack is empty."""


def opening(turn: Turn[CarcassonneState], player: int, rng: RandomStream) -> bool:
    """Emit ``AuctionOpened`` when ``player``'s tile of this turn (the last placed) is a
    bazaar, no bazaar is under way (no chain reaction) and at least as many tiles are left
    as players ("Too few tiles": else an ordinary tile); whether it did. The tiles are drawn
    as any draw is (a scenario's listed ones first, without random numbers)."""
    state = turn.state
    if state.bazaar is not None or not state.tiles or not is_bazaar(state.tiles[-1][1]):
        return False
    if state.tiles_left < state.players:
        return False
    kinds = draw_tiles(state.stack, state.script, state.players, rng)
    opened = AUCTION_OPENED(
        {
            "player": player,
            "tiles": [TYPES[kind].letter for kind in kinds],
            "variant": state.bazaar_variant,
            "tiles_left": state.tiles_left - len(kinds),
            "random_position": rng.position,
        }
    )
    turn.emit(opened)
    return True


def bazaar_turns(
    turn: Turn[CarcassonneState], rng: RandomStream, draw_tile: DrawTile, placed: int = -1
) -> int:
    """Emit the next bazaar turn (``BazaarTileTaken``; a tile that fits nowhere, even with a
    bridge, is discarded and its player draws from the stack instead, ``draw_tile``), or
    once every tile was played ``BazaarClosed``. In the variant without bids, once a pick was
    played the next seat picks (``PickOffered``), and the last seat takes the last tile
    (``TileTakenFree``) and plays it. Returns the active player once the bazaar closed (the
    ordinary draw follows, left of them), else -1.

    ``placed``: the square of the tile placed in this turn, whose events changed no bazaar
    (as :func:`~domain.carcassonne.turn.draw_tile`'s): the bazaar is then read before the
    turn, and a tile taken that fits a square of the frontier away from ``placed`` (where
    the placement changed nothing) fits after it too; only otherwise is ``turn.state``
    read."""
    table = turn.before if placed >= 0 else turn.state
    bazaar = table.bazaar
    assert bazaar is not None
    while bazaar["turns"] or (bazaar["variant"] == "no-auction" and bazaar["tiles"]):
        if not bazaar["turns"]:  # variant without bids: the next seat picks, the last is given
            seat = (bazaar["auctioneer"] + 1) % table.players
            if len(bazaar["tiles"]) > 1:
                turn.emit(PICK_OFFERED({"player": seat}))
                return -1
            turn.emit(TILE_TAKEN_FREE({"player": seat, "tile": bazaar["tiles"][0]}))
        else:
            seat = bazaar["turns"][0]
            letter = bazaar["won"][seat]
            assert letter is not None  # a seat with a bazaar turn has won a tile
            turn.emit(BAZAAR_TILE_TAKEN({"player": seat, "tile": letter}))
            kind = TYPE_INDEX[letter]
            if placed >= 0 and has_placement_apart(table.frontier, kind, placed):
                return -1
            if placeable(turn.state):
                return -1
            turn.emit(TILE_DISCARDED({"player": seat, "tile": letter}))
            if draw_tile(turn, seat, rng):
                return -1
        table, placed = turn.state, -1
        bazaar = table.bazaar
        assert bazaar is not None
    turn.emit(BAZAAR_CLOSED({"player": bazaar["active"]}))
    return int(bazaar["active"])


def _settle(turn: Turn[CarcassonneState]) -> None:
    """The automatic steps: the auctioneer whose own bid stayed highest buys it from
    nobody; the last seat without a tile takes the last one free."""
    while (bazaar := turn.state.bazaar) is not None and bazaar["stage"] == "auction":
        if bazaar["lot"] is not None:
            if bazaar["queue"] or bazaar["bidder"] != bazaar["auctioneer"]:
                return
            auctioneer, lot, price = bazaar["auctioneer"], bazaar["lot"], bazaar["bid"]
            turn.emit(TILE_BOUGHT({"player": auctioneer, "tile": lot, "price": price, "to": None}))
        elif len(bazaar["tiles"]) == 1:
            seat = first_without(bazaar, bazaar["auctioneer"])
            turn.emit(TILE_TAKEN_FREE({"player": seat, "tile": bazaar["tiles"][0]}))
        else:
            return


def _event(state: CarcassonneState, player: int, move: object) -> Event:
    """The event of ``player``'s auction move (rules, "Bazaars"); raises ``IllegalMove``."""
    bazaar = state.bazaar
    assert bazaar is not None
    if bazaar["variant"] == "no-auction":
        if not isinstance(move, Pick) or move.tile not in bazaar["tiles"]:
            raise IllegalMove("bazaar-pick", "Pick one of the revealed tiles.")
        return TILE_PICKED({"player": player, "tile": move.tile})
    if bazaar["lot"] is None:
        if not isinstance(move, Bid) or move.tile is None or move.tile not in bazaar["tiles"]:
            raise IllegalMove("auction-open", "Pick a revealed tile and bid 0 or more on it.")
        return BID_MADE({"player": player, "tile": move.tile, "amount": move.amount})
    lot = bazaar["lot"]
    if bazaar["queue"]:
        if isinstance(move, Pass):
            return BID_PASSED({"player": player, "tile": lot})
        if isinstance(move, Bid) and move.tile in (None, lot):
            if move.amount <= bazaar["bid"]:
                raise IllegalMove("bid-too-low", f"Bid more than {bazaar['bid']} or pass.")
            return BID_MADE({"player": player, "tile": lot, "amount": move.amount})
        raise IllegalMove("auction-bid", "Raise the bid or pass.")
    if not isinstance(move, Deal):
        raise IllegalMove("auction-deal", "Buy or sell the tile.")
    price, bidder = bazaar["bid"], bazaar["bidder"]
    if move.buy:
        return TILE_BOUGHT({"player": player, "tile": lot, "price": price, "to": bidder})
    return TILE_SOLD({"player": player, "buyer": bidder, "tile": lot, "price": price})


def bid(turn: Turn[CarcassonneState], player: int, move: object) -> None:
    """Emit ``player``'s auction move and what follows automatically (a buy from nobody,
    the free last tile). The bazaar turns follow once ``turn.state.bazaar`` is at its
    ``"play"`` stage. Raises ``IllegalMove`` before emitting anything."""
    seat = deciding(turn.state)
    if player != seat:
        raise IllegalMove("not-your-turn", f"Seat {seat} acts in the auction.")
    turn.emit(_event(turn.state, player, move))
    _settle(turn)
