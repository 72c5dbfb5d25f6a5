"""The Risk map as a renderer needs it (docs/api.md, "Rendering data"; issue 13, part 5):
territories with their continent, card symbol, neighbours and a centre on a canvas;
continents with their members and bonuses; every border once, marked when it crosses the sea
or wraps around the canvas.

Both rulesets (the Constitution and classic Risk, docs/risk.md) play on the same classic
map, :data:`domain.risk.worldmap.WORLD_MAP`, which this document is built from (never a
copy); the drawing comes from :mod:`application.rendering.risk_layout`.
"""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict

from application.rendering import risk_layout
from domain.risk.options import RULESETS
from domain.risk.rules import RULES_VERSION
from domain.risk.worldmap import WORLD_MAP, WorldMap

CardSymbol = Literal["infantry", "cavalry", "artillery"]
SYMBOLS: dict[str, CardSymbol] = {
    "infantry": "infantry",
    "cavalry": "cavalry",
    "artillery": "artillery",
}
"""A territory card's symbol, typed (the map refuses any other)."""


class CanvasPointJSON(TypedDict):
    """A point of the canvas (x east, y south, from the north-west corner)."""

    x: int
    y: int


class TerritoryJSON(TypedDict):
    """A territory: ``id`` is its name, as moves, events and views name it."""

    id: str
    name: str
    continent: str
    card_symbol: CardSymbol
    neighbours: list[str]
    centre: CanvasPointJSON


class ContinentJSON(TypedDict):
    """A continent: its code, name, bonus (reinforcements for holding all of it) and
    members, in map order."""

    id: str
    name: str
    bonus: int
    territories: list[str]


class BorderJSON(TypedDict):
    """A border once, its two territories in map order."""

    between: list[str]
    continental: bool
    sea: bool
    wraps: bool


class CanvasJSON(TypedDict):
    """The canvas the centres lie on."""

    width: int
    height: int


class RiskMap(TypedDict):
    """The whole document of ``GET /game-types/risk/map``."""

    game: Literal["risk"]
    rules_version: str
    rulesets: list[str]
    canvas: CanvasJSON
    continents: list[ContinentJSON]
    territories: list[TerritoryJSON]
    borders: list[BorderJSON]
    wild_cards: int


def _centre(name: str) -> CanvasPointJSON:
    x, y = risk_layout.CENTRES[name]
    return {"x": x, "y": y}


def borders(world: WorldMap) -> list[BorderJSON]:
    """Every border of ``world`` once, in map order of its first then its second
    territory; ``continental`` when it joins two continents."""
    order = {t.name: index for index, t in enumerate(world.territories)}
    sea = {frozenset(pair) for pair in risk_layout.SEA_BORDERS}
    wraps = {frozenset(pair) for pair in risk_layout.WRAPPING}
    pairs = sorted(sorted(pair, key=order.__getitem__) for pair in world.borders)
    pairs.sort(key=lambda pair: (order[pair[0]], order[pair[1]]))
    return [
        {
            "between": [a, b],
            "continental": world.territory(a).continent != world.territory(b).continent,
            "sea": frozenset((a, b)) in sea,
            "wraps": frozenset((a, b)) in wraps,
        }
        for a, b in pairs
    ]


def risk_map(world: WorldMap = WORLD_MAP) -> RiskMap:
    """The document of ``GET /game-types/risk/map`` (module docstring)."""
    return {
        "game": "risk",
        "rules_version": RULES_VERSION,
        "rulesets": list(RULESETS),
        "canvas": {"width": risk_layout.WIDTH, "height": risk_layout.HEIGHT},
        "continents": [
            {"id": c.code, "name": c.name, "bonus": c.bonus, "territories": list(c.territories)}
            for c in world.continents
        ],
        "territories": [
            {
                "id": t.name,
                "name": t.name,
                "continent": t.continent,
                "card_symbol": SYMBOLS[t.card_symbol],
                "neighbours": list(t.neighbours),
                "centre": _centre(t.name),
            }
            for t in world.territories
        ],
        "borders": borders(world),
        "wild_cards": world.wild_cards,
    }
