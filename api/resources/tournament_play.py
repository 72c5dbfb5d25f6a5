"""A tournament's play (issue 15, part 7; docs/api.md, "Tournaments"): its rounds, pairing
the next one (the organiser, where pairing is ``organiser``), its tables with their games and
results, an entrant's own seats with their tokens, the standings with the transparency log's
latest signed tree head, ratings — one tournament's, and a game kind's across tournaments —
and a finished tournament's record. One tournament's reads show every command committed
before the request (application/tournament_documents.py); the version is the ``ETag``."""

from __future__ import annotations

from typing import Any

from flask import url_for
from werkzeug.wrappers import Response

from api import problems, tlog_schemas
from api import tournament_request_schemas as rq
from api import tournament_schemas as ts
from api.problems import Failure
from api.requests import Blueprint, required_token, tournament_uuid
from api.resources.common import PREFIX, Answer, services, with_etag
from api.resources.tournaments import document
from application.checkpoints import tournament_log_name
from application.reads import serialised
from application.tournament_documents import (
    current_document,
    ratings_of,
    round_of,
    rounds_of,
    standings_of,
    tables_of,
)
from application.tournament_records import LogProofs
from application.tournament_records import tournament_record as tournament_record_of
from application.transparency import latest_head
from domain.registry import rules_for
from domain.tournament.aggregate import Tournament

blp = Blueprint(
    "tournament_play",
    __name__,
    url_prefix=PREFIX,
    description="A tournament's rounds, tables, your seats, standings and ratings",
)


@blp.route("/tournaments/<tournament_id>/rounds", methods=["GET"])
@blp.response(200, ts.TournamentRoundsSchema)
@blp.problems(problems.TOURNAMENT)
def list_rounds(tournament_id: str) -> Answer:
    """Every round paired so far: its tables (entrants in seat order, seat 0 moves first;
    the table's game; its result, null while it plays) and its byes."""
    found = document(tournament_id)
    body = {"tournament_id": tournament_id, "version": found["version"]}
    return with_etag({**body, "rounds": rounds_of(found)}, found["version"])


@blp.route("/tournaments/<tournament_id>/rounds/<turn:number>", methods=["GET"])
@blp.response(200, ts.TournamentRoundSchema)
@blp.problems(problems.TOURNAMENT, Failure(404, "no-such-round"))
def get_round(tournament_id: str, number: int) -> Answer:
    """Round ``number`` (1-based); 404 ``no-such-round`` before it is paired."""
    found = document(tournament_id)
    return with_etag(round_of(found, number), found["version"])


@blp.route("/tournaments/<tournament_id>/rounds", methods=["POST"])
@blp.response(201, ts.PairedRoundSchema)
@blp.problems(
    problems.SEAT,
    problems.TOURNAMENT,
    Failure(409, "tournament-not-running", "round-not-over", "no-round-left", "concurrent-update"),
)
def pair_round(tournament_id: str) -> Answer:
    """The organiser pairs the next round once the last is over (where the format's pairing
    is ``organiser``; with ``auto`` the service pairs it when the last table ends): the round,
    its tables' games created with every seat taken."""
    uuid = tournament_uuid(tournament_id)
    found = services()
    desk = found.tournaments
    token = required_token()

    def pair(t: Tournament) -> int:
        desk.check_organiser(t, token)
        return int(t.pair_next_round().number)

    version, number = desk.command(uuid, pair)
    paired = round_of(current_document(desk, found.tournament_reads, uuid), number)
    location = url_for("tournament_play.get_round", tournament_id=tournament_id, number=number)
    return with_etag({**paired, "version": version}, version, 201, location)


@blp.route("/tournaments/<tournament_id>/tables", methods=["GET"])
@blp.response(200, ts.TournamentTablesSchema)
@blp.problems(problems.TOURNAMENT)
def list_tables(tournament_id: str) -> Answer:
    """Every table of every round, round by round: its game (play it, watch it, verify its
    record with the games' endpoints), its entrants in seat order and its result."""
    found = document(tournament_id)
    body = {"tournament_id": tournament_id, "version": found["version"]}
    return with_etag({**body, "tables": tables_of(found)}, found["version"])


@blp.route("/tournaments/<tournament_id>/tables/mine", methods=["GET"])
@blp.response(200, ts.MyTablesSchema)
@blp.problems(problems.SEAT, problems.TOURNAMENT)
def my_tables(tournament_id: str) -> dict[str, Any]:
    """Your tables, every round (your entrant token): each table's game, your seat and the
    seat's token in that game — send it as ``Authorization: Bearer`` to the game's endpoints
    (view, legal moves, moves, stream). The tokens are derived, not stored: ask again any
    time."""
    uuid = tournament_uuid(tournament_id)
    desk = services().tournaments
    token = required_token()
    entrant = desk.entrant_of(desk.load(uuid), token)
    return {
        "tournament_id": tournament_id,
        "entrant": entrant,
        "tables": desk.my_tables(uuid, token),
    }


@blp.route("/tournaments/<tournament_id>/standings", methods=["GET"])
@blp.response(200, ts.StandingsSchema)
@blp.problems(problems.TOURNAMENT)
def get_standings(tournament_id: str) -> Answer:
    """The standings (points, tie-breaks, games, byes, penalties) in the standing order, the
    arbiter's acts in order (``history``), the final ``ranking`` once finished, and the
    transparency log's latest signed tree head (``tree_head``): the tables' games' records
    prove their inclusion against it (``GET /games/{id}/record?tree_size=``), and whether it
    already holds the tournament's own checkpoint of this version (``checkpointed``: a
    finished tournament's end is logged a moment after it ends — keep a head that holds it to
    verify the tournament's record against). The ``ETag`` is the tournament's version and the
    tree head's size (``"12-5"``)."""
    found = services()
    body = standings_of(document(tournament_id))
    head = latest_head(found.tlog.store, found.keys)
    version = body["version"]
    logged = found.tlog.store.latest_of(tournament_log_name(tournament_id), version, head["size"])
    checkpointed = logged is not None and logged["checkpoint"]["version"] == version
    answer = {**body, "tree_head": head, "checkpointed": checkpointed}
    return answer, 200, {"ETag": f'"{body["version"]}-{head["size"]}"'}


@blp.route("/tournaments/<tournament_id>/ratings", methods=["GET"])
@blp.response(200, ts.TournamentRatingsSchema)
@blp.problems(problems.TOURNAMENT)
def tournament_ratings(tournament_id: str) -> Answer:
    """Every numbered entrant's OpenSkill rating in the tournament's game kind (docs/
    tournaments.md, "Ratings"), best ``ordinal`` first; null until its first rated game."""
    found = document(tournament_id)
    return with_etag(ratings_of(found), found["version"])


@blp.route("/tournaments/<tournament_id>/record", methods=["GET"])
@blp.arguments(tlog_schemas.RecordQuery(), location="query")
@blp.response(200, ts.TournamentRecordSchema)
@blp.problems(
    problems.QUERY,
    problems.TOURNAMENT,
    Failure(404, "tree-head-not-found"),
    Failure(409, "tournament-not-finished"),
)
def tournament_record(query: dict[str, Any], tournament_id: str) -> Response:
    """A finished tournament's self-contained record (docs/tournaments.md, "The tournament
    record"): its events, every table's game record, each round's pairing inputs, the
    standings, and the proofs that the service logged its chain and every game — all against
    the latest signed tree head, or the stored one of ``tree_size`` entries. ``gameledger
    verify`` re-derives every pairing, game and standing from it. 409 before the end (its seed
    is secret until then). The ``ETag`` is the version and the tree head's size."""
    found = services()
    uuid = tournament_uuid(tournament_id)
    size = query["tree_size"]
    if size is None:
        size = latest_head(found.tlog.store, found.keys)["size"]
    proofs = LogProofs(found.tlog.store, found.keys, size)
    record = tournament_record_of(
        found.app, found.tournaments, uuid, proofs=proofs, records=found.records
    )
    answer = Response(serialised(record), mimetype="application/json")
    answer.headers["ETag"] = f'"{record["events"][-1]["version"]}-{size}"'
    return answer


@blp.route("/ratings", methods=["GET"])
@blp.arguments(rq.RatingsQuery(), location="query")
@blp.response(200, ts.GameRatingsSchema)
@blp.problems(problems.QUERY, Failure(404, "unknown-game"))
def game_ratings(query: dict[str, Any]) -> dict[str, Any]:
    """The best ratings of a game kind across tournaments (a read model), best ``ordinal``
    first, each with the tournament it was earned in (an entrant belongs to one
    tournament)."""
    game = rules_for(query["game"]).name
    return {"game": game, "ratings": services().tournament_reads.top_ratings(game, query["limit"])}
