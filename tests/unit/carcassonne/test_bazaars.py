# ruff: noqa: RUF002 - the seeds are quoted in Russian
"""Bazaars (expansion; docs/carcassonne.md, "Bazaars"; seed 001, "Базары"): the
seed's three-player auction move by move, the variant without auction, too few tiles, a
bought tile that fits nowhere, no chain reaction, the move formats and random games."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from domain.carcassonne import CARCASSONNE, CarcassonneState
from domain.carcassonne.every_move import Move
from domain.carcassonne.expansion.bazaars.moves import MAX_BID, Bid, Deal, Pass, Pick
from domain.carcassonne.moves import Place
from domain.protocol import Event, IllegalMove, InvalidMove, Viewer
from domain.randomness import RandomStream
from tests.unit.carcassonne.helpers import evolve_apart, random_game

BCB: dict[str, Any] = {"expansions": ["bridges-castles-bazaars"]}
RED, BLUE, GREEN = 0, 1, 2
"""The seed's example: Red draws the bazaar, Blue sits on Red's left, then Green."""


def game(players: int, stack: list[str], **options: Any) -> CarcassonneState:
    state = CARCASSONNE.setup(players, {**BCB, "stack": stack, "stack-only": True, **options})
    for event in CARCASSONNE.begin(state, RandomStream("bazaar")):
        CARCASSONNE.evolve(state, event)
    return state


def act(state: CarcassonneState, player: int, text: str) -> list[Event]:
    """``player`` makes the move in notation, which must be listed; events evolved."""
    assert CARCASSONNE.current_players(state) == [player]
    move = CARCASSONNE.parse_notation(text)
    assert move in CARCASSONNE.legal_moves(state, player), text
    return _apply(state, player, move)


def _apply(state: CarcassonneState, player: int, move: Move) -> list[Event]:
    events = CARCASSONNE.apply(state, player, move, RandomStream("bazaar", state.random_position))
    evolve_apart(state.clone(), events)
    for event in events:
        CARCASSONNE.evolve(state, event)
        assert CARCASSONNE.check_invariants(state) == [], event
    return events


def place_any(state: CarcassonneState) -> list[Event]:
    """The seat holding a tile places it at its first listed placement, no follower."""
    (player,) = CARCASSONNE.current_players(state)
    move = next(
        m
        for m in CARCASSONNE.legal_moves(state, player)
        if isinstance(m, Place) and m.follower is None
    )
    return _apply(state, player, move)


def types(events: list[Event]) -> list[str]:
    return [event.type for event in events]


def test_the_seeds_three_player_auction_move_by_move() -> None:
    state = game(3, ["BB6", "B", "E", "U"])
    events = act(state, RED, "BB6@0,1r0+f0")
    assert types(events) == ["TilePlaced", "FollowerDeployed", "AuctionOpened"]
    assert events[-1].data == {
        "player": RED,
        "tiles": ["B", "E", "U"],
        "variant": "auction",
        "tiles_left": 0,
        "random_position": 0,
    }
    view = CARCASSONNE.view(state, Viewer())
    assert view["bazaar"]["tiles"] == ["B", "E", "U"] and view["current_players"] == [BLUE]
    # Blue (left of Red) picks a tile and opens with 2; Green passes; Red bids 3
    assert act(state, BLUE, "bid B 2")[0].data == {"player": BLUE, "tile": "B", "amount": 2}
    assert Pass() in CARCASSONNE.legal_moves(state, GREEN)
    assert types(act(state, GREEN, "pass")) == ["BidPassed"]
    act(state, RED, "bid 3")
    assert CARCASSONNE.legal_moves(state, BLUE) == [Deal(True), Deal(False)]
    # Blue buys: pays Red 3
    bought = act(state, BLUE, "buy")
    assert bought[0].data == {"player": BLUE, "tile": "B", "price": 3, "to": RED}
    assert state.scores == [3, -3, 0]
    # Green opens 2 on E; Red bids 3 (Blue, who has a tile, may not bid); Green sells to Red
    act(state, GREEN, "bid E 2")
    assert CARCASSONNE.current_players(state) == [RED]
    act(state, RED, "bid 3")
    sold = act(state, GREEN, "sell")
    assert types(sold)[:2] == ["TileSold", "TileTakenFree"]
    assert sold[0].data == {"player": GREEN, "buyer": RED, "tile": "E", "price": 3}
    # Green gets the last tile free; then from Blue each plays the tile bought
    assert sold[1].data == {"player": GREEN, "tile": "U"}
    assert state.scores == [0, -3, 3]
    assert sold[2].type == "BazaarTileTaken" and sold[2].data == {"player": BLUE, "tile": "B"}
    assert state.bazaar is not None and state.bazaar["won"] == ["E", None, "U"]
    played = [place_any(state) for _ in range(3)]
    assert [e.data for e in played[0] if e.type == "BazaarTileTaken"] == [
        {"player": GREEN, "tile": "U"}
    ]
    assert [e.data for e in played[1] if e.type == "BazaarTileTaken"] == [
        {"player": RED, "tile": "E"}
    ]
    assert "BazaarClosed" in types(played[2]) and "GameEnded" in types(played[2])
    assert state.tiles[-3:][0][3] == BLUE and [t[3] for t in state.tiles[-3:]] == [1, 2, 0]
    assert CARCASSONNE.outcome(state) is not None
    assert state.scores == [0, -3, 3]  # the farmer supplies no completed city
    assert state.payments == [(BLUE, RED, 3), (RED, GREEN, 3)]


def test_an_auctioneer_whose_bid_stays_highest_pays_nobody() -> None:
    state = game(2, ["BB6", "B", "E"])
    act(state, 0, "BB6@0,1r0")
    events = act(state, 1, "bid E 4")
    assert events[0].type == "BidMade"
    events = act(state, 0, "pass")
    assert types(events)[:3] == ["BidPassed", "TileBought", "TileTakenFree"]
    assert events[1].data == {"player": 1, "tile": "E", "price": 4, "to": None}
    assert state.scores == [0, -4]


def test_the_variant_without_bids_picks_and_places_in_turn() -> None:
    """Seed 001, «Вариант аукциона без ставок»: «Игрок по левую руку от действующего игрока
    выбирает себе квадрат и выкладывает его на стол по обычным правилам, затем тоже самое
    делает следующий по часовой стрелке игрок»: each seat picks a tile and places it before
    the next seat picks; the active player, last, gets the last tile."""
    state = game(3, ["BB6", "B", "E", "U", "B"], bazaar="no-auction")
    assert CARCASSONNE.normalise_options({**BCB, "bazaar": "no-auction"})["bazaar"] == "no-auction"
    act(state, RED, "BB6@0,1r0")
    assert CARCASSONNE.legal_moves(state, BLUE) == [Pick("B"), Pick("E"), Pick("U")]
    events = act(state, BLUE, "pick U")
    assert types(events) == ["TilePicked", "BazaarTileTaken"]
    assert events[1].data == {"player": BLUE, "tile": "U"}
    assert CARCASSONNE.current_players(state) == [BLUE]  # Blue places before Green picks
    assert CARCASSONNE.legal_moves(state, GREEN) == []
    assert {getattr(m, "tile", None) for m in CARCASSONNE.legal_moves(state, BLUE)} == {"U"}
    events = place_any(state)
    assert types(events)[-1] == "PickOffered" and events[-1].data == {"player": GREEN}
    assert CARCASSONNE.legal_moves(state, GREEN) == [Pick("B"), Pick("E")]
    assert CARCASSONNE.view(state, Viewer.spectator())["bazaar"]["tiles"] == ["B", "E"]
    with pytest.raises(IllegalMove) as refused:
        CARCASSONNE.apply(state, GREEN, Bid("E", 1), RandomStream("x"))
    assert refused.value.code == "bazaar-pick"
    assert types(act(state, GREEN, "pick B")) == ["TilePicked", "BazaarTileTaken"]
    events = place_any(state)  # Green's B; Red, the active player, gets the last tile
    assert types(events)[-2:] == ["TileTakenFree", "BazaarTileTaken"]
    assert events[-1].data == {"player": RED, "tile": "E"}
    events = place_any(state)  # Red's E; drawing resumes left of the active player
    assert types(events)[-2:] == ["BazaarClosed", "TileDrawn"]
    assert events[-1].data["player"] == BLUE and state.bazaar is None
    assert state.scores == [0, 0, 0]
    assert [state.tiles[k][3] for k in range(2, 5)] == [BLUE, GREEN, RED]


def test_too_few_tiles_left_make_the_bazaar_an_ordinary_tile() -> None:
    state = game(3, ["BB6", "B"])
    events = act(state, RED, "BB6@0,1r0")
    assert "AuctionOpened" not in types(events)
    assert events[-1].type == "TileDrawn" and events[-1].data["player"] == BLUE


def test_a_bought_tile_that_fits_nowhere_is_discarded_and_its_player_draws() -> None:
    # the start tile's city closed by E: the C (all city) fits nowhere
    state = game(3, ["E", "BB6", "C", "B", "B", "B"])
    act(state, 0, "E@0,-1r180")
    act(state, 1, "BB6@0,1r0")
    act(state, 2, "bid C 0")
    act(state, 0, "pass")
    events = act(state, 1, "pass")  # seat 2's own bid stays highest: bought from nobody
    assert types(events) == ["BidPassed", "TileBought"]
    assert events[1].data == {"player": 2, "tile": "C", "price": 0, "to": None}
    assert CARCASSONNE.current_players(state) == [0]  # left of the last auctioneer
    events = act(state, 0, "bid B 1")
    assert types(events) == ["BidMade"]
    events = act(state, 1, "pass")
    assert types(events) == [
        "BidPassed",
        "TileBought",
        "TileTakenFree",
        "BazaarTileTaken",
        "TileDiscarded",
        "TileDrawn",
    ]
    assert events[-1].data["player"] == 2 and events[-1].data["tile"] == "B"
    assert state.scores == [-1, 0, 0]
    place_any(state)  # seat 2, the tile from the stack
    place_any(state)  # seat 0
    last = place_any(state)  # seat 1
    assert "GameEnded" in types(last) and state.discarded == [2]


def test_a_bazaar_placed_in_a_bazaar_turn_starts_no_auction() -> None:
    state = game(2, ["BB6", "BB9", "B", "B", "E"], bazaar="no-auction")
    act(state, 0, "BB6@0,1r0")
    events = act(state, 1, "pick BB9")
    assert types(events)[-1] == "BazaarTileTaken" and events[-1].data["player"] == 1
    first = place_any(state)  # seat 1 places BB9, a bazaar: no chain reaction
    assert "AuctionOpened" not in types(first)
    second = place_any(state)  # seat 0's B, then normal drawing left of the active seat
    assert types(second)[-2:] == ["BazaarClosed", "TileDrawn"]
    assert second[-1].data["player"] == 1 and state.bazaar is None
    assert "AuctionOpened" not in types(place_any(state))


def test_refusals_and_the_highest_bid() -> None:
    """Bids run 0..MAX_BID (docs, "Bazaars": the bidding bound): every one of them is
    listed, and the readers refuse anything above, so listing, parser and apply agree."""
    state = game(3, ["BB6", "B", "E", "U"])
    act(state, RED, "BB6@0,1r0")
    with pytest.raises(IllegalMove) as refused:
        CARCASSONNE.apply(state, GREEN, Bid("B", 1), RandomStream("x"))
    assert refused.value.code == "not-your-turn"
    with pytest.raises(IllegalMove) as refused:
        CARCASSONNE.apply(state, BLUE, Bid("A", 1), RandomStream("x"))
    assert refused.value.code == "auction-open"
    openings = [m for m in CARCASSONNE.legal_moves(state, BLUE) if isinstance(m, Bid)]
    assert {m.amount for m in openings} == set(range(MAX_BID + 1))
    assert len(openings) == 3 * (MAX_BID + 1)  # B, E, U: the listing does not grow with scores
    act(state, BLUE, "bid E 5")
    with pytest.raises(IllegalMove) as refused:
        CARCASSONNE.apply(state, GREEN, Bid(None, 5), RandomStream("x"))
    assert refused.value.code == "bid-too-low"
    raises = [m for m in CARCASSONNE.legal_moves(state, GREEN) if isinstance(m, Bid)]
    assert [m.amount for m in raises] == list(range(6, MAX_BID + 1))
    for too_high in ({"type": "bid", "tile": None, "amount": MAX_BID + 1}, f"bid {MAX_BID + 1}"):
        with pytest.raises(InvalidMove) as malformed:
            if isinstance(too_high, str):
                CARCASSONNE.parse_notation(too_high)
            else:
                CARCASSONNE.parse_move(too_high)
        assert malformed.value.code == "malformed-move"
    with pytest.raises(InvalidMove):
        CARCASSONNE.apply(state, GREEN, Bid(None, MAX_BID + 1), RandomStream("x"))
    act(state, GREEN, f"bid {MAX_BID}")
    assert CARCASSONNE.legal_moves(state, RED) == [Pass()]  # nothing above the highest bid


@pytest.mark.parametrize(
    ("move", "json", "text"),
    [
        (Bid("BB1", 2), {"type": "bid", "tile": "BB1", "amount": 2}, "bid BB1 2"),
        (Bid(None, 3), {"type": "bid", "tile": None, "amount": 3}, "bid 3"),
        (Pass(), {"type": "pass"}, "pass"),
        (Deal(True), {"type": "deal", "buy": True}, "buy"),
        (Deal(False), {"type": "deal", "buy": False}, "sell"),
        (Pick("K"), {"type": "pick", "tile": "K"}, "pick K"),
    ],
)
def test_bazaar_move_formats(move: Move, json: dict[str, Any], text: str) -> None:
    assert CARCASSONNE.move_to_json(move) == json
    assert CARCASSONNE.parse_move(json) == move
    assert CARCASSONNE.notation(move) == text
    assert CARCASSONNE.parse_notation(text) == move
    assert CARCASSONNE.parse_notation(f" {text.upper()} ") == move


def test_random_games_hold_auctions_and_keep_every_law() -> None:
    seen: Counter[str] = Counter()
    for seed in range(15):
        options = {**BCB, "bazaar": "no-auction"} if seed % 3 == 2 else BCB
        log: list[Event] = []
        for state, step in random_game(2 + seed % 5, seed, options):
            seen.update(types(step.events))
            log += step.events
            if state.bazaar is not None:
                assert CARCASSONNE.state_from_json(CARCASSONNE.state_to_json(state)) == state
        assert CARCASSONNE.check_invariants(state) == []
        assert CARCASSONNE.outcome(state) is not None and state.bazaar is None
        replayed = CARCASSONNE.setup(state.players, options)
        for event in log:
            CARCASSONNE.evolve(replayed, event)
        assert replayed == state
    for kind in ("AuctionOpened", "BidMade", "BidPassed", "TileBought", "TileSold"):
        assert seen[kind], kind
    assert seen["TilePicked"] and seen["TileTakenFree"] and seen["BazaarClosed"]
