"""How the bridge's event changes the state (docs/carcassonne.md, "Bridges"; the handler
the game's catalogue binds, :mod:`domain.carcassonne.evolve`)."""

from __future__ import annotations

from domain.carcassonne.expansion.bridges.events import BridgePlaced
from domain.carcassonne.expansion.bridges.placement import ROAD_CODE, variant_on
from domain.carcassonne.grid import DELTAS, pos_of
from domain.carcassonne.state import NODE_BITS, CarcassonneState, Feature, writable_feat
from domain.carcassonne.tiles import AXES, ROAD, TYPES


def add_bridge(state: CarcassonneState, pos: int, axis: int) -> None:
    """Lay a bridge on the placed tile on ``pos`` (rules, "Bridges"): the tile becomes its
    variant, the bridge a new road with two open ends, and the empty squares at its ends
    now see road edges."""
    k = state.board[pos]
    square, kind, turns, owner = state.tiles[k]
    state.tiles[k] = (square, variant_on(state, pos, axis), turns, owner)
    node = k << NODE_BITS | len(TYPES[kind].segments)
    state.features[node] = Feature(ROAD, [node], {pos}, 2, 0, [], [], False, owner=state.key)
    writable_feat(state)[node] = node
    for side in (axis, axis + 2):
        end = pos + DELTAS[side]
        shift = 2 * ((side + 2) % 4)
        state.frontier[end] = state.frontier[end] & ~(3 << shift) | ROAD_CODE << shift
    state.bridge_log.append((len(state.tiles), pos, axis))
    state.memo = None


def bridge_placed(state: CarcassonneState, data: BridgePlaced) -> None:
    """``BridgePlaced`` (rules, "Bridges"): a bridge on a tile beside the one about to be
    placed; a bridge token is used."""
    add_bridge(state, pos_of(data["x"], data["y"]), AXES.index(data["axis"]))
    state.bridges[data["player"]] -= 1
