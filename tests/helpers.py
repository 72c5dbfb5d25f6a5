"""Test helpers: start games and play random legal moves through the use cases."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import orjson

from application.projections.games_list import GameRow, GamesListView, games_page
from application.service import GameLedger
from application.tournaments import TournamentCreated, Tournaments


@dataclass
class Table:
    """A started game and the tokens of its seats."""

    app: GameLedger
    game_id: UUID
    tokens: list[str]
    bot: random.Random = field(default_factory=lambda: random.Random(7))

    def step(self) -> bool:
        """One random legal move by one of the seats to act; False once the game is over."""
        version, seats = self.app.whose_turn(self.game_id)
        if not seats:
            return False
        seat = self.bot.choice(seats)
        moves = self.app.legal_moves(self.game_id, self.tokens[seat])["moves"]
        self.app.play(self.game_id, self.tokens[seat], self.bot.choice(moves)["move"], version)
        return True

    def play_out(self, limit: int = 5000) -> None:
        """Random moves until the game ends."""
        for _ in range(limit):
            if not self.step():
                return
        raise AssertionError("the game did not end")

    def mover(self) -> tuple[int, int, dict[str, Any]]:
        """The version, a seat to act and one of its legal moves (JSON)."""
        version, seats = self.app.whose_turn(self.game_id)
        seat = seats[0]
        move = self.app.legal_moves(self.game_id, self.tokens[seat])["moves"][0]["move"]
        return version, seat, move


def start_game(
    app: GameLedger,
    players: int = 2,
    options: dict[str, Any] | None = None,
    seed: str | None = "test-seed",
) -> Table:
    """Create an Azul game and fill every seat."""
    game_id = app.create_game("azul", players, options, seed=seed)
    tokens = [app.join(game_id, f"player {n}", n).token for n in range(players)]
    return Table(app, game_id, tokens)


def listed(
    view: GamesListView, *, status: str | None = None, game: str | None = None, limit: int = 50
) -> list[GameRow]:
    """Every row of the games list matching the filters, in list order, page by page."""
    rows: list[GameRow] = []
    cursor: str | None = None
    while True:
        page = games_page(view, status=status, game=game, limit=limit, cursor=cursor)
        rows += [GameRow.from_json(orjson.loads(document)) for document in page.documents]
        if page.next_cursor is None:
            return rows
        cursor = page.next_cursor


def eventually(condition: Callable[[], bool], timeout: float = 10.0) -> bool:
    """Whether ``condition`` holds within ``timeout`` seconds (looked at every 20 ms)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def started_tournament(
    desk: Tournaments,
    fmt: dict[str, Any],
    count: int,
    name: str,
    entrant: str = "player {}",
) -> tuple[TournamentCreated, dict[str, str]]:
    """An Azul tournament of format ``fmt`` created, ``count`` entrants registered (named
    ``entrant.format(n)``) and checked in, and started: what created it, and each entrant's
    token by entrant id."""
    created = desk.create("azul", {}, None, fmt, name)
    tid = created.tournament_id
    tokens = {}
    for n in range(count):
        registered = desk.register(tid, entrant.format(n))
        tokens[registered.entrant] = registered.token
    desk.organiser(tid, created.organiser_token, lambda t: t.open_check_in())
    for token in tokens.values():
        desk.check_in(tid, token)
    desk.organiser(tid, created.organiser_token, lambda t: t.start())
    return created, tokens
