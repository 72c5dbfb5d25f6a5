"""The Risk map for renderers (docs/api.md, "Rendering data") matches the engine's map: the
same territories, continents, bonuses and borders (symmetric, each once), the sea crossings
and wrap-arounds real borders; every territory has a centre on the canvas, apart from every
other; both rulesets' views name the same territories."""

from __future__ import annotations

import math
from itertools import combinations

from application.rendering import risk_layout
from application.rendering.risk_map import RiskMap, risk_map
from domain.protocol import Viewer
from domain.randomness import RandomStream
from domain.risk import RISK
from domain.risk.worldmap import WORLD_MAP

DOCUMENT: RiskMap = risk_map()


def test_territories_and_continents_are_the_engines() -> None:
    assert [t["id"] for t in DOCUMENT["territories"]] == [t.name for t in WORLD_MAP.territories]
    for shown, engine in zip(DOCUMENT["territories"], WORLD_MAP.territories, strict=True):
        assert shown["name"] == shown["id"]
        assert shown["continent"] == engine.continent
        assert shown["card_symbol"] == engine.card_symbol
        assert set(shown["neighbours"]) == WORLD_MAP.adjacency[engine.name]
    assert [(c["id"], c["name"], c["bonus"], c["territories"]) for c in DOCUMENT["continents"]] == [
        (c.code, c.name, c.bonus, list(c.territories)) for c in WORLD_MAP.continents
    ]
    assert DOCUMENT["wild_cards"] == WORLD_MAP.wild_cards == 2


def test_borders_are_the_engines_adjacency_each_once_and_symmetric() -> None:
    pairs = [frozenset(b["between"]) for b in DOCUMENT["borders"]]
    assert len(pairs) == len(set(pairs)) == 83
    assert set(pairs) == WORLD_MAP.borders
    neighbours = {t["id"]: set(t["neighbours"]) for t in DOCUMENT["territories"]}
    for a, b in (tuple(b["between"]) for b in DOCUMENT["borders"]):
        assert b in neighbours[a] and a in neighbours[b]
        assert WORLD_MAP.adjacent(a, b) and WORLD_MAP.adjacent(b, a)
    for name, around in neighbours.items():
        for other in around:
            assert name in neighbours[other]
    continental = {frozenset(b["between"]) for b in DOCUMENT["borders"] if b["continental"]}
    assert len(continental) == 14


def test_sea_crossings_and_wrap_arounds_are_borders() -> None:
    for a, b in (*risk_layout.SEA_BORDERS, *risk_layout.WRAPPING):
        assert WORLD_MAP.adjacent(a, b), (a, b)
    assert len(set(map(frozenset, risk_layout.SEA_BORDERS))) == len(risk_layout.SEA_BORDERS)
    sea = {frozenset(b["between"]) for b in DOCUMENT["borders"] if b["sea"]}
    assert sea == set(map(frozenset, risk_layout.SEA_BORDERS))
    wraps = [b["between"] for b in DOCUMENT["borders"] if b["wraps"]]
    assert wraps == [["Alaska", "Kamchatka"]]


def test_every_territory_has_a_centre_on_the_canvas_apart_from_the_others() -> None:
    canvas = DOCUMENT["canvas"]
    assert (canvas["width"], canvas["height"]) == (1000, 600)
    assert set(risk_layout.CENTRES) == {t.name for t in WORLD_MAP.territories}
    centres = {t["id"]: (t["centre"]["x"], t["centre"]["y"]) for t in DOCUMENT["territories"]}
    for x, y in centres.values():
        assert 0 < x < canvas["width"] and 0 < y < canvas["height"]
    for (a, p), (b, q) in combinations(centres.items(), 2):
        assert math.dist(p, q) >= risk_layout.MIN_GAP, (a, b)


def test_the_map_is_drawn_as_on_the_board() -> None:
    """West to east: the Americas, then Europe and Africa, then Asia and Australia; north to
    south within each column (a coarse check that no centre was typed in the wrong place)."""
    centre = {t["id"]: t["centre"] for t in DOCUMENT["territories"]}
    mean_x = {
        c["id"]: sum(centre[t]["x"] for t in c["territories"]) / len(c["territories"])
        for c in DOCUMENT["continents"]
    }
    assert mean_x["NA"] < mean_x["EU"] < mean_x["AS"]
    assert mean_x["SA"] < mean_x["AF"] < mean_x["AU"]
    for north, south in (("NA", "SA"), ("EU", "AF"), ("AS", "AU")):
        for t in next(c for c in DOCUMENT["continents"] if c["id"] == north)["territories"]:
            for u in next(c for c in DOCUMENT["continents"] if c["id"] == south)["territories"]:
                assert centre[t]["y"] < centre[u]["y"] + 60, (t, u)


def test_both_rulesets_play_on_this_map() -> None:
    assert DOCUMENT["rulesets"] == ["constitution", "classic"]
    ids = {t["id"] for t in DOCUMENT["territories"]}
    for ruleset in DOCUMENT["rulesets"]:
        state = RISK.setup(3, {"ruleset": ruleset})
        for event in RISK.begin(state, RandomStream("map")):
            state = RISK.evolve(state, event)
        shown = RISK.view(state, Viewer(seat=None))
        assert set(shown["territories"]) == ids
