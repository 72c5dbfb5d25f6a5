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


def test_begin_draws_the_first_tile_for_seat_0_once() -> None:
    state = CARCASSONNE.setup(2, {})
    assert CARCASSONNE.current_players(state) == []
    events = CARCASSONNE.begin(state, RandomStream("s"))
    assert [e.type for e in events] == ["TileDrawn"] and events[0].data["player"] == 0
    for event in events:
        CARCASSONNE.evolve(state, event)
    assert CARCASSONNE.current_players(state) == [0]
    assert state.random_position == 1 and state.tiles_left == 70
    with pytest.raises(IllegalMove):
        CARCASSONNE.begin(state, RandomStream("s", state.random_position))
