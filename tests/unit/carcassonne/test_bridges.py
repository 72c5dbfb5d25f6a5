"""Bridges (expansion Bridges, Castles & Bazaars; docs/carcassonne.md, "The
expansion"), on boards built through the engine.

The start tile D lies at (0,0): city north, road west-east, field south.
"""

from __future__ import annotations

import pytest

from domain.carcassonne import CARCASSONNE, CarcassonneState
from domain.carcassonne.expansion.bridges.moves import Bridged
from domain.carcassonne.expansion.bridges.placement import variant_on
from domain.carcassonne.grid import pos_of
from domain.carcassonne.state import NODE_BITS, PLAY
from domain.carcassonne.tiles import TYPE_INDEX
from domain.protocol import IllegalMove, Viewer
from domain.randomness import RandomStream

from .helpers import build, finish, of_type, put, scored, spots, table

BCB = ["bridges-castles-bazaars"]


def expansion(players: int = 2) -> CarcassonneState:
    return table(players, expansions=BCB)


def listed(state: CarcassonneState, tile: str, player: int = 0) -> list[str]:
    """The notations of the legal moves of ``player`` holding ``tile``."""
    saved = (state.in_hand, state.current, state.phase)
    state.in_hand, state.current, state.phase = TYPE_INDEX[tile], player, PLAY
    try:
        return [CARCASSONNE.notation(m) for m in CARCASSONNE.legal_moves(state, player)]
    finally:
        state.in_hand, state.current, state.phase = saved


def feature_of(state: CarcassonneState, x: int, y: int, segment: int) -> int:
    return state.feat[state.board[pos_of(x, y)] << NODE_BITS | segment]


def test_a_bridge_on_the_new_tile_carries_the_road_over_its_fields() -> None:
    # the monastery B east of the start tile fits only with a W-E bridge on it: the bridge
    # continues the start tile's road; a thief stands on the bridge
    state = expansion()
    assert "B@1,0r0" not in listed(state, "B")
    assert "B@1,0r0+b0^1,0WE" in listed(state, "B")
    events = put(state, "B@1,0r0+b0^1,0WE", 0)
    assert events[0].data["bridge"] == "WE"
    assert state.bridges == [2, 3]
    assert of_type(events, "FollowerDeployed")[0]["role"] == "thief"
    events = build(state, "A@2,0r90", "A@-1,0r270")
    assert scored(events) == [("road", 4, [0])]  # A, D, B under the bridge, A
    assert state.scores == [4, 0] and state.supply == [7, 7]
    board = CARCASSONNE.view(state, Viewer())["board"]
    assert [(t["tile"], t["bridge"], t["edges"]) for t in board[:2]] == [
        ("D", None, "CRFR"),
        ("B", "WE", "FRFR"),
    ]


def test_a_bridge_on_a_neighbour_lets_a_road_meet_its_field_edge() -> None:
    state = expansion()
    put(state, "B@0,1r0")
    with pytest.raises(IllegalMove) as refused:
        put(state, "U@1,1r0+r0")
    assert refused.value.code == "tile-does-not-fit"
    moves = listed(state, "U", 1)
    assert "U@1,1r0+r0^0,1WE" in moves
    assert not any("+b0^0,1" in m for m in moves)  # no follower on a neighbour's bridge
    events = put(state, "U@1,1r0+r0^0,1WE", 1)
    assert [e.type for e in events] == ["BridgePlaced", "TilePlaced", "FollowerDeployed"]
    assert events[0].data == {"player": 1, "x": 0, "y": 1, "axis": "WE"}
    events = build(state, "A@2,1r90", "A@-1,1r270")
    assert scored(events) == [("road", 4, [1])]  # A, B under the bridge, U, A


def test_a_road_under_a_bridge_stays_a_separate_road() -> None:
    state = expansion()
    put(state, "U@1,0r0+b0^1,0NS", 0)
    assert feature_of(state, 1, 0, 0) != feature_of(state, 1, 0, 3)  # r0 and b0
    assert feature_of(state, 1, 0, 0) == feature_of(state, 0, 0, 1)  # r0 joins D's road
    events = build(state, "A@1,-1r0", "A@1,1r180")
    assert scored(events) == [("road", 3, [0])]  # A, U, A over the bridge; D's road open
    assert [d["tiles"] for d in of_type(events, "FeatureScored")] == [3]
    finished = finish(state)  # the recount agrees
    assert of_type(finished, "FinalFeatureScored") == []


def test_bridges_that_are_refused() -> None:
    state = expansion()
    with pytest.raises(IllegalMove) as refused:
        put(state, "U@1,0r0^1,0WE")  # its west and east edges are roads
    assert refused.value.code == "bridge-not-allowed"
    put(state, "B@0,1r0^0,1WE")
    assert variant_on(state, pos_of(0, 1), 0) == -1  # one bridge per tile
    assert "B@-1,1r0" not in listed(state, "B")  # the bridge's west end needs a road
    with pytest.raises(IllegalMove) as refused:
        put(state, "B@1,1r0^-1,1WE")  # not next to the new tile
    assert refused.value.code == "bridge-not-adjacent"
    with pytest.raises(IllegalMove) as refused:
        put(state, "U@1,1r0^0,1WE")  # the tile at (0,1) already has a bridge
    assert refused.value.code == "bridge-not-allowed"
    with pytest.raises(IllegalMove) as refused:
        put(state, "B@0,2r0^0,2NS")  # the bridge's north end faces a field edge
    assert refused.value.code == "tile-does-not-fit"


def test_a_placed_tile_facing_a_bridge_end_forbids_it() -> None:
    state = expansion()
    build(state, "B@0,1r0", "B@-1,1r0")  # (-1,1) faces B's west edge with a field edge
    assert "U@1,1r0^0,1WE" not in listed(state, "U")
    with pytest.raises(IllegalMove) as refused:
        put(state, "U@1,1r0^0,1WE")
    assert refused.value.code == "bridge-not-allowed"


def test_no_bridge_without_tokens_or_in_the_base_game() -> None:
    state = expansion()
    state.bridges[0] = 0
    assert not any("^" in m for m in listed(state, "B"))
    with pytest.raises(IllegalMove) as refused:
        put(state, "B@1,0r0^1,0WE")
    assert refused.value.code == "no-bridges-left"
    base = table(2)
    assert not any("^" in m for m in listed(base, "B"))
    with pytest.raises(IllegalMove) as refused:
        put(base, "B@1,0r0^1,0WE")
    assert refused.value.code == "no-bridges-left"
    assert spots(base, "B@0,1r0") == {None, "f0", "m0"}


def test_bridged_moves_in_json_and_notation() -> None:
    move = CARCASSONNE.parse_notation("u@1,1r0+r0^0,1we")
    assert move == Bridged("U", 1, 1, 0, "r0", 0, 1, "WE")
    data = CARCASSONNE.move_to_json(move)
    assert data["bridge"] == {"x": 0, "y": 1, "axis": "WE"}
    assert CARCASSONNE.parse_move(data) == move
    assert CARCASSONNE.notation(move) == "U@1,1r0+r0^0,1WE"
    assert CARCASSONNE.parse_notation("U@1,1r180^0,1WE") == Bridged(
        "U", 1, 1, 0, None, 0, 1, "WE"
    )  # the look-alike rotation, the bridge as it lies


def test_a_bridged_state_replays_and_survives_a_snapshot() -> None:
    state = expansion()
    build(state, ("B@0,1r0^0,1WE", 0), ("U@1,1r0+r0", 1), ("U@2,1r0+b0^2,1NS", 0))
    assert state.bridge_log == [(1, pos_of(0, 1), 1), (3, pos_of(2, 1), 0)]
    assert CARCASSONNE.state_from_json(CARCASSONNE.state_to_json(state)) == state
    assert CARCASSONNE.check_invariants(state) == []


def test_a_road_passing_under_and_over_a_bridge_counts_the_tile_once() -> None:
    # the start tile's road runs under the bridge on U, turns round through three curves
    # and comes back over it: seven tiles, U once
    state = expansion()
    put(state, "U@1,0r0+r0^1,0NS", 0)
    events = build(state, "V@2,0r90", "V@2,-1r0", "V@1,-1r270", "A@1,1r180", "A@-1,0r270")
    [data] = of_type(events, "FeatureScored")
    assert (data["feature"], data["tiles"], data["points"], data["scorers"]) == ("road", 7, 7, [0])


def test_a_tile_that_fits_only_with_a_bridge_is_not_discarded() -> None:
    # with both ends of the start tile's road closed, every open square shows a field or a
    # city edge: the all-road X fits only at (1,1), with a N-S bridge on the monastery above
    options = {"expansions": BCB, "stack": ["A", "A", "X"], "stack-only": True}
    state = CARCASSONNE.setup(2, options)
    for event in CARCASSONNE.begin(state, RandomStream("bridge")):
        CARCASSONNE.evolve(state, event)
    for notation in ("A@-1,0r270", "A@1,0r90"):
        player = state.current
        move = CARCASSONNE.parse_notation(notation)
        for event in CARCASSONNE.apply(state, player, move, RandomStream("bridge")):
            CARCASSONNE.evolve(state, event)
    assert state.in_hand == TYPE_INDEX["X"] and state.discarded == []
    moves = {CARCASSONNE.notation(m) for m in CARCASSONNE.legal_moves(state, 0)}
    assert "X@1,1r0^1,0NS" in moves and all("^" in m for m in moves)
