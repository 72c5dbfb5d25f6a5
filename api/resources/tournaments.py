"""Tournaments (issue 15, part 7; docs/api.md, "Tournaments"): the list, creating one (the
organiser's token shown once), its public document, and registration — entrants register
(their token shown once), withdraw, check in; the organiser removes an entrant, opens
check-in and starts. Each command is one use case of :mod:`application.tournaments`; the
tournament's version after it is the ``ETag``. Tokens go in ``Authorization: Bearer``."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import url_for

from api import problems
from api import tournament_request_schemas as rq
from api import tournament_schemas as ts
from api.problems import Failure
from api.requests import Blueprint, required_token, tournament_uuid
from api.resources.common import PREFIX, Answer, services, with_etag
from application.tournament_documents import current_document
from application.tournament_views import document_of

blp = Blueprint(
    "tournaments",
    __name__,
    url_prefix=PREFIX,
    description="Tournaments: the list, creating one, registration, check-in, the start",
)

COMMAND = (problems.BODY, problems.SEAT, problems.TOURNAMENT, Failure(409, "concurrent-update"))
"""What every tournament command with a token can meet (a command that loses races to other
saves five times over is 409 ``concurrent-update``: nothing changed, try again)."""


def tournament_location(tournament_id: UUID | str) -> str:
    """The URL of a tournament's document."""
    return url_for("tournaments.get_tournament", tournament_id=str(tournament_id))


def changed(tournament_id: UUID | str, version: int) -> Answer:
    """A command's answer: the tournament's version after it (also the ``ETag``)."""
    return with_etag({"tournament_id": str(tournament_id), "version": version}, version)


def document(tournament_id: str) -> dict[str, Any]:
    """The tournament's public document as of every command committed (docs/api.md,
    "Tournaments", consistency); 404 ``tournament-not-found``."""
    found = services()
    return current_document(
        found.tournaments, found.tournament_reads, tournament_uuid(tournament_id)
    )


@blp.route("/tournaments", methods=["GET"])
@blp.arguments(rq.TournamentListQuery(), location="query")
@blp.response(200, ts.TournamentListSchema)
@blp.problems(problems.QUERY, Failure(400, "invalid-cursor"))
def list_tournaments(query: dict[str, Any]) -> dict[str, Any]:
    """The tournaments (a read model), newest first, filtered by ``game`` and ``phase``; a
    page at a time (``next_cursor`` gives the next page's ``cursor``)."""
    items, following = services().tournament_reads.page(
        query["limit"], query["cursor"], query["game"], query["phase"]
    )
    return {"items": items, "next_cursor": following, "limit": query["limit"]}


@blp.route("/tournaments", methods=["POST"])
@blp.arguments(rq.CreateTournamentRequest())
@blp.response(201, ts.CreatedTournamentSchema)
@blp.problems(
    problems.BODY,
    Failure(404, "unknown-game"),
    Failure(
        422,
        "invalid-format",
        "invalid-options",
        "invalid-clock",
        "not-plain-text",
        note="and a game's own option codes",
    ),
)
def create_tournament(body: dict[str, Any]) -> Answer:
    """Create a tournament of one game kind, its options, ledger settings and format fixed
    for every table (docs/tournaments.md, "Creation"): its public document and, once, the
    ``organiser_token`` — the only way to run it; the service keeps only its SHA-256."""
    desk = services().tournaments
    created = desk.create(
        body["game"], body["options"], body["settings"], body["format"], body["name"]
    )
    answer = {
        **document_of(desk.load(created.tournament_id)),
        "organiser_token": created.organiser_token,
    }
    return with_etag(answer, answer["version"], 201, tournament_location(created.tournament_id))


@blp.route("/tournaments/<tournament_id>", methods=["GET"])
@blp.response(200, ts.TournamentSchema)
@blp.problems(problems.TOURNAMENT)
def get_tournament(tournament_id: str) -> Answer:
    """The tournament's public document: settings, format, entrants, rounds and tables with
    their results, standings, the arbiter's acts, ratings; the seed once finished (only its
    SHA-256 before). With ``If-None-Match`` naming its version: 304."""
    found = document(tournament_id)
    return with_etag(found, found["version"])


@blp.route("/tournaments/<tournament_id>/entrants", methods=["POST"])
@blp.arguments(rq.RegisterRequest())
@blp.response(201, ts.RegisteredSchema)
@blp.problems(
    problems.BODY,
    problems.TOURNAMENT,
    Failure(
        409,
        "registration-closed",
        "tournament-full",
        "name-taken",
        "tournament-finished",
        "concurrent-update",
    ),
    Failure(422, "not-plain-text"),
)
def register_entrant(body: dict[str, Any], tournament_id: str) -> Answer:
    """Register (no token needed): the entrant's id and, once, its token — the way to check
    in, withdraw and reach your tables' seats. After the start only in a Swiss that takes late
    entries (a late entrant is checked in at once)."""
    uuid = tournament_uuid(tournament_id)
    registered = services().tournaments.register(uuid, body["name"])
    answer = {
        "tournament_id": tournament_id,
        "entrant": registered.entrant,
        "token": registered.token,
        "version": registered.version,
    }
    return with_etag(answer, registered.version, 201, tournament_location(uuid))


@blp.route("/tournaments/<tournament_id>/withdraw", methods=["POST"])
@blp.arguments(rq.WithdrawRequest())
@blp.response(200, ts.TournamentChangedSchema)
@blp.problems(
    *COMMAND,
    Failure(404, "no-such-entrant"),
    Failure(409, "entrant-left", "tournament-finished"),
)
def withdraw_entrant(body: dict[str, Any], tournament_id: str) -> Answer:
    """Withdraw, with your entrant token; or, with the organiser's, the ``entrant`` named.
    After the start your pairing number stays and you are seated no more."""
    uuid = tournament_uuid(tournament_id)
    done = services().tournaments.withdraw(uuid, required_token(), body["entrant"])
    return changed(uuid, done.version)


@blp.route("/tournaments/<tournament_id>/check-in", methods=["POST"])
@blp.response(200, ts.TournamentChangedSchema)
@blp.problems(
    problems.SEAT,
    problems.TOURNAMENT,
    Failure(409, "check-in-not-open", "checked-in", "entrant-left", "concurrent-update"),
)
def check_in(tournament_id: str) -> Answer:
    """Check in, with your entrant token, while check-in is open: only entrants who checked in
    are drawn at the start."""
    uuid = tournament_uuid(tournament_id)
    return changed(uuid, services().tournaments.check_in(uuid, required_token()).version)


@blp.route("/tournaments/<tournament_id>/remove", methods=["POST"])
@blp.arguments(rq.EntrantActRequest())
@blp.response(200, ts.TournamentChangedSchema)
@blp.problems(
    *COMMAND,
    Failure(404, "no-such-entrant"),
    Failure(409, "entrant-left", "tournament-finished"),
    Failure(422, "not-plain-text"),
)
def remove_entrant(body: dict[str, Any], tournament_id: str) -> Answer:
    """The organiser removes an entrant who has not left, for a reason (plain text), in any
    phase before the end (a disqualification with its effect on results is the arbiter's)."""
    uuid = tournament_uuid(tournament_id)
    entrant, reason = body["entrant"], body["reason"]
    done = services().tournaments.organiser(
        uuid, required_token(), lambda t: t.remove(entrant, reason)
    )
    return changed(uuid, done.version)


@blp.route("/tournaments/<tournament_id>/open-check-in", methods=["POST"])
@blp.response(200, ts.TournamentChangedSchema)
@blp.problems(
    problems.SEAT, problems.TOURNAMENT, Failure(409, "check-in-open", "concurrent-update")
)
def open_check_in(tournament_id: str) -> Answer:
    """The organiser opens check-in (once, during registration); entrants may still
    register."""
    uuid = tournament_uuid(tournament_id)
    done = services().tournaments.organiser(uuid, required_token(), lambda t: t.open_check_in())
    return changed(uuid, done.version)


@blp.route("/tournaments/<tournament_id>/start", methods=["POST"])
@blp.response(200, ts.TournamentChangedSchema)
@blp.problems(
    problems.SEAT,
    problems.TOURNAMENT,
    Failure(
        409, "tournament-started", "check-in-not-open", "too-few-entrants", "concurrent-update"
    ),
)
def start_tournament(tournament_id: str) -> Answer:
    """The organiser starts: the entrants who checked in are drawn their pairing numbers
    from the tournament's seed, the others are absent, and round 1 is paired and its tables'
    games created with every seat taken (``GET .../tables/mine`` gives each entrant its seat
    tokens)."""
    uuid = tournament_uuid(tournament_id)
    done = services().tournaments.organiser(uuid, required_token(), lambda t: t.start())
    return changed(uuid, done.version)
