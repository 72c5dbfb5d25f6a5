"""``Idempotency-Key`` on every POST under /api/v1 (docs/api.md, "Idempotency"), after Stripe's:
a client that sends a key with a command may send the same request again, with the same key,
as often as it likes (after a timeout, a dropped connection): the command runs once, and every
retry gets the first answer again — status, body and headers, marked ``Idempotent-Replayed:
true``.

One pair of request hooks does it for every POST route, present and future (no route knows):

* before the route: the key is checked (16 to 255 printable ASCII characters, else 400
  ``invalid-idempotency-key``) and claimed in the table of keys (infrastructure/idempotency.py).
  A key already claimed with another request (path, query, ``If-Match`` or body — the body
  compared as JSON, so key order and spaces do not matter) is 422 ``idempotency-key-reused``;
  one whose first request is still running is 409 ``idempotency-key-in-use`` with
  ``Retry-After: 1`` (no waiting: a worker is never held); one with an answer is replayed.
* after the route: the answer is kept when it is a success (2xx) or a refusal the command's
  own decision made (404, 422); any other answer (400, 401, 403, 409, 413, 415, 428, 429, 5xx:
  the request did not run, met a race, or failed) releases the key, so a retry runs again.

Keys are the caller's: a key is kept under a hash of the ``Authorization`` header and the key,
so two callers' keys never meet, and neither a token nor a key is ever stored. The answer is
stored encrypted (AES-GCM) under a key derived from the caller and the ``Idempotency-Key``,
which only the client knows: someone who reads the table cannot read the seat token a join
answered. Keys live ``GAMELEDGER_IDEMPOTENCY_TTL`` seconds (24 h) from their first use; each
process deletes the expired ones every few minutes."""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import os
import threading
import time
from dataclasses import dataclass
from typing import Any

import orjson
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from flask import Flask, g, request
from werkzeug.wrappers import Response

from api.errors import ApiError, problem
from infrastructure.config import Settings
from infrastructure.idempotency import IdempotencyStore

LOG = logging.getLogger("gameledger.idempotency")

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
MIN_KEY_LENGTH = 16
"""A key is a secret for anonymous commands (a join's answer holds a seat token): one too short
to be unguessable is refused (a UUID has 36 characters)."""
MAX_KEY_LENGTH = 255
PREFIX = "/api/v1/"
KEPT_STATUSES = frozenset({404, 422})
"""Refusals kept besides every 2xx: the command's own decision on the state it found."""
NOT_REPLAYED_HEADERS = ("content-length", "vary", "date", "server", "set-cookie", "retry-after")
NOT_REPLAYED_PREFIXES = ("access-control-", "x-ratelimit-", "ratelimit-")
"""Headers each answer gets anew (CORS, rate limits, ``Vary``) are not kept."""
PURGE_EVERY = 300.0
"""Seconds between two purges of expired keys by one process (at most)."""
CLAIM_TRIES = 3


@dataclass(frozen=True)
class Claim:
    """A key this request holds: where it is kept, the request's fingerprint, and the
    encryption key of its answer."""

    key_id: bytes
    fingerprint: bytes
    seal: bytes


class Idempotency:
    """The request hooks, on one table of keys."""

    def __init__(self, store: IdempotencyStore, settings: Settings) -> None:
        self.store = store
        self.ttl = settings.idempotency_ttl
        self.lease = settings.idempotency_lease
        self._purged = 0.0
        self._lock = threading.Lock()

    def install(self, app: Flask) -> None:
        """Run before and after every request (only POSTs under /api/v1 with a key are
        touched)."""
        app.before_request(self.before)
        app.after_request(self.after)
        app.teardown_request(self.teardown)

    def before(self) -> Response | None:
        """Claim the key, or answer for the request: a replay, 409 or 422."""
        key = request.headers.get(HEADER)
        if key is None or request.method != "POST" or not request.path.startswith(PREFIX):
            return None
        if request.url_rule is None:
            return None  # no such route: nothing to run, nothing to keep
        claim = claim_for(_valid_key(key))
        now = time.time()
        self._purge(now)
        for _ in range(CLAIM_TRIES):
            if self.store.claim(claim.key_id, claim.fingerprint, now, now + self.lease):
                g.idempotency = claim
                g.idempotency_lease_ends = now + self.lease
                return None
            kept = self.store.find(claim.key_id)
            if kept is None or kept.expires_at < now:
                continue  # expired or released meanwhile: claim again
            if not hmac.compare_digest(kept.fingerprint, claim.fingerprint):
                raise ApiError(
                    422,
                    "idempotency-key-reused",
                    "This Idempotency-Key was used with another request (method, path, "
                    "If-Match or body); use a new key for a new request.",
                )
            if kept.response is not None:
                return replay(kept.response, claim)
            break
        return problem(
            409,
            "idempotency-key-in-use",
            "A request with this Idempotency-Key is still running; retry in a moment.",
            headers={"Retry-After": "1"},
        )

    def after(self, response: Response) -> Response:
        """Keep the answer of the request that claimed its key, or release the key."""
        claim: Claim | None = g.get("idempotency")
        if claim is None:
            return response
        status = response.status_code
        if time.time() > g.get("idempotency_lease_ends", float("inf")):
            LOG.warning(
                "a request with an Idempotency-Key ran longer than GAMELEDGER_IDEMPOTENCY_LEASE "
                "(%s s): a retry meanwhile could have run it again; raise the lease",
                self.lease,
            )
        if response.is_streamed or not (200 <= status < 300 or status in KEPT_STATUSES):
            self.store.release(claim.key_id, claim.fingerprint)
        else:
            sealed = seal(claim, status, _kept_headers(response), response.get_data())
            self.store.complete(claim.key_id, claim.fingerprint, sealed, time.time() + self.ttl)
        g.pop("idempotency")  # done: only a failure above leaves it to the teardown
        return response

    def teardown(self, _: BaseException | None) -> None:
        """A request whose answer was not kept (an error no handler turned into an answer, a
        failure while keeping it) releases its key."""
        claim: Claim | None = g.pop("idempotency", None)
        if claim is not None:
            self.store.release(claim.key_id, claim.fingerprint)

    def _purge(self, now: float) -> None:
        """Delete expired keys, at most every :data:`PURGE_EVERY` seconds per process."""
        with self._lock:
            if now - self._purged < min(PURGE_EVERY, self.ttl):
                return
            self._purged = now
        self.store.purge(now)


def _valid_key(key: str) -> str:
    """An ``Idempotency-Key``: 16 to 255 printable ASCII characters without spaces (a UUID v4
    is what a client should send)."""
    if not MIN_KEY_LENGTH <= len(key) <= MAX_KEY_LENGTH or not all(" " < c <= "~" for c in key):
        raise ApiError(
            400,
            "invalid-idempotency-key",
            f"Idempotency-Key must be {MIN_KEY_LENGTH} to {MAX_KEY_LENGTH} printable ASCII "
            "characters "
            "without spaces, such as a random UUID.",
        )
    return key


def _derive(purpose: bytes, caller: bytes, key: bytes) -> bytes:
    """A hash of the caller and the key for one purpose; the lengths keep the parts apart."""
    return hashlib.sha256(
        b"gameledger idempotency " + purpose + b"\0"
        + len(caller).to_bytes(4, "big") + caller + key
    ).digest()  # fmt: skip


def claim_for(key: str) -> Claim:
    """This request's claim on ``key``: where the key is kept (caller and key hashed), what
    request it stands for, and the encryption key of its answer."""
    caller = request.headers.get("Authorization", "").encode("utf-8", "surrogateescape")
    raw = key.encode("ascii")
    fingerprint = hashlib.sha256(
        b"\0".join(
            [
                request.method.encode(),
                request.path.encode("utf-8", "surrogateescape"),
                request.query_string,
                request.headers.get("If-Match", "").encode("utf-8", "surrogateescape"),
                _canonical_body(request.get_data(cache=True)),
            ]
        )
    ).digest()
    return Claim(_derive(b"id", caller, raw), fingerprint, _derive(b"seal", caller, raw))


def _canonical_body(body: bytes) -> bytes:
    """The body as JSON with sorted keys and no spaces, so that two encodings of one body are
    one request; a body that is not JSON (refused anyway) as sent."""
    try:
        return orjson.dumps(orjson.loads(body), option=orjson.OPT_SORT_KEYS)
    except (orjson.JSONDecodeError, orjson.JSONEncodeError, TypeError):
        return b"raw\0" + body


def _kept_headers(response: Response) -> list[tuple[str, str]]:
    return [
        (name, value)
        for name, value in response.headers.items()
        if name.lower() not in NOT_REPLAYED_HEADERS
        and not name.lower().startswith(NOT_REPLAYED_PREFIXES)
    ]


def seal(claim: Claim, status: int, headers: list[tuple[str, str]], body: bytes) -> bytes:
    """An answer encrypted for its key: a random nonce, then AES-256-GCM of the answer, bound
    to the key's row."""
    plain = orjson.dumps(
        {"status": status, "headers": headers, "body": base64.b64encode(body).decode()}
    )
    nonce = os.urandom(12)
    return nonce + AESGCM(claim.seal).encrypt(nonce, plain, claim.key_id)


def replay(sealed: bytes, claim: Claim) -> Response:
    """The kept answer, decrypted, marked ``Idempotent-Replayed: true``."""
    plain = AESGCM(claim.seal).decrypt(sealed[:12], sealed[12:], claim.key_id)
    answer: dict[str, Any] = orjson.loads(plain)
    response = Response(base64.b64decode(answer["body"]), status=answer["status"])
    response.headers.clear()
    for name, value in answer["headers"]:
        response.headers.add(name, value)
    response.headers[REPLAYED] = "true"
    return response
