"""The service signing key (docs/audit.md, "Service signing key"; issue 14, part 1): an
Ed25519 key that signs what the service vouches for, the retired keys whose public halves
stay published, and their serialisation. No I/O: :mod:`infrastructure.signing_keys` keeps
the keyring in a file or reads it from a secret.

Decisions (docs/audit.md):

* a key's id is the first 16 hex digits of the SHA-256 of its raw 32-byte public key;
* a public key is written as the unpadded base64url of those 32 bytes (RFC 8037's ``x``);
* the keyring is one JSON object: the current private key (its raw 32-byte seed, base64url)
  with its creation time, and every retired key's public half with its creation and
  retirement times. Only the keyring file holds the private key: it is never part of a
  record, a view, a log line, an error message or a ``repr``."""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final, TypedDict

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)

from domain import ed25519_keys
from domain.move_signatures import decode_b64url

ALGORITHM: Final = "Ed25519"
KEYRING_FORMAT: Final = "gameledger-keyring/1"
KEY_BYTES: Final = 32


class KeyringError(ValueError):
    """A keyring or key that cannot be used; the message never quotes the key material."""


class PublicKeyDocument(TypedDict):
    """One public key as ``GET /api/v1/keys`` and ``gameledger keys show`` print it."""

    key_id: str
    algorithm: str
    public_key: str
    current: bool
    created_at: str
    retired_at: str | None


def b64url(raw: bytes) -> str:
    """Unpadded base64url (RFC 4648 section 5, as RFC 8037 writes Ed25519 keys)."""
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def from_b64url(text: object, what: str) -> bytes:
    """The 32 bytes ``text`` encodes in unpadded base64url, read as strictly as a player's key
    (:func:`domain.move_signatures.decode_b64url`: one spelling, no padding, no character
    outside the alphabet); else :class:`KeyringError`."""
    raw = decode_b64url(text, KEY_BYTES)
    if raw is None:
        raise KeyringError(
            f"{what} is not {KEY_BYTES} bytes in unpadded base64url (43 characters of "
            "A-Z a-z 0-9 - _, no '=')"
        )
    return raw


def key_id(public_raw: bytes) -> str:
    """A key's id: the first 16 hex digits of the SHA-256 of its raw public key."""
    return hashlib.sha256(public_raw).hexdigest()[:16]


def now() -> str:
    """The current UTC time, ISO 8601 to the second."""
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@dataclass(frozen=True)
class PublicKey:
    """A public key with its id and dates (retired: ``retired_at`` set)."""

    public_raw: bytes
    created_at: str
    retired_at: str | None = None

    @property
    def key_id(self) -> str:
        """See :func:`key_id`."""
        return key_id(self.public_raw)

    def verify(self, data: bytes, signature: bytes) -> bool:
        """Whether ``signature`` is this key's Ed25519 signature of ``data``, by the rules a
        player's signature is checked by (:func:`domain.ed25519_keys.verify`: never under a
        key of small order, nor with an R of small order)."""
        return ed25519_keys.verify(self.public_raw, signature, data)


@dataclass(frozen=True)
class Keyring:
    """The current private key and the retired public keys (newest first)."""

    private: Ed25519PrivateKey = field(repr=False)
    created_at: str
    retired: tuple[PublicKey, ...] = ()

    @classmethod
    def generate(cls) -> Keyring:
        """A keyring with one new key."""
        return cls(Ed25519PrivateKey.generate(), now())

    @property
    def current(self) -> PublicKey:
        """The public half of the current key."""
        raw = self.private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        return PublicKey(raw, self.created_at)

    @property
    def key_id(self) -> str:
        """The current key's id."""
        return self.current.key_id

    def keys(self) -> tuple[PublicKey, ...]:
        """Every public key, the current one first."""
        return (self.current, *self.retired)

    def sign(self, data: bytes) -> tuple[str, bytes]:
        """The current key's id and its Ed25519 signature of ``data``."""
        return self.key_id, self.private.sign(data)

    def verify(self, key: str, data: bytes, signature: bytes) -> bool:
        """Whether ``signature`` is the signature of ``data`` by the key ``key`` (current or
        retired); an unknown key id is ``False``."""
        found = next((k for k in self.keys() if k.key_id == key), None)
        return found is not None and found.verify(data, signature)

    def rotated(self) -> Keyring:
        """A new current key; the old one's public half is kept, retired now."""
        old = self.current
        retired = PublicKey(old.public_raw, old.created_at, now())
        return Keyring(Ed25519PrivateKey.generate(), now(), (retired, *self.retired))

    def public_keys(self) -> list[PublicKeyDocument]:
        """Every public key as published (``GET /api/v1/keys``), the current one first, each
        with its ``retired_at`` (``None`` for the current key): a verifier who pins the list
        refuses what a key signed after its retirement (docs/audit.md, "The key policy")."""
        current = self.key_id
        return [
            {
                "key_id": k.key_id,
                "algorithm": ALGORITHM,
                "public_key": b64url(k.public_raw),
                "current": k.key_id == current,
                "created_at": k.created_at,
                "retired_at": k.retired_at,
            }
            for k in self.keys()
        ]

    def to_json(self) -> dict[str, Any]:
        """The keyring as stored (holds the private key: only for the keyring file)."""
        seed = self.private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
        return {
            "format": KEYRING_FORMAT,
            "current": {"private_key": b64url(seed), "created_at": self.created_at},
            "retired": [
                {
                    "key_id": k.key_id,
                    "public_key": b64url(k.public_raw),
                    "created_at": k.created_at,
                    "retired_at": k.retired_at,
                }
                for k in self.retired
            ],
        }

    @classmethod
    def from_json(cls, value: object) -> Keyring:
        """The keyring :meth:`to_json` wrote; :class:`KeyringError` for anything else."""
        try:
            if not isinstance(value, dict) or value.get("format") != KEYRING_FORMAT:
                raise KeyringError(f"not a {KEYRING_FORMAT} keyring")
            current = value["current"]
            private = Ed25519PrivateKey.from_private_bytes(
                from_b64url(current["private_key"], "the private key")
            )
            retired = tuple(
                PublicKey(
                    from_b64url(k["public_key"], "a retired public key"),
                    str(k["created_at"]),
                    str(k["retired_at"]),
                )
                for k in value["retired"]
            )
            return cls(private, str(current["created_at"]), retired)
        except (KeyError, TypeError, AttributeError):
            raise KeyringError(f"not a {KEYRING_FORMAT} keyring") from None

    @classmethod
    def from_secret(cls, secret: str) -> Keyring:
        """A keyring of one key given as its raw 32-byte private key, base64url (the
        ``GAMELEDGER_SIGNING_KEY`` secret); its creation time is unknown (the epoch)."""
        raw = from_b64url(secret.strip(), "GAMELEDGER_SIGNING_KEY")
        return cls(Ed25519PrivateKey.from_private_bytes(raw), "1970-01-01T00:00:00Z")
