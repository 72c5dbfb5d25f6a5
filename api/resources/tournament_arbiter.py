"""The arbiter (issue 15, part 4; docs/api.md, "Tournaments"; docs/tournaments.md, "The
arbiter"): the organiser's token decides — forfeit a table's no-shows, adjudicate a game that
cannot be finished, correct a result, award a penalty, disqualify an entrant, finish the
tournament — each recorded with its reason and shown in the standings' ``history``; and the
arbiter's token of every table's game, for the arbiter's undo inside a game (``POST
/games/{id}/arbiter/undo``)."""

from __future__ import annotations

from typing import Any

from api import problems
from api import tournament_request_schemas as rq
from api import tournament_schemas as ts
from api.problems import Failure
from api.requests import Blueprint, required_token, tournament_uuid
from api.resources.common import PREFIX, Answer, services
from api.resources.tournaments import COMMAND, changed

blp = Blueprint(
    "tournament_arbiter",
    __name__,
    url_prefix=PREFIX,
    description="The arbiter's acts on a tournament, its end, its tables' arbiter tokens",
)

_TABLE = (
    *COMMAND,
    Failure(404, "no-such-table"),
    Failure(422, "not-plain-text"),
)
"""What every act on a table can meet."""

_UNDECIDED = Failure(409, "table-decided", "table-game-ended")
"""A forfeit or an adjudication decides a table that has no result and whose game has not
ended (its outcome decides it then)."""

_ENTRANT = (*COMMAND, Failure(404, "no-such-entrant"), Failure(422, "not-plain-text"))
"""What every act on an entrant can meet."""


def _act(tournament_id: str, act: Any) -> Answer:
    uuid = tournament_uuid(tournament_id)
    done = services().tournaments.organiser(uuid, required_token(), act)
    return changed(uuid, done.version)


def _decide(tournament_id: str, game: str, act: Any) -> Answer:
    """A forfeit or an adjudication: refused once the table's game has ended (409
    ``table-game-ended``: its outcome decides the table)."""
    uuid = tournament_uuid(tournament_id)
    done = services().tournaments.decide_table(uuid, required_token(), game, act)
    return changed(uuid, done.version)


@blp.route("/tournaments/<tournament_id>/arbiter/forfeit", methods=["POST"])
@blp.arguments(rq.ForfeitRequest())
@blp.response(200, ts.TournamentChangedSchema)
@blp.problems(*_TABLE, _UNDECIDED, Failure(409, "no-show-moved"), Failure(422, "bad-forfeit"))
def forfeit_table(body: dict[str, Any], tournament_id: str) -> Answer:
    """Forfeit the no-shows (``absent``: entrant ids) of a table that has no result and whose
    game has not ended: the others share first place, the no-shows the place after them, no
    game score; the tournament goes on as after any result."""
    game, absent, reason = body["game"], body["absent"], body["reason"]
    return _decide(tournament_id, game, lambda t: t.forfeit(game, absent, reason))


@blp.route("/tournaments/<tournament_id>/arbiter/adjudicate", methods=["POST"])
@blp.arguments(rq.ResultRequest())
@blp.response(200, ts.TournamentChangedSchema)
@blp.problems(*_TABLE, _UNDECIDED, Failure(422, "bad-ranks", "bad-scores"))
def adjudicate_table(body: dict[str, Any], tournament_id: str) -> Answer:
    """Decide the result of a table's game that cannot be finished (and has not ended):
    ``ranks`` (one per seat, competition ranks), ``scores`` (default 0s). Not rated."""
    game, ranks, scores, reason = body["game"], body["ranks"], body["scores"], body["reason"]
    return _decide(tournament_id, game, lambda t: t.adjudicate(game, ranks, scores, reason))


@blp.route("/tournaments/<tournament_id>/arbiter/correct", methods=["POST"])
@blp.arguments(rq.ResultRequest())
@blp.response(200, ts.TournamentChangedSchema)
@blp.problems(
    *_TABLE,
    Failure(409, "table-not-decided", "tournament-not-running", "next-round-paired"),
    Failure(422, "bad-ranks", "bad-scores"),
)
def correct_result(body: dict[str, Any], tournament_id: str) -> Answer:
    """Correct a decided table's result while the tournament runs (``scores`` omitted: kept).
    Rounds already paired stay as they were; the standings and ratings follow the corrected
    result."""
    game, ranks, scores, reason = body["game"], body["ranks"], body["scores"], body["reason"]
    return _act(tournament_id, lambda t: t.correct_result(game, ranks, scores, reason))


@blp.route("/tournaments/<tournament_id>/arbiter/penalty", methods=["POST"])
@blp.arguments(rq.PenaltyRequest())
@blp.response(200, ts.TournamentChangedSchema)
@blp.problems(*_ENTRANT, Failure(409, "tournament-not-running"), Failure(422, "bad-penalty"))
def penalise_entrant(body: dict[str, Any], tournament_id: str) -> Answer:
    """Deduct ``points`` tournament points (above 0, at most 1,000) from an entrant with a
    pairing number, while the tournament runs."""
    entrant, points, reason = body["entrant"], body["points"], body["reason"]
    return _act(tournament_id, lambda t: t.penalise(entrant, points, reason))


@blp.route("/tournaments/<tournament_id>/arbiter/disqualify", methods=["POST"])
@blp.arguments(rq.EntrantActRequest())
@blp.response(200, ts.TournamentChangedSchema)
@blp.problems(*_ENTRANT, Failure(409, "tournament-not-running", "entrant-left"))
def disqualify_entrant(body: dict[str, Any], tournament_id: str) -> Answer:
    """Disqualify an entrant of a running tournament who has not left: seated no more,
    ranked last."""
    entrant, reason = body["entrant"], body["reason"]
    return _act(tournament_id, lambda t: t.disqualify(entrant, reason))


@blp.route("/tournaments/<tournament_id>/finish", methods=["POST"])
@blp.response(200, ts.TournamentChangedSchema)
@blp.problems(
    problems.SEAT,
    problems.TOURNAMENT,
    Failure(409, "tournament-not-running", "no-round-yet", "round-not-over", "concurrent-update"),
)
def finish_tournament(tournament_id: str) -> Answer:
    """The organiser finishes the tournament once a round is over (before the planned
    rounds, or where none is planned): the final ranking is recorded and the seed revealed.
    A tournament whose last planned round ends finishes by itself."""
    return _act(tournament_id, lambda t: t.finish())


@blp.route("/tournaments/<tournament_id>/arbiter/tokens", methods=["GET"])
@blp.response(200, ts.ArbiterTokensSchema)
@blp.problems(problems.SEAT, problems.TOURNAMENT)
def arbiter_tokens(tournament_id: str) -> dict[str, Any]:
    """The arbiter's token of every table's game (the organiser's token): the arbiter's undo
    inside a game (docs/audit.md, "Undo"), its view as the arbiter."""
    uuid = tournament_uuid(tournament_id)
    tables = services().tournaments.arbiter_tokens(uuid, required_token())
    return {"tournament_id": tournament_id, "tables": tables}
