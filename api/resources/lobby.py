"""The lobby verbs (issue 13, part 4; docs/api.md, "Lobby"): leave a seat before the game
starts, resign, abort a game that has not started, ask for a finished game's rematch, claim a
seat of a rematch. Each is one use case of :mod:`application.lobby`, recorded as a ledger
event of the game."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields
from werkzeug.wrappers import Response

from api import move_schemas, problems, schemas
from api.fields import StrictInteger
from api.problems import Failure
from api.requests import Blueprint, game_uuid, required_token
from api.resources.common import (
    PREFIX,
    Answer,
    game_location,
    joined_answer,
    played_answer,
    services,
)
from application import lobby

blp = Blueprint("lobby", __name__, url_prefix=PREFIX, description="The lobby verbs")


class LobbyCommand(Schema):
    expected_version = StrictInteger(
        minimum=1,
        load_default=None,
        metadata={"description": "The version decided on; optional (docs/api.md, 'Lobby')"},
    )


class ClaimRequest(Schema):
    public_key = move_schemas.public_key_field()


class RematchSchema(Schema):
    game_id = fields.String(metadata={"description": "The rematch"})
    rematch_of = fields.String(metadata={"description": "The finished game it replays"})
    creator_token = fields.String(
        allow_none=True,
        metadata={"description": "Secret, to the caller who made the rematch only (once)"},
    )


_COMMAND = (
    problems.BODY,
    problems.SEAT,
    problems.GAME,
    Failure(409, "stale-version", "concurrent-update"),
)
"""What every lobby command can meet."""


@blp.route("/games/<game_id>/leave", methods=["POST"])
@blp.arguments(LobbyCommand())
@blp.response(200, schemas.PlayedSchema)
@blp.problems(*_COMMAND, Failure(409, "game-started", "game-aborted", "game-expired"))
def leave_game(body: dict[str, Any], game_id: str) -> Response:
    """Leave your seat before the game starts (the seat's token): the seat is free again and
    the token holds nothing any more."""
    done = lobby.leave(
        services().app, game_uuid(game_id), required_token(), body["expected_version"]
    )
    return played_answer(game_id, done)


@blp.route("/games/<game_id>/resign", methods=["POST"])
@blp.arguments(LobbyCommand())
@blp.response(200, schemas.PlayedSchema)
@blp.problems(
    *_COMMAND,
    Failure(
        409,
        "game-not-started",
        "seat-resigned",
        "seat-flagged",
        "seat-out-of-play",
        "undo-pending",
        "out-of-time",
    ),
    Failure(422, "game-over"),
)
def resign_game(body: dict[str, Any], game_id: str) -> Response:
    """Resign (the seat's token): with one seat left playing the game ends and that seat
    wins; else the game's bot plays your seat out, ranked last (each game's doc, "Resigning").
    From then on your token sees what a spectator sees until the game ends. In a game with a
    clock, a resignation that arrives after any seat's time ran out flags that seat instead
    (``out-of-time``; docs/api.md, "Clocks")."""
    done = lobby.resign(
        services().app, game_uuid(game_id), required_token(), body["expected_version"]
    )
    return played_answer(game_id, done)


@blp.route("/games/<game_id>/abort", methods=["POST"])
@blp.arguments(LobbyCommand())
@blp.response(200, schemas.PlayedSchema)
@blp.problems(*_COMMAND, Failure(409, "game-started", "game-aborted", "game-expired"))
def abort_game(body: dict[str, Any], game_id: str) -> Response:
    """Call off a game that has not started, with the creator's token (returned once at
    creation as ``creator_token``)."""
    done = lobby.abort(
        services().app, game_uuid(game_id), required_token(), body["expected_version"]
    )
    return played_answer(game_id, done)


@blp.route("/games/<game_id>/rematch", methods=["POST"])
@blp.response(201, RematchSchema)
@blp.problems(
    problems.SEAT,
    problems.GAME,
    Failure(409, "game-not-finished", "no-rematch", "concurrent-update"),
)
def rematch_game(game_id: str) -> Answer:
    """Play again (a seat's token of this finished game): a new game with the same kind,
    seats, options and settings and a new seed, each seat kept for its player here (POST
    .../claim in the new game). The first call creates it (201, with its creator's token);
    later calls answer 201 with the same game and no token."""
    made = lobby.rematch(services().app, game_uuid(game_id), required_token())
    answer = {
        "game_id": str(made.game_id),
        "rematch_of": game_id,
        "creator_token": made.creator_token,
    }
    return answer, 201, {"Location": game_location(made.game_id)}


@blp.route("/games/<game_id>/claim", methods=["POST"])
@blp.arguments(ClaimRequest())
@blp.response(201, schemas.JoinedSchema)
@blp.problems(
    problems.BODY,
    problems.SEAT,
    problems.GAME,
    Failure(422, "bad-public-key"),
    Failure(
        409,
        "not-a-rematch",
        "seat-taken",
        "game-aborted",
        "game-expired",
        "concurrent-update",
    ),
)
def claim_seat(body: dict[str, Any], game_id: str) -> Answer:
    """Take your seat of a rematch with your token of the game it replays: same seat, same
    name, a new token (shown once). A public key is not carried over from the replayed game:
    send ``public_key`` to sign this game's moves too (docs/api.md, "Signed moves")."""
    joined = lobby.claim(
        services().app,
        game_uuid(game_id),
        required_token(),
        services().settings.lobby_expiry_seconds,
        public_key=body["public_key"],
    )
    return joined_answer(game_id, joined)
