"""marshmallow schemas of the tournaments' answers (docs/api.md, "Tournaments"): the
tournament's public document (application/tournament_views.py) and its parts, each closed and
typed as the document is built. What the document never holds — the tokens' digests, the
tables' secret, the seed before the end — has no field here either, so it could not be sent
by mistake."""

from __future__ import annotations

from marshmallow import fields, validate

from api.fields import StrictNumber
from api.schemas import LedgerSettingsSchema, RecordSchema
from api.tlog_schemas import Closed, TransparencySchema, TreeHeadSchema
from api.tournament_request_schemas import TournamentFormatSchema, text
from application.projections.tournaments import PHASES
from application.tournament_record_format import FORMAT, FORMAT_VERSION
from domain.tournament.format import KINDS
from domain.tournament.results import HOWS

ACTS = ("forfeit", "adjudicate", "correct", "penalty", "disqualify")
STATUSES = ("registered", "checked-in", "withdrawn", "removed", "absent", "disqualified")


class TournamentSummarySchema(Closed):
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


class SeatedEntrantSchema(Closed):
    entrant = fields.String(required=True)
    name = fields.String(required=True)


class TableResultSchema(Closed):
    ranks = fields.List(fields.Integer(), required=True)
    scores = fields.List(fields.Integer(), required=True)
    how = fields.String(required=True, validate=validate.OneOf(HOWS))
    reason = fields.String(required=True)
    corrections = fields.Integer(required=True)
    version = fields.Integer(metadata={"description": "Played: the game's version at its end"})
    chain_head = fields.String(metadata={"description": "Played: the game's chain head then"})


class TournamentTableSchema(Closed):
    table = fields.Integer(required=True)
    game = fields.String(required=True, metadata={"description": "The table's game"})
    seats = fields.List(fields.Nested(SeatedEntrantSchema), required=True)
    result = fields.Nested(
        TableResultSchema, required=True, allow_none=True, metadata={"description": "null: playing"}
    )


class TournamentRoundSchema(Closed):
    number = fields.Integer(required=True)
    tables = fields.List(fields.Nested(TournamentTableSchema), required=True)
    byes = fields.List(fields.Nested(SeatedEntrantSchema), required=True)


class TournamentTableRowSchema(TournamentTableSchema):
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


class ArbiterActSchema(Closed):
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


class TournamentRatingSchema(Closed):
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


class GameRatingSchema(TournamentRatingSchema):
    tournament_id = fields.String(required=True, metadata={"description": "Where it was won"})


class TournamentSchema(TournamentSummarySchema):
    options = fields.Dict(required=True)
    settings = fields.Nested(LedgerSettingsSchema, required=True)
    format = fields.Nested(TournamentFormatSchema, required=True)
    seed_sha256 = fields.String(required=True)
    seed = fields.String(required=True, allow_none=True, metadata={"description": "At the end"})
    chain_head = fields.String(required=True)
    entrants_list = fields.List(fields.Nested(EntrantSchema), required=True)
    rounds_list = fields.List(fields.Nested(TournamentRoundSchema), required=True)
    standings = fields.List(fields.Nested(StandingSchema), required=True)
    history = fields.List(fields.Nested(ArbiterActSchema), required=True)
    ranking = fields.List(fields.String(), required=True)
    ratings = fields.List(fields.Nested(TournamentRatingSchema), required=True)


class CreatedTournamentSchema(TournamentSchema):
    organiser_token = text("Secret, shown once: the organiser's 'Authorization: Bearer' token")


class TournamentListSchema(Closed):
    items = fields.List(fields.Nested(TournamentSummarySchema), required=True)
    next_cursor = fields.String(required=True, allow_none=True)
    limit = fields.Integer(required=True)


class RegisteredSchema(Closed):
    tournament_id = fields.String(required=True)
    entrant = fields.String(required=True)
    token = text("Secret, shown once: the entrant's 'Authorization: Bearer' token")
    version = fields.Integer(required=True)


class TournamentChangedSchema(Closed):
    tournament_id = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "The tournament's, after"})


class PairedRoundSchema(TournamentRoundSchema):
    version = fields.Integer(required=True)


class TournamentRoundsSchema(Closed):
    tournament_id = fields.String(required=True)
    version = fields.Integer(required=True)
    rounds = fields.List(fields.Nested(TournamentRoundSchema), required=True)


class TournamentTablesSchema(Closed):
    tournament_id = fields.String(required=True)
    version = fields.Integer(required=True)
    tables = fields.List(fields.Nested(TournamentTableRowSchema), required=True)


class MySeatSchema(Closed):
    round = fields.Integer(required=True)
    table = fields.Integer(required=True)
    game = fields.String(required=True)
    seat = fields.Integer(required=True)
    token = text("Secret: the seat's token in that game ('Authorization: Bearer')")
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
    history = fields.List(fields.Nested(ArbiterActSchema), required=True)
    ranking = fields.List(fields.String(), required=True)
    tree_head = fields.Nested(
        TreeHeadSchema,
        required=True,
        metadata={"description": "The transparency log's latest signed tree head (GET /keys)"},
    )
    checkpointed = fields.Boolean(
        required=True,
        metadata={
            "description": "Whether tree_head already holds the tournament's checkpoint of this "
            "version: a finished tournament's end is logged a moment after it ends, so keep a "
            "head with checkpointed true to verify its record against (docs/tournaments.md)"
        },
    )


class TournamentRatingsSchema(Closed):
    tournament_id = fields.String(required=True)
    version = fields.Integer(required=True)
    game = fields.String(required=True)
    ratings = fields.List(fields.Nested(TournamentRatingSchema), required=True)


class GameRatingsSchema(Closed):
    game = fields.String(required=True)
    ratings = fields.List(fields.Nested(GameRatingSchema), required=True)


class ArbiterTokenSchema(Closed):
    round = fields.Integer(required=True)
    table = fields.Integer(required=True)
    game = fields.String(required=True)
    arbiter_token = text("Secret: the arbiter's token of that game (arbiter undo)")


class ArbiterTokensSchema(Closed):
    tournament_id = fields.String(required=True)
    tables = fields.List(fields.Nested(ArbiterTokenSchema), required=True)


class TournamentEventSchema(Closed):
    """A tournament's event as its log presents it (docs/tournaments.md, "Events")."""

    version = fields.Integer(required=True)
    type = fields.String(required=True)
    timestamp = fields.String(required=True)
    data = fields.Dict(required=True, metadata={"description": "Its public data"})
    prev_hash = fields.String(required=True)
    hash = fields.String(required=True)


class RecordedTournamentSchema(Closed):
    id = fields.String(required=True)
    name = fields.String(required=True)
    game = fields.String(required=True)
    options = fields.Dict(required=True)
    settings = fields.Nested(LedgerSettingsSchema, required=True)
    format = fields.Nested(TournamentFormatSchema, required=True)
    created_at = fields.String(required=True)


class RecordedEntrantSchema(Closed):
    entrant = fields.String(required=True)
    name = fields.String(required=True)
    number = fields.Integer(required=True, allow_none=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    late = fields.Boolean(required=True)
    reason = fields.String(required=True)


class PairingInputsSchema(Closed):
    """A round's pairing inputs: what the verifier pairs the round from again."""

    round = fields.Integer(required=True)
    random_position = fields.Integer(required=True)
    entrants = fields.List(
        fields.Dict(), required=True, metadata={"description": "Each entrant's standing inputs"}
    )


class TournamentRecordSchema(Closed):
    """A finished tournament's record (docs/tournaments.md, "The tournament record"):
    ``gameledger verify`` checks it."""

    format = fields.String(required=True, validate=validate.OneOf([FORMAT]))
    format_version = fields.Integer(required=True, validate=validate.OneOf([FORMAT_VERSION]))
    tournament = fields.Nested(RecordedTournamentSchema, required=True)
    entrants = fields.List(fields.Nested(RecordedEntrantSchema), required=True)
    seed_sha256 = fields.String(required=True)
    seed = fields.String(required=True)
    events = fields.List(fields.Nested(TournamentEventSchema), required=True)
    chain_head = fields.String(required=True)
    rounds = fields.List(fields.Nested(PairingInputsSchema), required=True)
    standings = fields.List(fields.Nested(StandingSchema), required=True)
    games = fields.List(
        fields.Nested(RecordSchema), required=True, metadata={"description": "Each table's"}
    )
    transparency = fields.Nested(
        TransparencySchema,
        required=True,
        allow_none=True,
        metadata={"description": "The tournament chain's checkpoint and its inclusion proof"},
    )
