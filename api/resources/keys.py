"""The service's public signing keys (docs/api.md, "Signing keys"; docs/audit.md, "Service
signing key"): ``GET /api/v1/keys`` lists the current key and every retired one, so anyone can
check what the service signed, with a strong ``ETag`` and ``304 Not Modified`` like the
rendering data (api/resources/rendering.py) but a short ``max-age``: a rotation shows within
:data:`MAX_AGE` seconds. Only public halves: the private key is never in an answer."""

from __future__ import annotations

from typing import Any, Final

from marshmallow import RAISE, Schema, fields, validate
from werkzeug.wrappers import Response

from api.requests import Blueprint
from api.resources.common import NOT_MODIFIED, PREFIX, cache_headers, cached_answer, services
from application.rendering import cacheable

blp = Blueprint("keys", __name__, url_prefix=PREFIX, description="The service's signing keys")

MAX_AGE: Final = 300
"""Seconds a client or a shared cache may reuse the list before it revalidates."""
HEADERS: Final = cache_headers(MAX_AGE)


class PublicKeySchema(Schema):
    """One public key (application.signing.PublicKeyDocument)."""

    class Meta:
        unknown = RAISE

    key_id = fields.String(
        required=True,
        validate=validate.Regexp(r"^[0-9a-f]{16}$"),
        metadata={"description": "The first 16 hex digits of the SHA-256 of the raw key"},
    )
    algorithm = fields.String(required=True, validate=validate.OneOf(["Ed25519"]))
    public_key = fields.String(
        required=True,
        validate=validate.Regexp(r"^[A-Za-z0-9_-]{43}$"),
        metadata={"description": "The raw 32-byte public key, unpadded base64url"},
    )
    current = fields.Boolean(
        required=True, metadata={"description": "The key the service signs with now"}
    )
    created_at = fields.String(
        required=True, metadata={"description": "When the key was made (UTC, ISO 8601)"}
    )
    retired_at = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "When the key was retired by a rotation (UTC, ISO 8601 ending in "
            "Z); null for the current key. Pin it with the key: nothing the key signed after "
            "it is accepted (docs/audit.md, 'The key policy')"
        },
    )


class KeysSchema(Schema):
    """The service's public keys, the current one first."""

    class Meta:
        unknown = RAISE

    keys = fields.List(fields.Nested(PublicKeySchema), required=True)


def document() -> dict[str, Any]:
    """The answer's body."""
    return {"keys": services().keys.public_keys()}


@blp.route("/keys", methods=["GET"])
@blp.response(200, KeysSchema, headers=HEADERS)
@blp.alt_response(304, description=NOT_MODIFIED, headers=HEADERS, success=True)
def list_keys() -> Response:
    """The public halves of the service's signing keys, current and retired (docs/audit.md,
    "Service signing key")."""
    return cached_answer(cacheable(document()), MAX_AGE)
