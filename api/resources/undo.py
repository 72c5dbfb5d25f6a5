"""Undo: asking to take turns back, answering such a request, the arbiter's undo
(docs/audit.md, "Undo")."""

from __future__ import annotations

from typing import Any

from werkzeug.wrappers import Response

from api import problems, schemas
from api.problems import Failure
from api.requests import Blueprint, expected_version, game_uuid, required_token
from api.resources.common import PREFIX, played_answer, services

blp = Blueprint("undo", __name__, url_prefix=PREFIX, description="Taking turns back")

_UNDO = (
    problems.BODY,
    problems.SEAT,
    problems.GAME,
    problems.VERSIONED,
    Failure(409, "undo-pending"),
    problems.UNDO_REFUSED,
)
"""What every undo command can meet."""

_PLAYER_UNDO = (*_UNDO, Failure(409, "out-of-time"))
"""A player's undo command also meets a flag that fell due before it arrived: the flag is
recorded instead (docs/api.md, "Clocks"); the arbiter's undo is decided as it comes."""


@blp.route("/games/<game_id>/undo-requests", methods=["POST"])
@blp.arguments(schemas.UndoRequest())
@blp.response(200, schemas.PlayedSchema)
@blp.problems(*_PLAYER_UNDO)
def request_undo(body: dict[str, Any], game_id: str) -> Response:
    """Ask to take back the last ``turns`` turns of the line of play, the first of them your
    own (docs/audit.md, "Undo"): at once when nobody must consent (undo 'free' and only your
    own turns); else a request that every other seat ('consent'), or under 'free' each other
    seat whose turn it takes back, accepts or refuses. In a game with a clock, a request that
    arrives after any seat's time ran out flags that seat instead (``out-of-time``;
    docs/api.md, "Clocks")."""
    done = services().app.request_undo(
        game_uuid(game_id), required_token(), body["turns"], expected_version(body)
    )
    return played_answer(game_id, done)


@blp.route("/games/<game_id>/undo-requests/answer", methods=["POST"])
@blp.arguments(schemas.UndoAnswer())
@blp.response(200, schemas.PlayedSchema)
@blp.problems(*_PLAYER_UNDO)
def answer_undo(body: dict[str, Any], game_id: str) -> Response:
    """Accept or refuse the pending undo request; after any seat's time ran out, the answer
    flags that seat instead, which ends the request (``out-of-time``; docs/api.md,
    "Clocks")."""
    done = services().app.answer_undo(
        game_uuid(game_id), required_token(), body["accept"], expected_version(body)
    )
    return played_answer(game_id, done)


@blp.route("/games/<game_id>/arbiter/undo", methods=["POST"])
@blp.arguments(schemas.ArbiterUndoRequest())
@blp.response(200, schemas.PlayedSchema)
@blp.problems(*_UNDO)
def arbiter_undo(body: dict[str, Any], game_id: str) -> Response:
    """The arbiter takes the game back to the end of a turn, with a recorded reason: an
    explicit correction, decided even after a seat's time ran out, giving that time back
    (docs/api.md, "Clocks")."""
    done = services().app.arbiter_undo(
        game_uuid(game_id),
        required_token(),
        body["turn"],
        body["reason"],
        expected_version(body),
    )
    return played_answer(game_id, done)
