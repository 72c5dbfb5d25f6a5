"""The served OpenAPI document (docs/api.md, "The typed OpenAPI document"; issue 13, part 1).

flask-smorest writes the document from the marshmallow schemas of api/schemas.py;
:func:`complete` finishes it:

* its game data typed from the games' contracts (:mod:`api.contract_schemas`: ``oneOf`` per
  game with a discriminator);
* every operation gets its ``operationId`` (the view function's name), its ``security``
  (derived from the 401 it declares), its header parameters and response headers (429,
  ``Idempotency-Key`` and ``Idempotent-Replayed`` are api/problems.py's), its links, and the
  examples of api/openapi_examples.json, recorded from a real game.

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

from api.contract_schemas import ref, typed_schemas
from api.problems import ProblemApi

PARAMETERS = "#/components/parameters/"
HEADERS = "#/components/headers/"

SEAT_TOKEN = "seatToken"

TOURNAMENT_OPERATIONS = (
    "create_tournament",
    "get_tournament",
    "register_entrant",
    "withdraw_entrant",
    "check_in",
    "remove_entrant",
    "open_check_in",
    "start_tournament",
    "list_rounds",
    "get_round",
    "pair_round",
    "list_tables",
    "tournament_ratings",
    "forfeit_table",
    "adjudicate_table",
    "correct_result",
    "penalise_entrant",
    "disqualify_entrant",
    "finish_tournament",
)
"""The tournaments' operations whose answer carries the tournament's version as ``ETag``
(api/resources/tournaments.py and the tournament_* resources)."""

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
        "leave_game",
        "resign_game",
        "abort_game",
        "claim_seat",
        "flag_seat",
        *TOURNAMENT_OPERATIONS,
        "get_standings",
        "tournament_record",
    }
)
"""The operations whose successful answer carries the game's version as ``ETag``
(api/resources/common.py), or the tournament's (:data:`TOURNAMENT_ETAG`)."""

RECORD_ETAG: dict[str, Any] = {
    "description": "The game's version and the size of the transparency log's tree head the "
    'record\'s transparency is proved against ("12-5"; docs/api.md, "records"): send it back '
    "as If-None-Match",
    "required": True,
    "schema": {"type": "string", "pattern": '^"[1-9][0-9]*-[0-9]+"$'},
}
TOURNAMENT_ETAG: dict[str, Any] = {
    "description": 'The tournament\'s version as a strong entity tag ("12"): send it back as '
    "If-None-Match with a GET",
    "required": True,
    "schema": {"type": "string", "pattern": '^"[1-9][0-9]*"$'},
}
STANDINGS_ETAG: dict[str, Any] = {
    "description": "The tournament's version and the size of the transparency log's tree head "
    'the standings carry ("12-5"): send it back as If-None-Match',
    "required": True,
    "schema": {"type": "string", "pattern": '^"[1-9][0-9]*-[0-9]+"$'},
}
TOURNAMENT_RECORD_ETAG: dict[str, Any] = {
    "description": "The tournament's version and the size of the transparency log's tree head "
    'its record\'s proofs are against ("25-6"): send it back as If-None-Match',
    "required": True,
    "schema": {"type": "string", "pattern": '^"[1-9][0-9]*-[0-9]+"$'},
}
ETAG_HEADERS: dict[str, dict[str, Any]] = {
    "game_record": RECORD_ETAG,
    "get_standings": STANDINGS_ETAG,
    "tournament_record": TOURNAMENT_RECORD_ETAG,
    **{name: TOURNAMENT_ETAG for name in TOURNAMENT_OPERATIONS},
}
"""Operations whose ``ETag`` is not the game's version alone: a record's is the version and
the size of the tree head its ``transparency`` is proved against; a tournament's operations
carry the tournament's version, its standings that and the size of their tree head."""

CONDITIONAL_OPERATIONS = frozenset(
    {
        "get_game",
        "game_record",
        "view_after_turn",
        "event_log",
        "get_tournament",
        "list_rounds",
        "get_round",
        "list_tables",
        "get_standings",
        "tournament_ratings",
        "tournament_record",
    }
)
"""The GETs answered ``304 Not Modified`` when ``If-None-Match`` names the version they
would show (api/resources/common.py, ``document_answer`` and ``not_modified``: every GET that
sends an ETag)."""

COMPONENT_HEADERS: dict[str, dict[str, Any]] = {
    "ETag": {
        "description": 'The game\'s version as a strong entity tag ("12"): send it back as '
        "If-Match with a command, or as If-None-Match with a GET",
        "required": True,
        "schema": {"type": "string", "pattern": '^"[1-9][0-9]*"$'},
    },
    "Location": {
        "description": "The URL of what was created: a game's view (a game, a seat, a fork), "
        "a tournament's document (a tournament, an entrant), a round",
        "required": True,
        "schema": {"type": "string"},
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


_RETRY_CONFLICT: dict[str, Any] = {
    "description": "With 'idempotency-key-in-use' only: seconds to wait before retrying",
    "required": False,
    "schema": {"type": "integer", "minimum": 1},
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
    if method == "post" and "409" in responses:  # 'idempotency-key-in-use' (api/idempotency.py)
        responses["409"].setdefault("headers", {})["Retry-After"] = _RETRY_CONFLICT
    if "428" in responses:
        parameters.append(ref(PARAMETERS + "IfMatch"))
    etag = copy.deepcopy(ETAG_HEADERS.get(name, ref(HEADERS + "ETag")))
    if name in CONDITIONAL_OPERATIONS:
        responses["304"] = {
            "description": "Not Modified: the version If-None-Match names; no body",
            "headers": {"ETag": etag},
        }
    if "304" in responses:
        parameters.append(ref(PARAMETERS + "IfNoneMatch"))
    for status, response in responses.items():
        if not status.startswith("2"):
            continue
        headers = response.setdefault("headers", {})
        if name in ETAG_OPERATIONS:
            headers["ETag"] = etag
        if status == "201":
            headers["Location"] = ref(HEADERS + "Location")
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
    typed_schemas(schemas)
    schemas["Problem"]["examples"] = [examples()["problem"]]
    components.setdefault("headers", {}).update(copy.deepcopy(COMPONENT_HEADERS))
    components.setdefault("parameters", {}).update(copy.deepcopy(COMPONENT_PARAMETERS))
    names = operation_ids(app)
    for method, path, operation in _operations(found):
        _finish_operation(method, operation, names[(method, path)], examples())
    return found
