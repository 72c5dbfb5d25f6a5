"""The documented examples of signed moves, run as written against a real gunicorn (issue 14,
part 5; docs/api.md, "Signed moves"): docs/examples/signed-move.js in a real headless
Chromium (Web Crypto's Ed25519, driven by Playwright), and docs/examples/signed_move.py as a
process of its own. Each takes a seat with a key made there, signs a move, the service accepts
it, and the game's record verifies with that signature checked — by ``verify_record`` and by
``gameledger verify``, and by ``cryptography`` against the key the client made.

Chromium is Debian's package (``/usr/bin/chromium``, or ``GAMELEDGER_TEST_CHROMIUM``;
.ci/run installs it when CI is set). Without it these tests fail, saying so: they are never
skipped (docs/operations.md, "Tests")."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from playwright.sync_api import Browser, Page, sync_playwright

from application.service import GameLedger
from application.verification import verify_record
from domain.chain import canonical_json
from domain.move_signatures import signed_move_message
from tests.e2e.test_gunicorn import GUNICORN, running

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_JS = ROOT / "docs" / "examples" / "signed-move.js"
EXAMPLE_PY = ROOT / "docs" / "examples" / "signed_move.py"
CHROMIUM = Path(os.environ.get("GAMELEDGER_TEST_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
GAMELEDGER = Path(sys.executable).with_name("gameledger")


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The API root of gunicorn with the project's configuration, one worker."""
    command = [
        str(GUNICORN),
        "-c",
        "python:api.gunicorn_conf",
        "--workers",
        "1",
        "--bind",
        "127.0.0.1:{port}",
        "api.app:create_app()",
    ]
    with running(command, tmp_path_factory.mktemp("signed")) as (host, port):
        yield f"http://{host}:{port}/api/v1"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's headless Chromium, driven by Playwright (no browser download)."""
    if not CHROMIUM.is_file():
        pytest.fail(
            f"Chromium is missing at {CHROMIUM}: install it (apt-get install chromium; .ci/run "
            "does so when CI is set) or point GAMELEDGER_TEST_CHROMIUM at one. These tests run "
            "the documented Web Crypto example in a real browser and are never skipped."
        )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser, base: str) -> Iterator[Page]:
    """A page of the service's own origin (http://127.0.0.1 is a secure context, where Web
    Crypto is), with the documented example loaded exactly as the docs give it."""
    opened = browser.new_page()
    opened.goto(f"{base}/health")
    assert opened.evaluate("() => isSecureContext && !!crypto.subtle")
    opened.add_script_tag(path=str(EXAMPLE_JS))
    yield opened
    opened.close()


def call(method: str, url: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def problem(method: str, url: str, body: Any, token: str) -> dict[str, Any]:
    """A request the service refuses: its problem."""
    with pytest.raises(urllib.error.HTTPError) as refused:
        call(method, url, body, token)
    found: dict[str, Any] = json.load(refused.value)
    return found


def opponent(base: str, game_id: str) -> None:
    """The other seat, taken without a key once the client has taken seat 0; it moves
    (unsigned) whenever it is its turn, until the client has made a move."""
    for _ in range(200):
        if call("GET", f"{base}/games/{game_id}")["seats"][0]["joined"]:
            break
        time.sleep(0.05)
    token = call("POST", f"{base}/games/{game_id}/seats", {"name": "opponent", "seat": 1})["token"]
    for _ in range(200):
        view = call("GET", f"{base}/games/{game_id}")
        if view["moves"] > 0 and 1 not in view["current_players"]:
            made = call("GET", f"{base}/games/{game_id}/record")["moves"]
            if any(m["seat"] == 0 for m in made):
                return
        if view["current_players"] == [1]:
            legal = call("GET", f"{base}/games/{game_id}/legal-moves", token=token)
            body = {"move": legal["moves"][0]["move"], "expected_version": legal["version"]}
            call("POST", f"{base}/games/{game_id}/moves", body, token)
        time.sleep(0.05)


def checked_record(base: str, game_id: str, tmp_path: Path, client: dict[str, Any]) -> None:
    """The record holds the client's key and signature; ``cryptography`` verifies the
    signature against that key over the service's definition of the message; the record
    verifies, by ``verify_record`` and by ``gameledger verify``, with the signature checked."""
    record = call("GET", f"{base}/games/{game_id}/record")
    joined = next(e for e in record["events"] if e["type"] == "SeatJoined")
    assert joined["data"] == {"seat": 0, "name": "client", "public_key": client["public_key"]}
    made = next(e for e in record["events"] if e["type"] == "MoveMade" and e["data"]["seat"] == 0)
    assert made["data"]["signature"] == client["signature"]
    assert made["data"]["move"] == client["move"]
    assert made["version"] == client["played"]["version"] - client["played"]["events"] + 1
    raw_key = base64.urlsafe_b64decode(client["public_key"] + "=")
    raw_signature = base64.urlsafe_b64decode(client["signature"] + "==")
    message = signed_move_message(game_id, made["version"] - 1, made["data"]["move"])
    Ed25519PublicKey.from_public_bytes(raw_key).verify(raw_signature, message)
    report = verify_record(record)
    assert report.ok, report.discrepancy
    assert report.signatures_checked == 1
    saved = tmp_path / "signed.json"
    saved.write_text(json.dumps(record), encoding="utf-8")
    done = subprocess.run(
        [str(GAMELEDGER), "verify", str(saved)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 moves signed by their players (every signature checked)" in done.stdout


def test_the_javascript_example_signs_a_move_in_chromium(
    page: Page, base: str, tmp_path: Path
) -> None:
    game_id = call("POST", f"{base}/games", {"game": "azul", "players": 2})["id"]
    page.evaluate(
        """([base, gameId]) => {
            window.outcome = signedMoveExample(base, gameId, "client").then(
                (result) => ({ result }), (error) => ({ error: String(error) }));
        }""",
        [base, game_id],
    )
    other = threading.Thread(target=opponent, args=(base, game_id))
    other.start()
    outcome = page.evaluate("() => window.outcome")
    other.join(timeout=30)
    assert "error" not in outcome, outcome
    client = outcome["result"]
    assert client["seat"] == 0 and len(client["publicKey"]) == 43
    assert len(client["signature"]) == 86
    client["public_key"] = client.pop("publicKey")
    checked_record(base, game_id, tmp_path, client)

    # The service refuses a move the page signed with another key than the seat's.
    assert call("GET", f"{base}/games/{game_id}")["current_players"] == [0]
    legal = call("GET", f"{base}/games/{game_id}/legal-moves", token=client["token"])
    refused = page.evaluate(
        """async ([base, gameId, token, move, version]) => {
            const key = await newPlayerKey();  // not the seat's key
            const signature = await signMove(key.privateKey, gameId, version, move);
            const body = { move, expected_version: version, signature };
            try { await call("POST", `${base}/games/${gameId}/moves`, body, token); }
            catch (error) { return String(error); }
            return "accepted";
        }""",
        [base, game_id, client["token"], legal["moves"][0]["move"], legal["version"]],
    )
    assert refused.startswith("Error: 422 bad-signature"), refused


def test_the_javascript_canonical_json_is_pythons(page: Page) -> None:
    """``canonicalJson`` of the example against ``canonical_json`` (the service's): tricky
    strings and numbers, and real legal moves of every game."""
    values: list[Any] = [
        {"b": 1, "a": [True, False, None], "c": {}, "d": []},
        'Zoë 🎲 \u007f\u0001\u001f\n\t"\\/ \u2028',
        {"é": 1, "z": -2, "A": 2**53 - 1, "": 0},
        [[], [[]], {"x": {"y": {"z": "deep"}}}],
    ]
    app = GameLedger()
    for kind, players in (("azul", 2), ("carcassonne", 2), ("risk", 3)):
        game_id = app.create_game(kind, players, seed=f"canonical-{kind}")
        tokens = [app.join(game_id, f"p{n}", n).token for n in range(players)]
        _, acting = app.whose_turn(game_id)
        values += [m["move"] for m in app.legal_moves(game_id, tokens[acting[0]])["moves"][:20]]
    written = page.evaluate("(values) => values.map(canonicalJson)", values)
    assert written == [canonical_json(value).decode("ascii") for value in values]
    assert page.evaluate("() => { try { canonicalJson(1.5); } catch (e) { return 'refused'; } }")


def test_the_python_example_signs_a_move(base: str, tmp_path: Path) -> None:
    game_id = call("POST", f"{base}/games", {"game": "azul", "players": 2})["id"]
    example = subprocess.Popen(
        [sys.executable, str(EXAMPLE_PY), base, game_id, "client"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    opponent(base, game_id)
    stdout, stderr = example.communicate(timeout=60)
    assert example.returncode == 0, stderr
    client = json.loads(stdout)
    assert client["seat"] == 0 and client["played"]["version"] > 0
    checked_record(base, game_id, tmp_path, client)
