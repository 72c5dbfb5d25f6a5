"""Where the service signing key lives (infrastructure/signing_keys.py; docs/operations.md,
"Signing key"): generated once beside the embedded store, mode 0600, by exactly one of several
processes starting at once; read from a configured keyring or a secret; rotated with the old
public keys kept, and seen by a running service."""

from __future__ import annotations

import json
import multiprocessing
import stat
from pathlib import Path
from typing import Any

import pytest

from application.signing import Keyring, b64url
from infrastructure.config import ConfigurationError, Settings
from infrastructure.container import build_services
from infrastructure.signing_keys import KeyService, SigningSettings, default_keyring


def sqlite(tmp_path: Path) -> Settings:
    return Settings(store="sqlite", sqlite_path=tmp_path / "data" / "games.db")


def test_the_embedded_store_generates_its_key_beside_it_private(tmp_path: Path) -> None:
    settings = sqlite(tmp_path)
    signing = SigningSettings.from_env(settings, {})
    assert signing.keyring == tmp_path / "data" / "games-signing-keys.json"
    service = KeyService(signing)
    path = default_keyring(settings)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert KeyService(signing).public_keys() == service.public_keys()
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".")]


def test_the_services_sign_with_the_key_of_their_data_directory(tmp_path: Path) -> None:
    settings = sqlite(tmp_path)
    services = build_services(settings)
    try:
        key, signature = services.keys.sign(b"head")
        assert KeyService(SigningSettings.from_env(settings, {})).verify(key, b"head", signature)
    finally:
        services.close()


def _start(folder: str, found: multiprocessing.Queue[str], ready: Any) -> None:
    """A process starting the service once all are ready: its current key id."""
    ready.wait(timeout=60)
    settings = Settings(store="sqlite", sqlite_path=Path(folder) / "games.db")
    found.put(KeyService(SigningSettings.from_env(settings, {})).keyring().key_id)


def test_processes_starting_at_once_end_with_one_key(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    found: multiprocessing.Queue[str] = context.Queue()
    ready = context.Barrier(6)
    processes = [
        context.Process(target=_start, args=(str(tmp_path), found, ready)) for _ in range(6)
    ]
    for process in processes:
        process.start()
    ids = {found.get(timeout=60) for _ in processes}
    for process in processes:
        process.join(timeout=60)
        assert process.exitcode == 0
    assert len(ids) == 1
    assert ids == {
        Keyring.from_json(json.loads((tmp_path / "games-signing-keys.json").read_text())).key_id
    }


def test_a_rotation_keeps_the_old_public_key_and_reaches_a_running_service(tmp_path: Path) -> None:
    signing = SigningSettings.from_env(sqlite(tmp_path), {})
    running, operator = KeyService(signing), KeyService(signing)
    old, signature = running.sign(b"game")
    operator.rotate()
    keys = running.public_keys()
    assert [k["current"] for k in keys] == [True, False]
    assert keys[1]["key_id"] == old and keys[0]["key_id"] != old
    assert running.sign(b"game")[0] == keys[0]["key_id"]
    assert running.verify(old, b"game", signature)
    assert stat.S_IMODE(default_keyring(sqlite(tmp_path)).stat().st_mode) == 0o600


def test_a_configured_keyring_must_exist(tmp_path: Path) -> None:
    path = tmp_path / "missing.json"
    signing = SigningSettings.from_env(sqlite(tmp_path), {"GAMELEDGER_SIGNING_KEYRING": str(path)})
    with pytest.raises(ConfigurationError, match="there is no signing keyring"):
        KeyService(signing)
    assert not path.exists()


def test_a_configured_keyring_is_used(tmp_path: Path) -> None:
    keyring = Keyring.generate().rotated()
    path = tmp_path / "keys.json"
    path.write_text(json.dumps(keyring.to_json()))
    env = {"GAMELEDGER_SIGNING_KEYRING": str(path)}
    service = KeyService(SigningSettings.from_env(sqlite(tmp_path), env))
    assert service.public_keys() == keyring.public_keys()
    assert not default_keyring(sqlite(tmp_path)).exists()


@pytest.mark.parametrize("configured", [False, True])
def test_a_keyring_file_that_disappears_keeps_its_keys(
    tmp_path: Path, configured: bool, caplog: pytest.LogCaptureFixture
) -> None:
    """A keyring file deleted under a running service: the keys it loaded stay in use (no
    new key nobody pinned, no error to clients) and the loss is logged."""
    settings = sqlite(tmp_path)
    path = tmp_path / "keys.json" if configured else default_keyring(settings)
    if configured:
        path.write_text(json.dumps(Keyring.generate().to_json()))
    env = {"GAMELEDGER_SIGNING_KEYRING": str(path)} if configured else {}
    service = KeyService(SigningSettings.from_env(settings, env))
    before = service.public_keys()
    path.unlink()
    with caplog.at_level("ERROR", logger="gameledger.signing"):
        assert service.public_keys() == before
        key_id, signature = service.sign(b"checkpoint")
    assert key_id == before[0]["key_id"] and service.verify(key_id, b"checkpoint", signature)
    assert not path.exists() and "is gone" in caplog.text


def test_a_secret_key_is_used_and_not_rotated_here(tmp_path: Path) -> None:
    keyring = Keyring.generate()
    secret = b64url(keyring.private.private_bytes_raw())
    service = KeyService(
        SigningSettings.from_env(sqlite(tmp_path), {"GAMELEDGER_SIGNING_KEY": secret})
    )
    assert service.keyring().key_id == keyring.key_id
    with pytest.raises(ConfigurationError, match="rotate the secret itself"):
        service.rotate()
    both = {"GAMELEDGER_SIGNING_KEY": secret, "GAMELEDGER_SIGNING_KEYRING": "x"}
    with pytest.raises(ConfigurationError, match="not both"):
        SigningSettings.from_env(sqlite(tmp_path), both)
    with pytest.raises(ConfigurationError) as error:
        KeyService(
            SigningSettings.from_env(sqlite(tmp_path), {"GAMELEDGER_SIGNING_KEY": secret[:20]})
        )
    assert secret[:20] not in str(error.value)


def test_a_damaged_keyring_is_named_not_quoted(tmp_path: Path) -> None:
    keyring = Keyring.generate().to_json()
    secret = keyring["current"]["private_key"]
    keyring["current"]["private_key"] = secret[:-4]
    path = tmp_path / "keys.json"
    path.write_text(json.dumps(keyring))
    with pytest.raises(ConfigurationError) as error:
        KeyService(SigningSettings(keyring=path, generate=False))
    assert str(path) in str(error.value) and secret[:-4] not in str(error.value)


def test_the_memory_store_has_a_key_of_its_own(tmp_path: Path) -> None:
    service = KeyService(SigningSettings.from_env(Settings(store="memory"), {}))
    old = service.keyring().key_id
    assert service.rotate().key_id != old
    assert [k["key_id"] for k in service.public_keys()][1] == old
