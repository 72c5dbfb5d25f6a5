"""Hidden information never leaks, for every registered game: before the end, no view, event
log page, turn, legal-move list or record — read as each seat, as a spectator and as the
arbiter — holds the secret seed, any seat's token or its digest, or the arbiter's token."""

from __future__ import annotations

import json
import random
from uuid import UUID

import pytest

from application.records import export_record
from application.service import GameLedger
from domain.randomness import commitment
from domain.registry import games
from infrastructure.config import Settings
from infrastructure.container import build_services

SEED = "0123456789abcdef-this-seed-must-stay-secret"
ARBITER = "arbiter-token-that-must-stay-secret"


def everything_seen(app: GameLedger, game_id: UUID, viewers: list[str | None]) -> str:
    """All that the service shows these viewers about the game, as one text."""
    seen = []
    for token in viewers:
        seen.append(app.view(game_id, token))
        seen.append(app.event_log(game_id, token, limit=500))
        seen.append(export_record(app, game_id, token))
        for version in range(1, app.view(game_id)["version"] + 1, 7):
            seen.append(app.view(game_id, token, version))
        if token not in (None, ARBITER):
            seen.append(app.legal_moves(game_id, token))
    return json.dumps(seen)


@pytest.mark.parametrize("name", sorted(games()))
def test_no_secret_in_anything_shown(name: str) -> None:
    services = build_services(Settings(store="memory", embedded_projections=False))
    app = services.app
    try:
        rules = games()[name]
        game_id = app.create_game(
            name, rules.min_players, settings={"tournament": True}, arbiter_token=ARBITER, seed=SEED
        )
        tokens = [app.join(game_id, f"p{n}", n).token for n in range(rules.min_players)]
        bot = random.Random(5)
        for _ in range(20):
            version, acting = app.whose_turn(game_id)
            seat = bot.choice(acting)
            move = bot.choice(app.legal_moves(game_id, tokens[seat])["moves"])["move"]
            app.play(game_id, tokens[seat], move, version)
        assert app.view(game_id)["status"] == "active"
        shown = everything_seen(app, game_id, [None, ARBITER, *tokens])
        secrets = [SEED, ARBITER, commitment(ARBITER), *tokens]
        secrets += [commitment(t) for t in tokens]
        for secret in secrets:
            assert secret not in shown
        assert "token_sha256" not in shown and "arbiter_sha256" not in shown
    finally:
        services.close()
