"""marshmallow schemas of every request and response (the OpenAPI document is generated
from them; docs/api.md walks through them). Requests refuse unknown fields (marshmallow's
default).

This module holds the games resource's: creating a game and its ledger settings, the game's
view, the games list, joining a seat and forking; the other resources' are in their own
modules, re-exported here so that ``schemas.<Name>`` names every one:
:mod:`api.move_schemas` (moves and undo), :mod:`api.record_schemas` (event log, turns,
record), :mod:`api.game_type_schemas` (game types)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.fields import PLAIN_TEXT, QueryInteger, StrictBoolean, StrictInteger
from api.game_type_schemas import (
    CapabilitiesSchema,
    GameSchemasSchema,
    GameTypeSchema,
    OptionInfoSchema,
    PlayerRangeSchema,
)
from api.move_schemas import (
    MAX_TEXT,
    ArbiterUndoRequest,
    LegalMoveSchema,
    LegalMovesSchema,
    MoveRequest,
    PlayedSchema,
    UndoAnswer,
    UndoRequest,
    public_key_field,
)
from api.record_schemas import (
    EventPageSchema,
    EventSchema,
    EventsQuery,
    RecordSchema,
    TurnListSchema,
    TurnSchema,
    TurnsQuery,
)

__all__ = [
    "MAX_SEATS",
    "MAX_TEXT",
    "ArbiterUndoRequest",
    "CapabilitiesSchema",
    "CreateGameRequest",
    "CreatedGameSchema",
    "EventPageSchema",
    "EventSchema",
    "EventsQuery",
    "ForkRequest",
    "GameListSchema",
    "GameRowSchema",
    "GameSchemasSchema",
    "GameTypeSchema",
    "GameViewSchema",
    "JoinRequest",
    "JoinedSchema",
    "LedgerSettingsSchema",
    "LegalMoveSchema",
    "LegalMovesSchema",
    "ListQuery",
    "LobbySchema",
    "MoveRequest",
    "OptionInfoSchema",
    "OutcomeSchema",
    "PlayedSchema",
    "PlayerRangeSchema",
    "RecordSchema",
    "SeatSchema",
    "TurnListSchema",
    "TurnSchema",
    "TurnsQuery",
    "UndoAnswer",
    "UndoRequest",
    "ViewQuery",
    "ViewerSchema",
]

MAX_SEATS = 12


class LedgerSettingsSchema(Schema):
    undo = fields.String(
        validate=validate.OneOf(["none", "consent", "free"]),
        metadata={"description": "Who may take turns back (default consent; none in tournaments)"},
    )
    tournament = StrictBoolean(
        metadata={"description": "Only the arbiter may undo; the creator receives its token"}
    )
    clock = fields.Dict(
        allow_none=True,
        metadata={
            "description": "The time control, fixed at creation: none (omitted, null or "
            '{"type": "none"}), Fischer or correspondence (docs/api.md, \'Clocks\')'
        },
    )


class CreateGameRequest(Schema):
    game = fields.String(required=True, metadata={"description": "Registered game, e.g. azul"})
    players = StrictInteger(
        required=True,
        minimum=1,
        maximum=MAX_SEATS,
        metadata={"description": "Seats; each game's range is in GET /game-types"},
    )
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={"description": "Game options, fixed at creation"},
    )
    settings = fields.Nested(LedgerSettingsSchema, load_default=dict)
    private = StrictBoolean(
        load_default=False,
        metadata={
            "description": "A private game: not in the games list, its seats taken only with "
            "the join secret the creator receives (docs/api.md, 'Lobby')"
        },
    )


class ForkRequest(Schema):
    turn = StrictInteger(required=True, minimum=0)


class JoinRequest(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=64))
    seat = StrictInteger(
        load_default=None,
        allow_none=True,
        minimum=0,
        maximum=MAX_SEATS - 1,
        metadata={"description": "Seat wanted; the first free one if omitted"},
    )
    secret = fields.String(
        load_default=None,
        validate=validate.Length(min=1, max=256),
        metadata={"description": "A private game's join secret (docs/api.md, 'Lobby')"},
    )
    public_key = public_key_field()


class ViewQuery(Schema):
    version = QueryInteger(load_default=None, minimum=1)


class ListQuery(Schema):
    status = fields.String(
        load_default=None,
        validate=validate.OneOf(["waiting", "active", "finished", "aborted", "expired"]),
    )
    game = fields.String(load_default=None, validate=[validate.Length(max=64), PLAIN_TEXT])
    limit = QueryInteger(load_default=50, minimum=1, maximum=200)
    cursor = fields.String(
        load_default=None,
        validate=[validate.Length(min=1, max=512), PLAIN_TEXT],
        metadata={"description": "The next_cursor of the page before (none: the first page)"},
    )


class SeatSchema(Schema):
    seat = fields.Integer()
    name = fields.String(allow_none=True)
    joined = fields.Boolean()
    resigned = fields.Boolean(metadata={"description": "The seat resigned (docs/api.md, Lobby)"})


class LobbySchema(Schema):
    private = fields.Boolean()
    resigned = fields.List(fields.Integer(), metadata={"description": "In resignation order"})
    flagged = fields.List(
        fields.Integer(),
        metadata={"description": "Seats whose time ran out, in order (docs/api.md, 'Clocks')"},
    )
    rematch_of = fields.String(allow_none=True)
    rematch = fields.String(allow_none=True, metadata={"description": "The rematch's id"})
    tournament = fields.String(
        allow_none=True,
        metadata={"description": "The tournament whose table this game is (docs/tournaments.md)"},
    )


class ClockSeatSchema(Schema):
    """One seat's clock (docs/api.md, "Clocks")."""

    seat = fields.Integer(required=True)
    remaining_ms = fields.Integer(
        required=True,
        metadata={
            "description": "Milliseconds left as of the last event (as_of); below 0 once "
            "it has run out"
        },
    )
    running = fields.Boolean(required=True, metadata={"description": "The seat may act now"})
    flag_at = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "When a running seat's time runs out (ISO 8601); else null"},
    )
    flagged = fields.Boolean(required=True, metadata={"description": "Its time ran out"})


class ClockViewSchema(Schema):
    """The clocks of a game with a time control, as of its last event (docs/api.md,
    "Clocks"): a client counts down from them without asking again."""

    control = fields.Dict(required=True, metadata={"description": "The time control"})
    as_of = fields.String(
        required=True, metadata={"description": "The last event's timestamp (ISO 8601)"}
    )
    seats = fields.List(fields.Nested(ClockSeatSchema), required=True)
    flag_at = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "When the first running seat's time runs out; null: none runs"},
    )
    flag_seat = fields.Integer(
        required=True, allow_none=True, metadata={"description": "That seat; null: none runs"}
    )


class PendingUndoSchema(Schema):
    """An undo request waiting for answers (docs/audit.md, "Undo")."""

    seat = fields.Integer(required=True, metadata={"description": "The seat that asked"})
    to_version = fields.Integer(
        required=True, metadata={"description": "The version the game goes back to if accepted"}
    )
    turns = fields.Integer(required=True, metadata={"description": "How many turns it takes back"})
    waiting = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "The seats that have not answered yet"},
    )


class GameRowSchema(Schema):
    id = fields.String()
    game = fields.String()
    status = fields.String()
    players = fields.Integer()
    seats = fields.List(fields.Nested(SeatSchema))
    current_players = fields.List(fields.Integer())
    analysis = fields.Boolean()
    scores = fields.List(fields.Integer())
    round = fields.Integer(allow_none=True)
    version = fields.Integer()
    created_at = fields.String()
    last_activity = fields.String()


class GameListSchema(Schema):
    items = fields.List(fields.Nested(GameRowSchema))
    next_cursor = fields.String(
        allow_none=True, metadata={"description": "The cursor of the next page; null: the last"}
    )
    limit = fields.Integer()


class OutcomeSchema(Schema):
    scores = fields.List(fields.Integer())
    ranks = fields.List(fields.Integer())
    winners = fields.List(fields.Integer())
    details = fields.Dict()


class ViewerSchema(Schema):
    seat = fields.Integer(allow_none=True)
    arbiter = fields.Boolean()


class GameViewSchema(Schema):
    id = fields.String()
    game = fields.String()
    version = fields.Integer()
    status = fields.String()
    players = fields.Integer()
    options = fields.Dict()
    seats = fields.List(fields.Nested(SeatSchema))
    viewer = fields.Nested(ViewerSchema)
    current_players = fields.List(fields.Integer())
    settings = fields.Dict()
    analysis = fields.Dict(allow_none=True, metadata={"description": "Source of an analysis game"})
    undo_request = fields.Nested(
        PendingUndoSchema,
        allow_none=True,
        metadata={"description": "An undo request waiting for answers; null when none"},
    )
    chain_head = fields.String(metadata={"description": "Hash of the game's latest event"})
    seed_sha256 = fields.String(metadata={"description": "SHA-256 commitment to the secret seed"})
    seed = fields.String(allow_none=True, metadata={"description": "Revealed when the game ends"})
    moves = fields.Integer()
    created_at = fields.String()
    updated_at = fields.String()
    state = fields.Dict(metadata={"description": "The game's own view for this viewer"})
    outcome = fields.Nested(OutcomeSchema, allow_none=True)
    lobby = fields.Nested(LobbySchema)
    clock = fields.Nested(
        ClockViewSchema,
        allow_none=True,
        metadata={"description": "The clocks (docs/api.md, 'Clocks'); null: the game has none"},
    )


class CreatedGameSchema(GameViewSchema):
    arbiter_token = fields.String(
        allow_none=True, metadata={"description": "Tournament games: the arbiter's secret token"}
    )
    creator_token = fields.String(
        metadata={"description": "Secret, shown once: aborts the game before it starts"}
    )
    join_secret = fields.String(
        allow_none=True, metadata={"description": "Private games: the seats' join secret, once"}
    )


class JoinedSchema(Schema):
    game_id = fields.String()
    seat = fields.Integer()
    token = fields.String(metadata={"description": "Secret: send as 'Authorization: Bearer'"})
    version = fields.Integer()
