# ruff: noqa: RUF003 - the seeds are quoted in Russian
"""The worked examples of the Carcassonne seeds 000 and 002, built as scenario games over HTTP
(option ``stack``, docs/carcassonne.md "Scenario games") and scored through the API: the same
boards as tests/unit/carcassonne/boards.py, test_seed000.py and test_seed002.py, each tile
drawn from the listed stack and placed by the seat whose turn it is. With ``stack-only`` the
game ends after the last listed tile, so the final scoring and the farms are the engine's
own, read back from the event log and the outcome.

Seats take turns, so where a picture needs a colour to play twice the free placements are
reordered (never changing the final board); each step names the seat it expects.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from flask.testing import FlaskClient

from application.verification import verify_record
from tests.e2e.conftest import bearer

Step = str | tuple[str, int]
NOTATION = re.compile(r"([A-X])@(-?\d+),(-?\d+)r(\d+)(?:\+(\w+))?(?:\^(-?\d+),(-?\d+)(NS|WE))?$")


@dataclass
class Scenario:
    """A scenario game over HTTP: its id and the seats' tokens."""

    client: FlaskClient
    game_id: str
    tokens: list[str]

    def get(self, path: str = "", seat: int | None = None) -> Any:
        headers = bearer(self.tokens[seat]) if seat is not None else {}
        response = self.client.get(f"/api/v1/games/{self.game_id}{path}", headers=headers)
        assert response.status_code == 200, response.json
        return response.json

    def post(self, seat: int, notation: str) -> Any:
        """``seat`` makes the move written in ``notation``; the response."""
        found = NOTATION.match(notation)
        assert found, notation
        tile, x, y, rotation, follower, bx, by, axis = found.groups()
        move: dict[str, Any] = {"type": "place", "tile": tile, "x": int(x), "y": int(y)}
        move |= {"rotation": int(rotation), "follower": follower}
        if axis is not None:
            move["bridge"] = {"x": int(bx), "y": int(by), "axis": axis}
        body = {"move": move, "expected_version": self.get()["version"]}
        return self.client.post(
            f"/api/v1/games/{self.game_id}/moves", json=body, headers=bearer(self.tokens[seat])
        )

    def legal(self, seat: int) -> list[str]:
        """The notations of ``seat``'s legal moves."""
        return [item["notation"] for item in self.get("/legal-moves", seat)["moves"]]

    def play(self, step: Step) -> None:
        """The seat whose turn it is (the one ``step`` names, if any) makes a listed move."""
        notation, expected = (step, None) if isinstance(step, str) else step
        seat = self.get()["current_players"][0]
        assert expected in (None, seat), f"{notation}: seat {seat} plays, not {expected}"
        assert notation in self.legal(seat)
        played = self.post(seat, notation)
        assert played.status_code == 200, played.json

    def events(self, kind: str) -> list[dict[str, Any]]:
        """The data of the logged events of one type."""
        items = self.get(f"/events?type={kind}&limit=500")["items"]
        return [item["data"] for item in items]

    def scored(self, kind: str = "FeatureScored") -> list[tuple[str, int, list[int]]]:
        return [(d["feature"], d["points"], d["scorers"]) for d in self.events(kind)]

    def awards(self) -> dict[int, int]:
        """Farm points per seat over every ``FarmScored`` event (zero awards left out)."""
        total: dict[int, int] = {}
        for data in self.events("FarmScored"):
            for award in data["awards"]:
                total[award["player"]] = total.get(award["player"], 0) + award["points"]
        return {seat: points for seat, points in total.items() if points}


def scenario(
    client: FlaskClient,
    players: int,
    steps: list[Step],
    only: bool = True,
    upto: int | None = None,
    **options: Any,
) -> Scenario:
    """A game whose stack lists the steps' tiles (with ``only``: nothing else), every seat
    taken, the steps (the first ``upto`` of them) played in order."""
    letters = [(step if isinstance(step, str) else step[0]).split("@")[0] for step in steps]
    options = {key.replace("_", "-"): value for key, value in options.items()}
    options |= {"stack": letters, "stack-only": only}
    created = client.post(
        "/api/v1/games", json={"game": "carcassonne", "players": players, "options": options}
    )
    assert created.status_code == 201, created.json
    assert created.json["analysis"] == {"scenario": True}
    game_id = created.json["id"]
    tokens = []
    for n in range(players):
        joined = client.post(f"/api/v1/games/{game_id}/seats", json={"name": f"p{n}"})
        assert joined.status_code == 201, joined.json
        tokens.append(joined.json["token"])
    game = Scenario(client, game_id, tokens)
    for step in steps[:upto]:
        game.play(step)
    return game


MONASTERY: list[Step] = [("B@0,1r0+m0", 0), "U@-1,0r0", "U@1,0r0", "B@-1,1r0", "B@1,1r0"]
MONASTERY += ["B@0,2r0", "E@-1,2r180", "E@1,2r180"]
RING: list[Step] = [("U@0,1r0+r0", 0), "V@-1,1r270", "V@1,1r0", "U@-1,2r90", "U@1,2r90"]
RING += ["V@-1,3r180", "U@0,3r0", "V@1,3r90"]
"""Seed 000's surrounded monastery; seed 002's ring of eight road tiles."""


# -- seed 000: completed features -------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "steps", "expected", "scores"),
    [
        # a road of four tiles: 4
        (2, [("U@1,0r0+r0", 0), "A@-1,0r270", "L@2,0r0"], [("road", 4, [0])], [4, 0]),
        # a road of three tiles: 3
        (2, [("A@-1,0r270+r0", 0), "A@1,0r90"], [("road", 3, [0])], [3, 0]),
        # a thief deployed on the completing tile scores at once
        (2, ["A@-1,0r270", "U@1,0r0", ("L@2,0r0+r2", 0)], [("road", 4, [0])], [4, 0]),
        # a city of three tiles with a pennant: 8
        (2, [("M@0,-1r180+c0", 0), "E@1,-1r270"], [("city", 8, [0])], [8, 0]),
        # a city of four tiles: 8
        (2, [("N@0,-1r180+c0", 0), "N@1,-1r270", "D@1,0r0"], [("city", 8, [0])], [8, 0]),
        # a monastery surrounded: 9
        (
            3,
            MONASTERY,
            [("monastery", 9, [0])],
            [9, 0, 0],
        ),
    ],
)
def test_seed000_completed_features(
    client: FlaskClient, players: int, steps: list[Step], expected: list[Any], scores: list[int]
) -> None:
    game = scenario(client, players, steps, only=False)
    assert game.scored() == expected
    assert game.get()["state"]["scores"] == scores
    assert game.get()["status"] != "finished"  # the stack goes on at random


def test_seed000_a_tile_joining_two_occupied_cities(client: FlaskClient) -> None:
    steps: list[Step] = ["U@-1,0r0", ("E@-1,-1r90+c0", 1), "U@1,0r0", ("E@1,-1r270+c0", 0)]
    game = scenario(client, 3, [*steps, "Q@0,-1r180"], only=False, upto=4)
    refused = game.post(1, "Q@0,-1r180+c0")  # red (seat 1) wants a knight on the joined city
    assert (refused.status_code, refused.json["code"]) == (422, "feature-occupied")
    game.play(("Q@0,-1r180", 1))
    assert game.scored() == [("city", 10, [0, 1])]
    assert game.get()["state"]["scores"] == [10, 10, 0]


# -- seed 000: the end of the game and the farms -------------------------------------------


def test_seed000_final_scoring_of_incomplete_features(client: FlaskClient) -> None:
    # tests/unit/carcassonne/boards.py end_board, reordered so that every colour plays in
    # turn: red 0, yellow 1, blue 2, green 3, black 4
    steps: list[Step] = [
        ("U@-1,0r0+r0", 0),  # red's road of 3
        ("B@0,1r0+m0", 1),  # yellow's monastery with 4 neighbours
        "U@-2,0r0",
        ("N@0,-1r270+c0", 3),  # green's first city part
        ("E@-2,-1r90+c0", 4),  # black's
        "E@-1,1r180",
        "E@0,2r180",
        ("E@0,-2r0+c0", 2),  # blue's city of 2
        ("F@-1,-2r90+c0", 3),  # green's second part
        "R@-1,-1r0",  # joins green's two parts and black's
        "G@0,-3r90",
    ]
    game = scenario(client, 5, steps)
    assert game.scored() == []
    found = {
        (d["feature"], d["points"], tuple(d["scorers"])) for d in game.events("FinalFeatureScored")
    }
    assert found == {
        ("road", 3, (0,)),
        ("monastery", 5, (1,)),
        ("city", 2, (2,)),
        ("city", 6, (3,)),
    }
    final = game.get()
    assert final["status"] == "finished"
    assert final["outcome"]["scores"] == [3, 5, 2, 6, 0]
    assert final["outcome"]["winners"] == [3] and final["outcome"]["ranks"] == [3, 2, 4, 1, 5]
    assert [p["followers"] for p in final["state"]["players"]] == [7] * 5


FARM = ["E@0,-1r180+f0", "U@1,0r0+f0", "E@0,-2r0"]
"""boards.py farm_board: blue's farmer (seat 0) round the cap closing the start tile's city,
red's (seat 1) on the strip beside it, and a city left incomplete on blue's field."""
SECOND_CITY = ["E@0,-3r180"]
THIRD_CITY = ["E@-1,-1r0", "E@-1,-2r180"]


@pytest.mark.parametrize(
    ("farmers", "steps", "expected"),
    [
        ("per-field", FARM, {0: 3, 1: 3}),  # the incomplete city pays nothing
        ("per-field", FARM + SECOND_CITY, {0: 6, 1: 3}),
        ("per-field", FARM + SECOND_CITY + THIRD_CITY, {0: 9, 1: 3}),
        ("per-city", FARM, {0: 4, 1: 4}),  # seed 002, the 2000 edition
        ("per-city", FARM + SECOND_CITY, {0: 8, 1: 4}),  # "Синий получает 8 очков"
    ],
)
def test_farmers_score_completed_cities(
    client: FlaskClient, farmers: str, steps: list[Step], expected: dict[int, int]
) -> None:
    game = scenario(client, 2, steps, farmers=farmers)
    assert game.awards() == expected
    assert game.get()["outcome"]["details"]["breakdown"]["farms"] == [expected[0], expected[1]]


def two_city_steps(tie: bool) -> list[Step]:
    """boards.py two_city_board: red seat 0, blue seat 1, yellow seat 2."""
    return [
        ("E@0,-1r180+f0", 0),
        ("U@1,0r0+f0", 1),
        ("U@0,-2r0+f0", 2),
        "U@-1,-1r90" if tie else ("U@-1,-1r90+f1", 0),
        "V@-1,-2r270",
        "A@1,-2r90",
        "E@0,-3r0",
        "E@0,-4r180",
    ]


def test_seed000_the_majority_of_farmers_owns_the_field(client: FlaskClient) -> None:
    game = scenario(client, 3, two_city_steps(tie=False))
    assert game.awards() == {0: 6, 1: 3}
    big = next(d for d in game.events("FarmScored") if len(d["farmers"]) == 3)
    assert big["scorers"] == [0] and len(big["cities"]) == 2


def test_seed000_tied_farmers_all_own_the_field(client: FlaskClient) -> None:
    game = scenario(client, 3, two_city_steps(tie=True))
    assert game.awards() == {0: 6, 2: 6, 1: 3}


def test_seed002_per_city_the_majority_over_all_fields_of_a_city(client: FlaskClient) -> None:
    game = scenario(client, 3, two_city_steps(tie=False), farmers="per-city")
    assert game.awards() == {0: 8}
    assert [len(d["farms"]) for d in game.events("FarmScored")] == [2, 1]


# -- seed 000: deploying ----------------------------------------------------------------


def test_seed000_a_knight_cannot_join_a_city_held_by_another_player(client: FlaskClient) -> None:
    game = scenario(client, 2, [("N@0,-1r270+c0", 0), "F@-1,-1r0"], only=False, upto=1)
    spots = {n for n in game.legal(1) if n.startswith("F@-1,-1r0")}
    assert spots == {"F@-1,-1r0", "F@-1,-1r0+f0", "F@-1,-1r0+f1"}


def test_seed000_a_farmer_cannot_join_the_players_own_field(client: FlaskClient) -> None:
    steps: list[Step] = [("U@1,0r0+f1", 0), "U@-1,0r0", "K@0,1r270"]
    game = scenario(client, 2, steps, only=False, upto=2)
    spots = {n for n in game.legal(0) if n.startswith("K@0,1r270")}
    assert spots == {"K@0,1r270", "K@0,1r270+c0", "K@0,1r270+r0", "K@0,1r270+f1"}
    refused = game.post(0, "K@0,1r270+f0")
    assert (refused.status_code, refused.json["code"]) == (422, "feature-occupied")


# -- seed 002: the 2000 edition, the digest, the programmers' text ------------------------


@pytest.mark.parametrize(
    ("players", "steps", "options", "expected"),
    [
        # a two-tile city: 4, or 2 in the 2000 edition
        (2, [("E@0,-1r180+c0", 0)], {"small_city_points": 4}, [("city", 4, [0])]),
        (2, [("E@0,-1r180+c0", 0)], {"small_city_points": 2}, [("city", 2, [0])]),
        # larger cities score as usual in the 2000 edition
        (2, [("M@0,-1r180+c0", 0), "E@1,-1r270"], {"small_city_points": 2}, [("city", 8, [0])]),
        # a city of five tiles and two pennants: 14
        (
            2,
            [("Q@0,-1r180+c0", 0), "E@-1,-1r90", "F@1,-1r0", "E@2,-1r270"],
            {},
            [("city", 14, [0])],
        ),
        # a road loop is complete
        (
            2,
            [("V@0,1r270+r0", 0), "V@1,1r0", "V@0,2r180", "V@1,2r90"],
            {},
            [("road", 4, [0])],
        ),
        # "дорога справа стоит 8 точки": a ring of eight road tiles
        (
            2,
            RING,
            {},
            [("road", 8, [0])],
        ),
        # a road through one junction tile twice counts it once: red is seat 1
        (
            2,
            ["X@1,0r0", ("V@2,0r0+r0", 1), "V@2,1r90", "V@1,1r180"],
            {},
            [("road", 4, [1])],
        ),
    ],
)
def test_seed002_completed_features(
    client: FlaskClient,
    players: int,
    steps: list[Step],
    options: dict[str, Any],
    expected: list[Any],
) -> None:
    game = scenario(client, players, steps, only=False, **options)
    assert game.scored() == expected
    assert sum(game.get()["state"]["scores"]) == sum(points for _, points, _ in expected)


def test_seed002_a_tile_with_two_segments_of_one_city_counts_once(client: FlaskClient) -> None:
    steps: list[Step] = ["N@0,1r180", "N@1,1r270", "G@1,2r90", "N@1,3r0", "M@0,3r90"]
    game = scenario(client, 2, [*steps, ("H@0,2r0+c0", 1)], only=False)
    [data] = game.events("FeatureScored")
    assert (data["tiles"], data["pennants"], data["points"], data["scorers"]) == (6, 1, 14, [1])


def test_seed002_final_scoring_of_the_2000_edition(client: FlaskClient) -> None:
    # red 3 for an incomplete road, blue 4 for an incomplete city, yellow 4 for an
    # incomplete monastery (1 for its tile + 3 around it); red 0, yellow 1, blue 2
    steps: list[Step] = [
        ("U@-1,0r0+r0", 0),
        ("B@0,1r0+m0", 1),
        ("N@0,-1r270+c0", 2),
        "U@-2,0r0",
        "F@-1,-1r0",
        "E@0,2r180",
    ]
    game = scenario(client, 3, steps, farmers="per-city", small_city_points=2)
    found = {
        (d["feature"], d["points"], tuple(d["scorers"])) for d in game.events("FinalFeatureScored")
    }
    assert found == {("road", 3, (0,)), ("city", 4, (2,)), ("monastery", 4, (1,))}
    assert game.get()["outcome"]["scores"] == [3, 4, 4]


@pytest.mark.parametrize(
    ("farmers", "expected"),
    [
        ("per-city", {0: 4}),  # "Синий получает 4 очка, а красный ничего"
        ("per-field", {0: 6, 1: 3}),  # "Синий получает 6 очков ..., а красный — 3"
        ("per-field-once", {0: 3, 1: 3}),  # the city pays blue only once
    ],
)
def test_seed002_one_city_bordered_by_several_fields(
    client: FlaskClient, farmers: str, expected: dict[int, int]
) -> None:
    # blue (seat 0) on the field north of the band and on the west strip, red (seat 1) on
    # the east strip
    steps: list[Step] = [("F@0,1r0+f0", 0), ("D@1,1r270+f0", 1), ("D@-1,1r90+f0", 0)]
    game = scenario(client, 2, steps, farmers=farmers)
    assert game.awards() == expected


def test_seed002_the_programmers_farm_example(client: FlaskClient) -> None:
    # red (seat 0) and yellow (seat 1) share the field of the two-tile city: 4 each; the other
    # city: red 2 - yellow 1, red gets 4
    steps: list[Step] = [
        ("E@0,-1r180+f0", 0),
        ("U@0,-2r0+f0", 1),
        "U@-1,-1r90",
        "V@-1,-2r270",
        "A@1,-2r90",
        "E@0,-3r0",
        ("E@0,-4r180+f0", 0),
    ]
    game = scenario(client, 2, steps, farmers="per-city")
    assert game.awards() == {0: 8, 1: 4}


def test_seed002_the_rejected_reading_more_followers_on_ones_own_feature(
    client: FlaskClient,
) -> None:
    game = scenario(client, 2, [("U@1,0r0+r0", 0), "U@-1,0r0", "U@2,0r0"], only=False, upto=2)
    assert "U@2,0r0" in game.legal(0) and "U@2,0r0+r0" not in game.legal(0)
    refused = game.post(0, "U@2,0r0+r0")
    assert (refused.status_code, refused.json["code"]) == (422, "feature-occupied")


def test_a_scenario_is_an_analysis_game_and_replays(client: FlaskClient) -> None:
    game = scenario(client, 2, FARM, farmers="per-city")
    assert game.get()["analysis"] == {"scenario": True}
    drawn = game.events("TileDrawn")
    assert [d["tile"] for d in drawn] == ["E", "U", "E"]
    assert {d["random_position"] for d in drawn} == {0}  # no random number was used
    record = game.client.get(f"/api/v1/games/{game.game_id}/record")
    assert record.status_code == 200, record.json
    report = verify_record(record.json)  # every draw and move decided again
    assert report.ok, report.discrepancy
    tampered = record.json
    next(e for e in tampered["events"] if e["type"] == "TileDrawn")["data"]["tile"] = "U"
    assert not verify_record(tampered).ok


# -- the expansion: bridges ---------------------------------------------------------------


def test_a_bridge_over_http(client: FlaskClient) -> None:
    # the monastery B east of the start tile fits only with a W-E bridge on it, which
    # carries the start tile's road; seat 0's thief on the bridge scores the road of 4
    steps: list[Step] = [("B@1,0r0+b0^1,0WE", 0), "A@2,0r90", "A@-1,0r270"]
    game = scenario(client, 2, steps, upto=0, expansions=["bridges-castles-bazaars"])
    assert "B@1,0r0" not in game.legal(0)
    for step in steps:
        game.play(step)
    assert game.scored() == [("road", 4, [0])]
    state = game.get()["state"]
    assert state["board"][1]["bridge"] == "WE"
    assert [(p["bridges"], p["castles"]) for p in state["players"]] == [(2, 3), (3, 3)]
    assert game.get()["outcome"]["scores"] == [4, 0]
    record = game.client.get(f"/api/v1/games/{game.game_id}/record").json
    assert verify_record(record).ok  # the bridge decided again from the record
