"""A client reads the JSON Schemas of a game from the API (``GET /game-types/{name}/schemas``)
and checks everything the API then shows it against them: every view's ``state`` for each
seat and a spectator, every legal move, every event's data in the event log, the game's own
events and the ledger's (docs/api.md, "Game types"; docs/architecture.md, "Typed events, moves
and views")."""

from __future__ import annotations

import random
from typing import Any

import jsonschema_rs
import pytest
from flask.testing import FlaskClient

from application.contract import game_contract, ledger_event_schemas
from domain.registry import games
from infrastructure.container import Services
from tests.e2e.conftest import bearer, seeded_game

MOVES = 60
"""Moves played per game: enough to reach each game's main phases over HTTP."""


def _check(validator: Any, instance: Any, what: str) -> None:
    errors = [
        f"{fault.instance_path}: {fault.message}" for fault in validator.iter_errors(instance)
    ]
    assert not errors, f"{what}: {errors[:3]}"


@pytest.mark.parametrize("name", sorted(games()))
def test_the_served_schemas_describe_what_the_api_shows(
    client: FlaskClient, http_services: Services, name: str
) -> None:
    served = client.get(f"/api/v1/game-types/{name}/schemas")
    assert served.status_code == 200
    schemas = served.json
    contract = game_contract(games()[name])
    assert schemas["events"] == contract.events and schemas["view"] == contract.view
    assert set(schemas["events"]) == set(games()[name].event_types)
    assert schemas["ledger_events"] == ledger_event_schemas()
    view_schema = jsonschema_rs.validator_for(schemas["view"])
    move_schema = jsonschema_rs.validator_for(schemas["move"])
    events = {kind: jsonschema_rs.validator_for(s) for kind, s in schemas["events"].items()}
    ledger = {kind: jsonschema_rs.validator_for(s) for kind, s in schemas["ledger_events"].items()}
    options_schema = jsonschema_rs.validator_for(schemas["options"])

    players = games()[name].min_players + 1
    game_id, tokens = seeded_game(client, http_services, players, name, f"schemas-{name}")
    bot = random.Random(7)
    for _ in range(MOVES):
        spectator = client.get(f"/api/v1/games/{game_id}").json
        _check(view_schema, spectator["state"], "a spectator's view")
        _check(options_schema, spectator["options"], "the game's options")
        if not spectator["current_players"]:
            break
        seat = bot.choice(spectator["current_players"])
        seen = client.get(f"/api/v1/games/{game_id}", headers=bearer(tokens[seat])).json
        _check(view_schema, seen["state"], f"seat {seat}'s view")
        listed = client.get(f"/api/v1/games/{game_id}/legal-moves", headers=bearer(tokens[seat]))
        for entry in listed.json["moves"][:20]:
            _check(move_schema, entry["move"], f"the legal move {entry['notation']}")
        move = bot.choice(listed.json["moves"])["move"]
        made = client.post(
            f"/api/v1/games/{game_id}/moves",
            json={"move": move, "expected_version": seen["version"]},
            headers=bearer(tokens[seat]),
        )
        assert made.status_code == 200, made.json
    log = client.get(f"/api/v1/games/{game_id}/events", query_string={"limit": 500}).json
    rules_events = [e for e in log["items"] if e["type"] in events]
    assert rules_events, "the game recorded events of the rules"
    for event in rules_events:
        _check(events[event["type"]], event["data"], f"a spectator's {event['type']}")
    ledger_events = [e for e in log["items"] if e["type"] in ledger]
    assert {e["type"] for e in ledger_events} >= {"Created", "SeatJoined", "MoveMade"}
    for event in ledger_events:
        _check(ledger[event["type"]], event["data"], f"a spectator's {event['type']}")
    assert len(rules_events) + len(ledger_events) == len(log["items"])


def test_an_unknown_game_has_no_schemas(client: FlaskClient) -> None:
    refused = client.get("/api/v1/game-types/chess/schemas")
    assert refused.status_code == 404
    assert refused.headers["Content-Type"] == "application/problem+json"
    assert refused.json["code"] == "unknown-game"


def test_game_types_declare_the_capabilities(client: FlaskClient) -> None:
    declared = {t["name"]: t["capabilities"] for t in client.get("/api/v1/game-types").json}
    for name, rules in games().items():
        assert declared[name] == {
            "simultaneous_moves": rules.simultaneous_moves,
            "hides_information": rules.hides_information,
            "open_moves": rules.open_moves,
        }
    assert declared["azul"]["simultaneous_moves"] and declared["risk"]["hides_information"]
