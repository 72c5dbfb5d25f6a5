"""The Risk world map (docs/risk.md, "Map"): the embedded map checked against the classic
world map as this repository states it -- every territory of each continent, the bonuses,
the card symbols, each territory's number of neighbours, the borders between continents,
symmetry and connectivity -- so that no border or name can drift unnoticed."""

from __future__ import annotations

import copy
from collections import Counter, deque
from typing import Any

import pytest

from domain.risk.mapdata import WORLD_MAP_DATA
from domain.risk.worldmap import WORLD_MAP, MapError, load_map

CONTINENTS = {
    "NA": [
        "Alaska",
        "Northwest Territory",
        "Greenland",
        "Alberta",
        "Ontario",
        "Quebec",
        "Western United States",
        "Eastern United States",
        "Central America",
    ],
    "SA": ["Venezuela", "Peru", "Brazil", "Argentina"],
    "EU": [
        "Iceland",
        "Scandinavia",
        "Great Britain",
        "Northern Europe",
        "Western Europe",
        "Southern Europe",
        "Ukraine",
    ],
    "AF": ["North Africa", "Egypt", "East Africa", "Congo", "South Africa", "Madagascar"],
    "AS": [
        "Ural",
        "Siberia",
        "Yakutsk",
        "Kamchatka",
        "Irkutsk",
        "Mongolia",
        "Japan",
        "Afghanistan",
        "China",
        "Middle East",
        "India",
        "Siam",
    ],
    "AU": ["Indonesia", "New Guinea", "Western Australia", "Eastern Australia"],
}
"""The classic map's territories by continent, in the embedded map's order (docs/risk.md,
"Map")."""

DEGREES = {
    **dict.fromkeys(["Argentina", "Madagascar", "Japan", "Eastern Australia"], 2),
    **dict.fromkeys(
        ["Alaska", "Quebec", "Central America", "Venezuela", "Peru", "Iceland", "Congo"], 3
    ),
    **dict.fromkeys(
        ["South Africa", "Yakutsk", "Siam", "Indonesia", "New Guinea", "Western Australia"], 3
    ),
    **dict.fromkeys(["Northwest Territory", "Greenland", "Alberta", "Brazil"], 4),
    **dict.fromkeys(["Western United States", "Eastern United States", "Scandinavia"], 4),
    **dict.fromkeys(["Great Britain", "Western Europe", "Egypt", "Ural", "Irkutsk"], 4),
    "India": 4,
    **dict.fromkeys(["Northern Europe", "Siberia", "Kamchatka", "Mongolia", "Afghanistan"], 5),
    **dict.fromkeys(["Ontario", "Southern Europe", "Ukraine", "North Africa"], 6),
    **dict.fromkeys(["East Africa", "China", "Middle East"], 6),
}
"""How many neighbours each territory has on the classic map."""

BETWEEN_CONTINENTS = {
    ("Alaska", "Kamchatka"),
    ("Greenland", "Iceland"),
    ("Central America", "Venezuela"),
    ("Brazil", "North Africa"),
    ("North Africa", "Western Europe"),
    ("North Africa", "Southern Europe"),
    ("Egypt", "Southern Europe"),
    ("Egypt", "Middle East"),
    ("East Africa", "Middle East"),
    ("Middle East", "Southern Europe"),
    ("Middle East", "Ukraine"),
    ("Afghanistan", "Ukraine"),
    ("Ukraine", "Ural"),
    ("Indonesia", "Siam"),
}
"""The 14 borders that cross from one continent to another on the classic map."""


def test_territories_by_continent() -> None:
    assert {c.code: list(c.territories) for c in WORLD_MAP.continents} == CONTINENTS
    assert [t.name for t in WORLD_MAP.territories] == [n for ns in CONTINENTS.values() for n in ns]


def test_every_territory_has_its_number_of_neighbours() -> None:
    assert len(DEGREES) == 42
    assert {name: len(ns) for name, ns in WORLD_MAP.adjacency.items()} == DEGREES
    assert sum(DEGREES.values()) == 2 * 83


def test_borders_between_continents() -> None:
    continent = {t.name: t.continent for t in WORLD_MAP.territories}
    crossing = set()
    for border in WORLD_MAP.borders:
        a, b = sorted(border)
        if continent[a] != continent[b]:
            crossing.add((a, b))
    assert crossing == {tuple(sorted(pair)) for pair in BETWEEN_CONTINENTS}


def test_the_map_is_connected() -> None:
    start = WORLD_MAP.territories[0].name
    seen = {start}
    queue = deque([start])
    while queue:
        for there in WORLD_MAP.adjacency[queue.popleft()]:
            if there not in seen:
                seen.add(there)
                queue.append(there)
    assert len(seen) == 42


def test_each_continent_is_connected_within_itself() -> None:
    for c in WORLD_MAP.continents:
        inside = set(c.territories)
        seen = {c.territories[0]}
        queue = deque(seen)
        while queue:
            for there in WORLD_MAP.adjacency[queue.popleft()] & inside:
                if there not in seen:
                    seen.add(there)
                    queue.append(there)
        assert seen == inside, c.name


def test_the_map_loaded_is_the_embedded_data() -> None:
    assert load_map(WORLD_MAP_DATA) == WORLD_MAP


def test_counts() -> None:
    assert len(WORLD_MAP.territories) == 42
    assert len(WORLD_MAP.continents) == 6
    assert len(WORLD_MAP.borders) == 83
    assert WORLD_MAP.wild_cards == 2


def test_card_symbols_14_each() -> None:
    symbols = Counter(t.card_symbol for t in WORLD_MAP.territories)
    assert symbols == {"infantry": 14, "cavalry": 14, "artillery": 14}


def test_borders_symmetric() -> None:
    for a, neighbours in WORLD_MAP.adjacency.items():
        for b in neighbours:
            assert a in WORLD_MAP.adjacency[b]
            assert WORLD_MAP.adjacent(b, a)


def test_every_territory_in_exactly_one_continent() -> None:
    listed = Counter(name for c in WORLD_MAP.continents for name in c.territories)
    assert set(listed) == {t.name for t in WORLD_MAP.territories}
    assert set(listed.values()) == {1}
    for t in WORLD_MAP.territories:
        holder = next(c for c in WORLD_MAP.continents if t.name in c.territories)
        assert holder.code == t.continent


def test_continent_bonuses_as_in_the_rules() -> None:
    bonuses = {c.name: c.bonus for c in WORLD_MAP.continents}
    assert bonuses == {
        "North America": 5,
        "South America": 2,
        "Europe": 5,
        "Africa": 3,
        "Asia": 7,
        "Australia": 2,
    }
    sizes = {c.code: len(c.territories) for c in WORLD_MAP.continents}
    assert sizes == {"NA": 9, "SA": 4, "EU": 7, "AF": 6, "AS": 12, "AU": 4}


def test_known_borders() -> None:
    assert WORLD_MAP.adjacent("Alaska", "Kamchatka")
    assert WORLD_MAP.adjacent("Brazil", "North Africa")
    assert not WORLD_MAP.adjacent("Alaska", "Brazil")


def _territory(data: dict[str, Any], name: str) -> dict[str, Any]:
    entry: dict[str, Any] = next(t for t in data["territories"] if t["name"] == name)
    return entry


def _broken(change: str) -> dict[str, Any]:
    data: dict[str, Any] = copy.deepcopy(WORLD_MAP_DATA)
    alaska = _territory(data, "Alaska")
    if change == "unknown":
        alaska["neighbours"].append("Atlantis")
    elif change == "asymmetric":
        _territory(data, "Kamchatka")["neighbours"].remove("Alaska")
    elif change == "duplicate":
        alaska["neighbours"].append("Kamchatka")
    elif change == "two continents":
        data["continents"][1]["territories"].append("Alaska")
    elif change == "symbol":
        alaska["card_symbol"] = "dragon"
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("unknown", "unknown territory Atlantis"),
        ("asymmetric", "asymmetric border"),
        ("duplicate", "Alaska borders: duplicate Kamchatka"),
        ("two continents", "Alaska is in two continents"),
        ("symbol", "unknown card symbol"),
    ],
)
def test_a_bad_map_is_refused(change: str, message: str) -> None:
    with pytest.raises(MapError, match=message):
        load_map(_broken(change))


def test_another_map_can_be_loaded() -> None:
    tiny = {
        "continents": [{"code": "X", "name": "X", "bonus": 1, "territories": ["A", "B"]}],
        "territories": [
            {"name": "A", "continent": "X", "card_symbol": "infantry", "neighbours": ["B"]},
            {"name": "B", "continent": "X", "card_symbol": "cavalry", "neighbours": ["A"]},
        ],
    }
    small = load_map(tiny)
    assert len(small.borders) == 1
    assert small.wild_cards == 0
