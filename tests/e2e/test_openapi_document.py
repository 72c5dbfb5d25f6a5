"""The OpenAPI document itself (issue 13, part 1; docs/api.md, "The typed OpenAPI document"):
valid OpenAPI 3.1; typed from the games' contracts (``oneOf`` per game with a discriminator);
and for every operation, including ones added later: an id, an example that is valid against
its schema, problem+json errors, ``security`` where a token is read, the headers it takes and
sends. An operation that forgets any of it fails here, by name."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from flask.testing import FlaskClient
from openapi_spec_validator import validate

from api.errors import PROBLEM
from application.contract import ledger_event_schemas
from domain.registry import REGISTERED
from tests.e2e.openapi_check import served_document
from tests.e2e.openapi_examples import record_examples

SCHEMAS = "#/components/schemas/"
PARAMETERS = "#/components/parameters/"
HEADERS = "#/components/headers/"
METHODS = ("get", "post", "put", "patch", "delete")
OWN_EXAMPLES = {"get_carcassonne_tiles", "get_risk_map", "game_stream", "list_stream"}
"""Operations whose example their route declares (api/resources/rendering.py: a part of the
whole document, chosen to show each kind of entry; api/resources/streams.py: a stream is
text/event-stream, not JSON)."""
SAFELISTED = {"cache-control", "content-language", "content-length", "content-type"}
SAFELISTED |= {"expires", "last-modified", "pragma"}
"""Response headers a browser always shows a script (CORS-safelisted)."""


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return served_document()


def operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, item[method])
        for path, item in document["paths"].items()
        for method in METHODS
        if method in item
    ]


def validator(document: dict[str, Any], schema: dict[str, Any]) -> Any:
    """A JSON Schema 2020-12 validator of ``schema``, its references into the document."""
    return jsonschema_rs.validator_for(
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "components": document["components"],
            "allOf": [schema],
        }
    )


def parameter_refs(operation: dict[str, Any]) -> set[str]:
    return {p["$ref"] for p in operation.get("parameters", []) if "$ref" in p}


def test_the_document_is_valid_openapi_3_1(document: dict[str, Any]) -> None:
    assert document["openapi"] == "3.1.0"
    validate(document)


def test_game_data_is_one_of_each_games_types(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    games = {rules.name: rules for rules in REGISTERED}
    for name in ("GameView", "CreatedGame", "LegalMoves", "EventPage"):
        union = schemas[name]
        assert union["discriminator"]["propertyName"] == "game", name
        mapping = union["discriminator"]["mapping"]
        assert set(mapping) == set(games), name
        assert [v["$ref"] for v in union["oneOf"]] == list(mapping.values())
        for game, target in mapping.items():
            variant = schemas[target.removeprefix(SCHEMAS)]
            assert variant["properties"]["game"]["const"] == game
            assert variant["additionalProperties"] is False
    ledger = set(ledger_event_schemas())
    for game, rules in games.items():
        prefix = game.capitalize()
        event = schemas[f"{prefix}Event"]
        assert event["discriminator"]["propertyName"] == "type"
        assert set(event["discriminator"]["mapping"]) == set(rules.event_types) | ledger
        view = schemas[f"{prefix}GameView"]["properties"]
        assert view["state"] == {"$ref": f"{SCHEMAS}{prefix}View"}
        assert schemas[f"{prefix}Outcome"]["properties"]["details"] == {
            "$ref": f"{SCHEMAS}{prefix}OutcomeDetailsUnion"
        }
        assert schemas[f"{prefix}OutcomeDetailsUnion"]["oneOf"] == [
            {"$ref": f"{SCHEMAS}{prefix}OutcomeDetails"},
            {"$ref": f"{SCHEMAS}{prefix}ResignationDetails"},
        ]
    moves = schemas["MoveRequest"]["properties"]["move"]["oneOf"]
    assert moves[:-1] == [{"$ref": f"{SCHEMAS}{g.capitalize()}Move"} for g in games]
    assert "Record" in schemas and len(schemas["Record"]["oneOf"]) == len(games)
    assert "#/$defs/" not in str(schemas), "every pydantic $defs is lifted into the components"


def test_every_operation_has_an_id_and_examples(document: dict[str, Any]) -> None:
    ids = [operation.get("operationId") for _, _, operation in operations(document)]
    assert None not in ids and len(set(ids)) == len(ids)
    for method, path, operation in operations(document):
        key = (method, path)
        successes = {s: r for s, r in operation["responses"].items() if s.startswith("2")}
        assert successes, key
        for response in successes.values():
            for media in response.get("content", {}).values():  # a 204 has none
                assert "example" in media, (
                    key,
                    "response: add it to tests/e2e/openapi_examples.py",
                )
        for media in operation.get("requestBody", {}).get("content", {}).values():
            assert "example" in media, (key, "request: add it to tests/e2e/openapi_examples.py")


def test_every_example_is_valid_against_its_schema(document: dict[str, Any]) -> None:
    checked = 0
    for method, path, operation in operations(document):
        media = [
            content
            for response in operation["responses"].values()
            for content in response.get("content", {}).values()
        ]
        media += list(operation.get("requestBody", {}).get("content", {}).values())
        for content in media:
            if "example" in content:
                errors = [
                    f"{e.instance_path}: {e.message[:200]}"
                    for e in validator(document, content["schema"]).iter_errors(content["example"])
                ]
                assert not errors, (method, path, errors[:3])
                checked += 1
    problem = document["components"]["schemas"]["Problem"]
    for example in problem["examples"]:
        validator(document, {"$ref": SCHEMAS + "Problem"}).validate(example)
    assert checked >= len(operations(document))


def test_errors_security_and_headers_are_declared(document: dict[str, Any]) -> None:
    schemes = document["components"]["securitySchemes"]
    assert schemes["seatToken"] == {"type": "http", "scheme": "bearer"}
    for method, path, operation in operations(document):
        key = (method, path)
        responses = operation["responses"]
        for status, response in responses.items():
            if status[0] in "45":
                assert response["content"] == {PROBLEM: {"schema": {"$ref": SCHEMAS + "Problem"}}}
        unauthorised = responses.get("401", {}).get("description", "")
        if "'token-required'" in unauthorised:
            assert operation["security"] == [{"seatToken": []}], key
        elif unauthorised:
            assert operation["security"] == [{}, {"seatToken": []}], key
        else:
            assert "security" not in operation, key
        refs = parameter_refs(operation)
        headers = {p["name"] for p in operation.get("parameters", []) if p.get("in") == "header"}
        assert "Retry-After" in responses["429"]["headers"], key
        if method == "post":
            assert "Idempotency-Key" in headers, key
        assert (PARAMETERS + "IfMatch" in refs) == ("428" in responses), key
        assert (PARAMETERS + "IfNoneMatch" in refs) == ("304" in responses), key
        for status, response in responses.items():
            if status == "201":
                assert response["headers"]["Location"] == {"$ref": HEADERS + "Location"}, key
            if status == "304":
                assert "ETag" in response["headers"], key
                assert "content" not in response


def test_the_examples_are_recorded_from_a_real_game(
    document: dict[str, Any], tmp_path: Path
) -> None:
    """The recorder still plays (python -m tests.e2e.openapi_examples) and covers every
    operation; what it records is valid against the document."""
    fresh = record_examples(tmp_path)
    by_id = {operation["operationId"]: operation for _, _, operation in operations(document)}
    assert set(fresh) - {"problem"} == set(by_id) - OWN_EXAMPLES
    for name, example in fresh.items():
        if name == "problem":
            continue
        operation = by_id[name]
        status = next(s for s in operation["responses"] if s.startswith("2"))
        schema = operation["responses"][status]["content"]["application/json"]["schema"]
        validator(document, schema).validate(example["response"])


def test_a_browser_may_send_and_read_every_declared_header(
    client: FlaskClient, document: dict[str, Any]
) -> None:
    """CORS allows each header parameter the document declares and exposes each response
    header it declares, so a front end on another origin can use them all."""
    parameters = [
        p
        for _, _, operation in operations(document)
        for p in operation.get("parameters", [])
        if "$ref" not in p
    ] + list(document["components"]["parameters"].values())
    sent = sorted({p["name"] for p in parameters if p["in"] == "header"})
    preflight = client.options(
        "/api/v1/games",
        headers={
            "Origin": "https://front.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": ", ".join(sent),
        },
    )
    allowed = preflight.headers.get("Access-Control-Allow-Headers", "").lower()
    assert all(name.lower() in allowed for name in sent), (sent, allowed)
    got = client.get("/api/v1/games", headers={"Origin": "https://front.example"})
    exposed = got.headers.get("Access-Control-Expose-Headers", "").lower()
    declared = set(document["components"]["headers"])
    for _, _, operation in operations(document):
        for response in operation["responses"].values():
            declared |= set(response.get("headers", {}))
    for name in declared - {n for n in declared if n.lower() in SAFELISTED}:
        assert name.lower() in exposed, name


def _evaluated(expression: Any, request: dict[str, Any], answer: Any) -> Any:
    """An OpenAPI runtime expression (``$response.body#/id``, ``$request.path.game_id``,
    ``$request.header.Authorization``, or embedded in text: ``Bearer {$response.body#/token}``)
    evaluated on one call."""
    if isinstance(expression, dict):
        return {key: _evaluated(value, request, answer) for key, value in expression.items()}
    if not isinstance(expression, str):
        return expression
    if "{$" in expression:
        return re.sub(
            r"\{(\$[^}]+)\}", lambda m: str(_evaluated(m[1], request, answer)), expression
        )
    if expression.startswith("$response.body#"):
        found: Any = answer.json
        for part in expression.removeprefix("$response.body#/").split("/"):
            found = found[int(part)] if isinstance(found, list) else found[part]
        return found
    if expression.startswith("$request.path."):
        return request["path"][expression.removeprefix("$request.path.")]
    if expression.startswith("$request.header."):
        return request["headers"][expression.removeprefix("$request.header.")]
    return expression


def test_the_links_lead_from_a_new_game_to_a_move(
    client: FlaskClient, document: dict[str, Any]
) -> None:
    """Following the document's links alone: create → join → join (the game starts) → the
    current seat's legal moves → its first legal move is made."""
    by_id = {op["operationId"]: (method, path) for method, path, op in operations(document)}

    def call(name: str, path_values: dict[str, str], headers: dict[str, str], body: Any) -> Any:
        method, path = by_id[name]
        url = path.format(**path_values)
        answer = client.open(url, method=method.upper(), json=body, headers=headers)
        assert answer.status_code < 300, (name, answer.json)
        return {"path": path_values, "headers": headers}, answer

    def follow(
        name: str, status: str, link: str, request: Any, answer: Any, *, body: Any = None
    ) -> Any:
        method, path = by_id[name]
        found = document["paths"][path][method]["responses"][status]["links"][link]
        values = {k: _evaluated(v, request, answer) for k, v in found["parameters"].items()}
        path_values = {k.removeprefix("path."): v for k, v in values.items() if k[:5] == "path."}
        headers = {k.removeprefix("header."): v for k, v in values.items() if k[:7] == "header."}
        if "requestBody" in found:
            body = _evaluated(found["requestBody"], request, answer)
        return found["operationId"], call(found["operationId"], path_values, headers, body)

    request, created = call("create_game", {}, {}, {"game": "azul", "players": 2})
    target, first = follow("create_game", "201", "JoinGame", request, created, body={"name": "A"})
    assert target == "join_game"
    _, (request, joined) = follow("join_game", "201", "JoinNext", *first, body={"name": "B"})
    mover = client.get(f"/api/v1/games/{created.json['id']}").json["current_players"][0]
    seat = first if first[1].json["seat"] == mover else (request, joined)
    _, (request, legal) = follow("join_game", "201", "LegalMoves", *seat)
    assert legal.json["moves"]
    target, (_, played) = follow("legal_moves", "200", "MakeMove", request, legal)
    assert target == "make_move" and played.json["version"] > legal.json["version"]
