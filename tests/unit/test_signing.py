"""The service signing key's pure parts (application/signing.py; docs/audit.md, "Service
signing key"): the key id, signing and verifying, rotation, the keyring's serialisation."""

from __future__ import annotations

import hashlib

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)

from application.signing import Keyring, KeyringError, b64url, from_b64url, key_id

# RFC 8032, section 7.1, TEST 1: the secret key, its public key and its signature of "".
RFC_SECRET = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
RFC_PUBLIC = bytes.fromhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
RFC_SIGNATURE = bytes.fromhex(
    "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
)


def seed(keyring: Keyring) -> str:
    return b64url(keyring.private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption()))


def test_the_key_id_is_the_start_of_the_sha256_of_the_raw_public_key() -> None:
    keyring = Keyring.from_secret(b64url(RFC_SECRET))
    assert keyring.current.public_raw == RFC_PUBLIC
    assert keyring.key_id == hashlib.sha256(RFC_PUBLIC).hexdigest()[:16] == key_id(RFC_PUBLIC)
    assert len(keyring.key_id) == 16


def test_signatures_are_rfc_8032_ed25519() -> None:
    keyring = Keyring.from_secret(b64url(RFC_SECRET))
    assert keyring.sign(b"") == (keyring.key_id, RFC_SIGNATURE)
    assert keyring.verify(keyring.key_id, b"", RFC_SIGNATURE)
    assert not keyring.verify(keyring.key_id, b"x", RFC_SIGNATURE)
    assert not keyring.verify("0" * 16, b"", RFC_SIGNATURE)


def test_a_rotated_keyring_still_verifies_what_the_old_key_signed() -> None:
    first = Keyring.generate()
    old_id, signature = first.sign(b"checkpoint")
    second = first.rotated().rotated()
    assert second.key_id not in (old_id, first.rotated().key_id)
    assert second.verify(old_id, b"checkpoint", signature)
    assert [k["current"] for k in second.public_keys()] == [True, False, False]
    assert second.public_keys()[2]["key_id"] == old_id
    assert all(k.retired_at for k in second.retired)
    new_id, new_signature = second.sign(b"checkpoint")
    assert new_id == second.key_id and not second.verify(old_id, b"checkpoint", new_signature)


def test_the_published_keys_are_raw_base64url() -> None:
    keyring = Keyring.generate().rotated()
    for published, key in zip(keyring.public_keys(), keyring.keys(), strict=True):
        assert set(published) == {
            "key_id",
            "algorithm",
            "public_key",
            "current",
            "created_at",
            "retired_at",
        }
        assert published["retired_at"] == key.retired_at
        assert (published["retired_at"] is None) == published["current"]
        assert published["algorithm"] == "Ed25519"
        assert from_b64url(published["public_key"], "key") == key.public_raw
        assert "=" not in published["public_key"] and len(published["public_key"]) == 43
    current = keyring.private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    assert keyring.public_keys()[0]["public_key"] == b64url(current)


def test_the_keyring_round_trips_through_json() -> None:
    keyring = Keyring.generate().rotated()
    again = Keyring.from_json(keyring.to_json())
    assert again.public_keys() == keyring.public_keys()
    assert again.retired == keyring.retired
    key, signature = again.sign(b"data")
    assert keyring.verify(key, b"data", signature)


@pytest.mark.parametrize(
    "value",
    [
        None,
        [],
        {"format": "other"},
        {"format": "gameledger-keyring/1"},
        {
            "format": "gameledger-keyring/1",
            "current": {"private_key": "!!", "created_at": "x"},
            "retired": [],
        },
        {
            "format": "gameledger-keyring/1",
            "current": {"private_key": "AAAA", "created_at": "x"},
            "retired": [],
        },
    ],
)
def test_a_bad_keyring_is_refused(value: object) -> None:
    with pytest.raises(KeyringError):
        Keyring.from_json(value)


def test_a_bad_secret_is_refused_without_quoting_it() -> None:
    secret = b64url(RFC_SECRET)[:-2]
    with pytest.raises(KeyringError) as error:
        Keyring.from_secret(secret)
    assert secret not in str(error.value)


RFC_SECRET_TEXT = "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"


@pytest.mark.parametrize(
    "secret",
    [
        RFC_SECRET_TEXT + "=",  # padded: the docs say unpadded, one spelling
        RFC_SECRET_TEXT + "==",
        RFC_SECRET_TEXT[:20] + "!" + RFC_SECRET_TEXT[20:],  # outside the alphabet
        RFC_SECRET_TEXT[:-1] + "B",  # the same 32 bytes with a spare bit set
        RFC_SECRET_TEXT.replace("_", "/"),  # base64, not base64url
    ],
    ids=["padded", "padded twice", "outside the alphabet", "spare bits", "not url"],
)
def test_a_key_or_secret_is_read_in_one_spelling_only(secret: str) -> None:
    """``GAMELEDGER_SIGNING_KEY``, a keyring file and a pinned key accept exactly the unpadded
    base64url of their 32 bytes, as a player's key (domain/move_signatures.py)."""
    assert b64url(RFC_SECRET) == RFC_SECRET_TEXT
    with pytest.raises(KeyringError, match="unpadded base64url") as error:
        Keyring.from_secret(secret)
    assert secret not in str(error.value)
    with pytest.raises(KeyringError, match="unpadded base64url"):
        from_b64url(secret, "the key")
    assert Keyring.from_secret(b64url(RFC_SECRET) + "\n").key_id == key_id(RFC_PUBLIC)


def test_the_private_key_is_not_in_the_repr_or_the_published_keys() -> None:
    keyring = Keyring.from_secret(
        b64url(
            Ed25519PrivateKey.generate().private_bytes(
                Encoding.Raw, PrivateFormat.Raw, NoEncryption()
            )
        )
    )
    secret = seed(keyring)
    assert secret not in repr(keyring)
    assert secret not in str(keyring.public_keys())
    assert secret in str(keyring.to_json())  # only the keyring file holds it
