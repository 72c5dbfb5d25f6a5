"""The clocks (issue 15, part 5; docs/api.md, "Clocks"): any player's claim that a seat's time
has run out. The game decides (:meth:`domain.game.Game.flag`): a seat that still has time is
refused; a flagged seat is out of play as a resigned seat is. The scheduler that follows the
clocks flags the same way without being asked (:mod:`infrastructure.clock_schedule`)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema
from werkzeug.wrappers import Response

from api import problems, schemas
from api.fields import StrictInteger
from api.problems import Failure
from api.requests import Blueprint, game_uuid, required_token
from api.resources.common import PREFIX, played_answer, services
from application import clocks

blp = Blueprint("clocks", __name__, url_prefix=PREFIX, description="Clocks: flag a seat")


class FlagRequest(Schema):
    seat = StrictInteger(
        load_default=None,
        allow_none=True,
        minimum=0,
        maximum=schemas.MAX_SEATS - 1,
        metadata={
            "description": "The seat whose time ran out; omitted: the first seat whose time has"
        },
    )
    expected_version = StrictInteger(
        minimum=1,
        load_default=None,
        metadata={"description": "The version decided on; optional (docs/api.md, 'Clocks')"},
    )


@blp.route("/games/<game_id>/flag", methods=["POST"])
@blp.arguments(FlagRequest())
@blp.response(200, schemas.PlayedSchema)
@blp.problems(
    problems.BODY,
    problems.SEAT,
    problems.GAME,
    Failure(
        409,
        "time-remaining",
        "clock-stopped",
        "no-clock",
        "game-not-started",
        "seat-out-of-play",
        "no-such-seat",
        "stale-version",
        "concurrent-update",
    ),
    Failure(422, "game-over"),
)
def flag_seat(body: dict[str, Any], game_id: str) -> Response:
    """Claim that a seat's time has run out (any seat's token): the seat is flagged — with two
    players the game ends and the other seat wins; with more, the bot plays the seat out and
    it is ranked last (each game's doc, "Clocks"). Refused with ``time-remaining`` while the
    seat still has time."""
    done = clocks.claim_flag(
        services().app,
        game_uuid(game_id),
        required_token(),
        body["seat"],
        body["expected_version"],
    )
    return played_answer(game_id, done)
