"""Bad input over HTTP (issue 10, part 2; docs/api.md, "Limits" and "Errors"): each
reproduction that once answered 500 — or silently coerced a value — now gets a 4xx
problem+json with a stable code, names the field where there is one, and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from infrastructure.container import Services
from tests.e2e.conftest import bearer, join_all, new_game
from tests.e2e.test_http import assert_problem, current_move


def notifications(services: Services) -> int:
    """How many events the store holds: a refused request must not add one."""
    return services.app.stores[0].recorder.max_notification_id() or 0


def field_errors(response: Any, location: str) -> dict[str, Any]:
    errors: dict[str, Any] = response.json["errors"][location]
    return errors


@pytest.fixture
def running(client: FlaskClient) -> tuple[str, list[str]]:
    return new_game(client, 2)


def test_huge_integers_in_a_query_are_refused_by_name(
    client: FlaskClient, running: tuple[str, list[str]]
) -> None:
    game_id, _ = running
    answer = client.get(f"/api/v1/games/{game_id}/events?after=99999999999999999999999")
    assert_problem(answer, 400, "invalid-request")
    assert "after" in field_errors(answer, "query")
    answer = client.get("/api/v1/games?limit=9223372036854775808")
    assert_problem(answer, 400, "invalid-request")
    assert "limit" in field_errors(answer, "query")
    answer = client.get("/api/v1/games?cursor=not-a-cursor")
    assert_problem(answer, 400, "invalid-cursor")
    answer = client.get(f"/api/v1/games/{game_id}?version={'9' * 5000}")
    assert_problem(answer, 400, "invalid-request")
    answer = client.get(f"/api/v1/games/{game_id}/turns/{'9' * 30}")
    assert_problem(answer, 404, "not-found")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (
            '{"game": "azul", "players": 2, "options": {"x": ' + "[" * 5000 + "]" * 5000 + "}}",
            "too-deeply-nested",
        ),
        ('{"game": "azul", "players": ' + "9" * 5000 + "}", "number-out-of-range"),
        ('{"game": "azul", "players": 1e999}', "number-out-of-range"),
        ('{"game": "azul", "players": NaN}', "malformed-json"),
        ('{"game": "azul", "players": 2, "options": {"a": "x\\ud800y"}}', "invalid-text"),
        ('{"game": "azul", "players": 2', "malformed-json"),
        ('{"game": "azul", "players": 2, "players": 3}', "malformed-json"),
        ('{"game": "azul", "players": 2, "options": {"a": 1, "a": 1}}', "malformed-json"),
    ],
)
def test_bodies_that_are_not_plain_json_are_refused(
    client: FlaskClient, http_services: Services, body: str, code: str
) -> None:
    before = notifications(http_services)
    answer = client.post("/api/v1/games", data=body, content_type="application/json")
    assert_problem(answer, 400, code)
    assert notifications(http_services) == before


def test_the_nesting_limit_is_configurable(tmp_path: Any) -> None:
    from api.app import create_app  # noqa: PLC0415
    from infrastructure.config import Settings  # noqa: PLC0415
    from infrastructure.container import build_services  # noqa: PLC0415

    services = build_services(
        Settings(store="sqlite", sqlite_path=tmp_path / "d.db", max_json_depth=3)
    )
    try:
        client = create_app(services, follow=False).test_client()
        nested = {"game": "azul", "players": 2, "options": {"a": [[1]]}}
        answer = client.post("/api/v1/games", json=nested)
        assert_problem(answer, 400, "too-deeply-nested")
        assert answer.json["detail"].endswith("more than 3 levels deep.")
        flat = client.post("/api/v1/games", json={"game": "azul", "players": 2})
        assert flat.status_code == 201
    finally:
        services.close()


def test_a_lone_surrogate_in_a_name_is_refused(
    client: FlaskClient, http_services: Services
) -> None:
    game_id = client.post("/api/v1/games", json={"game": "azul", "players": 2}).json["id"]
    before = notifications(http_services)
    answer = client.post(
        f"/api/v1/games/{game_id}/seats",
        data='{"name": "x\\ud800y"}',
        content_type="application/json",
    )
    assert_problem(answer, 400, "invalid-text")
    assert notifications(http_services) == before


def test_a_huge_if_match_is_refused(
    client: FlaskClient, http_services: Services, running: tuple[str, list[str]]
) -> None:
    game_id, tokens = running
    before = notifications(http_services)
    answer = client.post(
        f"/api/v1/games/{game_id}/moves",
        json={"notation": "x"},
        headers={**bearer(tokens[0]), "If-Match": '"' + "9" * 5000 + '"'},
    )
    assert_problem(answer, 400, "invalid-if-match")
    assert notifications(http_services) == before


def test_paths_are_matched_as_sent_without_redirects(client: FlaskClient) -> None:
    assert_problem(client.get("/api/v1/games//turns"), 404, "not-found")
    trailing = client.get("/api/v1/games/")
    assert trailing.status_code == 200 and trailing.json["items"] == []


def test_method_not_allowed_says_what_is_allowed(client: FlaskClient) -> None:
    answer = client.delete("/api/v1/games")
    assert_problem(answer, 405, "method-not-allowed")
    assert {"GET", "POST"} <= {m.strip() for m in answer.headers["Allow"].split(",")}


def test_a_body_over_the_limit_is_413(client: FlaskClient) -> None:
    body = '{"game": "' + "a" * (300 * 1024) + '"}'
    answer = client.post("/api/v1/games", data=body, content_type="application/json")
    assert_problem(answer, 413, "payload-too-large")


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("2", "Not an integer"),
        (2.5, "Not an integer"),
        (2.9, "Not an integer"),
        (True, "Not an integer"),
        (0, "greater than or equal to 1"),
        (13, "less than"),
    ],
)
def test_players_are_never_coerced(
    client: FlaskClient, http_services: Services, players: Any, message: str
) -> None:
    before = notifications(http_services)
    answer = client.post("/api/v1/games", json={"game": "azul", "players": players})
    assert_problem(answer, 400, "invalid-request")
    assert message in " ".join(field_errors(answer, "json")["players"])
    assert notifications(http_services) == before


@pytest.mark.parametrize("version", ["4", 4.5, True, 0, -1])
def test_expected_version_is_never_coerced(
    client: FlaskClient, http_services: Services, running: tuple[str, list[str]], version: Any
) -> None:
    game_id, tokens = running
    _, seat, move = current_move(client, game_id, tokens)
    body = {"move": move, "expected_version": version}
    before = notifications(http_services)
    answer = client.post(f"/api/v1/games/{game_id}/moves", json=body, headers=bearer(tokens[seat]))
    assert_problem(answer, 400, "invalid-request")
    assert "expected_version" in field_errors(answer, "json")
    assert notifications(http_services) == before


def test_booleans_are_never_coerced(client: FlaskClient, http_services: Services) -> None:
    before = notifications(http_services)
    answer = client.post(
        "/api/v1/games", json={"game": "azul", "players": 2, "settings": {"tournament": "yes"}}
    )
    assert_problem(answer, 400, "invalid-request")
    assert "tournament" in field_errors(answer, "json")["settings"]
    assert notifications(http_services) == before


def test_a_move_without_a_json_content_type_is_415(
    client: FlaskClient, http_services: Services, running: tuple[str, list[str]]
) -> None:
    game_id, tokens = running
    before = notifications(http_services)
    for content_type in (None, "text/plain", "application/x-www-form-urlencoded"):
        headers = {**bearer(tokens[0])}
        if content_type:
            headers["Content-Type"] = content_type
        answer = client.post(
            f"/api/v1/games/{game_id}/moves",
            data='{"notation": "x", "expected_version": 3}',
            headers=headers,
        )
        assert_problem(answer, 415, "unsupported-media-type")
    assert notifications(http_services) == before


def test_if_match_and_expected_version_must_agree(
    client: FlaskClient, http_services: Services, running: tuple[str, list[str]]
) -> None:
    game_id, tokens = running
    version, seat, move = current_move(client, game_id, tokens)
    body = {"move": move, "expected_version": version}
    before = notifications(http_services)
    answer = client.post(
        f"/api/v1/games/{game_id}/moves",
        json=body,
        headers={**bearer(tokens[seat]), "If-Match": f'"{version - 1}"'},
    )
    assert_problem(answer, 400, "version-mismatch")
    assert notifications(http_services) == before
    agreed = client.post(
        f"/api/v1/games/{game_id}/moves",
        json=body,
        headers={**bearer(tokens[seat]), "If-Match": f'"{version}"'},
    )
    assert agreed.status_code == 200, agreed.json


def test_created_resources_carry_location(client: FlaskClient) -> None:
    created = client.post("/api/v1/games", json={"game": "azul", "players": 2})
    assert created.status_code == 201
    location = created.headers["Location"]
    assert location.endswith(f"/api/v1/games/{created.json['id']}")
    assert client.get(location).json["id"] == created.json["id"]
    joined = client.post(f"/api/v1/games/{created.json['id']}/seats", json={"name": "a"})
    assert joined.headers["Location"] == location


def test_problem_titles_follow_their_codes(client: FlaskClient) -> None:
    missing = client.get("/api/v1/games/0b7e1f4c-0000-4000-8000-000000000000")
    malformed = client.get("/api/v1/games/not-a-uuid")
    assert missing.json["code"] == malformed.json["code"] == "game-not-found"
    assert missing.json["title"] == malformed.json["title"] == "Game not found"


@pytest.mark.parametrize(
    ("notation", "status", "code"),
    [
        ("propose " + "[" * 3000 + "]" * 3000, 400, "invalid-request"),
        ("propose " + "[" * 900 + "]" * 900, 422, "malformed-move"),
        ('propose {"money": ' + "9" * 1500 + "}", 422, "malformed-move"),
        ("buy ²", 422, "malformed-move"),
        ("buy " + "9" * 1000, 422, "malformed-move"),
    ],
)
def test_risk_notation_that_cannot_be_read_is_refused(
    client: FlaskClient, http_services: Services, notation: str, status: int, code: str
) -> None:
    game_id, tokens = new_game(client, 3, "risk")
    view = client.get(f"/api/v1/games/{game_id}").json
    seat = view["current_players"][0]
    before = notifications(http_services)
    answer = client.post(
        f"/api/v1/games/{game_id}/moves",
        json={"notation": notation, "expected_version": view["version"]},
        headers=bearer(tokens[seat]),
    )
    assert_problem(answer, status, code)
    assert notifications(http_services) == before


def test_risk_options_are_bounded(client: FlaskClient, http_services: Services) -> None:
    before = notifications(http_services)
    for options in (
        {"starting_units": 10**12},
        {"stake": -1},
        {"placement_step": "3"},
        {"golden_horse": [4] * 13},
        {"unit_price": True},
    ):
        answer = client.post(
            "/api/v1/games", json={"game": "risk", "players": 3, "options": options}
        )
        assert_problem(answer, 422, "invalid-options")
        assert next(iter(options)) in answer.json["detail"]
    assert notifications(http_services) == before


def test_game_types_give_ranges_options_and_versions(client: FlaskClient) -> None:
    types = {t["name"]: t for t in client.get("/api/v1/game-types").json}
    carcassonne = types["carcassonne"]
    assert (carcassonne["min_players"], carcassonne["max_players"]) == (2, 6)
    expansion = {"expansions": ["bridges-castles-bazaars"]}
    assert [(r["options"], r["max_players"]) for r in carcassonne["player_ranges"]] == [
        ({}, 5),
        (expansion, 6),
    ]
    for name, found in types.items():
        assert found["rules_version"].startswith(name)
        for option in found["options"]:
            assert option["type"] in {"string", "integer", "boolean", "array"}
            assert option["values"] or option["minimum"] is not None or option["type"] == "array"
    wall = next(o for o in types["azul"]["options"] if o["name"] == "wall")
    assert wall["default"] == "colored" and wall["values"] == ["colored", "gray"]
    units = next(o for o in types["risk"]["options"] if o["name"] == "starting_units")
    assert (units["minimum"], units["maximum"], units["default"]) == (0, 200, None)
    # every game can be created with each listed value of its enumerated options
    for name, found in types.items():
        for option in found["options"]:
            if option["type"] == "string" and option["default"] is not None:
                for value in option["values"]:
                    created = client.post(
                        "/api/v1/games",
                        json={"game": name, "players": 2, "options": {option["name"]: value}},
                    )
                    assert created.status_code == 201, created.json


def test_a_nul_character_never_reaches_a_store(
    client: FlaskClient, http_services: Services
) -> None:
    game_id = client.post("/api/v1/games", json={"game": "azul", "players": 2}).json["id"]
    before = notifications(http_services)
    answer = client.post(f"/api/v1/games/{game_id}/seats", json={"name": "a\u0000b"})
    assert_problem(answer, 400, "invalid-text")
    assert notifications(http_services) == before
    listed = client.get("/api/v1/games?game=a%00b")
    assert_problem(listed, 400, "invalid-request")
    assert "game" in field_errors(listed, "query")
    logged = client.get(f"/api/v1/games/{game_id}/events?type=Created%01")
    assert_problem(logged, 400, "invalid-request")


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("/turns?include_undone=1", "include_undone"),
        ("/turns?include_undone=yes", "include_undone"),
        ("/events?foo=1", "foo"),
        ("/turns?limit=99999999999999999", "limit"),
    ],
)
def test_queries_are_never_coerced_nor_ignored(
    client: FlaskClient, running: tuple[str, list[str]], query: str, field: str
) -> None:
    game_id, _ = running
    answer = client.get(f"/api/v1/games/{game_id}{query}")
    assert_problem(answer, 400, "invalid-request")
    assert field in field_errors(answer, "query")
    assert_problem(client.get("/api/v1/games?offest=5"), 400, "invalid-request")


def test_paths_take_only_canonical_ids_and_turn_numbers(
    client: FlaskClient, running: tuple[str, list[str]]
) -> None:
    game_id, _ = running
    assert client.get(f"/api/v1/games/{game_id}/turns/0").status_code == 200
    for path in ("/turns/01", "/turns/%D9%A1", "/turns/-1"):
        assert_problem(client.get(f"/api/v1/games/{game_id}{path}"), 404, "not-found")
    for other in (
        game_id.upper(),
        game_id.replace("-", ""),
        "{" + game_id + "}",
        f"urn:uuid:{game_id}",
    ):
        assert_problem(client.get(f"/api/v1/games/{other}"), 404, "game-not-found")


@pytest.mark.parametrize("header", ['W/"4"', "0", '"0"', '"12', '"4", "5"', "4.0"])
def test_if_match_is_one_strong_tag(
    client: FlaskClient, http_services: Services, running: tuple[str, list[str]], header: str
) -> None:
    game_id, tokens = running
    _, seat, move = current_move(client, game_id, tokens)
    before = notifications(http_services)
    answer = client.post(
        f"/api/v1/games/{game_id}/moves",
        json={"move": move},
        headers={**bearer(tokens[seat]), "If-Match": header},
    )
    assert_problem(answer, 400, "invalid-if-match")
    assert notifications(http_services) == before


def test_cli_options_are_read_strictly(capsys: pytest.CaptureFixture[str]) -> None:
    from api.cli import main  # noqa: PLC0415

    with pytest.raises(SystemExit) as stopped:
        main(["simulate", "azul", "--memory", "--options", "[" * 20000 + "]" * 20000])
    assert stopped.value.code == 2
    assert "not plain JSON" in capsys.readouterr().err


@pytest.mark.parametrize(
    "name",
    ["a\u202eb", "zero\u200bwidth", "bell\x07", "line\nbreak", "\u2066isolate", "   "],
)
def test_a_name_must_be_plain_text(client: FlaskClient, http_services: Services, name: str) -> None:
    """Control, bidi and zero-width characters, and blank names, are refused by name with a
    422, and nothing is stored (docs/api.md, "Plain text")."""
    game_id = client.post("/api/v1/games", json={"game": "azul", "players": 2}).json["id"]
    before = notifications(http_services)
    answer = client.post(f"/api/v1/games/{game_id}/seats", json={"name": name})
    assert_problem(answer, 422, "not-plain-text")
    assert answer.json["detail"].startswith("The name ")
    assert notifications(http_services) == before
    kept = client.post(f"/api/v1/games/{game_id}/seats", json={"name": "Zoe\u0308 🦊"})
    assert kept.status_code == 201
    seats = client.get(f"/api/v1/games/{game_id}").json["seats"]
    assert [seat["name"] for seat in seats if seat["name"]] == ["Zo\u00eb 🦊"]


def test_an_arbiters_reason_must_be_plain_text(
    client: FlaskClient, http_services: Services
) -> None:
    created = client.post(
        "/api/v1/games", json={"game": "azul", "players": 2, "settings": {"tournament": True}}
    ).json
    game_id, arbiter = created["id"], created["arbiter_token"]
    join_all(client, game_id, 2)
    version = client.get(f"/api/v1/games/{game_id}").json["version"]
    before = notifications(http_services)
    answer = client.post(
        f"/api/v1/games/{game_id}/arbiter/undo",
        headers=bearer(arbiter),
        json={"turn": 0, "reason": "fixed\u202e", "expected_version": version},
    )
    assert_problem(answer, 422, "not-plain-text")
    assert answer.json["detail"].startswith("The reason ")
    assert notifications(http_services) == before
