# ruff: noqa: RUF003 - the seed is quoted in Russian
"""Every worked example of seed 000 (the modern base rules, Russian: "Завершение
строительства", "Конец игры", "Очки за поля"), on boards built through the engine; and
the deployment examples of its "Как выставить фишку" section.

Seats stand for the colours of the pictures: red 0, yellow 1, blue 2, green 3, black 4.
Coordinates: x grows east, y grows south; the start tile D lies at (0,0), city north.
"""

from __future__ import annotations

import pytest

from domain.carcassonne import CARCASSONNE
from domain.protocol import IllegalMove

from .boards import BLUE, GREEN, RED, YELLOW, end_board, farm_board, two_city_board
from .helpers import awards, build, finish, of_type, put, scored, spots, table


def test_a_road_of_four_tiles_scores_4() -> None:
    state = table(2)
    events = build(
        state,
        "A@-1,0r270",  # the road leaves the monastery eastwards
        ("U@1,0r0+r0", RED),
        "L@2,0r0",  # ends at the junction
    )
    assert scored(events) == [("road", 4, [RED])]
    assert of_type(events, "FeatureScored")[0]["tiles"] == 4
    assert state.supply[RED] == 7 and state.scores[RED] == 4


def test_a_road_of_three_tiles_scores_3() -> None:
    state = table(2)
    events = build(state, ("A@-1,0r270+r0", RED), "A@1,0r90")
    assert scored(events) == [("road", 3, [RED])]
    assert state.scores == [3, 0]


def test_a_follower_deployed_on_the_completing_tile_scores_and_returns_at_once() -> None:
    state = table(2)
    build(state, "A@-1,0r270", "U@1,0r0")
    events = put(state, "L@2,0r0+r2", RED)  # the thief goes on L's west road
    assert [e.type for e in events] == ["TilePlaced", "FollowerDeployed", "FeatureScored"]
    assert scored(events) == [("road", 4, [RED])]
    assert of_type(events, "FeatureScored")[0]["followers"] == [
        {"player": RED, "x": 2, "y": 0, "segment": "r2"}
    ]
    assert state.supply[RED] == 7 and state.followers == {}


def test_a_city_of_three_tiles_and_one_pennant_scores_8() -> None:
    state = table(2)
    events = build(state, ("M@0,-1r180+c0", RED), "E@1,-1r270")
    assert scored(events) == [("city", 8, [RED])]
    data = of_type(events, "FeatureScored")[0]
    assert (data["tiles"], data["pennants"]) == (3, 1)


def test_a_city_of_four_tiles_scores_8() -> None:
    state = table(2)
    events = build(state, ("N@0,-1r180+c0", RED), "N@1,-1r270", "D@1,0r0")
    assert scored(events) == [("city", 8, [RED])]
    assert of_type(events, "FeatureScored")[0]["tiles"] == 4


def test_a_tile_joining_two_occupied_cities_scores_both_knights_10() -> None:
    state = table(3)
    build(
        state,
        "U@-1,0r0",
        ("E@-1,-1r90+c0", RED),
        "U@1,0r0",
        ("E@1,-1r270+c0", BLUE),
    )
    with pytest.raises(IllegalMove) as refused:
        put(state, "Q@0,-1r180+c0", RED)
    assert refused.value.code == "feature-occupied"
    events = put(state, "Q@0,-1r180", YELLOW)
    assert scored(events) == [("city", 10, [RED, BLUE])]
    assert state.scores == [10, 0, 10]
    assert state.supply == [7, 7, 7]


def test_a_surrounded_monastery_scores_9() -> None:
    state = table(3)
    build(
        state,
        ("B@0,1r0+m0", BLUE),
        "U@-1,0r0",
        "U@1,0r0",
        "B@-1,1r0",
        "B@1,1r0",
        "B@0,2r0",
        "E@-1,2r180",
    )
    assert state.scores == [0, 0, 0]
    events = put(state, "E@1,2r180")
    assert scored(events) == [("monastery", 9, [BLUE])]
    assert state.scores[BLUE] == 9 and state.supply[BLUE] == 7


def test_final_scoring_of_incomplete_features() -> None:
    state = table(5)
    assert scored(build(state, *end_board())) == []
    events = finish(state)
    found = {
        (d["feature"], d["points"], tuple(d["scorers"]))
        for d in of_type(events, "FinalFeatureScored")
    }
    assert found == {
        ("road", 3, (RED,)),
        ("monastery", 5, (YELLOW,)),
        ("city", 2, (BLUE,)),
        ("city", 6, (GREEN,)),  # black has fewer knights: nothing
    }
    assert state.scores == [3, 5, 2, 6, 0]
    ended = of_type(events, "GameEnded")[0]
    assert ended["winners"] == [GREEN] and ended["ranks"] == [3, 2, 4, 1, 5]
    assert state.supply == [7] * 5  # everyone's followers came back


def test_farmers_score_completed_cities_only() -> None:
    state = farm_board()
    assert awards(finish(state)) == {BLUE: 3, RED: 3}  # the incomplete city pays nothing


def test_a_field_bordering_two_and_then_three_completed_cities() -> None:
    state = farm_board()
    put(state, "E@0,-3r180")  # closes the second city
    assert awards(finish(state)) == {BLUE: 6, RED: 3}
    state = farm_board()
    build(state, "E@0,-3r180", "E@-1,-1r0", "E@-1,-2r180")  # and a third
    assert awards(finish(state)) == {BLUE: 9, RED: 3}


def test_the_majority_of_farmers_owns_the_field() -> None:
    state = two_city_board(tie=False)
    events = finish(state)
    assert awards(events) == {RED: 6, BLUE: 3}
    big = next(d for d in of_type(events, "FarmScored") if len(d["farmers"]) == 3)
    assert big["scorers"] == [RED] and len(big["cities"]) == 2
    assert big["awards"] == [{"player": RED, "points": 6}]


def test_tied_farmers_all_own_the_field() -> None:
    state = two_city_board(tie=True)
    assert awards(finish(state)) == {RED: 6, YELLOW: 6, BLUE: 3}


def test_a_knight_cannot_join_a_city_held_by_another_player() -> None:
    # "Здесь синий игрок может выставить только крестьянина"
    state = table(3)
    put(state, "N@0,-1r270+c0", RED)
    assert spots(state, "F@-1,-1r0", BLUE) == {None, "f0", "f1"}


def test_a_farmer_cannot_join_the_players_own_field() -> None:
    # "Красный игрок может выставить ... разбойника или рыцаря, но не крестьянина на большое
    # поле, так как на нем уже стоит его собственный крестьянин"
    state = table(2)
    put(state, "U@1,0r0+f1", RED)  # red's farmer south of the start tile's road
    assert spots(state, "K@0,1r270", RED) == {None, "c0", "r0", "f1"}
    with pytest.raises(IllegalMove) as refused:
        put(state, "K@0,1r270+f0", RED)
    assert refused.value.code == "feature-occupied"


def test_a_player_without_followers_just_places() -> None:
    state = table(2)
    state.supply[RED] = 0
    state.followers.clear()
    assert spots(state, "U@1,0r0", RED) == {None}
    with pytest.raises(IllegalMove) as refused:
        put(state, "U@1,0r0+r0", RED)
    assert refused.value.code == "no-followers-left"
    assert CARCASSONNE.legal_moves(state, RED) == []  # nothing drawn: not RED's turn
