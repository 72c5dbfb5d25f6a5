"""How each recorded event changes the state: the only code replay runs
(docs/architecture.md, "Events are the record"; the event catalogue is in docs/carcassonne.md,
"Events"). Handlers change the state in place and never draw random numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from domain.carcassonne import castles
from domain.carcassonne.bazaars import BAZAAR_HANDLERS
from domain.carcassonne.board import place_tile
from domain.carcassonne.bridges import add_bridge
from domain.carcassonne.grid import pos_of
from domain.carcassonne.state import NODE_BITS, OVER, PLAY, CarcassonneState, stamp
from domain.carcassonne.tiles import AXES, TYPE_INDEX, TYPES, VARIANTS
from domain.protocol import Event, GameError

Data = dict[str, Any]


def tile_drawn(state: CarcassonneState, data: Data) -> None:
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
    state.random_position = data["random_position"]


def first_player_chosen(state: CarcassonneState, data: Data) -> None:
    """``FirstPlayerChosen`` (rules, "Base game": the first player is chosen at random): the
    seat drawn, and the stream position after the draw."""
    state.first_player = data["player"]
    state.random_position = data["random_position"]


def tile_discarded(state: CarcassonneState, data: Data) -> None:
    """``TileDiscarded`` (rules, "Placing": a tile with no legal placement is out of the
    game)."""
    state.discarded.append(TYPE_INDEX[data["tile"]])
    state.in_hand = -1


def tile_placed(state: CarcassonneState, data: Data) -> None:
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


def bridge_placed(state: CarcassonneState, data: Data) -> None:
    """``BridgePlaced`` (rules, "Bridges"): a bridge on a tile beside the one about to be
    placed; a bridge token is used."""
    add_bridge(state, pos_of(data["x"], data["y"]), AXES.index(data["axis"]))
    state.bridges[data["player"]] -= 1


def follower_deployed(state: CarcassonneState, data: Data) -> None:
    """``FollowerDeployed`` (rules, "Deploying"): a follower leaves the supply for a segment
    of the tile just placed."""
    pos = pos_of(data["x"], data["y"])
    k = state.board[pos]
    segment = TYPES[state.tiles[k][1]].segment_index(data["segment"])
    player = data["player"]
    state.followers[pos] = (player, segment)
    feature = state.features[state.feat[k << NODE_BITS | segment]]
    if not feature.followers:
        stamp(state, feature)
    feature.followers.append(pos)
    state.supply[player] -= 1
    state.deployed[k] = segment


def _return_followers(state: CarcassonneState, followers: list[Data]) -> None:
    for follower in followers:
        pos = pos_of(follower["x"], follower["y"])
        player, segment = state.followers.pop(pos)
        feature = state.features[state.feat[state.board[pos] << NODE_BITS | segment]]
        feature.followers.remove(pos)
        if not feature.followers:
            stamp(state, feature)
        state.supply[player] += 1


def feature_scored(state: CarcassonneState, data: Data) -> None:
    """``FeatureScored`` / ``FinalFeatureScored`` (rules, "Scoring a completed feature";
    "Final scoring", 1): every scorer gains the points; the followers return."""
    points = data["points"]
    for seat in data["scorers"]:
        state.scores[seat] += points
    _return_followers(state, data["followers"])


def farm_scored(state: CarcassonneState, data: Data) -> None:
    """``FarmScored`` (rules, "Final scoring", 2): the awards are added; farmers stay."""
    for award in data["awards"]:
        state.scores[award["player"]] += award["points"]


def game_ended(state: CarcassonneState, data: Data) -> None:
    """``GameEnded`` (rules, "Highest total wins; ties share the victory")."""
    state.phase = OVER
    state.current = -1
    state.in_hand = -1
    state.scores = list(data["scores"])
    state.result = {
        "ranks": list(data["ranks"]),
        "winners": list(data["winners"]),
        "breakdown": {key: list(value) for key, value in data["breakdown"].items()},
    }


HANDLERS: Final[dict[str, Callable[[CarcassonneState, Data], None]]] = {
    "TileDrawn": tile_drawn,
    "TileDiscarded": tile_discarded,
    "TilePlaced": tile_placed,
    "FollowerDeployed": follower_deployed,
    "FeatureScored": feature_scored,
    "FinalFeatureScored": feature_scored,
    "FarmScored": farm_scored,
    "GameEnded": game_ended,
    "BridgePlaced": bridge_placed,
    "CastleOffered": castles.castle_offered,
    "CastleBuilt": castles.castle_built,
    "CastleDeclined": castles.castle_declined,
    "FiefOffered": castles.fief_offered,
    "CastleScored": castles.castle_scored,
    "CastleVacated": castles.castle_vacated,
    **BAZAAR_HANDLERS,
    "FirstPlayerChosen": first_player_chosen,
}
"""The event catalogue (docs/carcassonne.md, "Events")."""

EVENT_TYPES: Final = tuple(HANDLERS)


def evolve(state: CarcassonneState, event: Event) -> CarcassonneState:
    """The state after ``event``, changed in place (protocol: ``Rules.evolve``)."""
    handler = HANDLERS.get(event.type)
    if handler is None:
        raise GameError("unknown-event", f"Carcassonne has no event called {event.type!r}.")
    handler(state, event.data)
    return state
