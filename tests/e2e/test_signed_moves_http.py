"""Signed moves over HTTP (issue 14, part 5; docs/api.md, "Signed moves"): a join with a
public key, moves signed and refused with their codes (each answer checked against the
OpenAPI document), the key and the signatures in the event log and the record, the record
verified, a rematch's claim with a key of its own, and old clients unaffected."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from application.verification import verify_record
from tests.e2e.conftest import bearer
from tests.signed import PlayerKey

API = "/api/v1/games"


def keyed_game(client: FlaskClient, keys: list[PlayerKey | None]) -> tuple[str, list[str]]:
    """An Azul game whose seats joined with these keys (``None``: without one)."""
    created = client.post(API, json={"game": "azul", "players": len(keys)})
    assert created.status_code == 201
    game_id: str = created.json["id"]
    tokens = []
    for n, key in enumerate(keys):
        body: dict[str, Any] = {"name": f"p{n}"}
        if key is not None:
            body["public_key"] = key.public
        joined = client.post(f"{API}/{game_id}/seats", json=body)
        assert joined.status_code == 201, joined.json
        tokens.append(joined.json["token"])
    return game_id, tokens


def next_move(client: FlaskClient, game_id: str, tokens: list[str]) -> tuple[int, int, Any]:
    """The version, the seat to act and its first legal move."""
    view = client.get(f"{API}/{game_id}").json
    seat = view["current_players"][0]
    legal = client.get(f"{API}/{game_id}/legal-moves", headers=bearer(tokens[seat])).json
    return legal["version"], seat, legal["moves"][0]["move"]


def play_signed(
    client: FlaskClient, game_id: str, tokens: list[str], keys: list[PlayerKey | None], n: int
) -> None:
    for _ in range(n):
        version, seat, move = next_move(client, game_id, tokens)
        key = keys[seat]
        body: dict[str, Any] = {"move": move, "expected_version": version}
        if key is not None:
            body["signature"] = key.sign(game_id, version, move)
        made = client.post(f"{API}/{game_id}/moves", json=body, headers=bearer(tokens[seat]))
        assert made.status_code == 200, made.json


def test_a_signed_game_over_http(client: FlaskClient) -> None:
    keys: list[PlayerKey | None] = [PlayerKey(), None]
    game_id, tokens = keyed_game(client, keys)
    version, seat, move = next_move(client, game_id, tokens)
    assert seat == 0
    moves = f"{API}/{game_id}/moves"
    key = keys[0]
    assert key is not None

    unsigned = client.post(
        moves, json={"move": move, "expected_version": version}, headers=bearer(tokens[0])
    )
    assert unsigned.status_code == 422 and unsigned.json["code"] == "signature-required"
    message = f'{{"game":"{game_id}","move":'
    assert message in unsigned.json["detail"]

    forged = client.post(
        moves,
        json={
            "move": move,
            "expected_version": version,
            "signature": PlayerKey().sign(game_id, version, move),
        },
        headers=bearer(tokens[0]),
    )
    assert forged.status_code == 422 and forged.json["code"] == "bad-signature"

    signature = key.sign(game_id, version, move)
    no_version = client.post(
        moves, json={"move": move, "signature": signature}, headers=bearer(tokens[0])
    )
    assert no_version.status_code == 428 and no_version.json["code"] == "version-required"

    with_if_match = client.post(
        moves,
        json={"move": move, "signature": signature},
        headers={**bearer(tokens[0]), "If-Match": f'"{version}"'},
    )
    assert with_if_match.status_code == 200, with_if_match.json

    version, seat, move = next_move(client, game_id, tokens)
    assert seat == 1
    stray = client.post(
        moves,
        json={
            "move": move,
            "expected_version": version,
            "signature": key.sign(game_id, version, move),
        },
        headers=bearer(tokens[1]),
    )
    assert stray.status_code == 422 and stray.json["code"] == "unexpected-signature"
    play_signed(client, game_id, tokens, keys, 6)

    events = client.get(f"{API}/{game_id}/events?limit=200").json["items"]
    joined = [e["data"] for e in events if e["type"] == "SeatJoined"]
    assert joined[0] == {"seat": 0, "name": "p0", "public_key": key.public}
    assert joined[1] == {"seat": 1, "name": "p1"}
    made = [e["data"] for e in events if e["type"] == "MoveMade"]
    assert all(("signature" in data) == (data["seat"] == 0) for data in made)
    record = client.get(f"{API}/{game_id}/record").json
    report = verify_record(record)
    assert report.ok, report.discrepancy
    assert report.signatures_checked == sum(1 for data in made if data["seat"] == 0) > 0


def test_bad_public_keys_and_signatures_are_problems(client: FlaskClient) -> None:
    created = client.post(API, json={"game": "azul", "players": 2}).json["id"]
    for bad, status, code in (
        ("A" * 42, 422, "bad-public-key"),
        ("A" * 42 + "B", 422, "bad-public-key"),
        ("", 422, "bad-public-key"),  # any string that is not a key: its code, not a 400
        ("A" * 201, 422, "bad-public-key"),
        ("AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", 422, "bad-public-key"),  # the identity
        ("A" * 43, 422, "bad-public-key"),  # 32 zero bytes: order 4
        ("7f_______________________________________38", 422, "bad-public-key"),  # y = p
        (12, 400, "invalid-request"),
    ):
        refused = client.post(f"{API}/{created}/seats", json={"name": "p", "public_key": bad})
        assert refused.status_code == status and refused.json["code"] == code, refused.json
    assert client.get(f"{API}/{created}").json["version"] == 1
    # null, like an absent key, is a seat without a key (docs/api.md, "Signed moves")
    joined = client.post(f"{API}/{created}/seats", json={"name": "p", "public_key": None})
    assert joined.status_code == 201, joined.json
    events = client.get(f"{API}/{created}/events").json["items"]
    assert events[-1]["type"] == "SeatJoined" and "public_key" not in events[-1]["data"]

    keys: list[PlayerKey | None] = [PlayerKey(), PlayerKey()]
    game_id, tokens = keyed_game(client, keys)
    version, seat, move = next_move(client, game_id, tokens)
    for bad, status, code in (
        ("Zm9v", 422, "bad-signature"),
        ("=" * 86, 422, "bad-signature"),
        ("", 422, "bad-signature"),
        ("A" * 201, 422, "bad-signature"),
        ("AQ" + "A" * 84, 422, "bad-signature"),  # R = the identity, S = 0
        (["x"], 400, "invalid-request"),
    ):
        refused = client.post(
            f"{API}/{game_id}/moves",
            json={"move": move, "expected_version": version, "signature": bad},
            headers=bearer(tokens[seat]),
        )
        assert refused.status_code == status and refused.json["code"] == code, refused.json


def test_a_rematch_claim_registers_a_key_of_its_own(client: FlaskClient) -> None:
    keys: list[PlayerKey | None] = [PlayerKey(), PlayerKey()]
    game_id, tokens = keyed_game(client, keys)
    resigned = client.post(f"{API}/{game_id}/resign", json={}, headers=bearer(tokens[1]))
    assert resigned.status_code == 200
    rematch = client.post(f"{API}/{game_id}/rematch", headers=bearer(tokens[0])).json["game_id"]
    bad = client.post(
        f"{API}/{rematch}/claim", json={"public_key": "nope"}, headers=bearer(tokens[0])
    )
    assert bad.status_code == 422 and bad.json["code"] == "bad-public-key"
    new_key = PlayerKey()
    first = client.post(
        f"{API}/{rematch}/claim", json={"public_key": new_key.public}, headers=bearer(tokens[0])
    )
    assert first.status_code == 201, first.json
    second = client.post(f"{API}/{rematch}/claim", headers=bearer(tokens[1]))  # no body at all
    assert second.status_code == 201, second.json
    joined = [
        e["data"]
        for e in client.get(f"{API}/{rematch}/events").json["items"]
        if e["type"] == "SeatJoined"
    ]
    assert joined[0]["public_key"] == new_key.public and "public_key" not in joined[1]
    play_signed(client, rematch, [first.json["token"], second.json["token"]], [new_key, None], 4)


def test_the_ledger_event_schemas_know_the_optional_fields(client: FlaskClient) -> None:
    """``public_key`` and ``signature`` are declared, and optional: a record without them (every
    older one) is as valid as ever."""
    ledger = client.get("/api/v1/game-types/azul/schemas").json["ledger_events"]
    joined, made = ledger["SeatJoined"], ledger["MoveMade"]
    assert joined["properties"]["public_key"]["type"] == "string"
    assert made["properties"]["signature"]["type"] == "string"
    assert "public_key" not in joined["required"] and "signature" not in made["required"]
    assert joined["additionalProperties"] is False and made["additionalProperties"] is False
