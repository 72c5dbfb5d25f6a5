"""The games' typed contracts in the OpenAPI document (docs/api.md, "The typed OpenAPI
document"; issue 13, part 1).

flask-smorest writes the schemas from the marshmallow schemas of api/schemas.py, where a
game's data (a view's ``state``, a move, an event's ``data``, an outcome's ``details``) is a
free-form object. :func:`typed_schemas` types it from the games' contracts
(:mod:`application.contract`, JSON Schema 2020-12, which OpenAPI 3.1 uses as it is):

* each game's schemas become components named after the game (``AzulView``, ``AzulMove``,
  ``RiskCardDrawn``...), their ``$defs`` lifted into components too;
* ``GameView``, ``CreatedGame``, ``LegalMoves`` and ``EventPage`` become a ``oneOf`` of one
  variant per game with a ``discriminator`` on their ``game`` field; within a game an
  ``Event`` is a ``oneOf`` of one variant per event type, discriminated by ``type``;
* ``MoveRequest.move`` is one of the games' moves (the game is the path's: no discriminator);
  a ``Record`` is one of the games' records (its game is ``game.kind``).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from application.contract import Schema, game_contract, ledger_event_schemas
from domain.registry import REGISTERED

SCHEMAS = "#/components/schemas/"


def camel(name: str) -> str:
    """A game's name as the prefix of its components (``azul`` → ``Azul``)."""
    return "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", name) if part)


class Components:
    """The document's schema components, growing as the games' schemas are added."""

    def __init__(self, schemas: dict[str, Any]) -> None:
        self.schemas = schemas

    def add(self, name: str, schema: Schema) -> str:
        """Add ``schema`` as ``name`` (the same schema twice is one component); its ``$ref``."""
        known = self.schemas.get(name)
        if known is not None and known != schema:
            raise ValueError(f"two different schemas named {name}")
        self.schemas[name] = schema
        return SCHEMAS + name

    def lift(self, prefix: str, name: str, schema: Schema) -> str:
        """Add a pydantic schema as ``name``, each of its ``$defs`` as a component of its own
        named with ``prefix`` (unless its name starts with it), every ``$ref`` pointing at the
        components; its ``$ref``."""
        body = copy.deepcopy(schema)
        defs: dict[str, Any] = body.pop("$defs", {})
        names = {d: d if d.startswith(prefix) and prefix != "Ledger" else prefix + d for d in defs}
        for definition, schema_of in defs.items():
            self.add(names[definition], _named(_relinked(schema_of, names), names[definition]))
        return self.add(name, _named(_relinked(body, names), name))


_NAME_MAPS = frozenset({"properties", "patternProperties", "$defs", "dependentSchemas"})
"""Keywords whose value maps names (not keywords) to schemas."""


def _named(schema: Schema, name: str) -> Schema:
    """``schema`` titled with its component's name and no other title: code generators name
    classes after titles, and pydantic's (``PlayerView`` in two games, ``Undo``...) would
    clash."""
    return {"title": name, **_untitled(schema)}


def _untitled(node: Any, names: bool = False) -> Any:
    """``node`` without ``title`` keywords (a property named ``title`` stays), and each
    branch of a union that is one constant written as an ``enum`` of one value (the same
    schema; openapi-python-client 0.29 reads a ``const`` branch without trying the others)."""
    if isinstance(node, list):
        return [_untitled(item) for item in node]
    if not isinstance(node, dict):
        return node
    found = {
        key: _untitled(value, key in _NAME_MAPS and not names)
        for key, value in node.items()
        if names or key != "title"
    }
    if not names:
        for union in ("anyOf", "oneOf"):
            if union in found:
                found[union] = [_enumerated(branch) for branch in found[union]]
    return found


def _enumerated(branch: Any) -> Any:
    if isinstance(branch, dict) and "const" in branch:
        return {**{k: v for k, v in branch.items() if k != "const"}, "enum": [branch["const"]]}
    return branch


def _relinked(node: Any, names: Mapping[str, str]) -> Any:
    """``node`` with its ``#/$defs/X`` references pointing at the components."""
    if isinstance(node, list):
        return [_relinked(item, names) for item in node]
    if not isinstance(node, dict):
        return node
    found = {key: _relinked(value, names) for key, value in node.items()}
    ref = found.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        found["$ref"] = SCHEMAS + names[ref.removeprefix("#/$defs/")]
    return found


def ref(target: str) -> dict[str, str]:
    return {"$ref": target}


def nullable(schema: Schema) -> Schema:
    return {"anyOf": [schema, {"type": "null"}]}


def closed(base: Schema, **properties: Schema) -> Schema:
    """A copy of a marshmallow-made object schema with some properties typed, every property
    required (the service always sends each), no other property allowed."""
    found = copy.deepcopy(base)
    found["properties"] = {**found.get("properties", {}), **properties}
    found["required"] = list(found["properties"])
    found["additionalProperties"] = False
    return found


def one_of(variants: Mapping[str, str], discriminator: str | None) -> Schema:
    """One of ``variants`` (discriminator value → ``$ref``)."""
    found: Schema = {"oneOf": [ref(target) for target in variants.values()]}
    if discriminator is not None:
        found["discriminator"] = {"propertyName": discriminator, "mapping": dict(variants)}
    return found


def typed_schemas(schemas: dict[str, Any]) -> None:
    """Replace the free-form game data of the marshmallow schemas with the games' types
    (this module's docstring), and close the answers whose every field is always sent."""
    base = {name: copy.deepcopy(schemas[name]) for name in _BASES if name in schemas}
    components = Components(schemas)
    ledger = {
        kind: components.lift("Ledger", "Ledger" + kind, schema)
        for kind, schema in ledger_event_schemas().items()
    }
    settings = SCHEMAS + "LedgerLedgerSettings"
    analysis = copy.deepcopy(schemas["LedgerCreated"]["properties"]["analysis"])
    variants: dict[str, dict[str, str]] = {key: {} for key in _VARIANTS}
    moves: list[str] = []
    for rules in REGISTERED:
        game, prefix = rules.name, camel(rules.name)
        contract = game_contract(rules)
        const = {"type": "string", "const": game}
        move = components.lift(prefix, prefix + "Move", contract.move)
        moves.append(move)
        view = components.lift(prefix, prefix + "View", contract.view)
        options = components.lift(prefix, prefix + "Options", contract.options)
        # the rules' details (``<Game>OutcomeDetails``) or ``<Game>ResignationDetails``
        details = components.lift(prefix, prefix + "OutcomeDetailsUnion", contract.outcome_details)
        outcome = components.add(prefix + "Outcome", closed(base["Outcome"], details=ref(details)))
        typed = {
            "game": const,
            "state": ref(view),
            "options": ref(options),
            "settings": ref(settings),
            "analysis": analysis,
            "outcome": nullable(ref(outcome)),
        }
        for name in ("GameView", "CreatedGame"):
            variants[name][game] = components.add(prefix + name, closed(base[name], **typed))
        legal = components.add(prefix + "LegalMove", closed(base["LegalMove"], move=ref(move)))
        variants["LegalMoves"][game] = components.add(
            prefix + "LegalMoves",
            closed(base["LegalMoves"], game=const, moves={"type": "array", "items": ref(legal)}),
        )
        data = {kind: ref(target) for kind, target in ledger.items()}
        for kind, schema in contract.events.items():
            data[kind] = ref(components.lift(prefix, prefix + kind, schema))
        events = {
            kind: components.add(
                f"{prefix}{kind}Event",
                closed(base["Event"], type={"type": "string", "const": kind}, data=typed_data),
            )
            for kind, typed_data in data.items()
        }
        event = components.add(prefix + "Event", one_of(events, "type"))
        page_items = {"type": "array", "items": ref(event)}
        variants["EventPage"][game] = components.add(
            prefix + "EventPage", closed(base["EventPage"], game=const, items=page_items)
        )
        variants["Record"][game] = components.add(
            prefix + "Record",
            closed(
                base["Record"],
                game=_record_game(const, options, settings, analysis),
                moves={"type": "array", "items": _RECORD_MOVE},
                events=page_items,
                outcome=nullable(ref(outcome)),
            ),
        )
    for name, found in variants.items():
        schemas[name] = one_of(found, None if name == "Record" else "game")
    for name in set(_BASES) - set(_VARIANTS):  # only the variants refer to them now
        del schemas[name]
    for name in _CLOSED_ANSWERS:
        if name in schemas:
            schemas[name] = closed(schemas[name])
    schemas["CreateGameRequest"]["properties"]["game"]["enum"] = [r.name for r in REGISTERED]
    _typed_clocks(schemas)
    move_request = schemas["MoveRequest"]
    move_request["properties"]["move"] = {
        "oneOf": [*(ref(m) for m in moves), {"type": "null"}],
        "description": "The move in its JSON form: one of the path's game's moves",
    }


def _typed_clocks(schemas: dict[str, Any]) -> None:
    """The time controls typed (docs/api.md, "Clocks"): a create request's ``settings.clock``
    is one of the ledger's controls (or none), and so is a view's ``clock.control``."""
    controls = [ref(SCHEMAS + "LedgerFischerClock"), ref(SCHEMAS + "LedgerCorrespondenceClock")]
    none = {
        "type": "object",
        "properties": {"type": {"type": "string", "enum": ["none"]}},
        "required": ["type"],
        "additionalProperties": False,
    }
    settings = schemas["LedgerSettings"]["properties"]
    settings["clock"] = {
        "oneOf": [*controls, none, {"type": "null"}],
        "description": settings["clock"].get("description", ""),
    }
    view = schemas["ClockView"]["properties"]
    view["control"] = {"oneOf": controls, "description": "The time control"}


_VARIANTS = ("GameView", "CreatedGame", "LegalMoves", "EventPage", "Record")
"""The answers that are one variant per game."""
_BASES = (*_VARIANTS, "LegalMove", "Event", "Outcome")

_RECORD_MOVE: Schema = {
    "type": "object",
    "description": "A move of the record (docs/audit.md, 'Record format'): its JSON form as "
    "the viewer may see it (a Risk deal's cards hidden, as in MoveMade)",
    "properties": {
        "turn": {"type": "integer"},
        "version": {"type": "integer"},
        "seat": {"type": "integer"},
        "move": {"type": "object"},
        "notation": {"type": "string"},
        "at": {"type": "string"},
        "undone": {"type": "boolean"},
        "undone_by": {"type": ["integer", "null"]},
    },
    "required": ["turn", "version", "seat", "move", "notation", "at", "undone", "undone_by"],
    "additionalProperties": False,
}


def _record_game(const: Schema, options: str, settings: str, analysis: Schema) -> Schema:
    return {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "kind": const,
            "rules_version": {"type": "string"},
            "players": {"type": "integer"},
            "options": ref(options),
            "settings": ref(settings),
            "analysis": analysis,
            "created_at": {"type": "string"},
        },
        "required": [
            "id",
            "kind",
            "rules_version",
            "players",
            "options",
            "settings",
            "analysis",
            "created_at",
        ],
        "additionalProperties": False,
    }


_CLOSED_ANSWERS = ("Played", "Joined", "Viewer", "Seat")
"""Answers whose every field is always sent (checked by the e2e validation)."""
