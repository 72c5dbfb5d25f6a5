"""Options, player counts and the start of a game (docs/carcassonne.md, "Base
game", "Final scoring"; docs/carcassonne.md, "Options")."""

from __future__ import annotations

from typing import Any

import pytest

from domain.carcassonne import CARCASSONNE
from domain.protocol import IllegalMove, InvalidOptions, Rules
from domain.randomness import RandomStream


def test_the_rules_object_satisfies_the_protocol() -> None:
    assert isinstance(CARCASSONNE, Rules)
    assert CARCASSONNE.name == "carcassonne"
    assert (CARCASSONNE.min_players, CARCASSONNE.max_players) == (2, 5)
    assert CARCASSONNE.event_types == (
        "TileDrawn",
        "TileDiscarded",
        "TilePlaced",
        "FollowerDeployed",
        "FeatureScored",
        "FinalFeatureScored",
        "FarmScored",
        "GameEnded",
        "BridgePlaced",
        "CastleOffered",
        "CastleBuilt",
        "CastleDeclined",
        "FiefOffered",
        "CastleScored",
        "CastleVacated",
        "AuctionOpened",
        "BidMade",
        "BidPassed",
        "TileBought",
        "TileSold",
        "TileTakenFree",
        "TilePicked",
        "BazaarTileTaken",
        "BazaarClosed",
        "PickOffered",
        "FirstPlayerChosen",
    )


def test_default_options() -> None:
    assert CARCASSONNE.normalise_options({}) == {"farmers": "per-field", "small-city-points": 4}
    fixed = {"farmers": "per-city", "small-city-points": 2}
    assert CARCASSONNE.normalise_options(fixed) == fixed
    state = CARCASSONNE.setup(3, {"farmers": "per-field-once"})
    assert (state.farmers, state.small_city, state.players) == ("per-field-once", 4, 3)
    assert state.supply == [7, 7, 7] and state.scores == [0, 0, 0]


@pytest.mark.parametrize(
    "options",
    [
        {"farmers": "per-tile"},
        {"farmers": 3},
        {"small-city-points": 3},
        {"small-city-points": "2"},
        {"small-city-points": True},
        {"bridges": True},
        {"first_player": 2},
        {"first_player": -1},
        {"first_player": "0"},
        {"first_player": True},
        [],
    ],
)
def test_invalid_options(options: Any) -> None:
    with pytest.raises(InvalidOptions) as refused:
        CARCASSONNE.setup(2, options)
    assert refused.value.code == "invalid-options"


@pytest.mark.parametrize("players", [0, 1, 6, "3", 2.0, None])
def test_invalid_player_counts(players: Any) -> None:
    with pytest.raises(InvalidOptions) as refused:
        CARCASSONNE.setup(players, {})
    assert refused.value.code == "invalid-player-count"


def test_the_first_player_is_drawn_from_the_seed_and_recorded() -> None:
    """Seed 000: «Выберите случайным образом игрока, который начнёт игру» (rules, "Base
    game"): the first number of the stream picks the seat, ``FirstPlayerChosen`` records
    it, and that seat draws the first tile; replay reads the event and draws nothing."""
    firsts = set()
    for seed in range(40):
        state = CARCASSONNE.setup(3, {})
        assert CARCASSONNE.current_players(state) == [] and state.first_player == -1
        events = CARCASSONNE.begin(state, RandomStream(f"s{seed}"))
        first = RandomStream(f"s{seed}").below(3)
        assert [e.type for e in events] == ["FirstPlayerChosen", "TileDrawn"]
        assert events[0].data == {"player": first, "random_position": 1}
        assert events[1].data["player"] == first and events[1].data["random_position"] == 2
        for event in events:
            CARCASSONNE.evolve(state, event)
        assert CARCASSONNE.current_players(state) == [first] == [state.first_player]
        assert state.random_position == 2 and state.tiles_left == 70
        assert CARCASSONNE.state_from_json(CARCASSONNE.state_to_json(state)) == state
        firsts.add(first)
        with pytest.raises(IllegalMove):
            CARCASSONNE.begin(state, RandomStream("s", state.random_position))
    assert firsts == {0, 1, 2}


def test_the_next_seat_follows_the_first_player_clockwise() -> None:
    state = CARCASSONNE.setup(3, {"first_player": 2})
    for event in CARCASSONNE.begin(state, RandomStream("s")):
        CARCASSONNE.evolve(state, event)
    move = CARCASSONNE.legal_moves(state, 2)[0]
    events = CARCASSONNE.apply(state, 2, move, RandomStream("s", state.random_position))
    assert events[-1].type == "TileDrawn" and events[-1].data["player"] == 0


@pytest.mark.parametrize(
    ("players", "options", "first"),
    [
        (2, {"first_player": 1}, 1),
        (5, {"first_player": 4}, 4),
        (2, {"stack": ["E", "U"]}, 0),  # a scenario: seat 0 unless the option says otherwise
        (3, {"stack": ["E", "U"], "first_player": 2}, 2),
    ],
)
def test_the_table_may_fix_the_first_player(
    players: int, options: dict[str, Any], first: int
) -> None:
    state = CARCASSONNE.setup(players, CARCASSONNE.normalise_options(options))
    assert CARCASSONNE.normalise_options(options).get("first_player") == options.get("first_player")
    events = CARCASSONNE.begin(state, RandomStream("s"))
    assert [e.type for e in events] == ["TileDrawn"] and events[0].data["player"] == first
    for event in events:
        CARCASSONNE.evolve(state, event)
    assert CARCASSONNE.current_players(state) == [first]
    assert state.random_position == (0 if "stack" in options else 1)
