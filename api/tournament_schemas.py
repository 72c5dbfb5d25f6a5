"""marshmallow schemas of the tournaments' resources (docs/api.md, "Tournaments"): the bodies
of the organiser's, the entrants' and the arbiter's commands, and the tournament's public
document (application/tournament_views.py) and its parts, each closed and typed as the
document is built. What the document never holds — the tokens' digests, the tables' secret,
the seed before the end — has no field here either, so it could not be sent by mistake."""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, fields, validate

from api.fields import (
    MAX_INTEGER,
    PLAIN_TEXT,
    QueryInteger,
    StrictBoolean,
    StrictInteger,
    StrictNumber,
)
from api.schemas import MAX_SEATS, MAX_TEXT, LedgerSettingsSchema
from api.tlog_schemas import TreeHeadSchema
from application.projections.tournaments import PHASES
from domain.tournament.format import KINDS
from domain.tournament.results import HOWS
from domain.tournament.scoring import PAIRING_MODES, TIE_BREAKS

ACTS = ("forfeit", "adjudicate", "correct", "penalty", "disqualify")
STATUSES = ("registered", "checked-in", "withdrawn", "removed", "absent", "disqualified")
NAME = validate.Length(min=1, max=64)
REASON = validate.Length(min=1, max=MAX_TEXT)
ID = validate.Length(min=1, max=64)


class Closed(Schema):
    """A schema that refuses fields it does not name (``additionalProperties: false``)."""

    class Meta:
        unknown = RAISE


def _text(description: str, **kwargs: Any) -> fields.String:
    return fields.String(required=True, metadata={"description": description}, **kwargs)


# Requests


def _count(description: str, **kwargs: Any) -> StrictInteger:
    """An integer of the format: its type checked here, its range by the rules."""
    return StrictInteger(minimum=-MAX_INTEGER, metadata={"description": description}, **kwargs)


class FormatSchema(Closed):
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
    name = _text("The tournament's name (plain text)", validate=NAME)
    format = fields.Nested(FormatSchema, required=True)
    options = fields.Dict(
        keys=fields.String(), load_default=dict, metadata={"description": "Every table's game's"}
    )
    settings = fields.Nested(
        LedgerSettingsSchema,
        load_default=dict,
        metadata={"description": "Every table's ledger settings ('tournament' is always true)"},
    )


class RegisterRequest(Closed):
    name = _text("The entrant's name (plain text; unique without case)", validate=NAME)


class WithdrawRequest(Closed):
    entrant = fields.String(
        load_default=None,
        validate=ID,
        metadata={"description": "The organiser only: the entrant to withdraw (default: yours)"},
    )


class EntrantActRequest(Closed):
    entrant = _text("The entrant's id", validate=ID)
    reason = _text("Why (plain text)", validate=REASON)


class PenaltyRequest(EntrantActRequest):
    points = StrictNumber(
        required=True, metadata={"description": "Points deducted: above 0, at most 1,000"}
    )


class ForfeitRequest(Closed):
    game = _text("The table's game id", validate=ID)
    absent = fields.List(
        fields.String(validate=ID),
        required=True,
        validate=validate.Length(max=MAX_SEATS),
        metadata={"description": "The no-shows' entrant ids"},
    )
    reason = _text("Why (plain text)", validate=REASON)


class ResultRequest(Closed):
    game = _text("The table's game id", validate=ID)
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
    reason = _text("Why (plain text)", validate=REASON)


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


# The public document and its parts


class SummarySchema(Closed):
    tournament_id = fields.String(required=True)
    name = fields.String(required=True)
    game = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(KINDS))
    phase = fields.String(required=True, validate=validate.OneOf(PHASES))
    entrants = fields.Integer(
        required=True, metadata={"description": "Registered or checked in, not left"}
    )
    rounds = fields.Integer(required=True, metadata={"description": "Rounds paired so far"})
    rounds_planned = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "Once started; null before, and for multi-player elimination"},
    )
    version = fields.Integer(required=True)
    created_at = fields.String(required=True)
    updated_at = fields.String(required=True)


class EntrantSchema(Closed):
    entrant = fields.String(required=True, metadata={"description": "The entrant's id"})
    name = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    number = fields.Integer(
        required=True, allow_none=True, metadata={"description": "Pairing number, from the start"}
    )
    late = fields.Boolean(required=True)
    reason = fields.String(required=True, metadata={"description": "Of a removal, or ''"})


class SeatedSchema(Closed):
    entrant = fields.String(required=True)
    name = fields.String(required=True)


class ResultSchema(Closed):
    ranks = fields.List(fields.Integer(), required=True)
    scores = fields.List(fields.Integer(), required=True)
    how = fields.String(required=True, validate=validate.OneOf(HOWS))
    reason = fields.String(required=True)
    corrections = fields.Integer(required=True)
    version = fields.Integer(metadata={"description": "Played: the game's version at its end"})
    chain_head = fields.String(metadata={"description": "Played: the game's chain head then"})


class TableSchema(Closed):
    table = fields.Integer(required=True)
    game = fields.String(required=True, metadata={"description": "The table's game"})
    seats = fields.List(fields.Nested(SeatedSchema), required=True)
    result = fields.Nested(
        ResultSchema, required=True, allow_none=True, metadata={"description": "null: playing"}
    )


class RoundSchema(Closed):
    number = fields.Integer(required=True)
    tables = fields.List(fields.Nested(TableSchema), required=True)
    byes = fields.List(fields.Nested(SeatedSchema), required=True)


class TableRowSchema(TableSchema):
    round = fields.Integer(required=True)


class StandingSchema(Closed):
    rank = fields.Integer(required=True)
    entrant = fields.String(required=True)
    name = fields.String(required=True)
    number = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    points = StrictNumber(required=True)
    score = fields.Integer(required=True)
    buchholz = StrictNumber(required=True)
    seat = StrictNumber(required=True, metadata={"description": "Average seat, 0 first to 1 last"})
    games = fields.Integer(required=True)
    byes = fields.Integer(required=True)
    penalty = StrictNumber(required=True)
    eliminated_in = fields.Integer(required=True, allow_none=True)


class ActSchema(Closed):
    """An arbiter's act (docs/tournaments.md, "The arbiter"): its fields by ``act``."""

    act = fields.String(required=True, validate=validate.OneOf(ACTS))
    round = fields.Integer(required=True)
    reason = fields.String(required=True)
    game = fields.String(metadata={"description": "forfeit, adjudicate, correct"})
    absent = fields.List(fields.String(), metadata={"description": "forfeit"})
    ranks = fields.List(fields.Integer(), metadata={"description": "adjudicate, correct"})
    was = fields.List(fields.Integer(), metadata={"description": "correct: the ranks before"})
    entrant = fields.String(metadata={"description": "penalty, disqualify"})
    points = StrictNumber(metadata={"description": "penalty"})


class RatingSchema(Closed):
    entrant = fields.String(required=True)
    name = fields.String(required=True)
    number = fields.Integer(required=True)
    game = fields.String(required=True)
    mu = StrictNumber(required=True, allow_none=True)
    sigma = StrictNumber(required=True, allow_none=True)
    ordinal = StrictNumber(
        required=True, allow_none=True, metadata={"description": "mu - 3 sigma; null: unrated"}
    )
    games = fields.Integer(required=True)


class GameRatingSchema(RatingSchema):
    tournament_id = fields.String(required=True, metadata={"description": "Where it was won"})


class DocumentSchema(SummarySchema):
    options = fields.Dict(required=True)
    settings = fields.Nested(LedgerSettingsSchema, required=True)
    format = fields.Nested(FormatSchema, required=True)
    seed_sha256 = fields.String(required=True)
    seed = fields.String(required=True, allow_none=True, metadata={"description": "At the end"})
    chain_head = fields.String(required=True)
    entrants_list = fields.List(fields.Nested(EntrantSchema), required=True)
    rounds_list = fields.List(fields.Nested(RoundSchema), required=True)
    standings = fields.List(fields.Nested(StandingSchema), required=True)
    history = fields.List(fields.Nested(ActSchema), required=True)
    ranking = fields.List(fields.String(), required=True)
    ratings = fields.List(fields.Nested(RatingSchema), required=True)


class CreatedTournamentSchema(DocumentSchema):
    organiser_token = _text("Secret, shown once: the organiser's 'Authorization: Bearer' token")


class TournamentListSchema(Closed):
    items = fields.List(fields.Nested(SummarySchema), required=True)
    next_cursor = fields.String(required=True, allow_none=True)
    limit = fields.Integer(required=True)


class RegisteredSchema(Closed):
    tournament_id = fields.String(required=True)
    entrant = fields.String(required=True)
    token = _text("Secret, shown once: the entrant's 'Authorization: Bearer' token")
    version = fields.Integer(required=True)


class ChangedSchema(Closed):
    tournament_id = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "The tournament's, after"})


class PairedSchema(RoundSchema):
    version = fields.Integer(required=True)


class RoundsSchema(Closed):
    tournament_id = fields.String(required=True)
    version = fields.Integer(required=True)
    rounds = fields.List(fields.Nested(RoundSchema), required=True)


class TablesSchema(Closed):
    tournament_id = fields.String(required=True)
    version = fields.Integer(required=True)
    tables = fields.List(fields.Nested(TableRowSchema), required=True)


class MySeatSchema(Closed):
    round = fields.Integer(required=True)
    table = fields.Integer(required=True)
    game = fields.String(required=True)
    seat = fields.Integer(required=True)
    token = _text("Secret: the seat's token in that game ('Authorization: Bearer')")
    decided = fields.Boolean(required=True, metadata={"description": "The table has its result"})


class MyTablesSchema(Closed):
    tournament_id = fields.String(required=True)
    entrant = fields.String(required=True)
    tables = fields.List(fields.Nested(MySeatSchema), required=True)


class StandingsSchema(Closed):
    tournament_id = fields.String(required=True)
    version = fields.Integer(required=True)
    phase = fields.String(required=True, validate=validate.OneOf(PHASES))
    rounds = fields.Integer(required=True)
    standings = fields.List(fields.Nested(StandingSchema), required=True)
    history = fields.List(fields.Nested(ActSchema), required=True)
    ranking = fields.List(fields.String(), required=True)
    tree_head = fields.Nested(
        TreeHeadSchema,
        required=True,
        metadata={"description": "The transparency log's latest signed tree head (GET /keys)"},
    )


class RatingsSchema(Closed):
    tournament_id = fields.String(required=True)
    version = fields.Integer(required=True)
    game = fields.String(required=True)
    ratings = fields.List(fields.Nested(RatingSchema), required=True)


class GameRatingsSchema(Closed):
    game = fields.String(required=True)
    ratings = fields.List(fields.Nested(GameRatingSchema), required=True)


class ArbiterTokenSchema(Closed):
    round = fields.Integer(required=True)
    table = fields.Integer(required=True)
    game = fields.String(required=True)
    arbiter_token = _text("Secret: the arbiter's token of that game (arbiter undo)")


class ArbiterTokensSchema(Closed):
    tournament_id = fields.String(required=True)
    tables = fields.List(fields.Nested(ArbiterTokenSchema), required=True)
