"""Property-based fuzzing of every operation of the live OpenAPI document (issue 10, part 2;
docs/api.md, "Errors"): schemathesis generates requests from the document, valid and not;
no answer may be a 5xx, a refusal must be a problem its operation declares, its body
valid against the declared schema, and an answer that is not a refusal must be what the typed
document declares (status, content type, headers, body). Half the cases aim at a real game
with a real seat token, so the requests reach the use cases and the rules, not only the 404
of an unknown id; a refused request (4xx) must leave that game as it was. The same for a
running tournament, with its organiser's token.

Bounded: a fixed number of examples per operation, derandomised, so CI time is steady."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import jsonschema_rs
import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from api.app import create_app
from api.sse import Streams
from infrastructure.config import Settings
from infrastructure.container import build_services
from infrastructure.stream_settings import StreamSettings
from tests.fuzz.test_openapi_stateful import CHECKS

EXAMPLES = 20


@pytest.fixture
def live(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """The app on SQLite with one running Azul game: its id, a seat token, the schema."""
    services = build_services(Settings(store="sqlite", sqlite_path=tmp_path / "fuzz.db"))
    app: Flask = create_app(services, follow=False)
    # a stream answered 200 closes within a moment, its messages the same every time: no
    # heartbeat (docs/operations.md, "Streams")
    app.extensions["gameledger_streams"] = Streams(
        StreamSettings(heartbeat=60, poll=0.02, lifetime=0.1)
    )
    client = app.test_client()
    game_id = client.post("/api/v1/games", json={"game": "azul", "players": 2}).json["id"]
    tokens = [
        client.post(f"/api/v1/games/{game_id}/seats", json={"name": f"p{n}"}).json["token"]
        for n in range(2)
    ]
    tournament, organiser = _running_tournament(client)
    yield {
        "app": app,
        "services": services,
        "game_id": game_id,
        "token": tokens[0],
        "tournament_id": tournament,
        "organiser": organiser,
        "schema": schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app),
        "document": client.get("/api/v1/openapi.json").json,
    }
    services.close()


def _running_tournament(client: Any) -> tuple[str, str]:
    """A Swiss of four entrants whose round 1 is being played: its id and the organiser's
    token (the cases aimed at it reach the tournament's rules, not only its 404)."""
    made = client.post(
        "/api/v1/tournaments",
        json={"game": "azul", "name": "Fuzz", "format": {"kind": "swiss", "rounds": 3}},
    ).json
    path = f"/api/v1/tournaments/{made['tournament_id']}"
    organiser = {"Authorization": f"Bearer {made['organiser_token']}"}
    entrants = [client.post(f"{path}/entrants", json={"name": f"e{n}"}).json for n in range(4)]
    client.post(f"{path}/open-check-in", headers=organiser)
    for entrant in entrants:
        client.post(f"{path}/check-in", headers={"Authorization": f"Bearer {entrant['token']}"})
    assert client.post(f"{path}/start", headers=organiser).status_code == 200
    return made["tournament_id"], made["organiser_token"]


FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
    database=None,
)


@pytest.mark.parametrize("mode", list(GenerationMode))
@pytest.mark.parametrize("aim", ["anywhere", "real-game"])
def test_no_request_gets_a_server_error(
    live: dict[str, Any], mode: GenerationMode, aim: str
) -> None:
    """Every operation of the document, with requests that fit it (positive) and that do
    not (negative); aimed anywhere (ids and headers made up) or at the running game with a
    seat's real token."""
    operations = [result.ok() for result in live["schema"].get_all_operations()]
    assert len(operations) >= 12
    fuzzed = 0
    for operation in operations:
        fixed: dict[str, Any] = {}
        if aim == "real-game":
            names = {p.name for p in operation.path_parameters}
            fixed["headers"] = {"Authorization": f"Bearer {live['token']}"}
            if "game_id" in names:
                fixed["path_parameters"] = {"game_id": live["game_id"]}
            if "tournament_id" in names:
                fixed["path_parameters"] = {"tournament_id": live["tournament_id"]}
                fixed["headers"] = {"Authorization": f"Bearer {live['organiser']}"}

        @given(case=operation.as_strategy(generation_mode=mode, **fixed))
        @FUZZ
        def fuzz(case: Any) -> None:
            _call(case, live)

        try:
            fuzz()
        except Unsatisfiable:
            # Nothing to make invalid: an operation without parameters or body.
            assert mode is GenerationMode.NEGATIVE
            continue
        fuzzed += 1
    assert fuzzed >= (len(operations) if mode is GenerationMode.POSITIVE else 8)


def _call(case: Any, live: dict[str, Any]) -> None:
    game_id = UUID(live["game_id"])
    before = live["services"].app.view(game_id)["version"]
    tournaments = live["services"].tournaments
    tournament_id = UUID(live["tournament_id"])
    tournament_before = tournaments.load(tournament_id).version
    response = case.call()
    assert response.status_code < 500, (case.method, case.formatted_path, response.text)
    if response.status_code < 400:  # the typed document's answer (issue 13, part 1)
        case.validate_response(response, checks=CHECKS)
    if 400 <= response.status_code < 500:
        content_type = response.headers.get("content-type", [""])
        assert content_type[0].startswith("application/problem+json"), response.text
        _declared(case, response, live["document"])
        after = live["services"].app.view(game_id)["version"]
        assert after == before, "a refused request changed the game"
        after = tournaments.load(tournament_id).version
        assert after == tournament_before, "a refused request changed the tournament"


def _declared(case: Any, response: Any, document: dict[str, Any]) -> None:
    """A refusal is one its operation declares (docs/api.md, "Errors"), and its body is the
    problem the document describes for that status. (A 404 or 405 the router would give to
    a path made up by the generator, such as a parameter holding '/', answers no
    operation; its body must still be the document's Problem.)"""
    operation = document["paths"][case.path][case.method.lower()]
    declared = operation["responses"].get(str(response.status_code))
    body = response.json()
    if declared is None:
        assert body["code"] in ("not-found", "method-not-allowed"), (case.path, response.text)
        schema = {"$ref": "#/components/schemas/Problem"}
    else:
        schema = declared["content"]["application/problem+json"]["schema"]
    jsonschema_rs.validate(_resolved(document, schema), body)


def _resolved(document: dict[str, Any], node: Any) -> Any:
    """``node`` with the document's ``$ref`` replaced by what they point at."""
    if isinstance(node, list):
        return [_resolved(document, item) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target: Any = document
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        return _resolved(document, target)
    return {key: _resolved(document, value) for key, value in node.items()}
