"""``gameledger keys show [--json]`` and ``gameledger keys rotate`` (docs/audit.md, "Service
signing key"; docs/operations.md, "Signing key"): the service's public keys, and a new current
key with the old one's public half kept. Both use the keyring the service would use
(:mod:`infrastructure.signing_keys`); ``show`` on the embedded store creates it, like a first
start would. Neither ever prints the private key."""

from __future__ import annotations

import argparse
import json

from infrastructure.config import ConfigurationError, Settings
from infrastructure.signing_keys import KeyService, SigningSettings


def add_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``keys`` command and its actions."""
    keys = commands.add_parser("keys", help="the service's signing keys")
    actions = keys.add_subparsers(required=True, metavar="ACTION")
    show = actions.add_parser("show", help="print the public keys, the current one first")
    show.add_argument("--json", action="store_true", help="print them as GET /api/v1/keys does")
    show.set_defaults(handler=show_keys)
    actions.add_parser(
        "rotate", help="make a new current key, keep the old public key"
    ).set_defaults(handler=rotate_keys)


def key_service() -> KeyService:
    """The keys of the configured store; the memory store has none that lasts."""
    settings = Settings.from_env()
    signing = SigningSettings.from_env(settings)
    if signing.secret is None and signing.keyring is None:
        raise ConfigurationError("the memory store keeps no signing key after the process ends")
    return KeyService(signing)


def show_keys(args: argparse.Namespace) -> int:
    """One line per key: id, algorithm, public key (base64url), creation time, ``current``
    or ``retired`` and its retirement time; ``--json``: ``{"keys": [...]}`` as the endpoint
    answers (with ``retired_at``)."""
    keys = key_service().public_keys()
    if args.json:
        print(json.dumps({"keys": keys}))
        return 0
    for key in keys:
        state = "current" if key["current"] else f"retired {key['retired_at']}"
        fields = (key["key_id"], key["algorithm"], key["public_key"], key["created_at"], state)
        print("  ".join(fields))
    return 0


def rotate_keys(_: argparse.Namespace) -> int:
    """Rotate, then print ``{"current": new id, "retired": old id}``."""
    service = key_service()
    old = service.keyring().key_id
    new = service.rotate().key_id
    print(json.dumps({"current": new, "retired": old}))
    return 0
