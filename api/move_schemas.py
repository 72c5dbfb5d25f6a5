"""marshmallow schemas of the moves resource and of undo (docs/api.md, "Endpoints": moves,
undo; "Ledger settings: undo and tournaments"): a move request and the legal moves of a seat,
the three undo requests (a player's, an answer, the arbiter's), and what every accepted
command answers (``Played``: the version after it and how many events it caused), and a
seat's optional public key (issue 14, part 5). Requests refuse unknown fields (marshmallow's
default). Re-exported by :mod:`api.schemas`."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.fields import StrictBoolean, StrictInteger

MAX_TEXT = 2000
"""The longest notation a move request may carry."""


def public_key_field() -> fields.String:
    """A seat's optional Ed25519 public key, in a join or a rematch's claim (docs/api.md,
    "Signed moves"): ``null`` or absent is no key; any string is checked by the game, so every
    string that is not an acceptable key (``""`` too) is 422 ``bad-public-key``, never a
    schema's 400 (the request's size bounds its length)."""
    return fields.String(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "Optional: your Ed25519 public key, its raw 32 bytes in unpadded "
            "base64url (43 characters). Null or absent: no key. Public and recorded in "
            "SeatJoined; every move of the seat must then carry a signature (docs/api.md, "
            "'Signed moves'). Any other string is 422 bad-public-key"
        },
    )


class UndoRequest(Schema):
    turns = StrictInteger(
        load_default=1,
        minimum=1,
        metadata={
            "description": "How many of the last turns of the line of play to take back, "
            "whoever played them; the first of them must be your own. Other seats whose "
            "turns it takes back are asked to consent (every other seat under undo: consent)"
        },
    )
    expected_version = StrictInteger(minimum=1, load_default=None)


class UndoAnswer(Schema):
    accept = StrictBoolean(required=True)
    expected_version = StrictInteger(minimum=1, load_default=None)


class ArbiterUndoRequest(Schema):
    turn = StrictInteger(
        required=True, minimum=0, metadata={"description": "Go back to the end of this turn"}
    )
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))
    expected_version = StrictInteger(minimum=1, load_default=None)


class MoveRequest(Schema):
    move = fields.Raw(load_default=None, metadata={"description": "The move in its JSON form"})
    notation = fields.String(
        load_default=None,
        validate=validate.Length(min=1, max=MAX_TEXT),
        metadata={"description": "The move in compact notation instead"},
    )
    expected_version = StrictInteger(
        minimum=1,
        load_default=None,
        metadata={
            "description": "The game version the move was decided on; or send it as If-Match"
        },
    )
    signature = fields.String(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "A seat that registered a public_key signs every move: the "
            "unpadded base64url Ed25519 signature of the canonical JSON of {game, version: "
            "the version the move was decided on, move: the move's JSON as the legal moves "
            "list it} (docs/api.md, 'Signed moves'). Null or absent: unsigned. Any string that "
            "is not a valid signature is 422 bad-signature (or unexpected-signature)"
        },
    )


class PlayedSchema(Schema):
    game_id = fields.String()
    version = fields.Integer()
    events = fields.Integer()


class LegalMoveSchema(Schema):
    move = fields.Dict()
    notation = fields.String()


class LegalMovesSchema(Schema):
    game = fields.String(metadata={"description": "The game's kind: which move shape applies"})
    seat = fields.Integer()
    version = fields.Integer()
    moves = fields.List(fields.Nested(LegalMoveSchema))
