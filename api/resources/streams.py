"""Live updates (docs/api.md, "Live updates"): a game's events and the games list's changes
as Server-Sent Events.

``GET /games/{id}/stream`` sends the game's events as its event log shows them to the viewer
(the same use case and presenter, so the same redaction), each as one message whose ``id`` is
the event's version, ``event`` its type and ``data`` the event log's item; it resumes after
``Last-Event-ID`` (or ``?after=``), sends a heartbeat comment when idle, and once the game has
ended and its last event is sent, an ``end`` message and closes (a resume after the end is
``204 No Content``, which tells a browser's EventSource to stop reconnecting).
``GET /games/stream`` sends the games list's rows as they change. The token may come in the
query (``?token=``) for browsers' EventSource, which cannot set headers. Both carry
tournaments' changes as ``tournament`` messages (application/tournament_streams.py): a
tournament table's game stream, what its tournament says of the table; the lobby stream, each
tournament's summary as it changes."""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any
from uuid import UUID

from flask import current_app
from marshmallow import Schema, fields, validate
from werkzeug.wrappers import Response

from api import problems
from api.errors import PROBLEM, ApiError
from api.fields import MAX_INTEGER, PLAIN_TEXT, QueryInteger
from api.problems import RETRY_AFTER_HEADER, Failure, ProblemSchema, description
from api.requests import Blueprint, bearer_token, game_uuid
from api.resources.common import PREFIX, services
from api.sse import (
    CLOSING,
    EVENT_STREAM,
    HEARTBEAT,
    event_stream,
    message,
    no_room,
    opening,
    streams_of,
)
from application.projections.games_list import Position
from application.service import GameLedger, serialised
from application.streams import (
    ListChange,
    Pace,
    SharedReads,
    follow_game,
    follow_list,
    stream_finished,
    tournament_of,
)
from application.tournament_streams import (
    SharedTournaments,
    TableFollower,
    TournamentNews,
    table_settled,
)
from infrastructure.game_wakeups import GameWakeups

blp = Blueprint("streams", __name__, url_prefix=PREFIX, description="Live updates (SSE)")

NO_ROOM: dict[str, Any] = {
    "schema": ProblemSchema,
    "content_type": PROBLEM,
    "description": description(Failure(503, "too-many-streams")),
    "headers": {"Retry-After": RETRY_AFTER_HEADER},
}
"""The 503 of a process full of streams, with its ``Retry-After``."""

_EVENT_ID = re.compile(r"0|[1-9][0-9]{0,15}")


class ResumeHeaders(Schema):
    """The header a browser's EventSource sends when it reconnects."""

    last_event_id = fields.String(
        data_key="Last-Event-ID",
        load_default=None,
        metadata={
            "description": "The id of the last message received (a browser's EventSource "
            "sends it when it reconnects): the stream resumes after it, without loss or "
            "duplicate. It wins over the query's 'after'."
        },
    )


class GameStreamQuery(Schema):
    after = QueryInteger(
        load_default=0,
        minimum=0,
        metadata={"description": "Send the events after this version (0: from the first)"},
    )
    token = fields.String(
        load_default=None,
        validate=[validate.Length(min=1, max=256), PLAIN_TEXT],
        metadata={
            "description": "The seat (or arbiter) token, for clients that cannot send "
            "'Authorization' (EventSource); kept out of the server's access log "
            "(docs/api.md, 'Live updates')"
        },
    )


class ListStreamQuery(Schema):
    after = fields.String(
        load_default=None,
        validate=[validate.Length(min=1, max=512), PLAIN_TEXT],
        metadata={"description": "The id of the last message received (a resume)"},
    )


SSE_MESSAGE: dict[str, Any] = {
    "type": "object",
    "description": "One message of the Server-Sent Events stream (comments, such as the "
    "heartbeat, carry none of these): 'data' is one line of JSON",
    "properties": {
        "id": {"type": "string", "description": "Where to resume: Last-Event-ID"},
        "event": {
            "type": "string",
            "description": "The event's type, 'end', 'game' or 'tournament'",
        },
        "data": {
            "type": "string",
            "description": "JSON: an event log item, a row, a tournament's news or summary",
        },
        "retry": {"type": "integer", "minimum": 0},
    },
}
"""What each message of a stream holds, as Server-Sent Events parsers give it."""


def _stream_doc(summary: str, example: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI description of a stream's answer: ``text/event-stream``."""
    return {
        "responses": {
            "200": {
                "description": summary,
                "content": {
                    EVENT_STREAM: {
                        "schema": SSE_MESSAGE,
                        "example": example,
                    }
                },
            },
        },
    }


GAME_EXAMPLE: dict[str, Any] = {
    "id": "12",
    "event": "TilesTaken",
    "data": '{"version":12,"type":"TilesTaken","timestamp":"2026-11-26T20:00:00+00:00",'
    '"data":{"player":0,"source":4,"colour":"B","count":3,"line":3,"to_line":3,'
    '"to_floor":0,"to_lid":0,"marker":false,"to_centre":["K"]},"sealed":null,'
    '"prev_hash":"9f2c…","hash":"41be…"}',
}
"""One message of a game's stream, as an SSE parser gives it (the raw stream: docs/api.md)."""
LIST_EXAMPLE: dict[str, Any] = {
    "id": "WyIyMDI2LTExLTI2VDIwOjAwOjAwKzAwOjAwIiwiMTIzIl0",
    "event": "game",
    "data": '{"id":"7c3db8b6-1e18-8b3c-9c77-32d86cc34500","game":"azul","status":"active",'
    '"version":12}',
}
"""One message of the lobby stream, as an SSE parser gives it."""


@blp.route("/games/<game_id>/stream", methods=["GET"])
@blp.arguments(GameStreamQuery(), location="query")
@blp.arguments(ResumeHeaders(), location="headers")
@blp.doc(**_stream_doc("The game's events as Server-Sent Events", GAME_EXAMPLE))
@blp.response(200)
@blp.alt_response(204, description="The game has ended and every event was sent: stop")
@blp.problems(
    problems.QUERY,
    Failure(400, "invalid-last-event-id"),
    problems.VIEWER,
    problems.GAME,
)
@blp.alt_response(503, **NO_ROOM)
def game_stream(query: dict[str, Any], headers: dict[str, Any], game_id: str) -> Response:
    """The game's events as the viewer may see them, as Server-Sent Events: each message's
    ``id`` is the event's version, ``event`` its type, ``data`` the event log's item. Resumes
    after ``Last-Event-ID`` (or ``after``); a heartbeat comment when idle; after the last
    event of a finished game an ``end`` message, then the stream closes."""
    uuid = game_uuid(game_id)
    token = _token(query["token"])
    after = _after_version(headers["last_event_id"], query["after"])
    found = services()
    finished = stream_finished(found.app, uuid, token, after)  # 404, 403 here, not streaming
    tournament = tournament_of(found.app, uuid)
    if finished and (tournament is None or table_settled(found.tournaments, tournament, uuid)):
        return Response(status=204)
    streams = streams_of(current_app)
    give_back = streams.take()
    if give_back is None:
        return no_room(streams)
    # woken by the game's own changes; looks for itself at each heartbeat (and at its end)
    settings = streams.settings
    pace = _pace(settings.heartbeat, min(settings.heartbeat, settings.lifetime or math.inf))
    expired = _expiry(streams.settings.lifetime)
    table = None if tournament is None else (tournament, streams.tournaments(found))
    chunks = _game_chunks(
        found.app,
        uuid,
        token,
        after,
        wakeups=streams.wakeups(found),
        pace=pace,
        expired=expired,
        reads=streams.reads,
        table=table,
    )
    return event_stream(_opened(streams.settings.retry_ms, chunks), give_back)


@blp.route("/games/stream", methods=["GET"])
@blp.arguments(ListStreamQuery(), location="query")
@blp.arguments(ResumeHeaders(), location="headers")
@blp.doc(**_stream_doc("The games list's changes as Server-Sent Events", LIST_EXAMPLE))
@blp.response(200)
@blp.problems(problems.QUERY, Failure(400, "invalid-cursor"))
@blp.alt_response(503, **NO_ROOM)
def list_stream(query: dict[str, Any], headers: dict[str, Any]) -> Response:
    """The games list's changes as Server-Sent Events: each message's ``event`` is ``game``,
    ``data`` the game's row as the list shows it now, ``id`` where to resume (the newest
    row's place in the list). Without a resume point it first sends the top of the list."""
    after = headers["last_event_id"] or query["after"]
    if after is not None and len(after) > 512:
        raise ApiError(400, "invalid-cursor", "That is not a cursor of the games list.")
    if after is not None:
        Position.from_cursor(after)  # 400 invalid-cursor before streaming
    found = services()
    streams = streams_of(current_app)
    give_back = streams.take()
    if give_back is None:
        return no_room(streams)
    pace = _pace(streams.settings.heartbeat, streams.settings.poll)
    changes = follow_list(
        found.list_pages,
        after=after,
        waker=found.watcher,
        pace=pace,
        stopped=_expiry(streams.settings.lifetime),
        tournaments=found.tournament_reads.recent,
    )
    return event_stream(_opened(streams.settings.retry_ms, _list_chunks(changes)), give_back)


def _list_chunks(changes: Iterator[ListChange | TournamentNews | None]) -> Iterator[bytes]:
    """The lobby's messages: a game's row with its resume point as ``id``; a tournament's
    summary without one (a resume point is the games list's)."""
    for change in changes:
        if change is None:
            yield HEARTBEAT
        elif isinstance(change, TournamentNews):
            yield message("tournament", serialised(change.data))
        else:
            yield message("game", serialised(change.row), change.resume)


def _game_chunks(
    app: GameLedger,
    game_id: UUID,
    token: str | None,
    after: int,
    *,
    wakeups: GameWakeups,
    pace: Pace,
    expired: Callable[[], bool],
    reads: SharedReads,
    table: tuple[UUID, SharedTournaments] | None,
) -> Iterator[bytes]:
    """The game's messages, then ``end`` once it has finished (a tournament table's game:
    with its ``tournament`` messages, and ``end`` once its tournament has gone past it too);
    nothing more when the stream's lifetime is over (run after the request, without its
    context)."""
    last = after
    with ExitStack() as stack:
        side = None
        if table is None:
            waker = stack.enter_context(wakeups.following(game_id))
        else:
            tournament, shared = table
            waker, changes = stack.enter_context(wakeups.following_both(game_id, tournament))
            side = TableFollower(shared, tournament, game_id, changes)
        followed = follow_game(
            app,
            game_id,
            token=token,
            after=after,
            waker=waker,
            pace=pace,
            stopped=expired,
            reads=reads,
            side=side,
        )
        for item in followed:
            if item is None:
                yield HEARTBEAT
            elif isinstance(item, TournamentNews):
                yield message("tournament", serialised(item.data))
            else:
                last = item["version"]
                yield message(item["type"], serialised(item), str(last))
    if not expired():
        yield message("end", serialised({"version": last}))


def _expiry(lifetime: float) -> Callable[[], bool]:
    """Whether a stream opened now must close: it has lived ``lifetime`` seconds (0: for
    ever), or the process is shutting down."""
    deadline = time.monotonic() + lifetime if lifetime else float("inf")
    return lambda: CLOSING.is_set() or time.monotonic() >= deadline


def _opened(retry_ms: int, chunks: Iterator[bytes]) -> Iterator[bytes]:
    yield opening(retry_ms)
    yield from chunks


def _pace(heartbeat: float, poll: float) -> Pace:
    return Pace(heartbeat=heartbeat, poll=poll)


def _token(in_query: str | None) -> str | None:
    """The viewer's token: ``Authorization: Bearer`` or ``?token=`` (both only if equal)."""
    in_header = bearer_token()
    if in_header is not None and in_query is not None and in_header != in_query:
        raise ApiError(
            401,
            "invalid-authorization",
            "The token in 'Authorization' and the one in '?token=' differ: send one.",
        )
    return in_header or in_query


def _after_version(header: str | None, in_query: int) -> int:
    """Where to resume: ``Last-Event-ID`` (an event's version) if sent, else ``after``."""
    if header is None or not header.strip():
        return in_query
    if not _EVENT_ID.fullmatch(header.strip()) or int(header) > MAX_INTEGER:
        raise ApiError(
            400,
            "invalid-last-event-id",
            "Last-Event-ID must be the id of a message of this stream (an event's version).",
        )
    return int(header)
