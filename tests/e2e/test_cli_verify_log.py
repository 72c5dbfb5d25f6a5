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
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from application.signing import Keyring, b64url
from infrastructure.config import Settings
from infrastructure.container import build_services
from infrastructure.signing_keys import KeyService, SigningSettings
from infrastructure.tlog_tables import HEADS
from tests.application.test_verification import finished
from tests.e2e.outside import environment, on_the_log, serving
from tests.e2e.test_cli import BIN
from tests.transparency import AT, ROTATED, Log, forge, logged


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


def read(path: str) -> Any:
    return json.loads(Path(path).read_text(encoding="utf-8"))


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
    assert "is in the log whose head the record carries, entry 3" in plain.stdout
    assert f"unpinned: signed by key {key_id}, which came from the record itself" in plain.stdout
    assert "the service's log" not in plain.stdout


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
    assert pinned.stdout.startswith(
        "INVALID: record: no checkpoint: the record carries no checkpoint (transparency is null)"
    )


def test_the_forgery_from_outside(service: Service, record_file: str) -> None:
    """Issue 14's forgery: the seed of the finished game is public; another legal game from
    it under the same id verifies on its own, and is rejected by the checkpoint."""
    real = json.loads(Path(record_file).read_text())
    forged = forge(real, bot_seed=99)
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
        f"pinned key (pinned: {service.log.keyring.key_id}); {ROTATED}"
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


IDENTITY = "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
NOT_CANONICAL = "7f_______________________________________38"
"""y = p: not canonical (the spelling of y = 0, a point of order 4, plus p)."""


def test_a_tree_head_of_another_service_is_not_compared_unpinned(
    service: Service, record_file: str
) -> None:
    """The outside trial: ``verify rec.json --tree-head other.json``, the head from another
    service (another key), unpinned — said to be signed by another key, not "rewritten"."""
    other = Log(Keyring.generate())
    other.fill(6)
    head = service.file("other.json", other.head())
    done = gameledger("verify", record_file, "--tree-head", head)
    assert done.returncode == 1
    assert "rewritten" not in done.stdout
    assert done.stdout.strip() == (
        f"INVALID: record: the tree head given is signed by key {other.keyring.key_id}, the "
        f"record's tree head by key {service.log.keyring.key_id}: unpinned, heads signed by "
        "different keys cannot be compared (they may be two services' logs, or one service's "
        "before and after a key rotation): pin the service's keys with --key or --keys"
    )
    pinned = gameledger("verify", record_file, "--tree-head", head, "--keys", service.keys_file)
    assert pinned.returncode == 1
    assert pinned.stdout.startswith(
        f"INVALID: record: the tree head given is signed by key {other.keyring.key_id}, which "
        "is not a pinned key"
    )


def test_a_keys_file_with_retired_at_refuses_what_the_key_signed_later(
    service: Service, record_file: str
) -> None:
    keys = read(service.keys_file)
    assert keys["keys"][0]["retired_at"] is None  # the current key, as published
    keys["keys"][0]["retired_at"] = "2026-11-22T11:00:00Z"
    retired = service.file("retired.json", keys)
    done = gameledger("verify", record_file, "--keys", retired)
    assert done.returncode == 1
    assert done.stdout.strip() == (
        f"INVALID: record: the checkpoint is signed by key {service.log.keyring.key_id} at {AT}, "
        "after it was retired at 2026-11-22T11:00:00Z: the service signs nothing with a retired "
        "key, so whoever signed this holds a key that leaked"
    )


def test_verify_refuses_unreadable_inputs(service: Service, record_file: str) -> None:
    missing = str(service.folder / "missing.json")
    nokeys = service.file("nokeys.json", {"keys": []})
    good = read(service.keys_file)["keys"][0]
    public = good["public_key"]
    weak_file = service.file("weak.json", [good, {"public_key": IDENTITY}])
    cases = [
        (["--tree-head", missing], "cannot read a tree head from"),
        (["--tree-head", service.file("bad.json", {"size": 1})], "the tree head given.format"),
        (["--keys", missing], "cannot read the keys from"),
        (["--keys", nokeys], f"cannot read the keys from {nokeys}: no keys in {nokeys}"),
        (["--keys", service.file("list.json", {"keys": 1})], "must be a list of public keys"),
        (["--key", "not-a-key"], "argument --key: the key is not"),
        # the outside trial: weak keys pinned (small order, not canonical), a padded key
        (["--key", IDENTITY], "argument --key: the key is not an acceptable Ed25519 public key"),
        (["--key", "A" * 43], "it is a point of small order"),
        (["--key", NOT_CANONICAL], "it is not canonical"),
        (["--keys", weak_file], f"{weak_file}[1].public_key is not an acceptable Ed25519"),
        (["--key", f"{public}="], "argument --key: the key is not 32 bytes in unpadded base64url"),
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
    """The service's own head of OLD's size, signed by the pinned key, with another root: a
    signed proof of the rewriting. Without it, a proof that does not join the heads says only
    that: a proof file is unsigned."""
    rewritten = Log(service.log.keyring)
    for index, (checkpoint, _) in enumerate(service.log.entries):
        rewritten.append({**checkpoint, "version": 1} if index == 2 else checkpoint)
    new = service.file("rewritten.json", rewritten.head())
    signed = service.file("signed.json", rewritten.consistency(5, 12))
    done = gameledger("verify-log", heads[0], new, "--proof", signed, "--keys", service.keys_file)
    assert done.returncode == 1
    assert done.stdout.startswith(
        "INVALID: the log was rewritten: the service's tree head of size 5 (signed by pinned key "
    )
    proof = service.file("proof.json", {**rewritten.consistency(5, 12), "first_head": None})
    done = gameledger("verify-log", heads[0], new, "--proof", proof, "--keys", service.keys_file)
    assert done.returncode == 1
    assert done.stdout.strip() == (
        f"INVALID: the proof does not join the two heads (from {proof}: it proves nothing "
        "either way; fetch it from the service)"
    )


def test_verify_log_a_changed_proof_file_frames_nobody(
    service: Service, heads: tuple[str, str]
) -> None:
    """The outside trial: one hash of a genuine proof flipped (``cons-bad.json``), between two
    genuine pinned heads; and a proof file whose ``first_head`` was edited."""
    answer = service.log.consistency(5, 12)
    flipped = answer["proof"][0]
    answer["proof"][0] = ("1" if flipped[0] == "0" else "0") + flipped[1:]
    bad = service.file("cons-bad.json", answer)
    for pins in (["--keys", service.keys_file], []):
        done = gameledger("verify-log", *heads, "--proof", bad, *pins)
        assert done.returncode == 1, done.stderr
        assert done.stdout.strip() == (
            f"INVALID: the proof does not join the two heads (from {bad}: it proves nothing "
            "either way; fetch it from the service)"
        )
    edited = service.log.consistency(5, 12)
    edited["first_head"]["root_hash"] = "ab" * 32
    path = service.file("cons-edited.json", edited)
    for pins, why in (
        (["--keys", service.keys_file], "the signature does not verify under the pinned key"),
        ([], "unpinned, nothing tells whose head it is"),
    ):
        done = gameledger("verify-log", *heads, "--proof", path, *pins)
        assert done.returncode == 2, done.stdout
        assert "rewritten" not in done.stdout + done.stderr
        assert done.stderr.startswith("gameledger: cannot use the consistency proof: the answer's")
        assert why in done.stderr


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


def test_verify_log_asks_a_server(tmp_path: Path) -> None:
    """``--server``: the real service (gunicorn, on SQLite) answers the consistency proof
    between two of its heads a user kept; a size it has no head of is its 404 problem."""
    env = environment("sqlite", tmp_path, None)
    with serving(env, tmp_path) as service:
        keys = service.fetch("keys.json", "/keys")
        service.ended_entry(service.resigned_game())
        old = service.fetch("old.json", "/log/tree-head")
        service.ended_entry(service.resigned_game())
        new = service.fetch("new.json", "/log/tree-head")
        bigger = service.save("bigger.json", {**read(new), "size": 20})
        done, missing = service.gameledger_all(
            ("verify-log", old, new, "--server", service.url, "--keys", keys),
            ("verify-log", old, bigger, "--server", service.url),
        )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("OK: the tree of size 1 (root ")
    assert "is a prefix of the tree of size 2 (root " in done.stdout
    assert missing.returncode == 1, missing.stdout + missing.stderr
    assert missing.stdout.startswith(
        f"INVALID: the service at {service.url} answers that it has no signed tree head of size "
        "20, yet NEW (kept) is a tree head of that size, its signature not checked against a "
        "pinned key"
    )
    assert "rewritten" not in missing.stdout


def test_verify_log_when_the_server_lost_a_head_you_kept(tmp_path: Path) -> None:
    """A service that no longer has the signed head of a size someone kept (the operator
    dropped it, or rewrote the log past it without a head there) cannot show that its log
    still holds that tree: refused (exit 1), not taken for an unreadable input."""
    env = environment("sqlite", tmp_path, None)
    with serving(env, tmp_path) as service:
        keys = service.fetch("keys.json", "/keys")
        service.ended_entry(service.resigned_game())
        old = service.fetch("old.json", "/log/tree-head")
        service.ended_entry(service.resigned_game())
        new = service.fetch("new.json", "/log/tree-head")
        on_the_log(env, [f"DELETE FROM {HEADS} WHERE size = 1"])
        done = service.gameledger("verify-log", old, new, "--server", service.url, "--keys", keys)
    assert done.returncode == 1, done.stdout + done.stderr
    key_id = read(old)["key_id"]
    assert done.stdout.strip() == (
        f"INVALID: the service at {service.url} answers that it has no signed tree head of size "
        f"1, yet OLD (kept) is a tree head of that size, signed by pinned key {key_id} at "
        f"{read(old)['at']}: the service cannot show that its log still holds that tree (it "
        "dropped the head, or made its log again)"
    )


def test_verify_log_asks_the_service_that_signed_the_heads(tmp_path: Path) -> None:
    """The outside trial: ``--server WRONG_URL`` with pins. A server that does not publish
    the key that signed OLD (another service; not a GameLedger at all) is not the one to ask:
    exit 2, never "the log was rewritten" from its unauthenticated 404."""
    env = environment("sqlite", tmp_path, None)
    elsewhere = Log(Keyring.generate())
    elsewhere.fill(13)
    old = write(tmp_path / "else-old.json", elsewhere.head(12))
    new = write(tmp_path / "else-new.json", elsewhere.head(13))
    public = b64url(elsewhere.keyring.current.public_raw)
    with serving(env, tmp_path) as service:
        wrong, nowhere = service.gameledger_all(
            ("verify-log", old, new, "--server", service.url, "--key", public),
            ("verify-log", old, new, "--server", f"{service.url}/nothing", "--key", public),
        )
    assert wrong.returncode == 2, wrong.stdout + wrong.stderr
    assert wrong.stdout == "" and "rewritten" not in wrong.stderr
    assert wrong.stderr.strip() == (
        f"gameledger: {service.url} does not publish key {elsewhere.keyring.key_id} that signed "
        "OLD: not the service that signed it"
    )
    assert nowhere.returncode == 2, nowhere.stdout + nowhere.stderr
    assert nowhere.stderr.startswith(f"gameledger: {service.url}/nothing/api/v1/keys answered 404")
