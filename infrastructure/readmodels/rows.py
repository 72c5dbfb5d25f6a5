"""Conversions between games-list rows and the columns both SQL stores keep."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from application.projections.games_list import GameRow

COLUMNS = (
    "game_id, game, status, players, seats, current_players, analysis, scores, round, version, "
    "created_at, last_activity"
)


def to_params(row: GameRow) -> dict[str, Any]:
    """Named SQL parameters for a row (lists as JSON text)."""
    return {
        "game_id": row.game_id,
        "game": row.game,
        "status": row.status,
        "players": row.players,
        "seats": json.dumps(row.seats),
        "current_players": json.dumps(row.current_players),
        "analysis": bool(row.analysis),
        "scores": json.dumps(row.scores),
        "round": row.round,
        "version": row.version,
        "created_at": row.created_at,
        "last_activity": row.last_activity,
    }


def from_record(record: Mapping[str, Any]) -> GameRow:
    """A row from a database record (JSON columns as text or already decoded)."""

    def decoded(value: Any) -> Any:
        return json.loads(value) if isinstance(value, str) else value

    return GameRow(
        game_id=str(record["game_id"]),
        game=record["game"],
        status=record["status"],
        players=int(record["players"]),
        seats=decoded(record["seats"]),
        current_players=decoded(record["current_players"]),
        analysis=bool(record["analysis"]),
        scores=decoded(record["scores"]),
        round=record["round"],
        version=int(record["version"]),
        created_at=str(record["created_at"]),
        last_activity=str(record["last_activity"]),
    )


def filters(status: str | None, game: str | None, placeholder: str) -> tuple[str, dict[str, Any]]:
    """The WHERE clause and parameters for the list filters; ``placeholder`` formats a
    parameter name for the driver (``:{}`` for sqlite3, ``%({})s`` for psycopg)."""
    clauses: list[str] = []
    params: dict[str, Any] = {}
    if status is not None:
        clauses.append("status = " + placeholder.format("status"))
        params["status"] = status
    if game is not None:
        clauses.append("game = " + placeholder.format("game"))
        params["game"] = game
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), params
