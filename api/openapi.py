"""The typed OpenAPI document (docs/api.md, "The typed OpenAPI document"; issue 13, part 1).

flask-smorest writes the document from the marshmallow schemas of api/schemas.py, where a
game's data (a view's ``state``, a move, an event's ``data``, an outcome's ``details``) is a
free-form object. :func:`complete` finishes it from the games' typed contracts
(:mod:`application.contract`, JSON Schema 2020-12, which OpenAPI 3.1 uses as it is):

* each game's schemas become components named after the game (``AzulView``, ``AzulMove``,
  ``RiskCardDrawn``...), their ``$defs`` lifted into components too;
* ``GameView``, ``CreatedGame``, ``LegalMoves`` and ``EventPage`` become a ``oneOf`` of one
  variant per game with a ``discriminator`` on their ``game`` field; within a game an
  ``Event`` is a ``oneOf`` of one variant per event type, discriminated by ``type``;
* ``MoveRequest.move`` is one of the games' moves (the game is the path's: no discriminator);
  a ``Record`` is one of the games' records (its game is ``game.kind``);
* every operation gets its ``operationId`` (the view function's name), its ``security``
  (derived from the 401 it declares), its header parameters and response headers, a 429
  response, and the examples of api/openapi_examples.json, recorded from a real game.

Operations added later are covered by the same rules; what cannot be derived (which answers
carry an ``ETag``, which answer ``304``) is listed here, and tests/e2e/test_openapi_document.py
fails for an operation that forgets any of it.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from typing import Any

from flask import Flask, current_app
from werkzeug.wrappers import Response

from api.errors import PROBLEM
from api.problems import ProblemApi
from application.contract import Schema, game_contract, ledger_event_schemas
from domain.registry import REGISTERED

SCHEMAS = "#/components/schemas/"
PARAMETERS = "#/components/parameters/"
RESPONSES = "#/components/responses/"
HEADERS = "#/components/headers/"

SEAT_TOKEN = "seatToken"

ETAG_OPERATIONS = frozenset(
    {
        "create_game",
        "get_game",
        "join_game",
        "legal_moves",
        "make_move",
        "view_after_turn",
        "request_undo",
        "answer_undo",
        "arbiter_undo",
        "fork_game",
        "event_log",
        "game_record",
    }
)
"""The operations whose successful answer carries the game's version as ``ETag``
(api/resources/common.py)."""

CONDITIONAL_OPERATIONS = frozenset({"get_game", "game_record"})
"""The GETs answered ``304 Not Modified`` when ``If-None-Match`` names the version they
would show (api/resources/common.py, ``document_answer``)."""

COMPONENT_HEADERS: dict[str, dict[str, Any]] = {
    "ETag": {
        "description": 'The game\'s version as a strong entity tag ("12"): send it back as '
        "If-Match with a command, or as If-None-Match with a GET",
        "required": True,
        "schema": {"type": "string", "pattern": '^"[1-9][0-9]*"$'},
    },
    "Location": {
        "description": "The URL of the game's view",
        "required": True,
        "schema": {"type": "string"},
    },
    "Retry-After": {
        "description": "Seconds to wait before trying again",
        "required": True,
        "schema": {"type": "integer", "minimum": 0},
    },
}

COMPONENT_PARAMETERS: dict[str, dict[str, Any]] = {
    "IfMatch": {
        "name": "If-Match",
        "in": "header",
        "required": False,
        "description": 'The version the command was decided on, as its entity tag ("12"), '
        "instead of expected_version in the body (docs/api.md, 'Versions and conflicts')",
        "schema": {"type": "string", "maxLength": 64},
    },
    "IfNoneMatch": {
        "name": "If-None-Match",
        "in": "header",
        "required": False,
        "description": "The ETag of the answer the client holds: 304 Not Modified, no body, "
        "when the answer would be the same",
        "schema": {"type": "string", "maxLength": 1024},
    },
    "IdempotencyKey": {
        "name": "Idempotency-Key",
        "in": "header",
        "required": False,
        "description": "A key of the client's choosing: the same key with the same body "
        "replays the stored answer, with another body it is refused (docs/api.md, "
        "'Idempotency')",
        "schema": {"type": "string", "minLength": 1, "maxLength": 255},
    },
    "LastEventId": {
        "name": "Last-Event-ID",
        "in": "header",
        "required": False,
        "description": "The id of the last event the client received: the stream resumes "
        "after it, without loss or duplication",
        "schema": {"type": "string", "maxLength": 64},
    },
}


_SEAT_HEADER = {"header.Authorization": "Bearer {$response.body#/token}"}
_SAME_SEAT = {
    "path.game_id": "$request.path.game_id",
    "header.Authorization": "$request.header.Authorization",
}
LINKS: dict[str, dict[str, dict[str, Any]]] = {
    "create_game": {
        "JoinGame": {
            "operationId": "join_game",
            "parameters": {"path.game_id": "$response.body#/id"},
            "description": "Take a seat of the new game",
        },
        "GetGame": {
            "operationId": "get_game",
            "parameters": {"path.game_id": "$response.body#/id"},
        },
    },
    "join_game": {
        "JoinNext": {
            "operationId": "join_game",
            "parameters": {"path.game_id": "$response.body#/game_id"},
            "description": "Take another seat of the same game",
        },
        "LegalMoves": {
            "operationId": "legal_moves",
            "parameters": {"path.game_id": "$response.body#/game_id", **_SEAT_HEADER},
            "description": "The seat's legal moves, with the token it received",
        },
        "GetGame": {
            "operationId": "get_game",
            "parameters": {"path.game_id": "$response.body#/game_id", **_SEAT_HEADER},
        },
        "EventLog": {
            "operationId": "event_log",
            "parameters": {"path.game_id": "$response.body#/game_id", **_SEAT_HEADER},
        },
    },
    "legal_moves": {
        "MakeMove": {
            "operationId": "make_move",
            "parameters": _SAME_SEAT,
            "requestBody": {
                "move": "$response.body#/moves/0/move",
                "expected_version": "$response.body#/version",
            },
            "description": "Make the first legal move, on the version it was listed for",
        },
    },
    "make_move": {
        "LegalMoves": {"operationId": "legal_moves", "parameters": _SAME_SEAT},
        "GetGame": {"operationId": "get_game", "parameters": _SAME_SEAT},
    },
}
"""How the answers of operations lead to others (OpenAPI links; the stateful fuzz test
follows them: create → join → legal moves → move)."""


def last_event_id() -> dict[str, Any]:
    """The ``Last-Event-ID`` header parameter, for a stream operation's declaration:
    ``@blp.doc(parameters=[openapi.last_event_id()])``."""
    return {"$ref": PARAMETERS + "LastEventId"}


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


def _typed_schemas(schemas: dict[str, Any]) -> None:
    """Replace the free-form game data of the marshmallow schemas with the games' types."""
    base = {name: copy.deepcopy(schemas[name]) for name in _BASES if name in schemas}
    components = Components(schemas)
    ledger = {
        kind: components.lift("Ledger", "Ledger" + kind, schema)
        for kind, schema in ledger_event_schemas().items()
    }
    settings = SCHEMAS + "LedgerLedgerSettings"
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
        details = components.lift(prefix, prefix + "OutcomeDetails", contract.outcome_details)
        outcome = components.add(prefix + "Outcome", closed(base["Outcome"], details=ref(details)))
        typed = {
            "game": const,
            "state": ref(view),
            "options": ref(options),
            "settings": ref(settings),
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
                game=_record_game(const, options, settings),
                moves={"type": "array", "items": _RECORD_MOVE},
                events=page_items,
                outcome=nullable(ref(outcome)),
            ),
        )
    for name, found in variants.items():
        schemas[name] = one_of(found, None if name == "Record" else "game")
    for name in set(_BASES) - set(_VARIANTS):  # only the variants refer to them now
        del schemas[name]
    schemas["CreateGameRequest"]["properties"]["game"]["enum"] = [r.name for r in REGISTERED]
    move_request = schemas["MoveRequest"]
    move_request["properties"]["move"] = {
        "oneOf": [*(ref(m) for m in moves), {"type": "null"}],
        "description": "The move in its JSON form: one of the path's game's moves",
    }


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


def _record_game(const: Schema, options: str, settings: str) -> Schema:
    return {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "kind": const,
            "rules_version": {"type": "string"},
            "players": {"type": "integer"},
            "options": ref(options),
            "settings": ref(settings),
            "analysis": {"type": ["object", "null"]},
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


def _too_many_requests() -> dict[str, Any]:
    return {
        "description": "Too Many Requests: 'rate-limited'; wait Retry-After seconds",
        "headers": {"Retry-After": ref(HEADERS + "Retry-After")},
        "content": {PROBLEM: {"schema": ref(SCHEMAS + "Problem")}},
    }


def operation_ids(app: Flask) -> dict[tuple[str, str], str]:
    """The name of the view function of each (method, OpenAPI path)."""
    found = {}
    for rule in app.url_map.iter_rules():
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
        for method in rule.methods or ():
            found[(method.lower(), path)] = rule.endpoint.rpartition(".")[2]
    return found


METHODS = ("get", "post", "put", "patch", "delete")


def _operations(document: dict[str, Any]) -> Iterable[tuple[str, str, dict[str, Any]]]:
    for path, item in document["paths"].items():
        for method in METHODS:
            if method in item:
                yield method, path, item[method]


def _finish_operation(
    method: str, operation: dict[str, Any], name: str, examples: Mapping[str, Any]
) -> None:
    """An operation's id, security, headers, 429 and examples (docs/api.md)."""
    operation["operationId"] = name
    responses: dict[str, Any] = operation["responses"]
    parameters: list[dict[str, Any]] = operation.setdefault("parameters", [])
    unauthorised = responses.get("401", {}).get("description", "")
    if "'token-required'" in unauthorised:
        operation["security"] = [{SEAT_TOKEN: []}]
    elif unauthorised:
        operation["security"] = [{}, {SEAT_TOKEN: []}]
    if method == "post":
        parameters.append(ref(PARAMETERS + "IdempotencyKey"))
    if "428" in responses:
        parameters.append(ref(PARAMETERS + "IfMatch"))
    if name in CONDITIONAL_OPERATIONS:
        parameters.append(ref(PARAMETERS + "IfNoneMatch"))
        responses["304"] = {
            "description": "Not Modified: the version If-None-Match names; no body",
            "headers": {"ETag": ref(HEADERS + "ETag")},
        }
    for status, response in responses.items():
        if not status.startswith("2"):
            continue
        headers = response.setdefault("headers", {})
        if name in ETAG_OPERATIONS:
            headers["ETag"] = ref(HEADERS + "ETag")
        if status == "201":
            headers["Location"] = ref(HEADERS + "Location")
    responses["429"] = ref(RESPONSES + "TooManyRequests")
    for status, response in responses.items():
        if status.startswith("2") and name in LINKS:
            response["links"] = copy.deepcopy(LINKS[name])
    if not parameters:
        del operation["parameters"]
    example = examples.get(name, {})
    if "request" in example and "requestBody" in operation:
        for media in operation["requestBody"]["content"].values():
            media["example"] = example["request"]
    for status, response in responses.items():
        if status.startswith("2") and "response" in example:
            for media in response.get("content", {}).values():
                media["example"] = example["response"]


@cache
def examples() -> dict[str, Any]:
    """The examples of each operation, recorded from a real game (api/openapi_examples.json,
    written by ``python -m tests.e2e.openapi_examples``)."""
    text = resources.files("api").joinpath("openapi_examples.json").read_text("utf-8")
    found: dict[str, Any] = json.loads(text)
    return found


class TypedApi(ProblemApi):
    """The API whose served document is :func:`complete`'s, made once."""

    _typed: dict[str, Any] | None = None

    def _openapi_json(self) -> Response:
        """Serve the typed document."""
        if self._typed is None:
            self._typed = complete(self.spec.to_dict(), current_app)
        return Response(json.dumps(self._typed, indent=2), mimetype="application/json")


def complete(document: dict[str, Any], app: Flask) -> dict[str, Any]:
    """The document flask-smorest wrote, typed and finished (this module's docstring)."""
    found = copy.deepcopy(document)
    components = found.setdefault("components", {})
    schemas: dict[str, Any] = components.setdefault("schemas", {})
    _typed_schemas(schemas)
    for name in _CLOSED_ANSWERS:
        if name in schemas:
            schemas[name] = closed(schemas[name])
    schemas["Problem"]["examples"] = [examples()["problem"]]
    components.setdefault("headers", {}).update(copy.deepcopy(COMPONENT_HEADERS))
    components.setdefault("parameters", {}).update(copy.deepcopy(COMPONENT_PARAMETERS))
    components.setdefault("responses", {})["TooManyRequests"] = _too_many_requests()
    names = operation_ids(app)
    for method, path, operation in _operations(found):
        _finish_operation(method, operation, names[(method, path)], examples())
    return found
