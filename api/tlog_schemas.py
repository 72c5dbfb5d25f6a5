"""marshmallow schemas of the transparency log (docs/api.md, "Transparency log"; docs/audit.md,
"Signed checkpoints" and "The transparency log"): a checkpoint, a signed tree head, entries,
inclusion and consistency proofs, and a record's ``transparency`` field, each closed and
typed as :mod:`application.checkpoints` writes them."""

from __future__ import annotations

from marshmallow import RAISE, Schema, fields, validate

from api.fields import QueryInteger
from application.checkpoints import CHECKPOINT_FORMAT, TREE_HEAD_FORMAT
from application.transparency import MAX_ENTRIES

HEX64 = validate.Regexp(r"^[0-9a-f]{64}$")
KEY_ID = validate.Regexp(r"^[0-9a-f]{16}$")
AT = validate.Regexp(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")
SIGNATURE = validate.Regexp(r"^[A-Za-z0-9_-]{86}$")
COUNT = validate.Range(min=0)
GAME_NAME = validate.Regexp(
    r"^((tournament:)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    r"|sha256:[0-9a-f]{64})$"
)


class Closed(Schema):
    """A schema that refuses fields it does not name (``additionalProperties: false``)."""

    class Meta:
        unknown = RAISE


def _hash(description: str) -> fields.String:
    return fields.String(required=True, validate=HEX64, metadata={"description": description})


class CheckpointSchema(Closed):
    """A signed checkpoint: one entry of the log (its canonical JSON is the leaf)."""

    format = fields.String(required=True, validate=validate.OneOf([CHECKPOINT_FORMAT]))
    game = fields.String(
        required=True,
        validate=GAME_NAME,
        metadata={
            "description": "The game's id; a private game's is 'sha256:' and the SHA-256 (hex) "
            "of its id; a tournament's chain is 'tournament:' and its id (docs/audit.md, "
            "'Signed checkpoints')"
        },
    )
    version = fields.Integer(
        required=True, validate=validate.Range(min=1), metadata={"description": "Its version"}
    )
    chain_head = _hash("The hash of the game's event at that version (docs/audit.md)")
    ended = fields.Boolean(
        required=True, metadata={"description": "Whether the game is over at that version"}
    )
    at = fields.String(required=True, validate=AT, metadata={"description": "When (UTC)"})
    key_id = fields.String(
        required=True, validate=KEY_ID, metadata={"description": "The signing key (GET /keys)"}
    )


class TreeHeadSchema(Closed):
    """A signed tree head: the log's size and root hash, signed."""

    format = fields.String(required=True, validate=validate.OneOf([TREE_HEAD_FORMAT]))
    size = fields.Integer(
        required=True, validate=COUNT, metadata={"description": "Entries in the tree"}
    )
    root_hash = _hash("RFC 9162's Merkle tree hash of the first 'size' entries")
    at = fields.String(required=True, validate=AT, metadata={"description": "When (UTC)"})
    key_id = fields.String(required=True, validate=KEY_ID)
    signature = fields.String(
        required=True,
        validate=SIGNATURE,
        metadata={
            "description": "Ed25519 over the canonical JSON of the five other fields, "
            "unpadded base64url"
        },
    )


class LogEntrySchema(Closed):
    """An entry: its index, the checkpoint and the checkpoint's signature."""

    leaf_index = fields.Integer(required=True, validate=COUNT)
    checkpoint = fields.Nested(CheckpointSchema, required=True)
    signature = fields.String(
        required=True,
        validate=SIGNATURE,
        metadata={"description": "Ed25519 over the checkpoint's canonical JSON, base64url"},
    )


class EntriesQuery(Schema):
    start = QueryInteger(load_default=0, metadata={"description": "The first entry's index"})
    limit = QueryInteger(load_default=100, minimum=1, maximum=MAX_ENTRIES)


class EntriesSchema(Closed):
    items = fields.List(fields.Nested(LogEntrySchema), required=True)
    next_start = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "The next page's start; null after the last entry"},
    )


class CheckpointsSchema(Closed):
    items = fields.List(fields.Nested(LogEntrySchema), required=True)


class InclusionQuery(Schema):
    leaf_index = QueryInteger(required=True)
    tree_size = QueryInteger(
        load_default=None,
        metadata={"description": "A stored tree head's size (default: the latest)"},
    )


class InclusionProofSchema(Closed):
    leaf_index = fields.Integer(required=True, validate=COUNT)
    tree_size = fields.Integer(required=True, validate=COUNT)
    leaf_hash = _hash("SHA-256(0x00 || the checkpoint's canonical JSON)")
    proof = fields.List(
        fields.String(validate=HEX64),
        required=True,
        metadata={"description": "RFC 9162 §2.1.3 PATH, the leaf's sibling first"},
    )
    tree_head = fields.Nested(TreeHeadSchema, required=True)


class ConsistencyQuery(Schema):
    first = QueryInteger(required=True, metadata={"description": "The older tree's size"})
    second = QueryInteger(
        load_default=None,
        metadata={"description": "The newer tree's size (default: the latest)"},
    )


class ConsistencyProofSchema(Closed):
    first = fields.Integer(required=True, validate=COUNT)
    second = fields.Integer(required=True, validate=COUNT)
    proof = fields.List(
        fields.String(validate=HEX64),
        required=True,
        metadata={"description": "RFC 9162 §2.1.4 PROOF(first, D[second])"},
    )
    first_head = fields.Nested(TreeHeadSchema, required=True)
    second_head = fields.Nested(TreeHeadSchema, required=True)


class TransparencySchema(Closed):
    """A record's proof that the service logged it (docs/audit.md, "Record format")."""

    checkpoint = fields.Nested(CheckpointSchema, required=True)
    signature = fields.String(required=True, validate=SIGNATURE)
    public_key = fields.String(
        required=True,
        validate=validate.Regexp(r"^[A-Za-z0-9_-]{43}$"),
        metadata={"description": "The public key of key_id (pin one from GET /keys instead)"},
    )
    leaf_index = fields.Integer(required=True, validate=COUNT)
    tree_head = fields.Nested(TreeHeadSchema, required=True)
    inclusion_proof = fields.List(fields.String(validate=HEX64), required=True)


class RecordQuery(Schema):
    tree_size = QueryInteger(
        load_default=None,
        metadata={
            "description": "Prove the checkpoint against the stored tree head of this size "
            "(default: the latest)"
        },
    )
