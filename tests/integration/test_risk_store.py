"""Risk on real stores (SQLite file, PostgreSQL server): sealed events — hidden cards —
survive a restart with their seals, snapshots of a Risk game read back, and the records of
the stored game verify as a seat and as a spectator while it runs, and wholly once it ends
(issue 6, parts 7 and 8)."""

from __future__ import annotations

import random
from typing import Any
from uuid import UUID

import pytest

from application.records import export_record
from application.service import GameLedger
from application.verification import verify_record
from infrastructure.config import Settings
from infrastructure.container import build_services

pytestmark = pytest.mark.parametrize(
    "store", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True
)


def bot_moves(
    app: GameLedger, game_id: UUID, tokens: list[str], bot: random.Random, until: Any
) -> None:
    """The game's bot policy plays until ``until(view)`` holds."""
    for _ in range(5_000):
        if until(app.view(game_id)):
            return
        version, acting = app.whose_turn(game_id)
        seat = bot.choice(acting)
        app.play(game_id, tokens[seat], app.bot_move(game_id, tokens[seat], bot), version)
    raise AssertionError("not reached")


def test_sealed_events_and_snapshots_survive_a_restart(settings: Settings) -> None:
    first = build_services(settings)
    app = first.app
    game_id = app.create_game("risk", 3, seed="risk-store")
    tokens = [app.join(game_id, f"p{n}", n).token for n in range(3)]
    bot = random.Random(3)
    bot_moves(
        app, game_id, tokens, bot, lambda v: sum(p["cards"] for p in v["state"]["players"]) >= 2
    )
    version = app.view(game_id)["version"]
    assert version > 50  # a snapshot has been taken
    views = [app.view(game_id, token) for token in tokens]
    log = app.event_log(game_id, tokens[0], limit=500)["items"]
    first.close()

    second = build_services(settings)
    try:
        again = second.app
        assert [again.view(game_id, token) for token in tokens] == views
        assert again.event_log(game_id, tokens[0], limit=500)["items"] == log
        sealed = [e for e in log if e["sealed"]]
        assert sealed and all(e["type"] == "CardDrawn" for e in sealed)
        for token in (tokens[1], None):
            record = export_record(again, game_id, token)
            verdict = verify_record(record)
            assert verdict.ok, verdict.summary
            assert "sealed" in verdict.summary
        bot_moves(again, game_id, tokens, bot, lambda v: v["status"] == "finished")
        final = export_record(again, game_id)
        verdict = verify_record(final)
        assert verdict.ok and verdict.draws_checked, verdict.summary
        assert all("card" in e["data"] for e in final["events"] if e["type"] == "CardDrawn")
    finally:
        second.close()
