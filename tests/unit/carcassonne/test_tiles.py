"""The tile catalogue and its geometry (docs/carcassonne.md, "Conventions" and "Tiles and
the catalogue"): 72 base tiles in 24 types, the expansion's 12 in 11, the start tile, rotation
of edges and half-edges. The embedded catalogue (``domain/carcassonne/catalogue.py``) is the
project's own data: these tests check it against counts written out by hand from the rule
documents and against the geometry every tile must have."""

from __future__ import annotations

from domain.carcassonne.catalogue import CATALOGUE
from domain.carcassonne.grid import ORIGIN, pos_of, xy
from domain.carcassonne.tiles import (
    ALL_FITS,
    BASE_COUNTS,
    CATALOGUE_TYPES,
    CITY,
    FIELD,
    FITS,
    HALF_NAMES,
    MONASTERY,
    ORIENTATIONS,
    ROAD,
    START,
    TYPE_INDEX,
    TYPES,
    facing_half,
    facing_slot,
    fits,
    rotate_edge,
    rotate_half,
)

from .helpers import table

# Written out by hand from the rules' tile list (seed 002's programmer text and the rulebook):
# type: (count, edges N E S W, pennants, monastery)
EXPECTED = {
    "A": (2, "FFRF", 0, True),
    "B": (4, "FFFF", 0, True),
    "C": (1, "CCCC", 1, False),
    "D": (4, "CRFR", 0, False),
    "E": (5, "CFFF", 0, False),
    "F": (2, "FCFC", 1, False),
    "G": (1, "FCFC", 0, False),
    "H": (3, "CFCF", 0, False),
    "I": (2, "CFFC", 0, False),
    "J": (3, "CRRF", 0, False),
    "K": (3, "CFRR", 0, False),
    "L": (3, "CRRR", 0, False),
    "M": (2, "CFFC", 1, False),
    "N": (3, "CFFC", 0, False),
    "O": (2, "CRRC", 1, False),
    "P": (3, "CRRC", 0, False),
    "Q": (1, "CCFC", 1, False),
    "R": (3, "CCFC", 0, False),
    "S": (2, "CCRC", 1, False),
    "T": (1, "CCRC", 0, False),
    "U": (8, "FRFR", 0, False),
    "V": (9, "FFRR", 0, False),
    "W": (4, "FRRR", 0, False),
    "X": (1, "RRRR", 0, False),
}

# The expansion's tiles (seed 001's tile list; docs/carcassonne.md, "The expansion"):
# type: (count, edges N E S W, monastery, bazaar, castle-base caps)
EXPECTED_EXPANSION = {
    "BB1": (2, "CCCC", False, True, 0),
    "BB2": (1, "CCRC", False, False, 3),
    "BB3": (1, "FCFC", False, True, 0),
    "BB4": (1, "FRFC", False, False, 0),
    "BB5": (1, "CFRF", False, True, 1),
    "BB6": (1, "FFFF", False, True, 0),
    "BB7": (1, "FCFC", True, False, 0),
    "BB8": (1, "FRFR", True, False, 0),
    "BB9": (1, "FFRF", False, True, 0),
    "BB10": (1, "RFRF", False, True, 0),
    "BB11": (1, "RFRF", False, True, 0),
}
SIDES = "NESW"
HALVES = {"N": ("NNW", "NNE"), "E": ("ENE", "ESE"), "S": ("SSE", "SSW"), "W": ("WSW", "WNW")}
"""The half-edges of each side, clockwise from the top-left corner (docs, "Conventions")."""


def test_the_catalogue_lists_every_type_once_in_its_order() -> None:
    letters = [data["type"] for data in CATALOGUE]
    assert letters == [*EXPECTED, *EXPECTED_EXPANSION]
    assert [tile.letter for tile in CATALOGUE_TYPES] == letters
    assert sum(data["count"] for data in CATALOGUE) == 72 + 12
    assert [data["type"] for data in CATALOGUE if data["start"]] == ["D"]
    assert {data["set"] for data in CATALOGUE} == {"base", "bridges-castles-bazaars"}


def test_the_expansion_tiles_match_the_list() -> None:
    for data in CATALOGUE[len(EXPECTED) :]:
        count, edges, monastery, bazaar, caps = EXPECTED_EXPANSION[data["type"]]
        assert data["set"] == "bridges-castles-bazaars", data["type"]
        assert (data["count"], data["edges"], data["monastery"], data["bazaar"]) == (
            count,
            edges,
            monastery,
            bazaar,
        ), data["type"]
        assert sum(city["castle_base"] for city in data["cities"]) == caps, data["type"]
        assert all(city["pennants"] == 0 for city in data["cities"]), data["type"]


def test_every_catalogue_entry_is_geometrically_whole() -> None:
    """Each edge letter is backed by exactly one segment of its kind (or by fields for F);
    the field half-edges partition the halves a road or field edge has; ids run c0, c1..;
    ``adj_cities`` names cities of the same tile; a cap is one city edge."""
    for data in CATALOGUE:
        name = data["type"]
        cities, roads, fields = data["cities"], data["roads"], data["fields"]
        assert [c["id"] for c in cities] == [f"c{i}" for i in range(len(cities))], name
        assert [r["id"] for r in roads] == [f"r{i}" for i in range(len(roads))], name
        assert [f["id"] for f in fields] == [f"f{i}" for i in range(len(fields))], name
        for kind, segments in (("C", cities), ("R", roads)):
            covered = [side for segment in segments for side in segment["edges"]]
            assert len(covered) == len(set(covered)), name
            edges = zip(SIDES, data["edges"], strict=True)
            assert sorted(covered) == sorted(side for side, e in edges if e == kind), name
        owned = [half for field in fields for half in field["halves"]]
        assert len(owned) == len(set(owned)), name
        expected_halves = {
            half
            for side, letter in zip(SIDES, data["edges"], strict=True)
            if letter != "C"
            for half in HALVES[side]
        }
        assert set(owned) == expected_halves, name
        ids = {city["id"] for city in cities}
        assert all(set(field["adj_cities"]) <= ids for field in fields), name
        for city in cities:
            assert not city["castle_base"] or len(city["edges"]) == 1, name


def test_the_base_game_has_72_tiles_in_24_types() -> None:
    base = [tile for tile in TYPES if tile.set == "base"]
    assert [tile.letter for tile in base] == sorted(EXPECTED)
    assert sum(BASE_COUNTS) == 72
    for tile in base:
        count, edges, pennants, monastery = EXPECTED[tile.letter]
        assert tile.count == BASE_COUNTS[tile.index] == count, tile.letter
        assert tile.edges == edges, tile.letter
        assert sum(s.pennants for s in tile.segments) == pennants, tile.letter
        assert (tile.monastery >= 0) == monastery, tile.letter
    expansion = [tile for tile in CATALOGUE_TYPES if tile.set != "base"]
    assert len(expansion) == 11 and sum(tile.count for tile in expansion) == 12
    assert all(BASE_COUNTS[tile.index] == 0 for tile in expansion)


def test_segments_cover_every_edge_and_half_edge_once() -> None:
    for tile in TYPES:
        edges = 0
        halves = 0
        for segment in tile.segments:
            assert not edges & segment.edges and not halves & segment.halves, tile.letter
            edges |= segment.edges
            halves |= segment.halves
        for d, letter in enumerate(tile.edges):
            assert bool(edges >> d & 1) == (letter != "F"), (tile.letter, d)
            side = halves >> (2 * d) & 3
            assert side == (0 if letter == "C" else 3), (tile.letter, d)


def test_fields_know_the_cities_they_border() -> None:
    by_type = {data["type"]: data for data in CATALOGUE}
    for tile in TYPES:
        for segment in tile.segments:
            if segment.kind == FIELD:
                listed = next(f for f in by_type[tile.letter]["fields"] if f["id"] == segment.id)
                assert [tile.segments[c].id for c in segment.cities] == listed["adj_cities"]
    d = TYPES[TYPE_INDEX["D"]]
    assert [(s.id, s.kind) for s in d.segments] == [
        ("c0", CITY),
        ("r0", ROAD),
        ("f0", FIELD),
        ("f1", FIELD),
    ]
    assert d.segments[2].cities == (0,) and d.segments[3].cities == ()
    a = TYPES[TYPE_INDEX["A"]]
    assert a.segments[a.monastery].id == "m0" and a.segments[a.monastery].kind == MONASTERY


def test_the_start_tile_is_a_d_at_the_origin_unrotated() -> None:
    assert TYPES[START].letter == "D" and TYPES[START].start
    assert [t.letter for t in TYPES if t.start] == ["D"]
    state = table(2)
    assert state.tiles == [(ORIGIN, START, 0, -1)]
    assert xy(ORIGIN) == (0, 0)
    assert state.tiles_left == 71 and state.stack[START] == 3


def test_rotating_a_quarter_turn_clockwise() -> None:
    # N -> E -> S -> W -> N, half-edge i -> i + 2 (mod 8)
    assert [rotate_edge(d, 1) for d in range(4)] == [1, 2, 3, 0]
    assert [HALF_NAMES[rotate_half(h, 1)] for h in range(8)] == [
        "ENE",
        "ESE",
        "SSE",
        "SSW",
        "WSW",
        "WNW",
        "NNW",
        "NNE",
    ]
    assert [rotate_half(h, 4) for h in range(8)] == list(range(8))
    assert [rotate_edge(d, 3) for d in range(4)] == [3, 0, 1, 2]


def test_a_turned_tile_shows_its_edges_and_keeps_its_segment_ids() -> None:
    d = TYPE_INDEX["D"]
    assert [ORIENTATIONS[d][turns].edges for turns in range(4)] == ["CRFR", "RCRF", "FRCR", "RFRC"]
    turned = ORIENTATIONS[d][1]  # city now east, road N-S
    city, road, north_strip, south = turned.slots
    assert city == 1 << 1  # edge E
    assert road == (1 << 0) | (1 << 2)  # edges N and S
    # the strip between road and city: ENE, WNW turned to SSE, NNE
    assert north_strip == (1 << (4 + 4)) | (1 << (4 + 1))
    assert south == sum(1 << (4 + h) for h in (5, 6, 7, 0))
    assert turned.slot_segment[1] == 0 and turned.slot_segment[0] == 1


def test_half_edges_meet_their_neighbours() -> None:
    names = {HALF_NAMES[h]: HALF_NAMES[facing_half(h)] for h in range(8)}
    assert names == {
        "NNW": "SSW",
        "NNE": "SSE",
        "ENE": "WNW",
        "ESE": "WSW",
        "SSE": "NNE",
        "SSW": "NNW",
        "WSW": "ESE",
        "WNW": "ENE",
    }
    assert [facing_slot(s) for s in range(4)] == [2, 3, 0, 1]


def test_fit_tables_match_edges() -> None:
    for tile in TYPES:
        for code in range(256):
            every = ALL_FITS[tile.index][code]
            assert every == tuple(t for t in range(4) if fits(ORIENTATIONS[tile.index][t], code))
            distinct = FITS[tile.index][code]
            assert set(distinct) <= set(every)
            looks = {ORIENTATIONS[tile.index][t].signature for t in every}
            assert len(distinct) == len(looks)
    # a symmetric tile: U turned 180 looks like U unturned, so one of them is listed
    u = TYPE_INDEX["U"]
    assert ALL_FITS[u][0] == (0, 1, 2, 3) and FITS[u][0] == (0, 1)
    assert FITS[TYPE_INDEX["C"]][0] == (0,) and FITS[TYPE_INDEX["X"]][0] == (0,)


def test_squares_have_coordinates() -> None:
    for x, y in [(0, 0), (3, -7), (-40, 40), (-1, -1)]:
        assert xy(pos_of(x, y)) == (x, y)
    assert pos_of(0, -1) == ORIGIN - 1  # north is y - 1
