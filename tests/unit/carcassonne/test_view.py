"""What viewers see, the summary and the outcome (docs/carcassonne.md, "View")."""

from __future__ import annotations

import json

from domain.carcassonne import CARCASSONNE
from domain.protocol import Viewer

from .helpers import build, random_game, table


def test_the_view_of_a_game_in_progress() -> None:
    state = None
    for state, step in random_game(3, 8):
        if step.move is not None and state.turn >= 10:
            break
    assert state is not None
    view = CARCASSONNE.view(state, Viewer(seat=1))
    assert json.loads(json.dumps(view)) == view
    assert view["game"] == "carcassonne" and view["phase"] == "play"
    assert view["options"] == {"farmers": "per-field", "small-city-points": 4}
    assert view["turn"] == 10 and view["viewer"] == 1
    assert view["current_players"] == [state.current]
    assert view["tile_in_hand"] is not None
    assert view["tiles_left"] == sum(view["stack"].values()) == state.tiles_left
    assert len(view["board"]) == 11
    assert view["board"][0] == {
        "x": 0,
        "y": 0,
        "tile": "D",
        "rotation": 0,
        "edges": "CRFR",
        "placed_by": None,
    }
    on_board = len(view["followers"])
    assert sum(p["followers"] for p in view["players"]) + on_board == 21
    assert [p["score"] for p in view["players"]] == view["scores"] == state.scores
    for follower in view["followers"]:
        assert set(follower) == {"player", "x", "y", "segment", "role"}
    for feature in view["features"]:
        assert feature["kind"] in {"road", "city", "monastery", "field"}
        assert feature["value"] >= 0


def test_every_viewer_sees_the_same_and_no_stack_order() -> None:
    for state, _step in random_game(2, 9):
        views = [
            CARCASSONNE.view(state, viewer)
            for viewer in (Viewer(0), Viewer(1), Viewer.spectator(), Viewer(arbiter=True))
        ]
        for view in views:
            view.pop("viewer")
        assert all(view == views[0] for view in views)
        assert set(views[0]["stack"]) <= set("ABCDEFGHIJKLMNOPQRSTUVWX")


def test_open_features_show_their_current_value() -> None:
    state = table(2)
    build(state, ("U@-1,0r0+r0", 0), ("N@0,-1r270+c0", 1), "F@-1,-1r0")
    view = CARCASSONNE.view(state, Viewer.spectator())
    kinds = {(f["kind"], f["value"], tuple(f["followers"])) for f in view["features"]}
    assert ("road", 2, (0,)) in kinds  # start tile + one road tile, 1 point each
    assert ("city", 4, (1,)) in kinds  # 3 tiles + 1 pennant, 1 point each at the end
    city = next(f for f in view["features"] if f["kind"] == "city")
    assert city["open_ends"] == 1 and city["tiles"] == 3 and city["pennants"] == 1
    assert {"x": 0, "y": 0, "segment": "c0"} in city["segments"]


def test_summary_and_outcome() -> None:
    state = None
    for state, _step in random_game(4, 10):
        summary = CARCASSONNE.summary(state)
        assert set(summary) == {"scores", "turn", "tiles_left", "phase", "finished"}
        if not summary["finished"]:
            assert CARCASSONNE.outcome(state) is None
    assert state is not None
    outcome = CARCASSONNE.outcome(state)
    assert outcome is not None
    assert outcome.scores == state.scores and len(outcome.ranks) == 4
    breakdown = outcome.details["breakdown"]
    for seat in range(4):
        total = breakdown["play"][seat] + breakdown["features"][seat] + breakdown["farms"][seat]
        assert total == outcome.scores[seat]
    assert CARCASSONNE.summary(state)["finished"] is True
    assert CARCASSONNE.view(state, Viewer(0))["phase"] == "over"
    assert CARCASSONNE.view(state, Viewer(0))["tile_in_hand"] is None
