"""Rendering data over HTTP (docs/api.md, "Rendering data"): the tile catalogue and the Risk
map are served with a strong ETag computed from their bytes, ``Cache-Control``, and 304 for an
``If-None-Match`` that names the tag; they match their OpenAPI schemas; and a client can draw
every tile and follower of a real game's view from the catalogue alone."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import jsonschema_rs
import pytest
from flask.testing import FlaskClient

from api.rendering_schemas import RiskMapSchema, TileCatalogueSchema
from api.resources.rendering import MAX_AGE
from domain.registry import games
from infrastructure.container import Services
from tests.e2e.conftest import bearer, seeded_game
from tests.e2e.test_openapi_problems import resolved

TILES = "/api/v1/game-types/carcassonne/tiles"
MAP = "/api/v1/game-types/risk/map"
SCHEMAS = {TILES: TileCatalogueSchema, MAP: RiskMapSchema}


def json_schema(node: Any) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema: ``nullable: true`` becomes a ``null`` type."""
    if isinstance(node, list):
        return [json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: json_schema(value) for key, value in node.items() if key != "nullable"}
    if node.get("nullable") and "type" in out:
        out["type"] = [out["type"], "null"]
    return out


@pytest.mark.parametrize("path", [TILES, MAP])
def test_served_with_a_strong_etag_of_its_content_and_revalidated(
    client: FlaskClient, path: str
) -> None:
    first = client.get(path)
    assert first.status_code == 200 and first.mimetype == "application/json"
    etag = first.headers["ETag"]
    assert etag == f'"{hashlib.sha256(first.data).hexdigest()}"'
    assert first.headers["Cache-Control"] == f"public, max-age={MAX_AGE}"
    assert client.get(path).data == first.data

    for header in (etag, f'"other", {etag}', f"W/{etag}", "*"):
        again = client.get(path, headers={"If-None-Match": header})
        assert again.status_code == 304, header
        assert again.data == b""
        assert again.headers["ETag"] == etag
        assert again.headers["Cache-Control"] == first.headers["Cache-Control"]
    changed = client.get(path, headers={"If-None-Match": '"not-this-one"'})
    assert changed.status_code == 200 and changed.data == first.data
    assert client.head(path).headers["ETag"] == etag


@pytest.mark.parametrize("path", [TILES, MAP])
def test_the_document_matches_its_openapi_schema(client: FlaskClient, path: str) -> None:
    spec = client.get("/api/v1/openapi.json").json
    response = spec["paths"][path]["get"]["responses"]["200"]
    schema = json_schema(resolved(spec, response["content"]["application/json"]["schema"]))
    body = client.get(path).json
    errors = [
        f"{e.instance_path}: {e.message}"
        for e in jsonschema_rs.validator_for(schema).iter_errors(body)
    ]
    assert not errors, errors[:3]
    assert SCHEMAS[path]().validate(body) == {}
    assert set(response["headers"]) == {"ETag", "Cache-Control"}
    assert "304" in spec["paths"][path]["get"]["responses"]


def turned(edges: str, rotation: int) -> str:
    """Side ``d`` of a tile turned ``rotation`` clockwise shows its unturned side
    ``d - rotation/90`` (docs/api.md, "Rendering data")."""
    return "".join(edges[(d - rotation // 90) % 4] for d in range(4))


def tile_axis(table_axis: str, rotation: int) -> str:
    """A bridge's axis on the unturned tile: the table's, swapped on a tile turned 90/270."""
    return table_axis if rotation % 180 == 0 else {"NS": "WE", "WE": "NS"}[table_axis]


def test_a_client_draws_every_tile_and_follower_of_a_view_from_the_catalogue(
    client: FlaskClient, http_services: Services
) -> None:
    catalogue = {t["id"]: t for t in client.get(TILES).json["tiles"]}
    game_id, tokens = seeded_game(
        client, http_services, 3, "carcassonne", "render-1", expansions=["bridges-castles-bazaars"]
    )
    bot = random.Random(5)
    for _ in range(45):
        view = client.get(f"/api/v1/games/{game_id}").json
        if not view["current_players"]:
            break
        seat = view["current_players"][0]
        listed = client.get(f"/api/v1/games/{game_id}/legal-moves", headers=bearer(tokens[seat]))
        moves = [m["move"] for m in listed.json["moves"]]
        keen = [m for m in moves if m.get("follower") or m.get("bridge")]
        move = bot.choice(keen if keen and bot.random() < 0.7 else moves)
        made = client.post(
            f"/api/v1/games/{game_id}/moves",
            json={"move": move, "expected_version": view["version"]},
            headers=bearer(tokens[seat]),
        )
        assert made.status_code == 200, made.json
    state = client.get(f"/api/v1/games/{game_id}").json["state"]
    bridges = 0
    for tile in state["board"]:
        kind = catalogue[tile["tile"]]
        edges = kind["edges"]
        if tile["bridge"] is not None:
            bridges += 1
            axis = tile_axis(tile["bridge"], tile["rotation"])
            edges = next(b for b in kind["bridges"] if b["axis"] == axis)["edges"]
        assert turned(edges, tile["rotation"]) == tile["edges"], tile
    squares = {(t["x"], t["y"]): t for t in state["board"]}
    assert state["followers"]
    for follower in state["followers"]:
        tile = squares[(follower["x"], follower["y"])]
        kind = catalogue[tile["tile"]]
        segments = {s["id"]: s for s in kind["segments"]}
        segments.update({b["segment"]["id"]: b["segment"] for b in kind["bridges"]})
        assert segments[follower["segment"]]["follower"] == follower["role"], follower
    assert bridges, "the game laid a bridge"


def test_game_types_are_typed_in_the_document_and_match_the_rules(client: FlaskClient) -> None:
    """Each game's options (listed for a form, and as a JSON Schema), player range per option
    set and rules version (issue 13, part 5) are in ``GET /game-types``, every member
    declared and typed in the OpenAPI document."""
    spec = client.get("/api/v1/openapi.json").json
    operation = spec["paths"]["/api/v1/game-types"]["get"]
    schema = json_schema(
        resolved(spec, operation["responses"]["200"]["content"]["application/json"]["schema"])
    )
    item = schema["items"]
    assert set(item["required"]) == set(item["properties"])
    option = item["properties"]["options"]["items"]
    assert set(option["required"]) == set(option["properties"])
    assert option["properties"]["type"]["enum"] == ["string", "integer", "boolean", "array"]
    assert "anyOf" in option["properties"]["default"]
    served = client.get("/api/v1/game-types").json
    validator = jsonschema_rs.validator_for(schema)
    errors = [f"{e.instance_path}: {e.message}" for e in validator.iter_errors(served)]
    assert not errors, errors[:3]
    for entry in served:
        rules = games()[entry["name"]]
        assert entry["rules_version"] == rules.rules_version
        assert [r["options"] for r in entry["player_ranges"]] == [
            r.options for r in rules.player_ranges
        ]
        assert [o["name"] for o in entry["options"]] == [o.name for o in rules.options_info]
        # the options' JSON Schema accepts the options of every player range, and no other
        options = jsonschema_rs.validator_for(entry["options_schema"])
        assert all(options.is_valid(r["options"]) for r in entry["player_ranges"])
        assert options.is_valid({}) and not options.is_valid({"no-such-option": 1})
        created = client.post("/api/v1/games", json={"game": entry["name"], "players": 2})
        assert options.is_valid(created.json["options"])  # the options as the game fixed them


@pytest.mark.parametrize("path", [TILES, MAP])
def test_the_documents_example_is_a_valid_part_of_the_document(
    client: FlaskClient, path: str
) -> None:
    spec = client.get("/api/v1/openapi.json").json
    content = spec["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]
    example = content["example"]
    schema = json_schema(resolved(spec, content["schema"]))
    assert not list(jsonschema_rs.validator_for(schema).iter_errors(example))
    body = client.get(path).json
    for key in ("tiles", "territories", "borders", "continents"):
        if key in example:
            assert example[key] and all(item in body[key] for item in example[key])
