"""Where the service signing key lives (docs/audit.md, "Service signing key";
docs/operations.md, "Signing key"): read from ``GAMELEDGER_SIGNING_KEY`` (a secret: the raw
private key, base64url), else from a keyring file — ``GAMELEDGER_SIGNING_KEYRING``, else
``<stem>-signing-keys.json`` beside the SQLite store in the data directory, generated there
on first start. The memory store gets a key of its own that lives as long as the process.

A generated keyring is written to a private temporary file (mode 0600) and linked into
place, which fails when the file exists: of two processes starting at once, one key wins and
both use it. A rotation rewrites the file under an exclusive lock (``fcntl.flock`` on
``<file>.lock``) by an atomic rename; a running server notices the new file at its next use
(it compares the file's identity and modification time)."""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from threading import Lock

import orjson

from application.signing import Keyring, KeyringError, PublicKeyDocument
from infrastructure.config import ConfigurationError, Settings

LOG = logging.getLogger("gameledger.signing")

KEYRING_SUFFIX = "-signing-keys.json"


@dataclass(frozen=True)
class SigningSettings:
    """Where the key comes from: a secret, or a keyring file (``generate``: create it when
    missing; only the default file is generated, a configured one must exist)."""

    secret: str | None = None
    keyring: Path | None = None
    generate: bool = True

    @classmethod
    def from_env(
        cls, settings: Settings, environ: Mapping[str, str] | None = None
    ) -> SigningSettings:
        """``GAMELEDGER_SIGNING_KEY`` and ``GAMELEDGER_SIGNING_KEYRING`` (docs/operations.md)."""
        env = os.environ if environ is None else environ
        secret = env.get("GAMELEDGER_SIGNING_KEY", "").strip()
        configured = env.get("GAMELEDGER_SIGNING_KEYRING", "").strip()
        if secret and configured:
            raise ConfigurationError(
                "set GAMELEDGER_SIGNING_KEY or GAMELEDGER_SIGNING_KEYRING, not both"
            )
        if secret:
            return cls(secret=secret)
        if configured:
            return cls(keyring=Path(configured).expanduser(), generate=False)
        if settings.store == "memory":
            return cls()
        return cls(keyring=default_keyring(settings))


def default_keyring(settings: Settings) -> Path:
    """The keyring beside the SQLite store: ``<stem>-signing-keys.json``."""
    path = settings.sqlite_path
    return path.with_name(f"{path.stem}{KEYRING_SUFFIX}")


class KeyService:
    """The process's signing keys: :meth:`sign`, :meth:`verify`, :meth:`public_keys`,
    :meth:`rotate`. Safe to share between threads."""

    def __init__(self, signing: SigningSettings) -> None:
        self.signing = signing
        self._lock = Lock()
        self._stamp: tuple[int, int, int] | None = None
        self._keyring: Keyring | None = None
        if signing.secret is not None:
            try:
                self._keyring = Keyring.from_secret(signing.secret)
            except KeyringError as error:
                raise ConfigurationError(str(error)) from None
        elif signing.keyring is None:
            self._keyring = Keyring.generate()
        else:
            self.keyring()

    def __repr__(self) -> str:
        return f"KeyService(keyring={self.signing.keyring})"

    @property
    def path(self) -> Path | None:
        """The keyring file, if the keys live in one."""
        return None if self.signing.secret is not None else self.signing.keyring

    def keyring(self) -> Keyring:
        """The current keyring (read again when its file changed; made on first use of the
        default file; kept, and an error logged, if its file disappears later)."""
        path = self.path
        if path is None:
            assert self._keyring is not None
            return self._keyring
        with self._lock:
            stamp = _stamp(path)
            if stamp is None and self._keyring is not None:
                # The file went away under a running service: keep the keys it loaded (a new
                # key made now would sign with a key nobody pinned, and the old public keys
                # would be lost), and say so until the file is back.
                LOG.error("the signing keyring %s is gone: using the keys loaded before", path)
                return self._keyring
            if stamp is None:
                if not self.signing.generate:
                    raise ConfigurationError(
                        f"there is no signing keyring at {path} (GAMELEDGER_SIGNING_KEYRING; "
                        "docs/operations.md, 'Signing key')"
                    )
                create_keyring(path)
                stamp = _stamp(path)
            if stamp != self._stamp or self._keyring is None:
                self._keyring = read_keyring(path)
                self._stamp = stamp
            return self._keyring

    def sign(self, data: bytes) -> tuple[str, bytes]:
        """The current key's id and its signature of ``data``."""
        return self.keyring().sign(data)

    def verify(self, key_id: str, data: bytes, signature: bytes) -> bool:
        """Whether key ``key_id`` (current or retired) signed ``data``."""
        return self.keyring().verify(key_id, data, signature)

    def public_keys(self) -> list[PublicKeyDocument]:
        """Every public key, the current one first."""
        return self.keyring().public_keys()

    def rotate(self) -> Keyring:
        """Replace the current key by a new one, keeping the old public key; only for a
        keyring file (a secret is rotated by its owner)."""
        path = self.path
        if path is None:
            if self.signing.secret is not None:
                raise ConfigurationError(
                    "the signing key comes from GAMELEDGER_SIGNING_KEY: rotate the secret itself"
                )
            with self._lock:
                assert self._keyring is not None
                self._keyring = self._keyring.rotated()
                return self._keyring
        self.keyring()
        with _Exclusive(path):
            rotated = read_keyring(path).rotated()
            _write(path, rotated, replace=True)
        return self.keyring()


def _stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        found = path.stat()
    except FileNotFoundError:
        return None
    return found.st_ino, found.st_mtime_ns, found.st_size


def read_keyring(path: Path) -> Keyring:
    """The keyring in ``path``; a :class:`ConfigurationError` naming the file (never its
    content) when it cannot be read."""
    try:
        return Keyring.from_json(orjson.loads(path.read_bytes()))
    except (OSError, orjson.JSONDecodeError, KeyringError) as error:
        reason = error if isinstance(error, KeyringError) else type(error).__name__
        raise ConfigurationError(f"cannot use the signing keyring {path}: {reason}") from None


def create_keyring(path: Path) -> None:
    """Write a new keyring to ``path`` unless one is there (then it is kept)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    _write(path, Keyring.generate(), replace=False)


def _write(path: Path, keyring: Keyring, *, replace: bool) -> None:
    """Write ``keyring`` to a private temporary file beside ``path``, then rename it over
    ``path`` (``replace``) or link it there, failing quietly when ``path`` exists."""
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        os.fchmod(descriptor, 0o600)
        with os.fdopen(descriptor, "wb") as file:
            file.write(orjson.dumps(keyring.to_json(), option=orjson.OPT_INDENT_2))
            file.flush()
            os.fsync(file.fileno())
        if replace:
            os.replace(temporary, path)
        else:
            with contextlib.suppress(FileExistsError):
                os.link(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


class _Exclusive:
    """An exclusive ``flock`` on ``<path>.lock`` (one rotation at a time)."""

    def __init__(self, path: Path) -> None:
        self.path = path.with_name(f"{path.name}.lock")
        self.file: int | None = None

    def __enter__(self) -> None:
        self.file = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self.file, fcntl.LOCK_EX)

    def __exit__(self, *_: object) -> None:
        assert self.file is not None
        fcntl.flock(self.file, fcntl.LOCK_UN)
        os.close(self.file)
