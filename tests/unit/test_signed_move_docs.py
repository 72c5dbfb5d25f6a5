"""docs/api.md, "Signed moves", cannot drift from what is tested (issue 14, part 5): every
Python and JavaScript block of the section is a verbatim part of the example files that the
e2e tests run (docs/examples/signed_move.py against gunicorn, docs/examples/signed-move.js in
Chromium), the section links both, and the worked example's key, bytes and signature are what
RFC 8032's first test key gives over the service's own definition of the message."""

from __future__ import annotations

import base64
import re
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from domain.move_signatures import check_move_signature, signed_move_message

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
RFC8032_KEY = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"
GAME = "337c9eee-8329-4be4-bfc2-824ff21dd080"
MOVE = {"type": "take", "source": 4, "colour": "B", "line": 3}


def section() -> str:
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    found = re.search(r"^## Signed moves\n(.*?)(?=^## )", text, re.S | re.M)
    assert found, "docs/api.md has no '## Signed moves' section"
    return found.group(1)


def blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", section(), re.S | re.M)


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def test_every_code_block_is_part_of_the_tested_example() -> None:
    python = (EXAMPLES / "signed_move.py").read_text(encoding="utf-8")
    script = (EXAMPLES / "signed-move.js").read_text(encoding="utf-8")
    assert len(blocks("python")) >= 3 and len(blocks("js")) >= 3
    for block in blocks("python"):
        assert block in python, block
    for block in blocks("js"):
        assert block in script, block
    assert "(examples/signed_move.py)" in section()
    assert "(examples/signed-move.js)" in section()


def test_the_worked_example_is_what_rfc_8032_s_first_key_gives() -> None:
    private = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(RFC8032_KEY))
    public = b64url(private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))
    message = signed_move_message(GAME, 4, MOVE)
    signature = b64url(private.sign(message))
    text = section()
    assert f'"public_key": "{public}"' in text
    assert f"\n{message.decode()}\n" in text
    assert f"signs these {len(message)} bytes" in text
    assert f'"signature": "{signature}"' in text
    check_move_signature(public, signature, game_id=GAME, version=4, move=MOVE)
