"""What is shown: the view, the summary and the outcome (docs/azul.md, "View")."""

from __future__ import annotations

import json

import pytest

from domain.azul import AZUL, Take
from domain.azul.moves import CENTRE
from domain.protocol import Event, GameError, Viewer

from .helpers import play, random_game, started, table


def test_view_shows_the_whole_table() -> None:
    state = table(
        factories=["RRBY", "KKKW"],
        centre="BB",
        lines={1: {3: "RR"}},
        walls={1: ["B....", ".....", ".....", ".....", "....."]},
        floors={1: "K"},
        scores=[4, 9],
        lid="YY",
    )
    view = AZUL.view(state, Viewer(seat=1))
    assert json.loads(json.dumps(view)) == view
    assert view["game"] == "azul" and view["options"] == {"wall": "colored"}
    assert view["round"] == 1 and view["phase"] == "offer"
    assert view["current_players"] == [0] and view["first_player"] == 0
    assert view["factories"][:3] == [["B", "Y", "R", "R"], ["K", "K", "K", "W"], []]
    assert len(view["factories"]) == 5
    assert view["centre"] == {"tiles": ["B", "B"], "marker": True}
    assert view["marker_holder"] is None
    assert view["lid"] == 2 and view["bag"] == 100 - 8 - 2 - 2 - 1 - 1 - 2
    assert view["wall_pattern"][1] == "WBYRK"
    seat = view["players"][1]
    assert seat["seat"] == 1 and seat["score"] == 9
    assert seat["lines"][2] == {"line": 3, "colour": "R", "count": 2}
    assert seat["lines"][0] == {"line": 1, "colour": None, "count": 0}
    assert seat["wall"][0] == ["B", None, None, None, None]
    assert seat["floor"] == ["K"] and seat["marker"] is False
    assert seat["pending_row"] is None


def test_every_viewer_sees_the_same_table() -> None:
    state = started(3)
    views = [AZUL.view(state, v) for v in (Viewer(0), Viewer(), Viewer(arbiter=True))]
    assert views[0] | {"viewer": None} == views[1] == views[2]
    assert "seed" not in json.dumps(views[2])


def test_marker_on_a_floor_is_shown_there() -> None:
    state = table(factories=["RRRR"], centre="B")
    play(state, 0, Take(CENTRE, 0, 1))
    view = AZUL.view(state, Viewer())
    assert view["centre"]["marker"] is False
    assert view["players"][0]["floor"] == ["marker"]
    assert view["players"][0]["marker"] is True and view["marker_holder"] == 0


def test_summary_and_outcome_through_a_game() -> None:
    state = started(2)
    assert AZUL.summary(state) == {
        "scores": [0, 0],
        "round": 1,
        "phase": "offer",
        "finished": False,
    }
    assert AZUL.outcome(state) is None
    *_, (state, _step) = random_game(2, 5)
    summary = AZUL.summary(state)
    assert summary["finished"] is True and summary["phase"] == "over"
    outcome = AZUL.outcome(state)
    assert outcome is not None
    assert outcome.scores == summary["scores"]
    assert json.loads(json.dumps(outcome.to_json())) == outcome.to_json()
    assert set(outcome.details) == {"reason", "bonuses", "complete_rows"}


def test_unknown_events_are_refused() -> None:
    with pytest.raises(GameError) as error:
        AZUL.evolve(started(), Event("TilesStolen", {}))
    assert error.value.code == "unknown-event"
