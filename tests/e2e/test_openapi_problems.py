"""The OpenAPI document declares the errors the service really sends (issue 11, part 4;
docs/api.md, "Errors"): every error response of every operation is application/problem+json
with the Problem schema, flask-smorest's own error schema appears nowhere, each operation
declares exactly the statuses its code paths can answer, and real error responses validate
against the schema their operation declares for their status. Also: api/ holds one
blueprint per resource."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path
from typing import Any
from uuid import uuid4

import jsonschema_rs
import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

import api.resources
from api.errors import PROBLEM
from api.requests import Blueprint
from tests.e2e.conftest import bearer, new_game

ROOT = Path(__file__).resolve().parents[2]
PROBLEM_REF = "#/components/schemas/Problem"
METHODS = {"get", "post", "put", "patch", "delete"}

BLUEPRINTS = {
    "games": {
        ("GET", "/api/v1/game-types"),
        ("GET", "/api/v1/game-types/<name>/schemas"),
        ("GET", "/api/v1/games"),
        ("POST", "/api/v1/games"),
        ("GET", "/api/v1/games/<game_id>"),
    },
    "seats": {("POST", "/api/v1/games/<game_id>/seats")},
    "moves": {
        ("GET", "/api/v1/games/<game_id>/legal-moves"),
        ("POST", "/api/v1/games/<game_id>/moves"),
    },
    "turns": {
        ("GET", "/api/v1/games/<game_id>/turns"),
        ("GET", "/api/v1/games/<game_id>/turns/<turn:turn>"),
    },
    "undo": {
        ("POST", "/api/v1/games/<game_id>/undo-requests"),
        ("POST", "/api/v1/games/<game_id>/undo-requests/answer"),
        ("POST", "/api/v1/games/<game_id>/arbiter/undo"),
    },
    "forks": {("POST", "/api/v1/games/<game_id>/forks")},
    "records": {
        ("GET", "/api/v1/games/<game_id>/events"),
        ("GET", "/api/v1/games/<game_id>/record"),
    },
    "rendering": {
        ("GET", "/api/v1/game-types/carcassonne/tiles"),
        ("GET", "/api/v1/game-types/risk/map"),
    },
    "lobby": {
        ("POST", "/api/v1/games/<game_id>/leave"),
        ("POST", "/api/v1/games/<game_id>/resign"),
        ("POST", "/api/v1/games/<game_id>/abort"),
        ("POST", "/api/v1/games/<game_id>/rematch"),
        ("POST", "/api/v1/games/<game_id>/claim"),
    },
    "clocks": {("POST", "/api/v1/games/<game_id>/flag")},
    "streams": {
        ("GET", "/api/v1/games/<game_id>/stream"),
        ("GET", "/api/v1/games/stream"),
    },
    "keys": {("GET", "/api/v1/keys")},
    "transparency": {
        ("GET", "/api/v1/log/tree-head"),
        ("GET", "/api/v1/log/tree-heads/<turn:size>"),
        ("GET", "/api/v1/log/entries"),
        ("GET", "/api/v1/log/proofs/inclusion"),
        ("GET", "/api/v1/log/proofs/consistency"),
        ("GET", "/api/v1/games/<game_id>/checkpoints"),
    },
    "tournaments": {
        ("GET", "/api/v1/tournaments"),
        ("POST", "/api/v1/tournaments"),
        ("GET", "/api/v1/tournaments/<tournament_id>"),
        ("POST", "/api/v1/tournaments/<tournament_id>/entrants"),
        ("POST", "/api/v1/tournaments/<tournament_id>/withdraw"),
        ("POST", "/api/v1/tournaments/<tournament_id>/check-in"),
        ("POST", "/api/v1/tournaments/<tournament_id>/remove"),
        ("POST", "/api/v1/tournaments/<tournament_id>/open-check-in"),
        ("POST", "/api/v1/tournaments/<tournament_id>/start"),
    },
    "tournament_play": {
        ("GET", "/api/v1/tournaments/<tournament_id>/rounds"),
        ("POST", "/api/v1/tournaments/<tournament_id>/rounds"),
        ("GET", "/api/v1/tournaments/<tournament_id>/rounds/<turn:number>"),
        ("GET", "/api/v1/tournaments/<tournament_id>/tables"),
        ("GET", "/api/v1/tournaments/<tournament_id>/tables/mine"),
        ("GET", "/api/v1/tournaments/<tournament_id>/standings"),
        ("GET", "/api/v1/tournaments/<tournament_id>/ratings"),
        ("GET", "/api/v1/ratings"),
        ("GET", "/api/v1/tournaments/<tournament_id>/record"),
    },
    "tournament_arbiter": {
        ("POST", "/api/v1/tournaments/<tournament_id>/arbiter/forfeit"),
        ("POST", "/api/v1/tournaments/<tournament_id>/arbiter/adjudicate"),
        ("POST", "/api/v1/tournaments/<tournament_id>/arbiter/correct"),
        ("POST", "/api/v1/tournaments/<tournament_id>/arbiter/penalty"),
        ("POST", "/api/v1/tournaments/<tournament_id>/arbiter/disqualify"),
        ("POST", "/api/v1/tournaments/<tournament_id>/finish"),
        ("GET", "/api/v1/tournaments/<tournament_id>/arbiter/tokens"),
    },
}
"""Each resource's blueprint (named after its module in api/resources/) and its routes."""

BODY = {400, 413, 415}
COMMAND = BODY | {401, 403, 404, 409, 422, 428}
LIMITED = {429}
"""Every operation may be rate limited (api/ratelimit.py)."""
IDEMPOTENT = LIMITED | {400, 409, 422}
"""Every POST takes an Idempotency-Key (api/idempotency.py)."""
ORGANISER = {401, 403, 404, 409}
"""A tournament command without a body, with a token (the organiser's or an entrant's)."""
TOURNAMENT_COMMAND = BODY | ORGANISER | {422}
"""A tournament command with a body and a token."""
DECLARED = {
    ("get", "/api/v1/game-types"): LIMITED,
    ("get", "/api/v1/game-types/{name}/schemas"): LIMITED | {404},
    ("get", "/api/v1/games"): LIMITED | {400},
    ("post", "/api/v1/games"): IDEMPOTENT | BODY | {404, 422},
    ("get", "/api/v1/games/{game_id}"): LIMITED | {400, 401, 403, 404},
    ("post", "/api/v1/games/{game_id}/seats"): IDEMPOTENT | BODY | {403, 404, 409, 422},
    ("get", "/api/v1/games/{game_id}/legal-moves"): LIMITED | {401, 403, 404},
    ("post", "/api/v1/games/{game_id}/moves"): IDEMPOTENT | COMMAND,
    ("get", "/api/v1/games/{game_id}/turns"): LIMITED | {400, 401, 403, 404},
    ("get", "/api/v1/games/{game_id}/turns/{turn}"): LIMITED | {401, 403, 404},
    ("post", "/api/v1/games/{game_id}/undo-requests"): IDEMPOTENT | COMMAND,
    ("post", "/api/v1/games/{game_id}/undo-requests/answer"): IDEMPOTENT | COMMAND,
    ("post", "/api/v1/games/{game_id}/arbiter/undo"): IDEMPOTENT | COMMAND,
    ("post", "/api/v1/games/{game_id}/forks"): IDEMPOTENT | BODY | {401, 403, 404, 409},
    ("get", "/api/v1/games/{game_id}/events"): LIMITED | {400, 401, 403, 404},
    ("get", "/api/v1/games/{game_id}/record"): LIMITED | {400, 401, 403, 404},
    ("get", "/api/v1/game-types/carcassonne/tiles"): LIMITED,
    ("get", "/api/v1/game-types/risk/map"): LIMITED,
    ("post", "/api/v1/games/{game_id}/leave"): IDEMPOTENT | BODY | {401, 403, 404, 409},
    ("post", "/api/v1/games/{game_id}/resign"): IDEMPOTENT | BODY | {401, 403, 404, 409, 422},
    ("post", "/api/v1/games/{game_id}/abort"): IDEMPOTENT | BODY | {401, 403, 404, 409},
    ("post", "/api/v1/games/{game_id}/rematch"): IDEMPOTENT | {401, 403, 404, 409},
    ("post", "/api/v1/games/{game_id}/claim"): IDEMPOTENT | BODY | {401, 403, 404, 409, 422},
    ("post", "/api/v1/games/{game_id}/flag"): IDEMPOTENT | BODY | {401, 403, 404, 409, 422},
    ("get", "/api/v1/games/{game_id}/stream"): LIMITED | {400, 401, 403, 404, 503},
    ("get", "/api/v1/games/stream"): LIMITED | {400, 503},
    ("get", "/api/v1/keys"): LIMITED,
    ("get", "/api/v1/log/tree-head"): LIMITED,
    ("get", "/api/v1/log/tree-heads/{size}"): LIMITED | {404},
    ("get", "/api/v1/log/entries"): LIMITED | {400},
    ("get", "/api/v1/log/proofs/inclusion"): LIMITED | {400, 404, 422},
    ("get", "/api/v1/log/proofs/consistency"): LIMITED | {400, 404, 422},
    ("get", "/api/v1/games/{game_id}/checkpoints"): LIMITED | {404},
    ("get", "/api/v1/tournaments"): LIMITED | {400},
    ("post", "/api/v1/tournaments"): IDEMPOTENT | BODY | {404, 422},
    ("get", "/api/v1/tournaments/{tournament_id}"): LIMITED | {404},
    ("post", "/api/v1/tournaments/{tournament_id}/entrants"): IDEMPOTENT | BODY | {404, 409, 422},
    ("post", "/api/v1/tournaments/{tournament_id}/withdraw"): IDEMPOTENT | TOURNAMENT_COMMAND,
    ("post", "/api/v1/tournaments/{tournament_id}/check-in"): IDEMPOTENT | ORGANISER,
    ("post", "/api/v1/tournaments/{tournament_id}/remove"): IDEMPOTENT | TOURNAMENT_COMMAND,
    ("post", "/api/v1/tournaments/{tournament_id}/open-check-in"): IDEMPOTENT | ORGANISER,
    ("post", "/api/v1/tournaments/{tournament_id}/start"): IDEMPOTENT | ORGANISER,
    ("get", "/api/v1/tournaments/{tournament_id}/rounds"): LIMITED | {404},
    ("post", "/api/v1/tournaments/{tournament_id}/rounds"): IDEMPOTENT | ORGANISER,
    ("get", "/api/v1/tournaments/{tournament_id}/rounds/{number}"): LIMITED | {404},
    ("get", "/api/v1/tournaments/{tournament_id}/tables"): LIMITED | {404},
    ("get", "/api/v1/tournaments/{tournament_id}/tables/mine"): LIMITED | {401, 403, 404},
    ("get", "/api/v1/tournaments/{tournament_id}/standings"): LIMITED | {404},
    ("get", "/api/v1/tournaments/{tournament_id}/ratings"): LIMITED | {404},
    ("get", "/api/v1/ratings"): LIMITED | {400, 404},
    ("get", "/api/v1/tournaments/{tournament_id}/record"): LIMITED | {400, 404, 409},
    **{
        ("post", f"/api/v1/tournaments/{{tournament_id}}/arbiter/{act}"): IDEMPOTENT
        | TOURNAMENT_COMMAND
        for act in ("forfeit", "adjudicate", "correct", "penalty", "disqualify")
    },
    ("post", "/api/v1/tournaments/{tournament_id}/finish"): IDEMPOTENT | ORGANISER,
    ("get", "/api/v1/tournaments/{tournament_id}/arbiter/tokens"): LIMITED | {401, 403, 404},
}
"""The problem statuses each operation declares (docs/api.md, "Errors": which and why).
GET /game-types, the rendering data, the signing keys and the latest tree head read nothing from
the request: they can only be rate limited."""


@pytest.fixture
def spec(client: FlaskClient) -> dict[str, Any]:
    """The served OpenAPI document."""
    found: dict[str, Any] = client.get("/api/v1/openapi.json").json
    return found


def operations(spec: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    """Every operation of the document by (method, path)."""
    return {
        (method, path): operation
        for path, item in spec["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    }


def resolved(spec: dict[str, Any], node: Any) -> Any:
    """``node`` with every ``$ref`` of the document replaced by what it points at."""
    if isinstance(node, list):
        return [resolved(spec, item) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target: Any = spec
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        return resolved(spec, target)
    return {key: resolved(spec, value) for key, value in node.items()}


# One blueprint per resource


def test_api_holds_one_blueprint_per_resource(client: FlaskClient) -> None:
    modules = {m.name for m in pkgutil.iter_modules(api.resources.__path__)} - {"common"}
    assert modules == set(BLUEPRINTS)
    assert not (ROOT / "api" / "routes.py").exists()
    for name in modules:
        module = importlib.import_module(f"api.resources.{name}")
        found = [v for v in vars(module).values() if isinstance(v, Blueprint)]
        assert [b.name for b in found] == [name], f"api/resources/{name}.py: one blueprint"
        assert found[0].import_name == module.__name__
    app = client.application
    routes: dict[str, set[tuple[str, str]]] = {}
    for rule in app.url_map.iter_rules():
        blueprint = rule.endpoint.partition(".")[0] if "." in rule.endpoint else None
        if blueprint in BLUEPRINTS:
            for method in rule.methods or ():
                if method not in {"HEAD", "OPTIONS"}:
                    routes.setdefault(blueprint, set()).add((method, rule.rule))
    assert routes == BLUEPRINTS
    assert {tag["name"] for tag in client.get("/api/v1/openapi.json").json["tags"]} == set(
        BLUEPRINTS
    )


# The document


def test_every_operation_declares_its_problems_and_nothing_else(spec: dict[str, Any]) -> None:
    found = operations(spec)
    assert set(found) == set(DECLARED)
    for key, operation in found.items():
        errors = {int(s): r for s, r in operation["responses"].items() if s[0] in "45"}
        assert "default" not in operation["responses"], key
        assert set(errors) == DECLARED[key], key
        for status, response in errors.items():
            assert response["content"] == {PROBLEM: {"schema": {"$ref": PROBLEM_REF}}}, (
                key,
                status,
            )
            assert response["description"], (key, status)


def test_flask_smorest_default_error_appears_nowhere(spec: dict[str, Any]) -> None:
    text = str(spec)
    assert "Error" not in spec["components"]["schemas"]
    assert "#/components/schemas/Error'" not in text
    assert "DEFAULT_ERROR" not in text
    assert "UNPROCESSABLE_ENTITY" not in text
    assert "Default error response" not in text
    assert not spec["components"].get("responses")
    for key, operation in operations(spec).items():
        for status, response in operation["responses"].items():
            if status[0] in "45":
                assert "application/json" not in response.get("content", {}), (key, status)


def test_the_problem_schema_is_what_errors_py_sends(spec: dict[str, Any]) -> None:
    schema = spec["components"]["schemas"]["Problem"]
    assert set(schema["required"]) == {"type", "title", "status", "detail", "code"}
    assert set(schema["properties"]) == {"type", "title", "status", "detail", "code", "errors"}
    assert schema["properties"]["code"]["type"] == "string"
    assert schema["properties"]["status"]["type"] == "integer"
    assert schema["additionalProperties"] is False


def test_schema_errors_are_declared_as_the_400_they_are(
    client: FlaskClient, spec: dict[str, Any]
) -> None:
    refused = client.get("/api/v1/games?limit=0")
    assert refused.status_code == 400
    assert refused.json["code"] == "invalid-request"
    for key, operation in operations(spec).items():
        if "requestBody" in operation or any(
            p.get("in") == "query" for p in operation.get("parameters", [])
        ):
            assert "400" in operation["responses"], key
            assert "invalid-request" in operation["responses"]["400"]["description"], key
        assert "422" not in operation["responses"] or "invalid-request" not in str(
            operation["responses"]["422"]
        )


# Real error responses


def check(
    spec: dict[str, Any], method: str, path: str, response: TestResponse, code: str | None
) -> dict[str, Any]:
    """The response is a problem its operation declares, and its body validates against
    the schema declared for that status; its code (when given) is the one expected and is
    named in the declaration."""
    operation = spec["paths"][path][method]
    status = str(response.status_code)
    assert status in operation["responses"], (method, path, status, response.json)
    declared = operation["responses"][status]
    assert response.mimetype == PROBLEM
    schema = resolved(spec, declared["content"][PROBLEM]["schema"])
    body: dict[str, Any] = response.json
    jsonschema_rs.validate(schema, body)
    assert body["status"] == response.status_code
    if code is not None:
        assert body["code"] == code, body
        assert f"'{code}'" in declared["description"] or "own codes" in declared["description"]
    return body


GAME = "/api/v1/games/{game_id}"


def test_real_errors_match_their_declarations(client: FlaskClient, spec: dict[str, Any]) -> None:
    game_id, tokens = new_game(client)
    url = f"/api/v1/games/{game_id}"
    version = client.get(url).json["version"]
    unknown = f"/api/v1/games/{uuid4()}"

    # 404
    check(spec, "get", GAME, client.get(unknown), "game-not-found")
    check(spec, "get", GAME, client.get(f"{url}?version=999"), "no-such-version")
    check(spec, "get", GAME + "/turns/{turn}", client.get(f"{url}/turns/99"), "no-such-turn")
    legal = client.get("/api/v1/games/NOT-AN-ID/legal-moves", headers=bearer(tokens[0]))
    check(spec, "get", GAME + "/legal-moves", legal, "game-not-found")
    chess = client.post("/api/v1/games", json={"game": "chess", "players": 2})
    check(spec, "post", "/api/v1/games", chess, "unknown-game")

    # 400
    body = check(spec, "post", "/api/v1/games", client.post("/api/v1/games", json={}), None)
    assert body["code"] == "invalid-request"
    assert "players" in body["errors"]["json"]
    bad = client.post("/api/v1/games", data="{", content_type="application/json")
    check(spec, "post", "/api/v1/games", bad, "malformed-json")
    query = check(spec, "get", "/api/v1/games", client.get("/api/v1/games?offest=1"), None)
    assert query["code"] == "invalid-request" and "offest" in query["errors"]["query"]
    check(spec, "get", GAME + "/events", client.get(f"{url}/events?limit=0"), "invalid-request")
    if_match = {**bearer(tokens[0]), "If-Match": 'W/"3"'}
    moved = client.post(f"{url}/moves", json={"notation": "x"}, headers=if_match)
    check(spec, "post", GAME + "/moves", moved, "invalid-if-match")

    # 401, 403
    check(spec, "get", GAME + "/legal-moves", client.get(f"{url}/legal-moves"), "token-required")
    basic = client.get(url, headers={"Authorization": "Basic eDp5"})
    check(spec, "get", GAME, basic, "invalid-authorization")
    nope = client.get(f"{url}/legal-moves", headers=bearer("nope"))
    check(spec, "get", GAME + "/legal-moves", nope, "invalid-token")
    check(
        spec,
        "get",
        GAME + "/record",
        client.get(f"{url}/record", headers=bearer("nope")),
        "invalid-token",
    )
    arbiter = client.post(
        f"{url}/arbiter/undo",
        json={"turn": 0, "reason": "r", "expected_version": version},
        headers=bearer(tokens[0]),
    )
    check(spec, "post", GAME + "/arbiter/undo", arbiter, "invalid-token")

    # 409, 428, 422
    stale = client.post(
        f"{url}/moves", json={"notation": "x", "expected_version": 1}, headers=bearer(tokens[0])
    )
    check(spec, "post", GAME + "/moves", stale, "stale-version")
    taken = client.post(f"{url}/seats", json={"name": "late", "seat": 0})
    check(spec, "post", GAME + "/seats", taken, "seat-taken")
    unversioned = client.post(f"{url}/moves", json={"notation": "x"}, headers=bearer(tokens[0]))
    check(spec, "post", GAME + "/moves", unversioned, "version-required")
    mover = client.get(url).json["current_players"][0]
    refused = client.post(
        f"{url}/moves",
        json={"move": {"nonsense": True}, "expected_version": version},
        headers=bearer(tokens[mover]),
    )
    assert refused.status_code == 422
    check(spec, "post", GAME + "/moves", refused, None)
    undo = client.post(
        f"{url}/undo-requests", json={"expected_version": version}, headers=bearer(tokens[0])
    )
    assert undo.status_code == 422
    check(spec, "post", GAME + "/undo-requests", undo, None)
    players = client.post("/api/v1/games", json={"game": "azul", "players": 9})
    check(spec, "post", "/api/v1/games", players, "invalid-player-count")
    waiting = client.post("/api/v1/games", json={"game": "azul", "players": 2}).json["id"]
    seat = client.post(f"/api/v1/games/{waiting}/seats", json={"name": "a"}).json
    early = client.post(
        f"/api/v1/games/{waiting}/moves",
        json={"notation": "x", "expected_version": seat["version"]},
        headers=bearer(seat["token"]),
    )
    check(spec, "post", GAME + "/moves", early, "game-not-started")

    # 413, 415
    text = client.post("/api/v1/games", data="game=azul", content_type="text/plain")
    check(spec, "post", "/api/v1/games", text, "unsupported-media-type")
    huge = client.post(
        f"{url}/seats", data='{"name": "' + "x" * 300_000 + '"}', content_type="application/json"
    )
    check(spec, "post", GAME + "/seats", huge, "payload-too-large")


def test_a_method_the_path_lacks_is_a_problem_no_operation_declares(
    client: FlaskClient, spec: dict[str, Any]
) -> None:
    """405 is not an operation's answer: the method is not an operation of the path. The
    body is still a problem that the document's Problem schema describes, and ``Allow``
    lists the path's operations."""
    game_id, _ = new_game(client)
    response = client.delete(f"/api/v1/games/{game_id}")
    assert response.status_code == 405
    assert response.mimetype == PROBLEM
    assert "delete" not in spec["paths"][GAME]
    jsonschema_rs.validate(resolved(spec, {"$ref": PROBLEM_REF}), response.json)
    assert response.json["code"] == "method-not-allowed"
    allowed = {m.strip().lower() for m in response.headers["Allow"].split(",")}
    assert allowed - {"head", "options"} == set(spec["paths"][GAME]) & METHODS
