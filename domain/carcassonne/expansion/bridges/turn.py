"""Laying a bridge in a turn (docs/carcassonne.md, "Bridges"): one per turn, on the tile
being placed or on a placed tile beside it. A bridge on a neighbour is laid first
(``BridgePlaced``), so that the new tile's road may meet the field edge it bridges; a bridge
on the tile itself makes it its bridged variant, recorded in its ``TilePlaced``.
"""

from __future__ import annotations

from domain.carcassonne.expansion.bridges.events import BRIDGE_PLACED
from domain.carcassonne.expansion.bridges.moves import Bridged
from domain.carcassonne.expansion.bridges.placement import variant_on
from domain.carcassonne.grid import DELTAS, pos_of
from domain.carcassonne.state import CarcassonneState
from domain.carcassonne.tiles import AXES, VARIANTS
from domain.errors import IllegalMove
from domain.turn import Turn


def lay_bridge(turn: Turn[CarcassonneState], player: int, move: Bridged) -> int:
    """Judge the bridge of ``move`` against ``turn.state`` (rules, "Bridges") and return the
    bridged variant the tile in hand becomes when the bridge is on it; for a bridge on a
    neighbour emit ``BridgePlaced`` and return -1 (the tile is placed as it is). Raises
    ``IllegalMove`` before emitting anything."""
    state = turn.state
    if not state.expansion or state.bridges[player] <= 0:
        raise IllegalMove("no-bridges-left", "You have no bridge to lay.")
    axis = AXES.index(move.axis)
    if (move.bridge_x, move.bridge_y) == (move.x, move.y):
        variant = VARIANTS[state.in_hand][axis ^ (move.rotation // 90 & 1)]
        if variant < 0:
            raise IllegalMove("bridge-not-allowed", "A bridge lies between two field edges.")
        return variant
    target = pos_of(move.bridge_x, move.bridge_y)
    if target not in state.board or target - pos_of(move.x, move.y) not in DELTAS:
        raise IllegalMove(
            "bridge-not-adjacent", "A bridge goes on the tile placed or a tile beside it."
        )
    ends = (target + DELTAS[axis], target + DELTAS[axis + 2])
    if variant_on(state, target, axis) < 0 or any(e in state.board for e in ends):
        raise IllegalMove(
            "bridge-not-allowed",
            "A bridge lies between two field edges of a tile without one, and no placed "
            "tile may face its ends with a non-road edge.",
        )
    turn.emit(
        BRIDGE_PLACED({"player": player, "x": move.bridge_x, "y": move.bridge_y, "axis": move.axis})
    )
    return -1
