"""``gameledger verify`` with pinned keys and a kept tree head, and ``gameledger verify-log``
(issue 14, part 4; docs/audit.md, "Verifying a record's checkpoint", "Checking that the log
only grew"), run as users run them: the real console script in a subprocess, the store's own
signing key (``gameledger keys show --json`` saved as the pinned keys file), a record
exported by ``gameledger export`` given the ``transparency`` field the service attaches
(tests/transparency.py, a real RFC 9162 tree). Exit statuses: 0 holds, 1 does not, 2 an
input that cannot be read."""

from __future__ import annotations

import json
import os
import random
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit
from uuid import UUID

import pytest

from application.records import export_record
from application.signing import Keyring, b64url
from infrastructure.config import Settings
from infrastructure.container import build_services
from infrastructure.signing_keys import KeyService, SigningSettings
from tests.application.test_verification import finished
from tests.e2e.test_cli import BIN
from tests.helpers import Table
from tests.transparency import Log, logged


def gameledger(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The console script with the test's environment (its store)."""
    return subprocess.run(
        [str(BIN), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=120,
        check=False,
    )


def write(path: Path, value: Any) -> str:
    """A JSON file; its path as a string."""
    path.write_text(json.dumps(value), encoding="utf-8")
    return str(path)


@dataclass
class Service:
    """A store with a finished game, its keys file and its log of checkpoints."""

    folder: Path
    game_id: UUID
    keys_file: str
    log: Log
    exported: dict[str, Any]

    def file(self, name: str, value: Any) -> str:
        """A file in the test's folder."""
        return write(self.folder / name, value)


@pytest.fixture
def service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Service:
    """A SQLite store with a finished game, exported and its keys saved by the real
    commands; the store's own keyring signs a log of several checkpoints, the game's among
    them."""
    monkeypatch.setenv("GAMELEDGER_STORE", "sqlite")
    monkeypatch.setenv("GAMELEDGER_SQLITE_PATH", str(tmp_path / "games.db"))
    services = build_services(Settings.from_env())
    game_id = finished(services.app, 3, "colored", seed="logged").game_id
    services.close()
    shown = gameledger("keys", "show", "--json")
    assert shown.returncode == 0, shown.stderr
    keys_file = write(tmp_path / "keys.json", json.loads(shown.stdout))
    exported = gameledger("export", str(game_id), "-o", str(tmp_path / "game.json"))
    assert exported.returncode == 0, exported.stderr
    record = json.loads((tmp_path / "game.json").read_text())
    keyring = KeyService(SigningSettings.from_env(Settings.from_env())).keyring()
    return Service(tmp_path, game_id, keys_file, Log(keyring), record)


@pytest.fixture
def record_file(service: Service) -> str:
    """The exported record with its ``transparency`` (entry 3 of a log of 6)."""
    return service.file("logged.json", logged(service.exported, service.log))


def test_verify_with_the_services_keys(service: Service, record_file: str) -> None:
    pinned = gameledger("verify", record_file, "--keys", service.keys_file)
    assert pinned.returncode == 0, pinned.stdout + pinned.stderr
    assert pinned.stdout.startswith(f"OK: game {service.game_id} (azul, 3 players)")
    key_id = service.log.keyring.key_id
    assert f"entry 3 of the tree of size 6 (root {service.log.head()['root_hash']}); " in (
        pinned.stdout
    )
    assert pinned.stdout.strip().endswith(f"signed by pinned key {key_id}.")

    public = b64url(service.log.keyring.current.public_raw)
    assert gameledger("verify", record_file, "--key", public).returncode == 0
    assert gameledger("verify", record_file, f"--key={public}").returncode == 0

    unpinned = gameledger("verify", record_file, "--json")
    assert unpinned.returncode == 0
    report = json.loads(unpinned.stdout)
    assert report["ok"] and report["transparency"]["pinned"] is False
    assert report["transparency"]["key_id"] == key_id and report["transparency"]["checked"]
    plain = gameledger("verify", "-", stdin=Path(record_file).read_text())
    assert "unpinned: the key came from the record itself" in plain.stdout


def test_a_key_may_begin_with_a_dash(service: Service) -> None:
    """Base64url has ``-`` in its alphabet: one key in 64 begins with it."""
    keyring = next(
        k for k in iter(Keyring.generate, None) if b64url(k.current.public_raw)[0] == "-"
    )
    public = b64url(keyring.current.public_raw)
    log = Log(keyring)
    path = service.file("dash.json", logged(service.exported, log))
    done = gameledger("verify", path, "--key", public, "--key", public[:-1])
    assert done.returncode == 2 and "argument --key: the key is not" in done.stderr
    done = gameledger("verify", path, "--json", "--key", public)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["transparency"]["pinned"] is True


def test_a_record_without_checkpoint(service: Service) -> None:
    path = service.file("plain.json", service.exported)
    plain = gameledger("verify", path, "--json")
    assert plain.returncode == 0 and json.loads(plain.stdout)["transparency"] is None
    assert (
        gameledger("verify", path)
        .stdout.strip()
        .endswith("No checkpoint (not in the service's log).")
    )
    pinned = gameledger("verify", path, "--keys", service.keys_file)
    assert pinned.returncode == 1
    assert pinned.stdout.startswith("INVALID: record: no checkpoint: the record has no ")


def test_the_forgery_from_outside(service: Service, record_file: str) -> None:
    """Issue 14's forgery: the seed of the finished game is public; another legal game from
    it under the same id verifies on its own, and is rejected by the checkpoint."""
    real = json.loads(Path(record_file).read_text())
    elsewhere = build_services(Settings(store="memory", embedded_projections=False))
    elsewhere.app.create_game("azul", 3, seed=real["seed"], game_id=service.game_id)
    tokens = [
        elsewhere.app.join(service.game_id, s["name"], s["seat"]).token for s in real["seats"]
    ]
    Table(elsewhere.app, service.game_id, tokens, bot=random.Random(99)).play_out()
    forged = export_record(elsewhere.app, service.game_id)
    elsewhere.close()
    assert forged["outcome"] != real["outcome"] or forged["moves"] != real["moves"]

    alone = gameledger("verify", service.file("forged.json", forged))
    assert alone.returncode == 0, alone.stdout  # what a record alone cannot show
    copied = service.file("copied.json", {**forged, "transparency": real["transparency"]})
    caught = gameledger("verify", copied)
    assert caught.returncode == 1
    assert caught.stdout.startswith("INVALID: record: transparency.checkpoint.")
    assert caught.stdout.strip().endswith("the service logged another history of this game")
    own = Log(Keyring.generate())
    signed = service.file("own.json", logged(forged, own))
    assert gameledger("verify", signed).returncode == 0  # unpinned: the forger's own key
    pinned = gameledger("verify", signed, "--keys", service.keys_file)
    assert pinned.returncode == 1
    assert pinned.stdout.strip() == (
        f"INVALID: record: the checkpoint is signed by key {own.keyring.key_id}, which is not a "
        f"pinned key (pinned: {service.log.keyring.key_id})"
    )


def test_verify_against_a_kept_tree_head(service: Service, record_file: str) -> None:
    kept = service.file("head.json", service.log.head())
    assert gameledger("verify", record_file, "--tree-head", kept).returncode == 0
    service.log.fill(3)
    later = service.file("later.json", service.log.head())
    advised = gameledger("verify", record_file, "--tree-head", later, "--keys", service.keys_file)
    assert advised.returncode == 1
    assert advised.stdout.strip() == (
        "INVALID: record: the record's inclusion proof is for tree size 6, the tree head given "
        f"is of size 9: export the record again with --tree-size 9 (or GET /api/v1/games/"
        f"{service.game_id}/record?tree_size=9)"
    )


def test_verify_refuses_unreadable_inputs(service: Service, record_file: str) -> None:
    missing = str(service.folder / "missing.json")
    cases = [
        (["--tree-head", missing], "cannot read a tree head from"),
        (["--tree-head", service.file("bad.json", {"size": 1})], "the tree head given.format"),
        (["--keys", missing], "cannot read the keys from"),
        (["--keys", service.file("nokeys.json", {"keys": []})], "must be a list of public keys"),
        (["--key", "not-a-key"], "argument --key: the key is not"),
    ]
    for extra, message in cases:
        done = gameledger("verify", record_file, *extra)
        assert done.returncode == 2, (extra, done.stdout, done.stderr)
        assert message in done.stderr, done.stderr
    assert gameledger("verify", missing).returncode == 2


# verify-log


@pytest.fixture
def heads(service: Service) -> tuple[str, str]:
    """OLD (size 5) and NEW (size 12) of the service's log, saved."""
    service.log.fill(5)
    old = service.file("old.json", service.log.head())
    service.log.fill(7)
    return old, service.file("new.json", service.log.head())


def test_verify_log_with_a_saved_proof(service: Service, heads: tuple[str, str]) -> None:
    proof = service.file("proof.json", service.log.consistency(5, 12))
    done = gameledger("verify-log", *heads, "--proof", proof, "--keys", service.keys_file)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("OK: the tree of size 5 (root ")
    assert "the log only grew; signatures checked against pinned key(s)" in done.stdout
    unpinned = gameledger("verify-log", *heads, "--proof", proof, "--json")
    assert unpinned.returncode == 0
    report = json.loads(unpinned.stdout)
    assert report["ok"] and not report["signatures_checked"] and report["old_size"] == 5


def test_verify_log_catches_a_rewritten_log(service: Service, heads: tuple[str, str]) -> None:
    rewritten = Log(service.log.keyring)
    for index, (checkpoint, _) in enumerate(service.log.entries):
        rewritten.append({**checkpoint, "version": 1} if index == 2 else checkpoint)
    new = service.file("rewritten.json", rewritten.head())
    proof = service.file("proof.json", {**rewritten.consistency(5, 12), "first_head": None})
    done = gameledger("verify-log", heads[0], new, "--proof", proof, "--keys", service.keys_file)
    assert done.returncode == 1
    assert done.stdout.startswith(
        "INVALID: the log was rewritten: the tree of size 5 is not a prefix of the tree of size 12"
    )


def test_verify_log_refuses_a_head_signed_by_another_key(
    service: Service, heads: tuple[str, str]
) -> None:
    proof = service.file("proof.json", service.log.consistency(5, 12))
    other = b64url(Keyring.generate().current.public_raw)
    done = gameledger("verify-log", *heads, "--proof", proof, "--key", other)
    assert done.returncode == 1
    assert "OLD (the tree head of size 5) is signed by key" in done.stdout
    assert "which is not a pinned key" in done.stdout
    forged = json.loads(Path(heads[1]).read_text())
    forged["root_hash"] = "00" * 32
    bad = service.file("forged.json", forged)
    done = gameledger("verify-log", heads[0], bad, "--proof", proof, "--keys", service.keys_file)
    assert done.returncode == 1
    assert "NEW (the tree head of size 12): the signature does not verify" in done.stdout


def test_verify_log_refuses_heads_in_the_wrong_order(heads: tuple[str, str]) -> None:
    """Refused before any proof is looked for (the store has none to give)."""
    done = gameledger("verify-log", heads[1], heads[0])
    assert done.returncode == 1, done.stderr
    assert done.stdout.strip() == (
        "INVALID: OLD is of size 12, larger than NEW (size 5): a log only grows (or the two were "
        "given in the wrong order)"
    )


def test_verify_log_unreadable_inputs(service: Service, heads: tuple[str, str]) -> None:
    proof = service.file("proof.json", service.log.consistency(5, 12))
    (service.folder / "text.json").write_text("not json")
    missing, text = str(service.folder / "missing.json"), str(service.folder / "text.json")
    other_sizes = service.file("p.json", service.log.consistency(4, 12))
    cases = [
        ([missing, heads[1], "--proof", proof], "cannot read the tree head OLD"),
        ([heads[0], text, "--proof", proof], "cannot read the tree head NEW"),
        ([heads[0], service.file("x.json", {"format": "x"}), "--proof", proof], "NEW.format"),
        ([*heads, "--proof", other_sizes], "the consistency proof is from size 4 to 12"),
        ([*heads, "--proof", service.file("q.json", {"first": 5})], "proof.second is missing"),
        ([*heads], "the configured store cannot prove it: The log has no signed tree head of"),
        ([*heads, "--server", "ftp://example"], "--server must be an http:// or https:// URL"),
    ]
    for args, message in cases:
        done = gameledger("verify-log", *args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert message in done.stderr, done.stderr


class _Proofs(BaseHTTPRequestHandler):
    """``GET /api/v1/log/proofs/consistency`` of a test log, as the service answers it."""

    log: Log

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        query = {k: int(v[0]) for k, v in parse_qs(url.query).items()}
        size = len(self.log.tree)
        if url.path != "/api/v1/log/proofs/consistency" or query.get("second", 0) > size:
            problem = {
                "type": "about:blank",
                "title": "Not Found",
                "status": 404,
                "code": "tree-head-not-found",
                "detail": "No signed tree head of that size.",
            }
            self._answer(404, problem, "application/problem+json")
            return
        self._answer(200, self.log.consistency(query["first"], query["second"]), "application/json")

    def _answer(self, status: int, body: Any, kind: str) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *_: Any) -> None:
        """Quiet."""


@pytest.fixture
def server(service: Service) -> Iterator[str]:
    """A local server answering consistency proofs of the service's log (the service's own
    log API is issue 14 part 3, served elsewhere; this answers in its format)."""
    handler = type("Proofs", (_Proofs,), {"log": service.log})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_verify_log_asks_a_server(service: Service, heads: tuple[str, str], server: str) -> None:
    done = gameledger("verify-log", *heads, "--server", server, "--keys", service.keys_file)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("OK: the tree of size 5")
    service.log.fill(1)
    bigger = service.file("bigger.json", {**json.loads(Path(heads[1]).read_text()), "size": 20})
    missing = gameledger("verify-log", heads[0], bigger, "--server", server)
    assert missing.returncode == 2
    assert "answered 404: tree-head-not-found: No signed tree head of that size." in missing.stderr
