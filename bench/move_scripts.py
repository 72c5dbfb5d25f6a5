"""Azul games prepared so that a load generator can play them over HTTP with no game logic.

A game's draws come from its secret seed, which the API never takes nor shows before the end,
so a client cannot know its next legal moves without asking. The benchmarks therefore:

1. **record** a script per seed: the game is played once by a random client (whose turn, the
   legal moves listed, one drawn, played with the version seen) through the use cases on the
   in-memory store; each step keeps the seat, the JSON body of the ``POST .../moves`` request
   (``move`` and ``expected_version``) and the version the answer must report;
2. **prepare** games in the store the server will use, through the application layer directly
   (not HTTP; untimed): each is created with one of the recorded seeds and its seats are taken
   in the same order, so it is at exactly the version the script starts from and every
   recorded move is legal in it, with the same version after it.

Replaying a script then costs the client one prepared request per move and the server one
move: every timed request is a move that the service decides and saves.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from uuid import UUID

from application.service import GameLedger
from infrastructure.config import Settings
from infrastructure.container import Services, build_services

GAME = "azul"


@dataclass(frozen=True)
class Step:
    """One move of a script: the seat that makes it, the request body, the version after."""

    seat: int
    body: bytes
    version_after: int


@dataclass(frozen=True)
class Script:
    """A whole seeded game as a client played it."""

    seed: str
    players: int
    start_version: int
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class PreparedGame:
    """A game in the server's store, seated and ready for its script."""

    game_id: UUID
    tokens: tuple[str, ...]
    script: Script

    @property
    def moves_path(self) -> str:
        """The path its moves are posted to."""
        return f"/api/v1/games/{self.game_id}/moves"


def seat_name(seat: int) -> str:
    """The name each seat joins under (the same in the recording and in the store)."""
    return f"bench-{seat}"


def record_script(seed: str, players: int, bot_seed: int) -> Script:
    """Play one game with secret ``seed`` on the in-memory store as a random client would."""
    app = GameLedger()
    try:
        game_id = app.create_game(GAME, players, seed=seed)
        tokens = [app.join(game_id, seat_name(n), n).token for n in range(players)]
        start_version, _ = app.whose_turn(game_id)
        bot = random.Random(bot_seed)
        steps: list[Step] = []
        while True:
            version, seats = app.whose_turn(game_id)
            if not seats:
                break
            seat = bot.choice(seats)
            move = bot.choice(app.legal_moves(game_id, tokens[seat])["moves"])["move"]
            played = app.play(game_id, tokens[seat], move, version)
            body = json.dumps({"move": move, "expected_version": version}).encode()
            steps.append(Step(seat, body, played.version))
        return Script(seed, players, start_version, tuple(steps))
    finally:
        app.close()


def record_scripts(count: int, players: int) -> list[Script]:
    """``count`` different recorded games (seeds ``bench-script-0``, ``-1``, ...)."""
    return [record_script(f"bench-script-{n}", players, n) for n in range(count)]


def prepare_game(app: GameLedger, script: Script) -> PreparedGame:
    """Create and seat a game for ``script`` in ``app``'s store."""
    game_id = app.create_game(GAME, script.players, seed=script.seed)
    tokens = tuple(app.join(game_id, seat_name(n), n).token for n in range(script.players))
    version, _ = app.whose_turn(game_id)
    if version != script.start_version:
        raise RuntimeError(f"prepared game at version {version}, script {script.start_version}")
    return PreparedGame(game_id, tokens, script)


def open_store(settings: Settings) -> Services:
    """The service on ``settings``' store, its schema brought up to date; no follower runs
    (its read models catch up when the server starts)."""
    return build_services(settings)
