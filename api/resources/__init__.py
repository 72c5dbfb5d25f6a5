"""The routes of ``/api/v1`` (docs/api.md, "Endpoints"), one flask-smorest blueprint per
resource, each in its own module: games, seats, moves, turns, undo, forks, records,
rendering, lobby, clocks, streams, keys, transparency, and the tournaments' (tournaments,
tournament_play, tournament_arbiter). Each route is thin: it reads the request,
calls one use case and shapes the answer; errors are raised and turned into problem+json by
api/errors.py, and declared by api/problems.py."""

from __future__ import annotations

from api.requests import Blueprint
from api.resources import (
    clocks,
    forks,
    games,
    keys,
    lobby,
    moves,
    records,
    rendering,
    seats,
    streams,
    tournament_arbiter,
    tournament_play,
    tournaments,
    transparency,
    turns,
    undo,
)

BLUEPRINTS: tuple[Blueprint, ...] = (
    games.blp,
    seats.blp,
    moves.blp,
    turns.blp,
    undo.blp,
    forks.blp,
    records.blp,
    rendering.blp,
    lobby.blp,
    clocks.blp,
    streams.blp,
    keys.blp,
    transparency.blp,
    tournaments.blp,
    tournament_play.blp,
    tournament_arbiter.blp,
)
"""Every blueprint, in the order the OpenAPI document lists their tags."""
