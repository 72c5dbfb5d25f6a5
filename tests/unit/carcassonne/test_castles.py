"""Castles (expansion Bridges, Castles & Bazaars; docs/carcassonne.md, "Castles";
seed 001 "Замки"; docs/carcassonne.md, "Castles"): the owner's choice at completion, even
in another player's turn; the fief; triggers by unoccupied features, monasteries inside
and outside the fief, chains, the choice between features; the end of the game and farms.
Boards are built through ``apply`` + ``evolve``; the final scoring is checked against the
independent recount (``helpers.finish``)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.carcassonne import CARCASSONNE, CarcassonneState
from domain.carcassonne.expansion.castles.moves import CastleChoice, FiefChoice
from domain.carcassonne.state import PLAY
from domain.carcassonne.tiles import TYPE_INDEX
from domain.protocol import Event, IllegalMove, Viewer
from domain.randomness import RandomStream

from .helpers import evolve_apart, finish, of_type

BCB = {"expansions": ["bridges-castles-bazaars"]}
DRAWS = ("TileDrawn", "TileDiscarded", "AuctionOpened")  # the picture has no auction


def table(**options: Any) -> CarcassonneState:
    state = CARCASSONNE.setup(2, {**BCB, **options})
    for letter in ("B", "U", "A", "E", "W"):
        state.stack[TYPE_INDEX[letter]] += 8  # enough copies for the pictures below
        state.total += 8
    return state


def turn(state: CarcassonneState, placement: str, player: int) -> list[Event]:
    """``player`` places a tile (notation); every event but the next draw is evolved."""
    move = CARCASSONNE.parse_notation(placement)
    kind = TYPE_INDEX[move.tile]
    state.stack[kind] -= 1
    state.in_hand, state.current, state.phase = kind, player, PLAY
    assert move in CARCASSONNE.legal_moves(state, player)
    events = CARCASSONNE.apply(state, player, move, RandomStream("scenario", 0))
    return _evolve(state, events)


def decide(state: CarcassonneState, player: int, text: str) -> list[Event]:
    """``player`` answers the pending decision (notation ``castle``, ``no-castle``,
    ``fief@x,y+segment``)."""
    move = CARCASSONNE.parse_notation(text)
    assert move in CARCASSONNE.legal_moves(state, player)
    return _evolve(state, CARCASSONNE.apply(state, player, move, RandomStream("scenario", 0)))


def _evolve(state: CarcassonneState, events: list[Event]) -> list[Event]:
    kept = [event for event in events if event.type not in DRAWS]
    evolve_apart(state, kept)
    return kept


def castle(state: CarcassonneState, farmer: bool = False) -> list[Event]:
    """Seat 0's knight on H's north cap at (0,-1) (H's south cap closes the start tile's
    city at once); seat 1 closes the north cap with an E at (0,-2): seat 0 decides."""
    turn(state, "H@0,-1r0+c0", 0)
    return turn(state, "E@0,-2r180" + ("+f0" if farmer else ""), 1)


def test_another_players_tile_offers_the_castle_to_the_citys_owner() -> None:
    state = table()
    events = castle(state)
    assert [e.type for e in events] == ["TilePlaced", "CastleOffered"]
    assert of_type(events, "CastleOffered")[0]["player"] == 0
    assert CARCASSONNE.current_players(state) == [0]
    assert CARCASSONNE.legal_moves(state, 0) == [CastleChoice(True), CastleChoice(False)]
    assert CARCASSONNE.legal_moves(state, 1) == []
    with pytest.raises(IllegalMove) as refused:
        CARCASSONNE.apply(state, 1, CastleChoice(True), RandomStream("x"))
    assert refused.value.code == "not-your-turn"
    shown = CARCASSONNE.view(state, Viewer())
    assert shown["decision"]["kind"] == "castle" and shown["current_players"] == [0]
    built = decide(state, 0, "castle")
    assert [e.type for e in built] == ["CastleBuilt"]
    assert built[0].data["fief"] == [{"x": x, "y": y} for x in (-1, 0, 1) for y in (-2, -1)]
    assert state.castles == [2, 3] and state.scores == [0, 0] and state.supply[0] == 6
    assert CARCASSONNE.check_invariants(state) == []
    shown = CARCASSONNE.view(state, Viewer())
    assert shown["decision"] is None and shown["castles"][0]["occupied"]
    assert len(shown["castles"][0]["fief"]) == 6
    assert CARCASSONNE.state_from_json(CARCASSONNE.state_to_json(state)) == state


def test_declining_scores_the_city_and_no_token_means_no_choice() -> None:
    state = table()
    castle(state)
    events = decide(state, 0, "no-castle")
    assert [e.type for e in events] == ["CastleDeclined", "FeatureScored"]
    assert state.scores == [4, 0] and state.castles == [3, 3]
    state = table()
    state.castles[0] = 0
    events = castle(state)
    assert [e.type for e in events] == ["TilePlaced", "FeatureScored"]


def test_an_unoccupied_road_in_the_fief_triggers_the_castle() -> None:
    state = table()
    castle(state)
    decide(state, 0, "castle")
    turn(state, "A@-1,0r270", 1)
    turn(state, "V@1,0r90", 0)
    events = turn(state, "A@1,-1r0", 1)  # closes the 4-tile road A-D-V-A; nobody on it
    assert of_type(events, "FeatureScored") == []
    (scored,) = of_type(events, "CastleScored")
    assert (scored["player"], scored["points"], scored["source"]["feature"]) == (0, 4, "road")
    assert state.scores == [4, 0] and state.supply[0] == 7
    assert state.castles == [2, 3]  # the token stays
    shown = CARCASSONNE.view(state, Viewer())["castles"]
    assert [(c["occupied"], c["points"]) for c in shown] == [(False, 4)]  # it scores once
    finish(state)


def test_monasteries_outside_and_inside_the_fief() -> None:
    state = table()
    castle(state)
    decide(state, 0, "castle")
    turn(state, "A@-1,0r270", 1)
    turn(state, "BB6@-1,-1r0", 1)
    turn(state, "B@-2,-1r0+m0", 1)  # its tile is outside the fief, some neighbours inside
    for square in ("-1,-2", "-2,-2", "-3,-2", "-3,-1", "-3,0"):
        turn(state, f"B@{square}r0", 1)
    events = turn(state, "B@-2,0r0", 1)
    assert [(d["feature"], d["points"]) for d in of_type(events, "FeatureScored")] == [
        ("monastery", 9)
    ]
    assert of_type(events, "CastleScored") == []
    assert state.scores == [0, 9]
    for placement in ("B@1,-1r0+m0", "U@1,0r0", "U@2,0r0", "B@1,-2r0", "B@2,-2r0"):
        turn(state, placement, 1)
    events = turn(state, "B@2,-1r0", 1)  # surrounds the monastery at (1,-1), in the fief
    assert [(d["feature"], d["scorers"]) for d in of_type(events, "FeatureScored")] == [
        ("monastery", [1])
    ]
    (scored,) = of_type(events, "CastleScored")
    assert scored["source"] == {"feature": "monastery", "at": {"x": 1, "y": -1, "segment": "m0"}}
    assert state.scores == [9, 18]
    finish(state)


def test_a_chain_of_two_castles() -> None:
    state = table()
    castle(state)
    decide(state, 0, "castle")
    turn(state, "E@1,-1r0+c0", 1)
    events = turn(state, "E@1,-2r180", 0)  # seat 1's city of two caps, in castle 0's fief
    assert of_type(events, "CastleOffered")[0]["player"] == 1
    decide(state, 1, "castle")
    turn(state, "W@-1,0r270", 0)
    events = turn(state, "A@-1,-1r0", 0)  # a 2-tile road in castle 0's fief only
    assert [
        (d["player"], d["points"], d["source"]["feature"]) for d in of_type(events, "CastleScored")
    ] == [(0, 2, "road"), (1, 2, "castle")]
    assert state.scores == [2, 2] and state.supply == [7, 7]
    finish(state)


def test_the_castle_owner_chooses_between_two_features() -> None:
    state = table()
    castle(state)
    decide(state, 0, "castle")
    for placement in ("W@-1,0r270", "U@-1,-2r90", "A@-1,-3r0"):
        turn(state, placement, 1)
    events = turn(state, "W@-1,-1r90", 1)  # closes a 3-tile road and a 2-tile road
    (offer,) = of_type(events, "FiefOffered")
    assert offer["player"] == 0
    assert sorted(o["points"] for o in offer["options"]) == [2, 3]
    assert CARCASSONNE.current_players(state) == [0]
    three = next(o["at"] for o in offer["options"] if o["points"] == 3)
    choice = FiefChoice(three["x"], three["y"], three["segment"])
    assert choice in CARCASSONNE.legal_moves(state, 0)
    with pytest.raises(IllegalMove):
        CARCASSONNE.apply(state, 0, FiefChoice(5, 5, "r0"), RandomStream("x"))
    events = decide(state, 0, CARCASSONNE.notation(choice))
    assert [(d["points"], d["source"]["at"]) for d in of_type(events, "CastleScored")] == [
        (3, three)
    ]
    assert state.scores == [3, 0]
    finish(state)


@pytest.mark.parametrize("farmers", ["per-field", "per-city", "per-field-once"])
def test_the_end_of_the_game_and_farmers_beside_a_castle(farmers: str) -> None:
    state = table(farmers=farmers)
    castle(state, farmer=True)  # seat 1's farmer on the E's field, bordering the castle
    decide(state, 0, "castle")
    events = finish(state)
    assert [e.type for e in events] == ["CastleVacated", "FarmScored", "GameEnded"]
    assert of_type(events, "CastleVacated")[0]["player"] == 0
    assert of_type(events, "FarmScored")[0]["awards"] == [{"player": 1, "points": 4}]
    assert state.scores == [0, 4] and state.supply == [7, 6]


def test_choice_moves_in_json_and_notation() -> None:
    for move, data, text in (
        (CastleChoice(True), {"type": "castle", "build": True}, "castle"),
        (CastleChoice(False), {"type": "castle", "build": False}, "no-castle"),
        (
            FiefChoice(-1, 2, "r0"),
            {"type": "fief", "x": -1, "y": 2, "segment": "r0"},
            "fief@-1,2+r0",
        ),
    ):
        assert CARCASSONNE.move_to_json(move) == data
        assert CARCASSONNE.parse_move(data) == move
        assert CARCASSONNE.notation(move) == text
        assert CARCASSONNE.parse_notation(text) == move
    state = table()
    turn(state, "H@0,-1r0+c0", 0)
    with pytest.raises(IllegalMove) as refused:
        CARCASSONNE.apply(state, 1, CastleChoice(True), RandomStream("x"))
    assert refused.value.code in ("no-decision", "not-your-turn")
