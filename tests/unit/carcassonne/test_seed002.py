# ruff: noqa: RUF003 - the seed is quoted in Russian
"""The worked examples of seed 002: the funmill digest, the 2000 English edition (original
4-point farmers ``per-city``, 2-point two-tile city) with its "alternative farmer scoring"
(``per-field``), and the rules explanation for programmers; the farmer variants side by
side on the same boards; and the reading this engine rejects.

Seats stand for the colours of the pictures: red 0, yellow 1, blue 2, green 3, black 4.
Coordinates: x grows east, y grows south; the start tile D lies at (0,0), city north.
"""

from __future__ import annotations

import pytest

from domain.carcassonne import CarcassonneState
from domain.carcassonne.scoring import majority
from domain.protocol import IllegalMove

from .boards import BLACK, BLUE, RED, YELLOW, farm_board, two_city_board
from .helpers import awards, build, finish, of_type, put, scored, spots, table


@pytest.mark.parametrize(("option", "points"), [(4, 4), (2, 2)])
def test_a_two_tile_city_scores_4_or_2_in_the_2000_edition(option: int, points: int) -> None:
    state = table(2, small_city_points=option)
    events = put(state, "E@0,-1r180+c0", RED)
    assert scored(events) == [("city", points, [RED])]


def test_the_2000_edition_scores_larger_cities_as_usual() -> None:
    state = table(2, small_city_points=2)
    events = build(state, ("M@0,-1r180+c0", RED), "E@1,-1r270")
    assert scored(events) == [("city", 8, [RED])]


def test_a_city_of_five_tiles_and_two_pennants_scores_14() -> None:
    state = table(2)
    events = build(
        state,
        ("Q@0,-1r180+c0", RED),
        "E@-1,-1r90",
        "F@1,-1r0",
        "E@2,-1r270",
    )
    assert scored(events) == [("city", 14, [RED])]


def test_a_tile_with_two_segments_of_one_city_counts_once() -> None:
    # "Two segments of one city on the same tile count that tile once": the city leaves H by
    # its north cap, goes round and comes back into its south cap.
    state = table(2)
    build(
        state,
        "N@0,1r180",
        "N@1,1r270",
        "G@1,2r90",
        "N@1,3r0",
        "M@0,3r90",
    )
    events = put(state, "H@0,2r0+c0", RED)
    data = of_type(events, "FeatureScored")[0]
    assert (data["tiles"], data["pennants"], data["points"]) == (6, 1, 14)


def test_a_road_loop_is_complete() -> None:
    state = table(2)
    events = build(
        state,
        ("V@0,1r270+r0", RED),
        "V@1,1r0",
        "V@0,2r180",
        "V@1,2r90",
    )
    assert scored(events) == [("road", 4, [RED])]


def test_a_loop_of_eight_tiles_scores_8() -> None:
    # "дорога справа стоит 8 точки": a ring of eight road tiles round an empty square
    state = table(2)
    events = build(
        state,
        ("U@0,1r0+r0", RED),
        "V@-1,1r270",
        "V@1,1r0",
        "U@-1,2r90",
        "U@1,2r90",
        "V@-1,3r180",
        "U@0,3r0",
        "V@1,3r90",
    )
    assert scored(events) == [("road", 8, [RED])]


def test_a_road_through_one_junction_tile_twice_counts_it_once() -> None:
    state = table(2)
    events = build(
        state,
        "X@1,0r0",
        ("V@2,0r0+r0", RED),
        "V@2,1r90",
    )
    assert scored(events) == []
    events = put(state, "V@1,1r180")
    data = of_type(events, "FeatureScored")[0]
    assert (data["feature"], data["tiles"], data["points"]) == ("road", 4, 4)


def test_final_scoring_of_the_2000_edition() -> None:
    # red 3 for an incomplete road, blue 4 for an incomplete city, yellow 4 for an
    # incomplete monastery (1 for its tile + 3 around it)
    state = table(3, farmers="per-city", small_city_points=2)
    build(
        state,
        ("U@-1,0r0+r0", RED),
        "U@-2,0r0",
        ("N@0,-1r270+c0", BLUE),
        "F@-1,-1r0",
        ("B@0,1r0+m0", YELLOW),
        "E@0,2r180",
    )
    events = finish(state)
    found = {
        (d["feature"], d["points"], tuple(d["scorers"]))
        for d in of_type(events, "FinalFeatureScored")
    }
    assert found == {("road", 3, (RED,)), ("city", 4, (BLUE,)), ("monastery", 4, (YELLOW,))}


def test_a_follower_returned_this_turn_cannot_be_deployed_again_this_turn() -> None:
    state = table(2)
    put(state, "A@-1,0r270+r0", RED)
    state.supply[RED] = 0  # every other follower of red is busy elsewhere
    assert spots(state, "A@1,0r90", RED) == {None}
    put(state, "A@1,0r90", RED)
    assert state.supply[RED] == 1 and state.scores[RED] == 3


# -- farmers, 2000 edition (per-city, 4 points) and its alternative (per-field, 3) ---------


def test_per_city_a_farmer_supplies_only_completed_cities() -> None:
    state = farm_board(farmers="per-city")
    # city A borders blue's field and red's strip: 1 farmer each, both supply it
    assert awards(finish(state)) == {BLUE: 4, RED: 4}


def test_per_city_a_field_bordering_two_completed_cities() -> None:
    state = farm_board(farmers="per-city")
    put(state, "E@0,-3r180")
    # "Синий получает 8 очков"; and the small city, where red and blue tie, pays both
    assert awards(finish(state)) == {BLUE: 8, RED: 4}


def three_fields_board(farmers: str) -> CarcassonneState:
    """A city (caps D at (-1,1) and (1,1), band F at (0,1)) bordered by four separate
    fields: blue deploys on two of them, red on one."""
    state = table(3, farmers=farmers)
    build(
        state,
        ("F@0,1r0+f0", BLUE),  # the field north of the band
        ("D@-1,1r90+f0", BLUE),  # the strip west of the city
        ("D@1,1r270+f0", RED),  # the strip east of the city
    )
    return state


@pytest.mark.parametrize(
    ("farmers", "expected"),
    [
        ("per-city", {BLUE: 4}),  # "Синий получает 4 очка, а красный ничего"
        ("per-field", {BLUE: 6, RED: 3}),  # "Синий получает 6 очков ..., а красный — 3"
        ("per-field-once", {BLUE: 3, RED: 3}),  # the city pays blue only once
    ],
)
def test_one_city_bordered_by_several_fields(farmers: str, expected: dict[int, int]) -> None:
    state = three_fields_board(farmers)
    events = finish(state)
    assert {seat: n for seat, n in awards(events).items() if n} == expected


def test_per_city_the_majority_over_all_fields_of_a_city() -> None:
    state = two_city_board(farmers="per-city", tie=False)
    events = finish(state)
    # city A: red 2, yellow 1, blue 1 over the big field and blue's strip; city B: red 2
    assert awards(events) == {RED: 8}
    assert [len(d["farms"]) for d in of_type(events, "FarmScored")] == [2, 1]


def test_per_field_two_farmers_beat_one() -> None:
    # "Красный получает 3 очка за ферму, так как у него два фермера" (per field, per city)
    state = two_city_board(farmers="per-field", tie=False)
    events = finish(state)
    big = next(d for d in of_type(events, "FarmScored") if len(d["farmers"]) == 3)
    assert big["scorers"] == [RED]


def test_the_programmers_farm_example() -> None:
    # the two-tile city borders one field holding red and yellow: both get 4; the other city
    # borders that field and one with a second red farmer: red 2 - yellow 1, red gets 4
    state = table(3, farmers="per-city")
    build(
        state,
        ("E@0,-1r180+f0", RED),
        ("U@0,-2r0+f0", YELLOW),
        "U@-1,-1r90",
        "V@-1,-2r270",
        "A@1,-2r90",
        "E@0,-3r0",
        ("E@0,-4r180+f0", RED),
    )
    assert awards(finish(state)) == {RED: 8, YELLOW: 4}


def test_majority_with_ties() -> None:
    # "2 синих, 2 жёлтых и один чёрный: синий и жёлтый получают по 4, чёрный — ничего"
    assert majority([BLUE, BLUE, YELLOW, YELLOW, BLACK]) == [YELLOW, BLUE]
    assert majority([RED, RED, YELLOW]) == [RED]
    assert majority([]) == []


def test_the_rejected_reading_more_followers_on_ones_own_feature() -> None:
    # The digest says "Выставлять на свой объект можно неограниченное количество
    # подданных"; every other text and the official rules forbid it.
    state = table(2)
    put(state, "U@1,0r0+r0", RED)
    assert "r0" not in spots(state, "U@2,0r0", RED)
    with pytest.raises(IllegalMove) as refused:
        put(state, "U@2,0r0+r0", RED)
    assert refused.value.code == "feature-occupied"
