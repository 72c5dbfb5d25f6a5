"""marshmallow schemas of every request and response (the OpenAPI document is generated
from them; docs/api.md walks through them). Requests refuse unknown fields (marshmallow's
default)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from api.fields import PLAIN_TEXT, QueryBoolean, QueryInteger, StrictBoolean, StrictInteger

MAX_SEATS = 12
MAX_TEXT = 2000
"""The longest notation a move request may carry."""


class LedgerSettingsSchema(Schema):
    undo = fields.String(
        validate=validate.OneOf(["none", "consent", "free"]),
        metadata={"description": "Who may take turns back (default consent; none in tournaments)"},
    )
    tournament = StrictBoolean(
        metadata={"description": "Only the arbiter may undo; the creator receives its token"}
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


class ForkRequest(Schema):
    turn = StrictInteger(required=True, minimum=0)


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


class ViewQuery(Schema):
    version = QueryInteger(load_default=None, minimum=1)


class EventsQuery(Schema):
    after = QueryInteger(load_default=0, minimum=0)
    limit = QueryInteger(load_default=100, minimum=1, maximum=500)
    type = fields.List(
        fields.String(validate=[validate.Length(max=64), PLAIN_TEXT]),
        load_default=None,
        metadata={"description": "Only events of these types"},
    )


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
    rematch_of = fields.String(allow_none=True)
    rematch = fields.String(allow_none=True, metadata={"description": "The rematch's id"})


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
    undo_request = fields.Dict(allow_none=True)
    chain_head = fields.String(metadata={"description": "Hash of the game's latest event"})
    seed_sha256 = fields.String(metadata={"description": "SHA-256 commitment to the secret seed"})
    seed = fields.String(allow_none=True, metadata={"description": "Revealed when the game ends"})
    moves = fields.Integer()
    created_at = fields.String()
    updated_at = fields.String()
    state = fields.Dict(metadata={"description": "The game's own view for this viewer"})
    outcome = fields.Nested(OutcomeSchema, allow_none=True)
    lobby = fields.Nested(LobbySchema)


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


SCALARS: list[dict[str, Any]] = [{"type": "string"}, {"type": "integer"}, {"type": "boolean"}]
ITEMS = {"anyOf": [{"type": "string"}, {"type": "integer"}]}
VALUE_TYPES: list[dict[str, Any]] = [*SCALARS, {"type": "array", "items": ITEMS}]
OPTION_VALUE = {"anyOf": VALUE_TYPES}
"""What an option takes: a string, an integer, a boolean, or an array of strings or integers
(docs/api.md, "Game types")."""
OPTION_DEFAULT = {
    "anyOf": [*VALUE_TYPES, {"type": "null"}],
    "description": "null: absent unless given",
}
"""An option's default: a value, or null (OpenAPI 3.1: JSON Schema's null type)."""


class OptionInfoSchema(Schema):
    name = fields.String(required=True)
    type = fields.String(
        required=True,
        validate=validate.OneOf(["string", "integer", "boolean", "array"]),
        metadata={"description": "The option's JSON type"},
    )
    default = fields.Raw(
        required=True,
        allow_none=True,
        metadata=OPTION_DEFAULT,
    )
    description = fields.String(required=True)
    values = fields.List(
        fields.Raw(
            metadata={"oneOf": [{"type": "string"}, {"type": "integer"}, {"type": "boolean"}]}
        ),
        required=True,
        metadata={
            "description": "The values it takes, of each item for an array (empty: see the bounds)"
        },
    )
    minimum = fields.Integer(
        required=True, allow_none=True, metadata={"description": "Of the integer, or of each item"}
    )
    maximum = fields.Integer(required=True, allow_none=True)


class PlayerRangeSchema(Schema):
    options = fields.Dict(
        keys=fields.String(),
        values=fields.Raw(metadata=OPTION_VALUE),
        required=True,
        metadata={"description": "The options with which this range holds ({}: the defaults)"},
    )
    min_players = fields.Integer(required=True, validate=validate.Range(min=1))
    max_players = fields.Integer(required=True, validate=validate.Range(min=1))


class CapabilitiesSchema(Schema):
    """What the game's protocol offers beyond the common shape (docs/architecture.md)."""

    simultaneous_moves = fields.Boolean(
        required=True, metadata={"description": "current_players may name several seats at once"}
    )
    hides_information = fields.Boolean(
        required=True, metadata={"description": "Some events show some viewers less (sealed data)"}
    )
    open_moves = fields.Boolean(
        required=True,
        metadata={"description": "legal-moves lists typical moves; others may be legal too"},
    )


class GameTypeSchema(Schema):
    name = fields.String(required=True)
    rules_version = fields.String(
        required=True, metadata={"description": "What every record of this kind names"}
    )
    min_players = fields.Integer(
        required=True, metadata={"description": "The least over every option set"}
    )
    max_players = fields.Integer(
        required=True, metadata={"description": "The most over every option set"}
    )
    player_ranges = fields.List(
        fields.Nested(PlayerRangeSchema),
        required=True,
        metadata={"description": "The first holds with the default options"},
    )
    options = fields.List(
        fields.Nested(OptionInfoSchema),
        required=True,
        metadata={"description": "Every option (their JSON Schema: GET .../schemas, options)"},
    )
    event_types = fields.List(fields.String(), required=True)
    capabilities = fields.Nested(CapabilitiesSchema, required=True)


class GameSchemasSchema(Schema):
    """The JSON Schemas (2020-12) of one game's data, generated from its typed definitions."""

    game = fields.String()
    events = fields.Dict(
        keys=fields.String(), values=fields.Dict(), metadata={"description": "By event type"}
    )
    move = fields.Dict(metadata={"description": "A move's JSON form (MoveRequest.move)"})
    view = fields.Dict(metadata={"description": "A game view's state (GameView.state)"})
    options = fields.Dict(metadata={"description": "The options as fixed at creation"})
    outcome_details = fields.Dict(metadata={"description": "What Outcome.details holds"})
    ledger_events = fields.Dict(
        keys=fields.String(),
        values=fields.Dict(),
        metadata={"description": "By ledger event type (Created, MoveMade, ...): Event.data"},
    )


class RecordSchema(Schema):
    """A game record (docs/audit.md has the field-by-field reference)."""

    format = fields.String()
    format_version = fields.Integer()
    game = fields.Dict()
    seats = fields.List(fields.Dict())
    seed_sha256 = fields.String()
    seed = fields.String(allow_none=True)
    moves = fields.List(fields.Dict())
    events = fields.List(fields.Nested(EventSchema))
    chain_head = fields.String()
    outcome = fields.Dict(allow_none=True)
