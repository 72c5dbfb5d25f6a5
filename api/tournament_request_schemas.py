"""marshmallow schemas of the tournaments' requests (docs/api.md, "Tournaments"): the bodies
of the organiser's, the entrants' and the arbiter's commands and the queries, each closed (an
unknown field is a 400 ``invalid-request``). They check the types; the rules check the values
(422 with the tournament's own codes, docs/tournaments.md "Refusals")."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from api.fields import (
    MAX_INTEGER,
    PLAIN_TEXT,
    QueryInteger,
    StrictBoolean,
    StrictInteger,
    StrictNumber,
)
from api.schemas import MAX_SEATS, MAX_TEXT, LedgerSettingsSchema
from api.tlog_schemas import Closed
from application.projections.tournaments import PHASES
from domain.tournament.format import KINDS
from domain.tournament.scoring import PAIRING_MODES, TIE_BREAKS

NAME = validate.Length(min=1, max=64)
REASON = validate.Length(min=1, max=MAX_TEXT)
ID = validate.Length(min=1, max=64)


def text(description: str, **kwargs: Any) -> fields.String:
    """A required string field."""
    return fields.String(required=True, metadata={"description": description}, **kwargs)


def _count(description: str, **kwargs: Any) -> StrictInteger:
    """An integer of the format: its type checked here, its range by the rules."""
    return StrictInteger(minimum=-MAX_INTEGER, metadata={"description": description}, **kwargs)


class TournamentFormatSchema(Closed):
    """The format (docs/tournaments.md, "Creation"): every field but ``kind`` optional. The
    schema checks the types (400 ``invalid-request``); the rules refuse what cannot be played
    (422 ``invalid-format``)."""

    kind = fields.String(required=True, validate=validate.OneOf(KINDS))
    table_size = _count("The target table (2 to 6; default 2)")
    min_table_size = _count("The smallest table allowed (default: table_size)")
    rounds = _count("Swiss, round robin: the rounds (null: the default)", allow_none=True)
    cycles = _count("Round robin: how often each pair meets (default 1)")
    advance = _count("Elimination: how many of a table go on (default 1)")
    late_entry = StrictBoolean(metadata={"description": "Swiss: entrants may register late"})
    max_entrants = _count("The most entrants who have not left (null: no limit)", allow_none=True)
    points = fields.Dict(
        keys=fields.String(),
        values=fields.List(StrictNumber()),
        metadata={"description": "Per table size ('2'...'6'), the points of each rank"},
    )
    bye_points = StrictNumber(metadata={"description": "What a bye is worth"})
    tie_breaks = fields.List(
        fields.String(validate=validate.OneOf(TIE_BREAKS)),
        metadata={"description": "The tie-breaks in order (default all four)"},
    )
    pairing = fields.String(
        validate=validate.OneOf(PAIRING_MODES),
        metadata={"description": "auto: each round paired when the last ends; organiser: by hand"},
    )


class CreateTournamentRequest(Closed):
    game = fields.String(required=True, validate=ID, metadata={"description": "e.g. azul"})
    name = text("The tournament's name (plain text)", validate=NAME)
    format = fields.Nested(TournamentFormatSchema, required=True)
    options = fields.Dict(
        keys=fields.String(), load_default=dict, metadata={"description": "Every table's game's"}
    )
    settings = fields.Nested(
        LedgerSettingsSchema,
        load_default=dict,
        metadata={"description": "Every table's ledger settings ('tournament' is always true)"},
    )


class RegisterRequest(Closed):
    name = text("The entrant's name (plain text; unique without case)", validate=NAME)


class WithdrawRequest(Closed):
    entrant = fields.String(
        load_default=None,
        validate=ID,
        metadata={"description": "The organiser only: the entrant to withdraw (default: yours)"},
    )


class EntrantActRequest(Closed):
    entrant = text("The entrant's id", validate=ID)
    reason = text("Why (plain text)", validate=REASON)


class PenaltyRequest(EntrantActRequest):
    points = StrictNumber(
        required=True,
        metadata={
            "description": "Points deducted: a multiple of 0.5 from 0.5 to 1,000 "
            "(else 422 bad-penalty)"
        },
    )


class ForfeitRequest(Closed):
    game = text("The table's game id", validate=ID)
    absent = fields.List(
        fields.String(validate=ID),
        required=True,
        validate=validate.Length(max=MAX_SEATS),
        metadata={"description": "The no-shows' entrant ids"},
    )
    reason = text("Why (plain text)", validate=REASON)


class ResultRequest(Closed):
    game = text("The table's game id", validate=ID)
    ranks = fields.List(
        StrictInteger(),
        required=True,
        validate=validate.Length(max=MAX_SEATS),
        metadata={"description": "One competition rank per seat, in seat order (1, 1, 3)"},
    )
    scores = fields.List(
        StrictInteger(minimum=-MAX_INTEGER),
        load_default=None,
        allow_none=True,
        validate=validate.Length(max=MAX_SEATS),
        metadata={"description": "One score per seat (default: 0s; a correction: kept)"},
    )
    reason = text("Why (plain text)", validate=REASON)


class TournamentListQuery(Schema):
    game = fields.String(load_default=None, validate=[validate.Length(max=64), PLAIN_TEXT])
    phase = fields.String(load_default=None, validate=validate.OneOf(PHASES))
    limit = QueryInteger(load_default=50, minimum=1, maximum=200)
    cursor = fields.String(
        load_default=None,
        validate=[validate.Length(min=1, max=512), PLAIN_TEXT],
        metadata={"description": "The next_cursor of the page before (none: the first page)"},
    )


class RatingsQuery(Schema):
    game = fields.String(required=True, validate=[validate.Length(min=1, max=64), PLAIN_TEXT])
    limit = QueryInteger(load_default=50, minimum=1, maximum=200)
