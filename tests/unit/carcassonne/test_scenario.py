"""Scenario games (options ``stack`` and ``stack-only``, docs/carcassonne.md "Scenario
games"): the listed tiles are drawn first, in order, without random numbers; then the draw is
random as usual, or with ``stack-only`` the game ends."""

from __future__ import annotations

from typing import Any

import pytest

from domain.carcassonne import CARCASSONNE, CarcassonneRules, CarcassonneState
from domain.protocol import Event, InvalidOptions
from domain.randomness import RandomStream


def begun(players: int, options: dict[str, Any]) -> tuple[CarcassonneState, list[Event]]:
    """A scenario game after its opening draw."""
    state = CARCASSONNE.setup(players, options)
    events = CARCASSONNE.begin(state, RandomStream("scenario"))
    for event in events:
        CARCASSONNE.evolve(state, event)
    return state, events


def move(state: CarcassonneState, notation: str) -> list[Event]:
    player = CARCASSONNE.current_players(state)[0]
    stream = RandomStream("scenario", state.random_position)
    events = CARCASSONNE.apply(state, player, CARCASSONNE.parse_notation(notation), stream)
    for event in events:
        CARCASSONNE.evolve(state, event)
        assert CARCASSONNE.check_invariants(state) == []
    return events


def drawn(events: list[Event]) -> list[tuple[str, int]]:
    return [(e.data["tile"], e.data["random_position"]) for e in events if e.type == "TileDrawn"]


def test_the_stack_option_is_normalised_and_makes_a_scenario() -> None:
    fixed = CARCASSONNE.normalise_options({"stack": ["E", "K"]})
    assert fixed == {
        "farmers": "per-field",
        "small-city-points": 4,
        "stack": ["E", "K"],
        "stack-only": False,
    }
    assert CarcassonneRules().is_scenario(fixed)
    assert not CarcassonneRules().is_scenario(CARCASSONNE.normalise_options({}))
    only = CARCASSONNE.normalise_options({"stack": ["D"] * 3, "stack-only": True})
    assert only["stack-only"] is True


@pytest.mark.parametrize(
    "options",
    [
        {"stack": "EK"},
        {"stack": []},
        {"stack": ["Z"]},
        {"stack": ["e"]},
        {"stack": ["BB1"]},  # an expansion tile
        {"stack": [5]},
        {"stack": ["D"] * 4},  # one D is the start tile
        {"stack": ["A"] * 3},
        {"stack-only": True},
        {"stack": ["E"], "stack-only": 1},
    ],
)
def test_invalid_stacks(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptions) as refused:
        CARCASSONNE.setup(2, options)
    assert refused.value.code == "invalid-options"


def test_listed_tiles_come_first_without_random_numbers_then_the_draw_is_random() -> None:
    state, opening = begun(2, {"stack": ["E", "K"]})
    assert drawn(opening) == [("E", 0)] and state.tiles_left == 70
    assert drawn(move(state, "E@0,-1r180")) == [("K", 0)]
    later = drawn(move(state, "K@1,0r90"))
    assert later[0][1] == 1  # the list is used up: one random number per draw
    assert state.tiles_left == 68 and state.script == []


def test_a_listed_tile_that_fits_nowhere_is_discarded() -> None:
    # the E closes the start tile's city: no city edge is left open for the C
    state, _ = begun(2, {"stack": ["E", "C", "K"]})
    events = move(state, "E@0,-1r180")
    assert [(e.type, e.data["tile"]) for e in events[1:]] == [
        ("TileDrawn", "C"),
        ("TileDiscarded", "C"),
        ("TileDrawn", "K"),
    ]
    assert state.current == 1 and state.random_position == 0


def test_with_stack_only_the_game_ends_when_the_list_is_used_up() -> None:
    state, _ = begun(2, {"stack": ["E", "U"], "stack-only": True})
    assert state.tiles_left == 1 and state.total == 3
    move(state, "E@0,-1r180+c0")
    events = move(state, "U@1,0r0+r0")
    assert [e.type for e in events][-2:] == ["FinalFeatureScored", "GameEnded"]
    ended = events[-1].data
    assert ended["scores"] == [4, 2] and ended["breakdown"]["features"] == [0, 2]
    assert CARCASSONNE.check_invariants(state) == []


def test_a_scenario_state_survives_a_snapshot() -> None:
    state, _ = begun(2, {"stack": ["E", "K", "U"]})
    data = CARCASSONNE.state_to_json(state)
    assert data["script"] == [state.script[0], state.script[1]]
    assert CARCASSONNE.state_from_json(data) == state
