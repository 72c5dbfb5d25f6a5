"""How each recorded event changes the state: the only code replay runs
(docs/architecture.md, "Events are the record"; the events are in docs/carcassonne.md,
"Events"). One handler per event of the base game, typed with its definition
(:mod:`domain.carcassonne.events`), and :data:`EVENTS`, the game's catalogue, binding them and
the expansion's (:mod:`domain.carcassonne.expansion`). Handlers change the state in place and
never draw random numbers; the catalogue stores a recorded ``random_position``.
"""

from __future__ import annotations

from typing import Final

from domain.carcassonne.board import place_tile
from domain.carcassonne.events import (
    FARM_SCORED,
    FEATURE_SCORED,
    FINAL_FEATURE_SCORED,
    FIRST_PLAYER_CHOSEN,
    FOLLOWER_DEPLOYED,
    GAME_ENDED,
    TILE_DISCARDED,
    TILE_DRAWN,
    TILE_PLACED,
    FarmScored,
    FeatureScored,
    FinalFeatureScored,
    FirstPlayerChosen,
    Follower,
    FollowerDeployed,
    GameEnded,
    TileDiscarded,
    TileDrawn,
    TilePlaced,
)
from domain.carcassonne.expansion.bazaars import evolve as bazaars
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
from domain.carcassonne.expansion.bridges.events import BRIDGE_PLACED
from domain.carcassonne.expansion.bridges.evolve import bridge_placed
from domain.carcassonne.expansion.castles import evolve as castles
from domain.carcassonne.expansion.castles.events import (
    CASTLE_BUILT,
    CASTLE_DECLINED,
    CASTLE_OFFERED,
    CASTLE_SCORED,
    CASTLE_VACATED,
    FIEF_OFFERED,
)
from domain.carcassonne.grid import pos_of
from domain.carcassonne.state import NODE_BITS, OVER, PLAY, CarcassonneState, stamp, writable
from domain.carcassonne.tiles import AXES, TYPE_INDEX, TYPES, VARIANTS
from domain.events import EventCatalogue


def tile_drawn(state: CarcassonneState, data: TileDrawn) -> None:
    """``TileDrawn`` (rules, "A turn: draw a tile, show it"): the tile leaves the stack and
    is in the hand of ``player``, whose turn it now is. In a scenario the listed tiles come
    first: the draw takes the first of those left."""
    kind = TYPE_INDEX[data["tile"]]
    if state.script:
        del state.script[0]
    state.stack[kind] -= 1
    state.in_hand = kind
    state.current = data["player"]
    state.phase = PLAY


def first_player_chosen(state: CarcassonneState, data: FirstPlayerChosen) -> None:
    """``FirstPlayerChosen`` (rules, "Base game": the first player is chosen at random): the
    seat drawn (the catalogue stores the stream position after the draw)."""
    state.first_player = data["player"]


def tile_discarded(state: CarcassonneState, data: TileDiscarded) -> None:
    """``TileDiscarded`` (rules, "Placing": a tile with no legal placement is out of the
    game)."""
    state.discarded.append(TYPE_INDEX[data["tile"]])
    state.in_hand = -1


def tile_placed(state: CarcassonneState, data: TilePlaced) -> None:
    """``TilePlaced`` (rules, "Placing"): the tile joins the table and its features; with
    ``bridge`` (rules, "Bridges") as its bridged variant, and a bridge token is used."""
    kind = TYPE_INDEX[data["tile"]]
    turns = data["rotation"] // 90
    pos = pos_of(data["x"], data["y"])
    bridge = data.get("bridge")
    if bridge is not None:
        axis = AXES.index(bridge)
        kind = VARIANTS[kind][axis ^ (turns & 1)]
        state.bridge_log.append((len(state.tiles), pos, axis))
        state.bridges[data["player"]] -= 1
    place_tile(state, pos, kind, turns, data["player"])
    state.in_hand = -1
    state.turn += 1


def follower_deployed(state: CarcassonneState, data: FollowerDeployed) -> None:
    """``FollowerDeployed`` (rules, "Deploying"): a follower leaves the supply for a segment
    of the tile just placed."""
    pos = pos_of(data["x"], data["y"])
    k = state.board[pos]
    segment = TYPES[state.tiles[k][1]].segment_index(data["segment"])
    player = data["player"]
    state.followers[pos] = (player, segment)
    feature = writable(state, state.feat[k << NODE_BITS | segment])
    if not feature.followers:
        stamp(state, feature)
    feature.followers.append(pos)
    state.supply[player] -= 1
    state.deployed[k] = segment


def _return_followers(state: CarcassonneState, followers: list[Follower]) -> None:
    """The followers go back to their owners' supply."""
    for follower in followers:
        pos = pos_of(follower["x"], follower["y"])
        player, segment = state.followers.pop(pos)
        feature = writable(state, state.feat[state.board[pos] << NODE_BITS | segment])
        feature.followers.remove(pos)
        if not feature.followers:
            stamp(state, feature)
        state.supply[player] += 1


def feature_scored(state: CarcassonneState, data: FeatureScored | FinalFeatureScored) -> None:
    """``FeatureScored`` / ``FinalFeatureScored`` (rules, "Scoring a completed feature";
    "Final scoring", 1): every scorer gains the points; the followers return."""
    points = data["points"]
    for seat in data["scorers"]:
        state.scores[seat] += points
    _return_followers(state, data["followers"])


def farm_scored(state: CarcassonneState, data: FarmScored) -> None:
    """``FarmScored`` (rules, "Final scoring", 2): the awards are added; farmers stay."""
    for award in data["awards"]:
        state.scores[award["player"]] += award["points"]


def game_ended(state: CarcassonneState, data: GameEnded) -> None:
    """``GameEnded`` (rules, "Highest total wins; ties share the victory")."""
    state.phase = OVER
    state.current = -1
    state.in_hand = -1
    state.scores = list(data["scores"])
    breakdown = data["breakdown"]
    state.result = {
        "ranks": list(data["ranks"]),
        "winners": list(data["winners"]),
        "breakdown": {
            "play": list(breakdown["play"]),
            "features": list(breakdown["features"]),
            "farms": list(breakdown["farms"]),
        },
    }


EVENTS: Final = EventCatalogue[CarcassonneState]("Carcassonne")
"""The event catalogue (docs/carcassonne.md, "Events"), in the order the events were
introduced: the base game's, the expansion's bridges, castles and bazaars, then the drawn
first player."""
EVENTS.on(TILE_DRAWN, tile_drawn)
EVENTS.on(TILE_DISCARDED, tile_discarded)
EVENTS.on(TILE_PLACED, tile_placed)
EVENTS.on(FOLLOWER_DEPLOYED, follower_deployed)
EVENTS.on(FEATURE_SCORED, feature_scored)
EVENTS.on(FINAL_FEATURE_SCORED, feature_scored)
EVENTS.on(FARM_SCORED, farm_scored)
EVENTS.on(GAME_ENDED, game_ended)
EVENTS.on(BRIDGE_PLACED, bridge_placed)
EVENTS.on(CASTLE_OFFERED, castles.castle_offered)
EVENTS.on(CASTLE_BUILT, castles.castle_built)
EVENTS.on(CASTLE_DECLINED, castles.castle_declined)
EVENTS.on(FIEF_OFFERED, castles.fief_offered)
EVENTS.on(CASTLE_SCORED, castles.castle_scored)
EVENTS.on(CASTLE_VACATED, castles.castle_vacated)
EVENTS.on(AUCTION_OPENED, bazaars.auction_opened)
EVENTS.on(BID_MADE, bazaars.bid_made)
EVENTS.on(BID_PASSED, bazaars.bid_passed)
EVENTS.on(TILE_BOUGHT, bazaars.tile_bought)
EVENTS.on(TILE_SOLD, bazaars.tile_sold)
EVENTS.on(TILE_TAKEN_FREE, bazaars.tile_free)
EVENTS.on(TILE_PICKED, bazaars.tile_free)
EVENTS.on(BAZAAR_TILE_TAKEN, bazaars.bazaar_tile_taken)
EVENTS.on(BAZAAR_CLOSED, bazaars.bazaar_closed)
EVENTS.on(PICK_OFFERED, bazaars.pick_offered)
EVENTS.on(FIRST_PLAYER_CHOSEN, first_player_chosen)
