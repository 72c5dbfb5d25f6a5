"""A tournament run over HTTP only, as an organiser and entrants who know only docs/api.md
("Tournaments") do it: the organiser creates it and keeps its token, entrants register and
keep theirs, check in; once started, each entrant asks ``GET .../tables/mine`` for its seats'
tokens and plays its games through the games' endpoints, a bot choosing among the moves
``GET /games/{id}/legal-moves`` lists. Shared by the tournaments' e2e tests."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask.testing import FlaskClient

from tests.e2e.conftest import bearer

API = "/api/v1"
MAX_MOVES = 2000


@dataclass
class Organised:
    """A tournament and who holds which token."""

    tournament_id: str
    organiser: str
    entrants: dict[str, str] = field(default_factory=dict)
    """Entrant id → its token."""
    names: dict[str, str] = field(default_factory=dict)
    """Entrant id → its name."""

    @property
    def path(self) -> str:
        return f"{API}/tournaments/{self.tournament_id}"


def create(client: FlaskClient, fmt: dict[str, Any], game: str = "azul", **extra: Any) -> Organised:
    """Create a tournament; its id and the organiser's token."""
    made = client.post(
        f"{API}/tournaments", json={"game": game, "name": "Harbour Open", "format": fmt, **extra}
    )
    assert made.status_code == 201, made.json
    return Organised(made.json["tournament_id"], made.json["organiser_token"])


def register(client: FlaskClient, organised: Organised, name: str) -> str:
    """Register ``name``; its entrant id (its token kept)."""
    answer = client.post(f"{organised.path}/entrants", json={"name": name})
    assert answer.status_code == 201, answer.json
    organised.entrants[answer.json["entrant"]] = answer.json["token"]
    organised.names[answer.json["entrant"]] = name
    return str(answer.json["entrant"])


def organise(client: FlaskClient, fmt: dict[str, Any], count: int, game: str = "azul") -> Organised:
    """Create, register ``count`` entrants, open check-in, check every one in, start."""
    organised = create(client, fmt, game)
    for n in range(count):
        register(client, organised, f"player {n}")
    command(client, organised, "open-check-in")
    for token in organised.entrants.values():
        assert client.post(f"{organised.path}/check-in", headers=bearer(token)).status_code == 200
    command(client, organised, "start")
    return organised


def command(
    client: FlaskClient, organised: Organised, verb: str, body: Any = None, status: int = 200
) -> dict[str, Any]:
    """An organiser's command (``verb`` is the path after the tournament's); its answer."""
    answer = client.post(f"{organised.path}/{verb}", json=body, headers=bearer(organised.organiser))
    assert answer.status_code == status, answer.json
    found: dict[str, Any] = answer.json
    return found


def seats_of(client: FlaskClient, organised: Organised) -> dict[str, list[str]]:
    """Every undecided table's game and its seats' tokens in seat order, as the entrants'
    ``GET .../tables/mine`` give them."""
    seats: dict[str, dict[int, str]] = {}
    for entrant, token in organised.entrants.items():
        mine = client.get(f"{organised.path}/tables/mine", headers=bearer(token))
        assert mine.status_code == 200, mine.json
        assert mine.json["entrant"] == entrant
        for table in mine.json["tables"]:
            if not table["decided"]:
                seats.setdefault(table["game"], {})[table["seat"]] = table["token"]
    return {game: [found[s] for s in sorted(found)] for game, found in seats.items()}


def play_game(client: FlaskClient, game_id: str, tokens: list[str], bot: random.Random) -> int:
    """Play the game to its end with the seats' tokens, a random legal move each time; the
    moves made."""
    path = f"{API}/games/{game_id}"
    for made in range(MAX_MOVES):
        view = client.get(path).json
        if view["status"] == "finished":
            return made
        seat = bot.choice(view["current_players"])
        legal = client.get(f"{path}/legal-moves", headers=bearer(tokens[seat])).json
        move = bot.choice(legal["moves"])["move"]
        played = client.post(
            f"{path}/moves",
            json={"move": move, "expected_version": legal["version"]},
            headers=bearer(tokens[seat]),
        )
        assert played.status_code == 200, played.json
    raise AssertionError(f"{game_id} did not end in {MAX_MOVES} moves")


def first_move(client: FlaskClient, game_id: str, tokens: list[str]) -> tuple[int, Any]:
    """The first seat to act makes the first of its legal moves: that seat and the answer."""
    path = f"{API}/games/{game_id}"
    seat: int = client.get(path).json["current_players"][0]
    legal = client.get(f"{path}/legal-moves", headers=bearer(tokens[seat])).json
    moved = client.post(
        f"{path}/moves",
        json={"move": legal["moves"][0]["move"], "expected_version": legal["version"]},
        headers=bearer(tokens[seat]),
    )
    return seat, moved


def play_round(client: FlaskClient, organised: Organised, bot: random.Random) -> int:
    """Play every undecided table the entrants hold seats of; how many."""
    tables = seats_of(client, organised)
    for game_id, tokens in tables.items():
        play_game(client, game_id, tokens, bot)
    return len(tables)


def until(found: Callable[[], Any], timeout: float = 30.0) -> Any:
    """Wait until ``found()`` is truthy (the service's followers work in the background)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = found()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("never happened")
