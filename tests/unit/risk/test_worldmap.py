"""The Risk world map (shared/rules/risk.md, intro and "Reinforcement phase")."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from domain.risk.mapdata import WORLD_MAP_DATA
from domain.risk.worldmap import WORLD_MAP, MapError, load_map

SHARED = Path(__file__).resolve().parents[3].parent / "shared" / "rules" / "risk-world-map.json"
"""shared/ stands beside the repository (on developers' machines and in CI)."""


def test_embedded_copy_equals_the_shared_file() -> None:
    assert json.loads(SHARED.read_text(encoding="utf-8")) == WORLD_MAP_DATA


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
        assert WORLD_MAP.continent_of(t.name).code == t.continent


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
