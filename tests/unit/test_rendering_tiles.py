"""The Carcassonne tile catalogue for renderers (docs/api.md, "Rendering data") matches the
engine: every tile type and segment, turned by the rule the document states, touches exactly
the edges and half-edges the engine's placement code uses; bridges are the engine's bridged
variants; the decks are the stacks the rules set up; every segment has a follower spot
inside the tile and apart from the others."""

from __future__ import annotations

import math
from itertools import combinations
from typing import Any

import pytest

from application.rendering import carcassonne_tiles as catalogue_module
from application.rendering.carcassonne_tiles import TileCatalogue, tile_catalogue
from application.rendering.tile_spots import MIN_GAP, rotate_point
from domain.carcassonne import CARCASSONNE
from domain.carcassonne.tiles import (
    AXES,
    CATALOGUE_TYPES,
    EDGE_NAMES,
    HALF_NAMES,
    KIND_NAMES,
    ORIENTATIONS,
    ROLES,
    TYPE_INDEX,
    TYPES,
    VARIANTS,
)

DOCUMENT: TileCatalogue = tile_catalogue()
BY_ID = {tile["id"]: tile for tile in DOCUMENT["tiles"]}


def turned_edges(edges: str, rotation: int, step: int) -> str:
    """The edges as the document says a tile turned ``rotation`` shows them: side ``d``
    shows the unturned side ``d - step·turns``."""
    turns = rotation // 90
    return "".join(edges[(d - step * turns) % 4] for d in range(4))


def slot_mask(segment: dict[str, Any], rotation: int, rules: dict[str, Any]) -> int:
    """The engine's slot bits of a segment, from the document alone: edge ``d`` moves to
    ``d + edge_step·turns``, half-edge ``i`` to ``i + half_edge_step·turns``."""
    turns = rotation // 90
    edges = DOCUMENT["edges"]
    halves = [half["name"] for half in DOCUMENT["half_edges"]]
    mask = 0
    for edge in segment["edges"]:
        mask |= 1 << (edges.index(edge) + rules["edge_step"] * turns) % 4
    for half in segment["half_edges"]:
        mask |= 1 << 4 + (halves.index(half) + rules["half_edge_step"] * turns) % 8
    return mask


def test_the_vocabulary_is_the_engines() -> None:
    assert "".join(DOCUMENT["edges"]) == EDGE_NAMES
    assert tuple(h["name"] for h in DOCUMENT["half_edges"]) == HALF_NAMES
    assert catalogue_module.KINDS == KIND_NAMES
    assert catalogue_module.FOLLOWERS == ROLES
    assert catalogue_module.AXIS_NAMES == AXES
    assert DOCUMENT["rotation"]["degrees"] == [0, 90, 180, 270]


def test_every_catalogue_type_once_in_the_engines_order() -> None:
    assert [tile["id"] for tile in DOCUMENT["tiles"]] == [t.letter for t in CATALOGUE_TYPES]
    assert len(BY_ID) == 35
    for tile in CATALOGUE_TYPES:
        shown = BY_ID[tile.letter]
        assert (shown["set"], shown["count"], shown["edges"]) == (tile.set, tile.count, tile.edges)
        assert shown["start"] == tile.start
        assert shown["monastery"] == (tile.monastery >= 0)
        assert [s["id"] for s in shown["segments"]] == [s.id for s in tile.segments]
        for segment, engine in zip(shown["segments"], tile.segments, strict=True):
            assert segment["kind"] == KIND_NAMES[engine.kind]
            assert segment["follower"] == ROLES[engine.kind]
            assert segment["pennants"] == engine.pennants


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_turned_by_the_documented_rule_every_segment_lies_where_the_engine_has_it(
    rotation: int,
) -> None:
    rules = DOCUMENT["rotation"]
    for tile in CATALOGUE_TYPES:
        shown = BY_ID[tile.letter]
        engine = ORIENTATIONS[tile.index][rotation // 90]
        assert turned_edges(shown["edges"], rotation, rules["edge_step"]) == engine.edges
        masks = [slot_mask(s, rotation, dict(rules)) for s in shown["segments"]]
        assert tuple(masks) == engine.slots, (tile.letter, rotation)


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_bridges_are_the_engines_bridged_variants(rotation: int) -> None:
    rules = dict(DOCUMENT["rotation"])
    for tile in CATALOGUE_TYPES:
        shown = {bridge["axis"]: bridge for bridge in BY_ID[tile.letter]["bridges"]}
        possible = {AXES[axis] for axis in range(2) if VARIANTS[tile.index][axis] >= 0}
        assert set(shown) == possible, tile.letter
        for axis_name, bridge in shown.items():
            variant = TYPES[VARIANTS[tile.index][AXES.index(axis_name)]]
            engine = ORIENTATIONS[variant.index][rotation // 90]
            assert bridge["segment"]["id"] == variant.segments[-1].id == "b0"
            assert bridge["segment"]["kind"] == "road"
            assert turned_edges(bridge["edges"], rotation, rules["edge_step"]) == engine.edges
            assert slot_mask(bridge["segment"], rotation, rules) == engine.slots[-1]


def test_the_decks_are_what_the_rules_set_up() -> None:
    for deck in DOCUMENT["decks"]:
        state = CARCASSONNE.setup(2, deck["options"])
        assert deck["tiles"] == state.tiles_left + len(state.tiles)
        shown = sum(t["count"] for t in DOCUMENT["tiles"] if t["set"] in deck["sets"])
        assert shown == deck["tiles"]
    assert [d["tiles"] for d in DOCUMENT["decks"]] == [72, 84]
    assert [d["options"] for d in DOCUMENT["decks"]] == [
        r.options for r in CARCASSONNE.player_ranges
    ]


def spots(tile: dict[str, Any], bridge: dict[str, Any] | None) -> list[tuple[float, float]]:
    segments = [*tile["segments"], *([bridge["segment"]] if bridge else [])]
    return [(s["spot"]["x"], s["spot"]["y"]) for s in segments]


def test_every_segment_has_a_spot_inside_the_tile_and_apart_from_the_others() -> None:
    for tile in DOCUMENT["tiles"]:
        for bridge in [None, *tile["bridges"]]:
            found = spots(tile, bridge)
            assert all(0.1 <= v <= 0.9 for point in found for v in point), tile["id"]
            for a, b in combinations(found, 2):
                assert math.dist(a, b) >= MIN_GAP - 1e-9, (tile["id"], a, b)


def test_a_spot_turns_with_its_tile() -> None:
    """A quarter turn takes the north edge's middle to the east edge's, as the engine takes
    edge N to E; four quarter turns change nothing."""
    middles = {"N": (0.5, 0.0), "E": (1.0, 0.5), "S": (0.5, 1.0), "W": (0.0, 0.5)}
    for d, edge in enumerate("NESW"):
        assert rotate_point(middles[edge], 90) == middles["NESW"[(d + 1) % 4]]
    for tile in DOCUMENT["tiles"]:
        for x, y in spots(tile, None):
            assert rotate_point(rotate_point((x, y), 180), 180) == (x, y)


def test_fields_name_cities_of_their_own_tile_and_roads_their_ends() -> None:
    for tile in DOCUMENT["tiles"]:
        cities = {s["id"] for s in tile["segments"] if s["kind"] == "city"}
        for segment in tile["segments"]:
            assert set(segment["adjacent_cities"]) <= cities
            if segment["kind"] == "field":
                assert segment["half_edges"] and not segment["edges"]
            elif segment["kind"] in ("city", "road"):
                assert segment["edges"] and not segment["half_edges"]
            if segment["kind"] != "road":
                assert segment["road_end"] is None and not segment["inn"]
    assert [t["id"] for t in DOCUMENT["tiles"] if any(s["inn"] for s in t["segments"])] == [
        "BB9",
        "BB11",
    ]
    assert TYPE_INDEX["D"] == next(i for i, t in enumerate(DOCUMENT["tiles"]) if t["start"])
