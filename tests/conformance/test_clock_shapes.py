"""Clocks for every game (issue 15, part 5; docs/api.md, "Clocks"): a game of each kind with a
Fischer clock is played with timed moves, one seat's time runs out and is flagged, the bot
plays it out and the others play to the end. Every event, as the event log presents it to
each viewer, follows its schema (``SeatFlagged`` and a timed ``MoveMade`` included), the
outcome follows the game's typed outcome, and the record verifies."""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

import jsonschema_rs
import pytest

from application import clocks
from application.contract import game_contract, ledger_event_schemas
from application.records import event_log, export_record
from application.service import GameLedger
from application.verification import verify_record
from domain.registry import games
from tests.fake_time import install


@pytest.mark.parametrize("name", sorted(games()))
def test_a_flagged_game_follows_its_schemas_and_verifies(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = install(monkeypatch)
    rules = games()[name]
    players = max(3, rules.min_players)
    app = GameLedger()
    clock = {"type": "fischer", "base_seconds": 600, "increment_seconds": 1}
    game_id = app.create_game(name, players, settings={"clock": clock}, seed=f"clock-{name}")
    tokens = [app.join(game_id, f"p{n}", n).token for n in range(players)]
    bot = random.Random(11)
    flagged: int | None = None
    for turn in range(20_000):
        version, acting = app.whose_turn(game_id)
        if not acting:
            break
        if turn == 6 and flagged is None:
            view = app.view(game_id)["clock"]
            flagged = view["flag_seat"]
            now.advance((datetime.fromisoformat(view["flag_at"]) - now.at).total_seconds())
            clocks.claim_flag(app, game_id, tokens[(flagged + 1) % players], flagged)
            continue
        seat = bot.choice(acting)
        moves = app.legal_moves(game_id, tokens[seat])["moves"]
        now.advance(0.25)
        app.play(game_id, tokens[seat], bot.choice(moves)["move"], version)
    assert flagged is not None
    ledger = {k: jsonschema_rs.validator_for(v) for k, v in ledger_event_schemas().items()}
    contract = game_contract(rules)
    seen: set[str] = set()
    for token in [*tokens, None]:
        for shown in event_log(app, game_id, token):
            kind = shown["type"]
            validator = ledger.get(kind) or jsonschema_rs.validator_for(contract.events[kind])
            errors = [e.message for e in validator.iter_errors(shown["data"])]
            assert not errors, f"{kind}: {errors[:3]}"
            seen.add(kind)
    assert "SeatFlagged" in seen
    outcome: dict[str, Any] = app.view(game_id)["outcome"]
    assert outcome is not None and outcome["details"]["flagged"] == [flagged]
    assert outcome["ranks"][flagged] == players
    details = jsonschema_rs.validator_for(contract.outcome_details)
    assert not [e.message for e in details.iter_errors(outcome["details"])]
    report = verify_record(export_record(app, game_id))
    assert report.ok, report.summary
