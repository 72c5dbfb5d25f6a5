"""The JSON Schemas of every game's events, moves, views and options, and of the ledger's own
events, generated from their one typed definition (docs/architecture.md, "Typed events, moves
and views"; docs/api.md, "The schemas of a game's data").

Each schema comes from the game's ``TypedDict`` through pydantic's JSON Schema generator
(JSON Schema 2020-12), with one decision of ours: an object described by a ``TypedDict`` is
closed (``additionalProperties: false``), so a field that a game writes but never declared
fails validation instead of slipping through to clients.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

from pydantic import TypeAdapter
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

from domain.ledger_events import LEDGER_EVENTS
from domain.lobby import ResignationDetails
from domain.protocol import Rules

Schema = dict[str, Any]


class ClosedObjects(GenerateJsonSchema):
    """pydantic's generator, with every ``TypedDict`` a closed object."""

    def typed_dict_schema(self, schema: core_schema.TypedDictSchema) -> JsonSchemaValue:
        """The object schema of a ``TypedDict``, with no other properties allowed."""
        generated = super().typed_dict_schema(schema)
        generated["additionalProperties"] = False
        return generated


@cache
def json_schema(shape: object) -> Schema:
    """The JSON Schema of a typed definition (a ``TypedDict``, a union of them, ...)."""
    adapter: TypeAdapter[Any] = TypeAdapter(cast(Any, shape))
    return adapter.json_schema(schema_generator=ClosedObjects)


@dataclass(frozen=True)
class GameContract:
    """Every schema of one game: each event's data by type, a move, a view, the options,
    an outcome's details."""

    game: str
    events: dict[str, Schema]
    move: Schema
    view: Schema
    options: Schema
    outcome_details: Schema


def game_contract(rules: Rules[Any, Any]) -> GameContract:
    """The schemas of ``rules``' game, each generated from its typed definition."""
    catalogue = rules.events
    return GameContract(
        game=rules.name,
        events={name: json_schema(catalogue.shape(name)) for name in catalogue.types},
        move=json_schema(rules.shapes.move),
        view=json_schema(rules.shapes.view),
        options=json_schema(rules.shapes.options),
        outcome_details=outcome_details_schema(rules.shapes.outcome_details),
    )


def outcome_details_schema(details: object) -> Schema:
    """What ``Outcome.details`` may hold in a game whose rules give ``details``: the rules'
    own, with ``resigned`` (the seats that resigned, in order) when seats resigned and the
    rules still ended the game, and ``flagged`` when seats' clocks ran out (docs/api.md,
    "Clocks"); or, when the game ended by resignation, only
    :class:`domain.lobby.ResignationDetails` (docs/api.md, "Lobby"; ``domain.lobby.ranked``
    and ``resigned_outcome``)."""
    own = copy.deepcopy(json_schema(details))
    defs = own.pop("$defs", {})
    resignation = copy.deepcopy(json_schema(ResignationDetails))
    defs.update(resignation.pop("$defs", {}))
    own["properties"]["resigned"] = copy.deepcopy(resignation["properties"]["resigned"])
    own["properties"]["flagged"] = copy.deepcopy(resignation["properties"]["flagged"])
    own_name = str(own.get("title", "OutcomeDetails"))
    defs[own_name] = own
    defs["ResignationDetails"] = resignation
    return {
        "oneOf": [{"$ref": f"#/$defs/{own_name}"}, {"$ref": "#/$defs/ResignationDetails"}],
        "$defs": defs,
    }


@cache
def ledger_event_schemas() -> dict[str, Schema]:
    """The schema of each ledger event's public data, by event type (``Created``,
    ``SeatJoined``, ``MoveMade``, ``UndoRequested``, ``UndoAnswered``, ``TurnsUndone``): the
    ``data`` the event log presents, generated from :mod:`domain.ledger_events`. The same for
    every game; a move's own fields follow the game's ``move`` schema."""
    return {shape.__name__: json_schema(shape) for shape in LEDGER_EVENTS}
