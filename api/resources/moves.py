"""Moves: the legal moves of the token's seat, and making a move."""

from __future__ import annotations

from typing import Any

from werkzeug.wrappers import Response

from api import problems, schemas
from api.problems import Failure
from api.requests import Blueprint, expected_version, game_uuid, required_token
from api.resources.common import PREFIX, Answer, played_answer, services, with_etag

blp = Blueprint("moves", __name__, url_prefix=PREFIX, description="Legal moves, making a move")


@blp.route("/games/<game_id>/legal-moves", methods=["GET"])
@blp.response(200, schemas.LegalMovesSchema)
@blp.problems(problems.SEAT, problems.GAME)
def legal_moves(game_id: str) -> Answer:
    """Every move the token's seat may make now."""
    answer = services().app.legal_moves(game_uuid(game_id), required_token())
    return with_etag(answer, answer["version"])


@blp.route("/games/<game_id>/moves", methods=["POST"])
@blp.arguments(schemas.MoveRequest())
@blp.response(200, schemas.PlayedSchema)
@blp.problems(
    problems.BODY,
    problems.SEAT,
    problems.GAME,
    problems.VERSIONED,
    Failure(
        409, "game-not-started", "undo-pending", "seat-resigned", "seat-flagged", "out-of-time"
    ),
    Failure(
        422,
        "malformed-move",
        "not-your-turn",
        "game-over",
        "signature-required",
        "bad-signature",
        "unexpected-signature",
        note="and each game's own codes (docs/azul.md, docs/carcassonne.md, docs/risk.md)",
    ),
)
def make_move(body: dict[str, Any], game_id: str) -> Response:
    """Make a move on the version the client saw (``expected_version`` or If-Match); a seat
    that registered a public key signs it (``signature``; docs/api.md, "Signed moves"). In a
    game with a clock the move's time is measured on arrival; a move that arrives after the
    seat's time ran out flags the seat instead (``out-of-time``; docs/api.md, "Clocks")."""
    done = services().app.play(
        game_uuid(game_id),
        required_token(),
        body["move"],
        expected_version(body),
        notation=body["notation"],
        signature=body["signature"],
    )
    return played_answer(game_id, done)
