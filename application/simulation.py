"""Random bots playing full games through the use cases (``gameledger simulate``): every
move is picked by :func:`domain.bots.choose_move` (a uniformly drawn legal move, or the
game's own bot policy) and submitted like a client would."""

from __future__ import annotations

import hashlib
import random
import time
from typing import Any
from uuid import UUID

from tqdm import tqdm

from application.service import GameLedger

MAX_MOVES = 10_000
"""A game still running after this many moves counts as unfinished (a bug to report)."""


def game_seed(seed: int, index: int) -> str:
    """The secret seed of simulated game ``index`` when the run has a seed."""
    return hashlib.sha256(f"gameledger-simulate:{seed}:{index}".encode()).hexdigest()


def play_out(app: GameLedger, game_id: UUID, tokens: list[str], bot: random.Random) -> bool:
    """Random moves until the game ends; True when it ended."""
    for _ in range(MAX_MOVES):
        version, seats = app.whose_turn(game_id)
        if not seats:
            return True
        seat = bot.choice(seats)
        app.play(game_id, tokens[seat], app.bot_move(game_id, tokens[seat], bot), version)
    return False


def simulate(
    app: GameLedger,
    game: str,
    *,
    games: int,
    players: int,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Play ``games`` full games with ``players`` random bots; a report of the run."""
    bot = random.Random(seed)
    finished = 0
    game_ids: list[str] = []
    started = time.perf_counter()
    for index in tqdm(range(games), desc=f"{game} games", unit="game", disable=not progress):
        game_seed_text = game_seed(seed, index) if seed is not None else None
        game_id = app.create_game(game, players, options, seed=game_seed_text)
        tokens = [app.join(game_id, f"bot-{n}", n).token for n in range(players)]
        finished += play_out(app, game_id, tokens, bot)
        game_ids.append(str(game_id))
    seconds = time.perf_counter() - started
    return {
        "game": game,
        "games": games,
        "players": players,
        "finished": finished,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 3) if seconds else None,
        "game_ids": game_ids,
    }
