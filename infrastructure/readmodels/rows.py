"""What both SQL stores keep of a games-list row: the columns the list is filtered and ordered
by, and the row's JSON document (application/projections/games_list.py)."""

from __future__ import annotations

from typing import Any

from application.projections.games_list import GameRow, Position

COLUMNS = "game_id, game, status, last_activity, doc"

SCHEMA_VERSION = 2
"""Version 2 keeps each row as its JSON document (``doc``) beside the columns the list is
filtered and ordered by; earlier versions kept a column per field. An upgrade from an earlier
version makes the table anew, and the follower fills it again from the log."""


def to_params(row: GameRow) -> dict[str, Any]:
    """Named SQL parameters for a row."""
    return {
        "game_id": row.game_id,
        "game": row.game,
        "status": row.status,
        "last_activity": row.last_activity,
        "doc": row.document(),
    }


def filters(
    status: str | None, game: str | None, after: Position | None, placeholder: str
) -> tuple[str, dict[str, Any]]:
    """The WHERE clause and parameters for the list filters and the keyset position;
    ``placeholder`` formats a parameter name for the driver (``:{}`` for sqlite3, ``%({})s``
    for psycopg)."""
    clauses: list[str] = []
    params: dict[str, Any] = {}
    if status is not None:
        clauses.append("status = " + placeholder.format("status"))
        params["status"] = status
    if game is not None:
        clauses.append("game = " + placeholder.format("game"))
        params["game"] = game
    if after is not None:
        activity, game_id = placeholder.format("after_activity"), placeholder.format("after_id")
        clauses.append(f"(last_activity, game_id) < ({activity}, {game_id})")
        params["after_activity"] = after.last_activity
        params["after_id"] = after.game_id
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), params


ORDER = " ORDER BY last_activity DESC, game_id DESC"

INDEXES = [
    ("games_list_activity", "last_activity DESC, game_id DESC"),
    ("games_list_status_activity", "status, last_activity DESC, game_id DESC"),
    ("games_list_game_activity", "game, last_activity DESC, game_id DESC"),
]
"""The secondary indexes: every filter and page is an index range in list order."""
