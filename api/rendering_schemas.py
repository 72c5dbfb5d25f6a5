"""The response schemas of the rendering data (docs/api.md, "Rendering data"): the
Carcassonne tile catalogue and the Risk map, typed field by field after the ``TypedDict``s
that build them (:mod:`application.rendering.carcassonne_tiles`,
:mod:`application.rendering.risk_map`; ``tests/e2e/test_rendering_http.py`` checks that each
document dumps through its schema unchanged and validates against the OpenAPI document).
Every object is closed and every member required."""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, fields, validate

EDGES = ["N", "E", "S", "W"]
HALVES = ["NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW"]
EDGE_STRING = validate.Regexp(r"^[CRF]{4}$")


def _required(field: fields.Field[Any]) -> fields.Field[Any]:
    field.required = True
    return field


class Closed(Schema):
    """An object with exactly its declared members."""

    class Meta:
        unknown = RAISE


class UnitPointSchema(Closed):
    x = _required(fields.Float(validate=validate.Range(0, 1), metadata={"description": "East"}))
    y = _required(fields.Float(validate=validate.Range(0, 1), metadata={"description": "South"}))


class TileSegmentSchema(Closed):
    """A segment of a tile type (unturned)."""

    id = _required(
        fields.String(
            metadata={"description": "What a move's 'follower' names (c0, r1, f2, m0, b0)"}
        )
    )
    kind = _required(fields.String(validate=validate.OneOf(["city", "road", "field", "monastery"])))
    follower = _required(
        fields.String(
            validate=validate.OneOf(["knight", "thief", "farmer", "monk"]),
            metadata={"description": "The role of a follower on it"},
        )
    )
    edges = _required(
        fields.List(
            fields.String(validate=validate.OneOf(EDGES)),
            metadata={"description": "City and road: the edges it crosses"},
        )
    )
    half_edges = _required(
        fields.List(
            fields.String(validate=validate.OneOf(HALVES)),
            metadata={"description": "Field: the half-edges it owns"},
        )
    )
    pennants = _required(fields.Integer(validate=validate.Range(min=0)))
    castle_base = _required(
        fields.Boolean(metadata={"description": "City: a one-edge cap a castle may stand on"})
    )
    adjacent_cities = _required(
        fields.List(
            fields.String(), metadata={"description": "Field: the cities of the tile it touches"}
        )
    )
    road_end = _required(
        fields.String(
            allow_none=True,
            validate=validate.OneOf(["junction", "city", "monastery", "bazaar"]),
            metadata={"description": "Road: what its dead end meets; null when it runs through"},
        )
    )
    inn = _required(fields.Boolean(metadata={"description": "Road: an inn is drawn (no effect)"}))
    spot = _required(
        fields.Nested(UnitPointSchema, metadata={"description": "Where a follower is drawn"})
    )


class TileBridgeSchema(Closed):
    axis = _required(
        fields.String(
            validate=validate.OneOf(["NS", "WE"]),
            metadata={"description": "Across the unturned tile"},
        )
    )
    edges = _required(fields.String(validate=EDGE_STRING, metadata={"description": "With it"}))
    segment = _required(fields.Nested(TileSegmentSchema))


class TileTypeSchema(Closed):
    id = _required(fields.String(metadata={"description": "The letter: A..X, BB1..BB11"}))
    set = _required(fields.String(validate=validate.OneOf(["base", "bridges-castles-bazaars"])))
    count = _required(fields.Integer(validate=validate.Range(min=1)))
    start = _required(fields.Boolean(metadata={"description": "The start tile's type (D)"}))
    edges = _required(
        fields.String(validate=EDGE_STRING, metadata={"description": "N E S W unturned: C R F"})
    )
    monastery = _required(fields.Boolean())
    bazaar = _required(fields.Boolean(metadata={"description": "Expansion: opens an auction"}))
    segments = _required(fields.List(fields.Nested(TileSegmentSchema)))
    bridges = _required(fields.List(fields.Nested(TileBridgeSchema)))


class HalfEdgeSchema(Closed):
    name = _required(fields.String(validate=validate.OneOf(HALVES)))
    edge = _required(fields.String(validate=validate.OneOf(EDGES)))
    start = _required(fields.Nested(UnitPointSchema))
    end = _required(fields.Nested(UnitPointSchema))


class RotationSchema(Closed):
    degrees = _required(fields.List(fields.Integer(validate=validate.OneOf([0, 90, 180, 270]))))
    direction = _required(fields.String(validate=validate.OneOf(["clockwise"])))
    edge_step = _required(
        fields.Integer(metadata={"description": "Edge d moves to d + step per quarter turn"})
    )
    half_edge_step = _required(
        fields.Integer(metadata={"description": "Half-edge i moves to i + step per quarter turn"})
    )


class DeckSchema(Closed):
    options = _required(fields.Dict(keys=fields.String(), values=fields.List(fields.String())))
    sets = _required(fields.List(fields.String()))
    tiles = _required(
        fields.Integer(metadata={"description": "Tiles in all, the start tile included"})
    )


class TileCatalogueSchema(Closed):
    """Every Carcassonne tile type (docs/api.md, "Rendering data")."""

    game = _required(fields.String(validate=validate.OneOf(["carcassonne"])))
    rules_version = _required(fields.String())
    edges = _required(fields.List(fields.String(validate=validate.OneOf(EDGES))))
    half_edges = _required(fields.List(fields.Nested(HalfEdgeSchema)))
    rotation = _required(fields.Nested(RotationSchema))
    decks = _required(fields.List(fields.Nested(DeckSchema)))
    tiles = _required(fields.List(fields.Nested(TileTypeSchema)))


class CanvasPointSchema(Closed):
    x = _required(fields.Integer(validate=validate.Range(min=0)))
    y = _required(fields.Integer(validate=validate.Range(min=0)))


class TerritorySchema(Closed):
    id = _required(fields.String(metadata={"description": "As moves and views name it"}))
    name = _required(fields.String())
    continent = _required(fields.String(metadata={"description": "Its continent's id"}))
    card_symbol = _required(
        fields.String(validate=validate.OneOf(["infantry", "cavalry", "artillery"]))
    )
    neighbours = _required(fields.List(fields.String()))
    centre = _required(fields.Nested(CanvasPointSchema))


class ContinentSchema(Closed):
    id = _required(fields.String(metadata={"description": "NA, SA, EU, AF, AS, AU"}))
    name = _required(fields.String())
    bonus = _required(fields.Integer(validate=validate.Range(min=0)))
    territories = _required(fields.List(fields.String()))


class BorderSchema(Closed):
    between = _required(fields.List(fields.String(), validate=validate.Length(equal=2)))
    continental = _required(fields.Boolean(metadata={"description": "Joins two continents"}))
    sea = _required(fields.Boolean(metadata={"description": "Drawn across water"}))
    wraps = _required(
        fields.Boolean(metadata={"description": "Leaves one side of the canvas for the other"})
    )


class CanvasSchema(Closed):
    width = _required(fields.Integer())
    height = _required(fields.Integer())


class RiskMapSchema(Closed):
    """The Risk map of both rulesets (docs/api.md, "Rendering data")."""

    game = _required(fields.String(validate=validate.OneOf(["risk"])))
    rules_version = _required(fields.String())
    rulesets = _required(fields.List(fields.String()))
    canvas = _required(fields.Nested(CanvasSchema))
    continents = _required(fields.List(fields.Nested(ContinentSchema)))
    territories = _required(fields.List(fields.Nested(TerritorySchema)))
    borders = _required(fields.List(fields.Nested(BorderSchema)))
    wild_cards = _required(fields.Integer(validate=validate.Range(min=0)))
