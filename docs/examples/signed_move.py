"""Signed moves from Python, with the ``cryptography`` package (docs/api.md, "Signed moves").

A seat that joins with a public key must sign every move it sends: Ed25519 over the canonical
JSON of {"game": <game id>, "version": <the version the move was decided on>, "move": <the
move's JSON, exactly as GET .../legal-moves lists it>}; keys and signatures are unpadded
base64url. Only the standard library and ``cryptography`` are used.

    python signed_move.py http://127.0.0.1:8000/api/v1 GAME_ID NAME

takes a seat of the game with a new key, waits for its turn, signs and sends the first legal
move, and prints what happened as one line of JSON. tests/e2e/test_signed_moves_browser.py
runs this very file against a real server.
"""

from __future__ import annotations

import base64
import json
import sys
import time
import urllib.error
import urllib.request
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def canonical_json(value: Any) -> bytes:
    """The canonical bytes: keys sorted, no spaces, ASCII only."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def b64url(raw: bytes) -> str:
    """Unpadded base64url (RFC 4648, section 5)."""
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def public_key_of(private_key: Ed25519PrivateKey) -> str:
    """The public key as a join sends it: its raw 32 bytes, unpadded base64url."""
    return b64url(private_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))


def sign_move(private_key: Ed25519PrivateKey, game_id: str, version: int, move: Any) -> str:
    """The signature to send with ``move``, decided on ``version`` of the game."""
    message = canonical_json({"game": game_id, "version": version, "move": move})
    return b64url(private_key.sign(message))


def call(method: str, url: str, body: Any = None, token: str | None = None) -> Any:
    """One request; the answer's JSON (a problem raises, with its code and detail)."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as error:
        problem = json.load(error)
        raise RuntimeError(f"{error.code} {problem['code']}: {problem['detail']}") from None


def signed_move_example(base: str, game_id: str, name: str) -> dict[str, Any]:
    """Make a key, take a seat with it, then sign and send the seat's first legal move once
    it is the seat's turn."""
    private_key = Ed25519PrivateKey.generate()  # keep it for the whole game
    seat = call(
        "POST",
        f"{base}/games/{game_id}/seats",
        {"name": name, "public_key": public_key_of(private_key)},
    )
    legal = call("GET", f"{base}/games/{game_id}/legal-moves", token=seat["token"])
    for _ in range(100):
        if legal["moves"]:
            break
        time.sleep(0.1)  # not our turn yet
        legal = call("GET", f"{base}/games/{game_id}/legal-moves", token=seat["token"])
    move = legal["moves"][0]["move"]  # the move exactly as listed: that is what is signed
    signature = sign_move(private_key, game_id, legal["version"], move)
    played = call(
        "POST",
        f"{base}/games/{game_id}/moves",
        {"move": move, "expected_version": legal["version"], "signature": signature},
        token=seat["token"],
    )
    return {
        "seat": seat["seat"],
        "token": seat["token"],
        "public_key": public_key_of(private_key),
        "move": move,
        "signature": signature,
        "played": played,
    }


if __name__ == "__main__":
    print(json.dumps(signed_move_example(*sys.argv[1:4])))
