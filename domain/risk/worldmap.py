"""The Risk map as a value (docs/risk.md, "Terms", "Reinforcement phase" and "Map"):
territories with their continent and card symbol, continents with their bonus, and the
borders. Built from a JSON-like dict by :func:`load_map`, so another map file can be used;
the default is :data:`WORLD_MAP`, the classic world map embedded in :mod:`domain.risk.mapdata`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from domain.risk.mapdata import WORLD_MAP_DATA

CARD_SYMBOLS = frozenset({"infantry", "cavalry", "artillery"})
"""The unit symbols on territory cards (docs/risk.md, "Terms": a card shows a unit symbol)."""


class MapError(ValueError):
    """A map dict that does not describe a valid map; the message says what is wrong."""


@dataclass(frozen=True, slots=True)
class Continent:
    """A continent: its code, name, bonus (docs/risk.md, "Reinforcement phase" item 3) and
    territories."""

    code: str
    name: str
    bonus: int
    territories: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Territory:
    """A territory: its name, continent code, card symbol and neighbours (docs/risk.md, "Terms")."""

    name: str
    continent: str
    card_symbol: str
    neighbours: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class WorldMap:
    """A validated map: territories and continents in file order, adjacency as frozensets."""

    territories: tuple[Territory, ...]
    continents: tuple[Continent, ...]
    adjacency: Mapping[str, frozenset[str]]
    wild_cards: int
    by_name: Mapping[str, Territory] = field(init=False, repr=False, compare=False)
    """Every territory by its name (made from ``territories``)."""

    def __post_init__(self) -> None:
        by_name = MappingProxyType({t.name: t for t in self.territories})
        object.__setattr__(self, "by_name", by_name)

    @property
    def borders(self) -> frozenset[frozenset[str]]:
        """Every border once, as the unordered pair of its two territories."""
        return frozenset(frozenset((a, b)) for a, ns in self.adjacency.items() for b in ns)

    def territory(self, name: str) -> Territory:
        """The territory called ``name``; ``KeyError`` if there is none."""
        return self.by_name[name]

    def adjacent(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` share a border (units may attack or move across it)."""
        return b in self.adjacency.get(a, frozenset())


def _str(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value:
        raise MapError(f"{what} must be a non-empty string, got {value!r}")
    return value


def _names(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise MapError(f"{what} must be a list of names")
    names = tuple(_str(v, what) for v in value)
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise MapError(f"{what}: duplicate {', '.join(twice)}")
    return names


def _continents(data: Mapping[str, Any]) -> tuple[Continent, ...]:
    out: list[Continent] = []
    for raw in data.get("continents", []):
        code = _str(raw.get("code"), "continent code")
        bonus = raw.get("bonus")
        if not isinstance(bonus, int) or isinstance(bonus, bool) or bonus < 0:
            raise MapError(f"continent {code}: bonus must be a non-negative integer")
        ts = _names(raw.get("territories"), f"continent {code} territories")
        out.append(Continent(code, _str(raw.get("name"), "continent name"), bonus, ts))
    if len({c.code for c in out}) != len(out):
        raise MapError("two continents share a code")
    return tuple(out)


def _territories(data: Mapping[str, Any]) -> tuple[Territory, ...]:
    out: list[Territory] = []
    for raw in data.get("territories", []):
        name = _str(raw.get("name"), "territory name")
        symbol = _str(raw.get("card_symbol"), f"{name}: card symbol")
        if symbol not in CARD_SYMBOLS:
            raise MapError(f"{name}: unknown card symbol {symbol!r}")
        continent = _str(raw.get("continent"), f"{name}: continent")
        neighbours = _names(raw.get("neighbours"), f"{name} borders")
        out.append(Territory(name, continent, symbol, neighbours))
    if not out:
        raise MapError("a map needs territories")
    if len({t.name for t in out}) != len(out):
        raise MapError("a territory is listed twice")
    return tuple(out)


def _check_continents(
    territories: tuple[Territory, ...], continents: tuple[Continent, ...]
) -> None:
    home: dict[str, str] = {}
    for c in continents:
        for name in c.territories:
            if name in home:
                raise MapError(f"{name} is in two continents: {home[name]} and {c.code}")
            home[name] = c.code
    for t in territories:
        if home.get(t.name) != t.continent:
            raise MapError(f"{t.name}: continent {t.continent} does not list it")
    unknown = set(home) - {t.name for t in territories}
    if unknown:
        raise MapError(f"continents list unknown territories: {sorted(unknown)}")


def _check_borders(territories: tuple[Territory, ...]) -> dict[str, frozenset[str]]:
    adjacency = {t.name: frozenset(t.neighbours) for t in territories}
    for t in territories:
        for n in t.neighbours:
            if n not in adjacency:
                raise MapError(f"border {t.name} - {n}: unknown territory {n}")
            if n == t.name:
                raise MapError(f"{t.name} borders itself")
            if t.name not in adjacency[n]:
                raise MapError(f"asymmetric border: {t.name} lists {n}, not the reverse")
    return adjacency


def load_map(data: Mapping[str, Any]) -> WorldMap:
    """Validate a JSON-like map dict (the shape of :data:`domain.risk.mapdata.WORLD_MAP_DATA`)
    and build the :class:`WorldMap`; raise :class:`MapError` on an unknown territory in a border, an
    asymmetric or duplicate border, or a territory in no or two continents."""
    continents = _continents(data)
    territories = _territories(data)
    _check_continents(territories, continents)
    adjacency = _check_borders(territories)
    wild = data.get("wild_cards", 0)
    if not isinstance(wild, int) or isinstance(wild, bool) or wild < 0:
        raise MapError("wild_cards must be a non-negative integer")
    return WorldMap(territories, continents, adjacency, wild)


WORLD_MAP = load_map(WORLD_MAP_DATA)
"""The classic world map (:mod:`domain.risk.mapdata`; docs/risk.md, "Map"), validated."""
