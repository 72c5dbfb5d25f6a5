"""marshmallow schemas of what a game has recorded (docs/api.md, "Endpoints": turns,
records; docs/audit.md for the record's fields): the pages of the event log and of the turns
of the line of play, with their queries, and the game record. Re-exported by
:mod:`api.schemas`."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.fields import PLAIN_TEXT, QueryBoolean, QueryInteger
from api.tlog_schemas import TransparencySchema


class TurnsQuery(Schema):
    include_undone = QueryBoolean(load_default=True)
    after = QueryInteger(
        load_default=0,
        minimum=0,
        metadata={"description": "Turns whose first_version is after this version"},
    )
    limit = QueryInteger(load_default=100, minimum=1, maximum=500)


class TurnSchema(Schema):
    turn = fields.Integer()
    seat = fields.Integer()
    first_version = fields.Integer()
    last_version = fields.Integer()
    notation = fields.String()
    summary = fields.String()
    undone_at = fields.Integer(allow_none=True)


class TurnListSchema(Schema):
    items = fields.List(fields.Nested(TurnSchema))
    next_after = fields.Integer(
        allow_none=True, metadata={"description": "The next page's after; null on the last page"}
    )


class EventsQuery(Schema):
    after = QueryInteger(load_default=0, minimum=0)
    limit = QueryInteger(load_default=100, minimum=1, maximum=500)
    type = fields.List(
        fields.String(validate=[validate.Length(max=64), PLAIN_TEXT]),
        load_default=None,
        metadata={"description": "Only events of these types"},
    )


class EventSchema(Schema):
    version = fields.Integer()
    type = fields.String()
    timestamp = fields.String()
    data = fields.Dict()
    sealed = fields.String(
        allow_none=True,
        metadata={
            "description": "For an event that hides something from some viewers: "
            "SHA-256(seed:version:whole data), which the chain hashes with the spectator's "
            "view (docs/audit.md, 'Hidden information'); null otherwise."
        },
    )
    prev_hash = fields.String()
    hash = fields.String()


class EventPageSchema(Schema):
    game = fields.String(metadata={"description": "The game's kind: which event shapes apply"})
    items = fields.List(fields.Nested(EventSchema))
    next_after = fields.Integer(allow_none=True)
    version = fields.Integer()


class RecordSeatSchema(Schema):
    """A seat of a recorded game: its number and the name that took it (null while free)."""

    seat = fields.Integer(required=True)
    name = fields.String(required=True, allow_none=True)


class RecordSchema(Schema):
    """A game record (docs/audit.md has the field-by-field reference)."""

    format = fields.String()
    format_version = fields.Integer()
    game = fields.Dict()
    seats = fields.List(fields.Nested(RecordSeatSchema))
    seed_sha256 = fields.String()
    seed = fields.String(allow_none=True)
    moves = fields.List(fields.Dict())
    events = fields.List(fields.Nested(EventSchema))
    chain_head = fields.String()
    outcome = fields.Dict(allow_none=True)
    transparency = fields.Nested(
        TransparencySchema,
        required=True,
        allow_none=True,
        metadata={
            "description": "The record's checkpoint, its signature and its inclusion proof in "
            "the transparency log (docs/audit.md, 'Record format'); null before the game's "
            "first checkpoint"
        },
    )
