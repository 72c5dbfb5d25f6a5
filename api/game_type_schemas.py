"""marshmallow schemas of the catalogue of game types (docs/api.md, "Game types"): each
registered game's player ranges, options and capabilities, and the JSON Schemas of its data
(:mod:`application.catalogue`). Re-exported by :mod:`api.schemas`."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

SCALARS: list[dict[str, Any]] = [{"type": "string"}, {"type": "integer"}, {"type": "boolean"}]


ITEMS = {"anyOf": [{"type": "string"}, {"type": "integer"}]}


VALUE_TYPES: list[dict[str, Any]] = [*SCALARS, {"type": "array", "items": ITEMS}]


OPTION_VALUE = {"anyOf": VALUE_TYPES}
"""What an option takes: a string, an integer, a boolean, or an array of strings or integers
(docs/api.md, "Game types")."""


OPTION_DEFAULT = {
    "anyOf": [*VALUE_TYPES, {"type": "null"}],
    "description": "null: absent unless given",
}
"""An option's default: a value, or null (OpenAPI 3.1: JSON Schema's null type)."""


class OptionInfoSchema(Schema):
    name = fields.String(required=True)
    type = fields.String(
        required=True,
        validate=validate.OneOf(["string", "integer", "boolean", "array"]),
        metadata={"description": "The option's JSON type"},
    )
    default = fields.Raw(
        required=True,
        allow_none=True,
        metadata=OPTION_DEFAULT,
    )
    description = fields.String(required=True)
    values = fields.List(
        fields.Raw(
            metadata={"oneOf": [{"type": "string"}, {"type": "integer"}, {"type": "boolean"}]}
        ),
        required=True,
        metadata={
            "description": "The values it takes, of each item for an array (empty: see the bounds)"
        },
    )
    minimum = fields.Integer(
        required=True, allow_none=True, metadata={"description": "Of the integer, or of each item"}
    )
    maximum = fields.Integer(required=True, allow_none=True)


class PlayerRangeSchema(Schema):
    options = fields.Dict(
        keys=fields.String(),
        values=fields.Raw(metadata=OPTION_VALUE),
        required=True,
        metadata={"description": "The options with which this range holds ({}: the defaults)"},
    )
    min_players = fields.Integer(required=True, validate=validate.Range(min=1))
    max_players = fields.Integer(required=True, validate=validate.Range(min=1))


class CapabilitiesSchema(Schema):
    """What the game's protocol offers beyond the common shape (docs/architecture.md)."""

    simultaneous_moves = fields.Boolean(
        required=True, metadata={"description": "current_players may name several seats at once"}
    )
    hides_information = fields.Boolean(
        required=True, metadata={"description": "Some events show some viewers less (sealed data)"}
    )
    open_moves = fields.Boolean(
        required=True,
        metadata={"description": "legal-moves lists typical moves; others may be legal too"},
    )


class GameTypeSchema(Schema):
    name = fields.String(required=True)
    rules_version = fields.String(
        required=True, metadata={"description": "What every record of this kind names"}
    )
    min_players = fields.Integer(
        required=True, metadata={"description": "The least over every option set"}
    )
    max_players = fields.Integer(
        required=True, metadata={"description": "The most over every option set"}
    )
    player_ranges = fields.List(
        fields.Nested(PlayerRangeSchema),
        required=True,
        metadata={"description": "The first holds with the default options"},
    )
    options = fields.List(
        fields.Nested(OptionInfoSchema),
        required=True,
        metadata={"description": "Every option, its values and default (for a form)"},
    )
    options_schema = fields.Dict(
        required=True,
        metadata={
            "description": "The JSON Schema (2020-12) of the 'options' a create takes: the "
            "game's typed options (GET .../schemas, options) with none required, an option "
            "left out taking its default"
        },
    )
    event_types = fields.List(fields.String(), required=True)
    capabilities = fields.Nested(CapabilitiesSchema, required=True)


class GameSchemasSchema(Schema):
    """The JSON Schemas (2020-12) of one game's data, generated from its typed definitions."""

    game = fields.String()
    events = fields.Dict(
        keys=fields.String(), values=fields.Dict(), metadata={"description": "By event type"}
    )
    move = fields.Dict(metadata={"description": "A move's JSON form (MoveRequest.move)"})
    view = fields.Dict(metadata={"description": "A game view's state (GameView.state)"})
    options = fields.Dict(metadata={"description": "The options as fixed at creation"})
    outcome_details = fields.Dict(metadata={"description": "What Outcome.details holds"})
    ledger_events = fields.Dict(
        keys=fields.String(),
        values=fields.Dict(),
        metadata={"description": "By ledger event type (Created, MoveMade, ...): Event.data"},
    )
