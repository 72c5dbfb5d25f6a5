"""The service's public signing keys over HTTP and on the command line (docs/audit.md,
"Service signing key"; docs/api.md, "keys"): ``GET /api/v1/keys`` with its ETag and 304, a
rotation seen by a running service, ``gameledger keys show`` and ``keys rotate``; and the
private key appears in no answer, header, log line or command output."""

from __future__ import annotations

import base64
import json
import logging
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from flask.testing import FlaskClient

from api.resources.keys import MAX_AGE
from application.signing import Keyring
from infrastructure.container import Services
from infrastructure.signing_keys import KeyService
from tests.e2e.conftest import bearer, new_game
from tests.e2e.test_cli_data_dir import run

KEYS = "/api/v1/keys"


def secrets_of(path: Path) -> list[str]:
    """The private key as the keyring holds it, and as hex and standard base64."""
    text = json.loads(path.read_text())["current"]["private_key"]
    raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    return [text, raw.hex(), base64.b64encode(raw).decode().rstrip("=")]


def keyring_path(services: Services) -> Path:
    path = services.keys.path
    assert path is not None
    return path


def test_the_keys_are_served_cacheable(client: FlaskClient, http_services: Services) -> None:
    answer = client.get(KEYS)
    assert answer.status_code == 200
    (key,) = answer.json["keys"]
    assert key["current"] and key["algorithm"] == "Ed25519"
    assert key["key_id"] == http_services.keys.keyring().key_id
    assert answer.headers["Cache-Control"] == f"public, max-age={MAX_AGE}"
    etag = answer.headers["ETag"]
    again = client.get(KEYS, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == etag
    # what the service signs checks out against the published key
    key_id, signature = http_services.keys.sign(b"chain head")
    raw = base64.urlsafe_b64decode(key["public_key"] + "=")
    assert key_id == key["key_id"]
    Ed25519PublicKey.from_public_bytes(raw).verify(signature, b"chain head")


def test_a_rotation_changes_the_list_and_its_tag(
    client: FlaskClient, http_services: Services
) -> None:
    before = client.get(KEYS)
    KeyService(http_services.keys.signing).rotate()  # another process: the CLI
    after = client.get(KEYS, headers={"If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200 and after.headers["ETag"] != before.headers["ETag"]
    old = before.json["keys"][0]
    retired_at = after.json["keys"][1]["retired_at"]
    assert old["retired_at"] is None and retired_at >= old["created_at"]
    assert after.json["keys"][1] == {**old, "current": False, "retired_at": retired_at}
    assert after.json["keys"][0]["retired_at"] is None
    assert after.json["keys"][0]["current"] and after.json["keys"][0]["key_id"] != old["key_id"]


def test_the_private_key_is_in_no_answer_and_no_log(
    client: FlaskClient, http_services: Services, caplog: pytest.LogCaptureFixture
) -> None:
    path = keyring_path(http_services)
    secrets = secrets_of(path)
    bodies: list[str] = []
    with caplog.at_level(logging.DEBUG):
        game_id, tokens = new_game(client)
        game = f"/api/v1/games/{game_id}"
        for url, token in [
            (KEYS, ""),
            (game, tokens[0]),
            (f"{game}/legal-moves", tokens[0]),
            (f"{game}/events", ""),
            (f"{game}/record", ""),
            ("/api/v1/openapi.json", ""),
            ("/api/v1/health", ""),
            ("/api/v1/games", ""),
            ("/api/v1/keys/nothing", ""),
        ]:
            answer = client.get(url, headers=bearer(token) if token else {})
            bodies.append(answer.get_data(as_text=True) + str(answer.headers))
        answer = client.post(f"{game}/moves", json={"move": {}}, headers=bearer(tokens[0]))
        bodies.append(answer.get_data(as_text=True) + str(answer.headers))
        http_services.keys.sign(b"x")
        http_services.keys.rotate()
        logging.getLogger("gameledger").info("services: %r", http_services.keys)
    new_secrets = secrets_of(path)
    text = "\n".join(bodies) + caplog.text + repr(http_services.keys.keyring())
    for secret in secrets + new_secrets:
        assert secret not in text


def test_the_cli_shows_and_rotates_the_keys(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shown = run(["keys", "show", "--json"], tmp_path, data)
    assert shown.returncode == 0, shown.stderr
    (first,) = json.loads(shown.stdout)["keys"]
    keyring = data / "gameledger-signing-keys.json"
    assert first["key_id"] == Keyring.from_json(json.loads(keyring.read_text())).key_id
    assert run(["keys", "show", "--json"], tmp_path, data).stdout == shown.stdout
    rotated = run(["keys", "rotate"], tmp_path, data)
    assert rotated.returncode == 0, rotated.stderr
    assert json.loads(rotated.stdout)["retired"] == first["key_id"]
    new = json.loads(rotated.stdout)["current"]
    lines = run(["keys", "show"], tmp_path, data)
    assert lines.returncode == 0, lines.stderr
    rows = [line.split("  ") for line in lines.stdout.splitlines()]
    published = json.loads(run(["keys", "show", "--json"], tmp_path, data).stdout)["keys"]
    retired_at = published[1]["retired_at"]
    assert published[0]["retired_at"] is None and retired_at is not None
    assert [(r[0], r[1], r[-1]) for r in rows] == [
        (new, "Ed25519", "current"),
        (first["key_id"], "Ed25519", f"retired {retired_at}"),
    ]
    assert rows[1][2] == first["public_key"]
    for secret in secrets_of(keyring):
        for output in (shown, rotated, lines):
            assert secret not in output.stdout + output.stderr


def test_the_cli_refuses_what_it_cannot_do(tmp_path: Path) -> None:
    missing = run(
        ["keys", "show"], tmp_path, None, GAMELEDGER_SIGNING_KEYRING=str(tmp_path / "no.json")
    )
    assert missing.returncode == 2 and "there is no signing keyring" in missing.stderr
    memory = run(["keys", "rotate"], tmp_path, tmp_path, GAMELEDGER_STORE="memory")
    assert memory.returncode == 2 and "memory store" in memory.stderr
    secret = "A" * 43
    fixed = run(["keys", "rotate"], tmp_path, tmp_path, GAMELEDGER_SIGNING_KEY=secret)
    assert fixed.returncode == 2 and "rotate the secret itself" in fixed.stderr
    assert secret not in fixed.stderr
    # the secret in its one spelling: unpadded, as documented (docs/operations.md)
    padded = run(["keys", "show"], tmp_path, tmp_path, GAMELEDGER_SIGNING_KEY=f"{secret}=")
    assert padded.returncode == 2 and secret not in padded.stderr
    assert "GAMELEDGER_SIGNING_KEY is not 32 bytes in unpadded base64url" in padded.stderr
    assert run(["keys", "show"], tmp_path, tmp_path, GAMELEDGER_SIGNING_KEY=secret).returncode == 0
