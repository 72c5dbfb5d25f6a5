"""Undo in Risk (issue 3's undo, given to Risk by registration): taking back a battle
restores the units and the luck — the same roll after the undo draws the same dice — and in
the exchange session, where several seats act at once, a seat takes back its own proposal."""

from __future__ import annotations

import random
from typing import Any
from uuid import UUID

from application.service import GameLedger
from infrastructure.config import Settings
from infrastructure.container import build_services


def game(app: GameLedger) -> tuple[UUID, list[str]]:
    game_id = app.create_game("risk", 3, settings={"undo": "free"}, seed="risk-undo")
    return game_id, [app.join(game_id, f"p{n}", n).token for n in range(3)]


def bot_until(app: GameLedger, game_id: UUID, tokens: list[str], done: Any) -> None:
    bot = random.Random(1)
    for _ in range(3_000):
        view = app.view(game_id)
        if done(view):
            return
        version, acting = app.whose_turn(game_id)
        seat = bot.choice(acting)
        app.play(game_id, tokens[seat], app.bot_move(game_id, tokens[seat], bot), version)
    raise AssertionError("never reached")


def rolls(app: GameLedger, game_id: UUID, after: int) -> list[dict[str, Any]]:
    items = app.event_log(game_id, after=after, limit=100)["items"]
    return [e["data"] for e in items if e["type"] == "DiceRolled"]


def test_a_battle_taken_back_rolls_the_same_dice_again() -> None:
    services = build_services(Settings(store="memory", embedded_projections=False))
    app = services.app
    try:
        game_id, tokens = game(app)
        bot_until(app, game_id, tokens, lambda v: v["state"]["invasion"] is not None)
        seat = app.view(game_id)["state"]["turn"]
        before = app.view(game_id, tokens[seat])
        version = before["version"]
        app.play(game_id, tokens[seat], {"type": "fight"}, version)
        first = rolls(app, game_id, version)
        assert first
        app.request_undo(game_id, tokens[seat])
        after_undo = app.view(game_id, tokens[seat])
        assert after_undo["state"] == before["state"]
        again_version = after_undo["version"]
        app.play(game_id, tokens[seat], {"type": "fight"}, again_version)
        assert rolls(app, game_id, again_version) == first
    finally:
        services.close()


def test_a_seat_takes_back_its_proposal_in_the_exchange_session() -> None:
    services = build_services(Settings(store="memory", embedded_projections=False))
    app = services.app
    try:
        game_id, tokens = game(app)
        bot_until(
            app,
            game_id,
            tokens,
            lambda v: v["state"]["phase"] == "exchange" and not v["state"]["exchange"]["done"],
        )
        view = app.view(game_id)
        assert sorted(view["current_players"]) == [0, 1, 2]
        gift = {"type": "propose", "to": [2], "transfers": [{"from": 1, "to": 2, "money": 50}]}
        app.play(game_id, tokens[1], gift, view["version"])
        assert len(app.view(game_id)["state"]["exchange"]["proposals"]) == 1
        app.play(game_id, tokens[0], {"type": "done"}, app.view(game_id)["version"])
        # the proposal and seat 0's "done" after it: seat 0 must consent (issue 10, part 7)
        app.request_undo(game_id, tokens[1], turns=2)
        assert app.view(game_id)["undo_request"]["waiting"] == [0]
        app.answer_undo(game_id, tokens[0], True)
        state = app.view(game_id)["state"]
        assert state["exchange"]["proposals"] == [] and state["exchange"]["done"] == []
        assert state["players"][1]["purse"] == view["state"]["players"][1]["purse"]
    finally:
        services.close()
