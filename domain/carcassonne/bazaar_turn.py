"""The bazaar part of the game (expansion; docs/carcassonne.md, "Bazaars"; seed
001, "Базары"): opening the auction after the turn that placed a bazaar, answering the
auction moves, and the bazaar turns in which each player plays their tile, after which
normal drawing resumes left of the active player. Events are worked out on clones; the
state given is never changed.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.carcassonne.bazaar_moves import Bid, Deal, Pass, Pick
from domain.carcassonne.bazaars import deciding, first_without, is_bazaar
from domain.carcassonne.evolve import evolve
from domain.carcassonne.moves import Move
from domain.carcassonne.placement import has_placement
from domain.carcassonne.state import CarcassonneState
from domain.carcassonne.tiles import TYPE_INDEX, TYPES
from domain.protocol import Event, IllegalMove
from domain.randomness import RandomStream

Ordinary = Callable[[CarcassonneState, int, RandomStream], list[Event]]
WithBridge = Callable[[CarcassonneState, list[Event], int], Callable[[int], bool]]


def _emit(work: CarcassonneState, events: list[Event], event: Event) -> None:
    evolve(work, event)
    events.append(event)


def opening(work: CarcassonneState, player: int, rng: RandomStream) -> list[Event]:
    """``AuctionOpened`` when ``player``'s tile of this turn (the last placed) is a bazaar,
    no bazaar is under way (no chain reaction) and at least as many tiles are left as
    players ("Too few tiles": else an ordinary tile); else nothing. The tiles are drawn as
    any draw is (a scenario's listed ones first, without random numbers)."""
    from domain.carcassonne.turn import draw  # noqa: PLC0415 - turn imports this module

    if work.bazaar is not None or not work.tiles or not is_bazaar(work.tiles[-1][1]):
        return []
    if work.tiles_left < work.players:
        return []
    stack, script, letters = list(work.stack), list(work.script), []
    for _ in range(work.players):
        if script:
            kind = script.pop(0)
            stack[kind] -= 1
        else:
            kind = draw(stack, rng)
        letters.append(TYPES[kind].letter)
    data = {
        "player": player,
        "tiles": letters,
        "variant": work.bazaar_variant,
        "tiles_left": sum(stack),
        "random_position": rng.position,
    }
    return [Event("AuctionOpened", data)]


def bazaar_turns(
    work: CarcassonneState, rng: RandomStream, ordinary: Ordinary, with_bridge: WithBridge
) -> list[Event]:
    """The next bazaar turn (``BazaarTileTaken``; a tile that fits nowhere, even with a
    bridge (``with_bridge``), is discarded and its player draws from the stack instead), or
    once every tile was played ``BazaarClosed`` and the ordinary next draw (``ordinary``)
    left of the active player. In the variant without bids, once a pick was played the next
    seat picks (``PickOffered``), and the last seat takes the last tile (``TileTakenFree``)
    and plays it. ``work`` is changed (a scratch copy)."""
    from domain.carcassonne.turn import draw_events  # noqa: PLC0415 - turn imports this module

    bazaar = work.bazaar
    assert bazaar is not None
    events: list[Event] = []
    while bazaar["turns"] or (bazaar["variant"] == "no-auction" and bazaar["tiles"]):
        if not bazaar["turns"]:  # variant without bids: the next seat picks, the last is given
            seat = (bazaar["auctioneer"] + 1) % work.players
            if len(bazaar["tiles"]) > 1:
                return [*events, Event("PickOffered", {"player": seat})]
            _emit(
                work, events, Event("TileTakenFree", {"player": seat, "tile": bazaar["tiles"][0]})
            )
            continue
        seat = bazaar["turns"][0]
        letter = bazaar["won"][seat]
        _emit(work, events, Event("BazaarTileTaken", {"player": seat, "tile": letter}))
        bridged = with_bridge(work, [], seat)
        if has_placement(work.frontier, TYPE_INDEX[letter]) or bridged(TYPE_INDEX[letter]):
            return events
        _emit(work, events, Event("TileDiscarded", {"player": seat, "tile": letter}))
        stack, script = list(work.stack), list(work.script)
        draws = draw_events(stack, script, work.frontier, seat, rng, bridged=bridged)
        if draws and draws[-1].type == "TileDrawn":
            return events + draws
        for event in draws:
            _emit(work, events, event)
    _emit(work, events, Event("BazaarClosed", {"player": bazaar["active"]}))
    return events + ordinary(work, bazaar["active"], rng)


def _settle(work: CarcassonneState, events: list[Event]) -> None:
    """The automatic steps: the auctioneer whose own bid stayed highest buys it from
    nobody; the last seat without a tile takes the last one free."""
    while (bazaar := work.bazaar) is not None and bazaar["stage"] == "auction":
        if bazaar["lot"] is not None:
            if bazaar["queue"] or bazaar["bidder"] != bazaar["auctioneer"]:
                return
            bought = {"player": bazaar["auctioneer"], "tile": bazaar["lot"]}
            _emit(work, events, Event("TileBought", bought | {"price": bazaar["bid"], "to": None}))
        elif len(bazaar["tiles"]) == 1:
            seat = first_without(bazaar, bazaar["auctioneer"])
            free = {"player": seat, "tile": bazaar["tiles"][0]}
            _emit(work, events, Event("TileTakenFree", free))
        else:
            return


def _event(state: CarcassonneState, player: int, move: Move) -> Event:
    bazaar = state.bazaar
    assert bazaar is not None
    if bazaar["variant"] == "no-auction":
        if not isinstance(move, Pick) or move.tile not in bazaar["tiles"]:
            raise IllegalMove("bazaar-pick", "Pick one of the revealed tiles.")
        return Event("TilePicked", {"player": player, "tile": move.tile})
    if bazaar["lot"] is None:
        if not isinstance(move, Bid) or move.tile not in bazaar["tiles"]:
            raise IllegalMove("auction-open", "Pick a revealed tile and bid 0 or more on it.")
        return Event("BidMade", {"player": player, "tile": move.tile, "amount": move.amount})
    lot = bazaar["lot"]
    if bazaar["queue"]:
        if isinstance(move, Pass):
            return Event("BidPassed", {"player": player, "tile": lot})
        if isinstance(move, Bid) and move.tile in (None, lot):
            if move.amount <= bazaar["bid"]:
                raise IllegalMove("bid-too-low", f"Bid more than {bazaar['bid']} or pass.")
            return Event("BidMade", {"player": player, "tile": lot, "amount": move.amount})
        raise IllegalMove("auction-bid", "Raise the bid or pass.")
    if not isinstance(move, Deal):
        raise IllegalMove("auction-deal", "Buy or sell the tile.")
    price, bidder = bazaar["bid"], bazaar["bidder"]
    if move.buy:
        return Event("TileBought", {"player": player, "tile": lot, "price": price, "to": bidder})
    return Event("TileSold", {"player": player, "buyer": bidder, "tile": lot, "price": price})


def play_auction(
    state: CarcassonneState, player: int, move: Move, rng: RandomStream, after: Ordinary
) -> list[Event]:
    """The events of ``player``'s auction move and what follows automatically (a buy from
    nobody, the free last tile, then the first bazaar turn via ``after``). Raises
    ``IllegalMove``; never changes ``state``."""
    seat = deciding(state)
    if player != seat:
        raise IllegalMove("not-your-turn", f"Seat {seat} acts in the auction.")
    event = _event(state, player, move)
    work = state.clone()
    events: list[Event] = []
    _emit(work, events, event)
    _settle(work, events)
    if work.bazaar is not None and work.bazaar["stage"] == "play":
        events += after(work, work.bazaar["active"], rng)
    return events
