"""A client generated from the OpenAPI document alone plays a whole game (issue 13, part 1;
docs/api.md, "The typed OpenAPI document"): ``openapi-python-client`` writes a Python package
from the served document, with no warning; the test imports it and plays Azul to the end
against a real gunicorn server, followed live on the game's stream, every answer parsed into
the generated typed models — the game's own view, legal moves, moves, events and outcome —
and the errors too (404, 409, 422 parsed into the Problem model, not ``parsed=None``); and
reads Carcassonne (with the expansion) and Risk, each in its own types."""

from __future__ import annotations

import importlib
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any
from uuid import uuid4

import pytest

from tests.e2e.openapi_check import served_document
from tests.e2e.sse import Stream
from tests.e2e.test_gunicorn import GUNICORN, running

pytestmark = pytest.mark.slow

GENERATOR = Path(sys.executable).with_name("openapi-python-client")
PACKAGE = "gameledger_generated_client"
MAX_MOVES = 400
SOME_MOVES = 30


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The client package generated from the served document, importable."""
    folder = tmp_path_factory.mktemp("client")
    document = folder / "openapi.json"
    document.write_text(json.dumps(served_document()), encoding="utf-8")
    command = [str(GENERATOR), "generate", "--path", str(document), "--meta", "none"]
    command += ["--output-path", str(folder / PACKAGE)]
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        # its post-generation hooks run ruff, a dev dependency beside it
        env={**os.environ, "PATH": f"{GENERATOR.parent}{os.pathsep}{os.environ['PATH']}"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    report = done.stdout + done.stderr
    assert "Warning" not in report and "Unable to" not in report, report
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m.startswith(PACKAGE)]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    command = [str(GUNICORN), "-c", "python:api.gunicorn_conf", "--workers", "1"]
    command += ["--bind", "127.0.0.1:{port}", "api.app:create_app()"]
    with running(command, tmp_path_factory.mktemp("served")) as (host, port):
        yield f"http://{host}:{port}"


def part(client: ModuleType, name: str) -> Any:
    return importlib.import_module(f"{client.__name__}.{name}")


def test_a_generated_client_plays_a_whole_game_of_azul(generated: ModuleType, server: str) -> None:
    models = part(generated, "models")
    games = part(generated, "api.games")
    seats = part(generated, "api.seats")
    moves = part(generated, "api.moves")
    records = part(generated, "api.records")
    anonymous = generated.Client(base_url=server, raise_on_unexpected_status=True)

    created = part(generated, "api.games.create_game").sync(
        client=anonymous,
        body=models.CreateGameRequest(game=models.CreateGameRequestGame("azul"), players=2),
    )
    assert isinstance(created, models.AzulCreatedGame)
    game_id = created.id
    tokens = []
    for name in ("Ann", "Bob"):
        joined = part(seats, "join_game").sync(
            game_id, client=anonymous, body=models.JoinRequest(name=name)
        )
        assert isinstance(joined, models.Joined)
        tokens.append(joined.token)
    seat_clients = [
        generated.AuthenticatedClient(base_url=server, token=token, raise_on_unexpected_status=True)
        for token in tokens
    ]
    get_game = part(games, "get_game")
    legal_moves = part(moves, "legal_moves")
    make_move = part(moves, "make_move")
    bot = random.Random(13)
    view = get_game.sync(game_id, client=anonymous)
    # Followed live from the start, as a spectator (docs/api.md, "Live updates").
    live = Stream(int(server.rsplit(":", 1)[1]), f"/games/{game_id}/stream")
    assert live.status == 200
    for _ in range(MAX_MOVES):
        view = get_game.sync(game_id, client=anonymous)
        assert isinstance(view, models.AzulGameView)
        assert isinstance(view.state, models.AzulView)
        if view.status == "finished":
            break
        seat = seat_clients[view.current_players[0]]
        legal = legal_moves.sync(game_id, client=seat)
        assert isinstance(legal, models.AzulLegalMoves)
        chosen = bot.choice(legal.moves).move
        assert isinstance(chosen, models.AzulTakeJson | models.AzulPlaceJson)
        played = make_move.sync(
            game_id,
            client=seat,
            body=models.MoveRequest(move=chosen, expected_version=legal.version),
        )
        assert isinstance(played, models.Played), played
    assert view.status == "finished"
    assert isinstance(view.outcome, models.AzulOutcome)
    assert isinstance(view.outcome.details, models.AzulOutcomeDetails)
    assert sorted(view.outcome.ranks)[0] == 1

    page = part(records, "event_log").sync(game_id, client=anonymous, limit=500)
    assert isinstance(page, models.AzulEventPage)
    with live:  # every event once, in order, as the log shows it; then the end
        streamed = live.events(len(page.items) + 1)
    assert [json.loads(m.data) for m in streamed[:-1]] == json.loads(
        part(records, "event_log").sync_detailed(game_id, client=anonymous, limit=500).content
    )["items"]
    assert (streamed[-1].event, streamed[-1].json) == ("end", {"version": view.version})
    kinds = {type(item).__name__ for item in page.items}
    assert {"AzulCreatedEvent", "AzulMoveMadeEvent", "AzulGameEndedEvent"} <= kinds
    record = part(records, "game_record").sync(game_id, client=anonymous)
    assert isinstance(record, models.AzulRecord)
    assert isinstance(record.outcome, models.AzulOutcome)

    # Errors are typed problems: 404, 409, 422.
    missing = get_game.sync_detailed(str(uuid4()), client=anonymous)
    assert missing.status_code == 404
    assert isinstance(missing.parsed, models.Problem)
    assert missing.parsed.code == "game-not-found"
    stale = make_move.sync_detailed(
        game_id,
        client=seat_clients[0],
        body=models.MoveRequest(notation="x", expected_version=1),
    )
    assert stale.status_code == 409
    assert isinstance(stale.parsed, models.Problem) and stale.parsed.code == "stale-version"
    over = make_move.sync_detailed(
        game_id,
        client=seat_clients[0],
        body=models.MoveRequest(notation="x", expected_version=view.version),
    )
    assert over.status_code == 422
    assert isinstance(over.parsed, models.Problem)
    assert over.parsed.status == 422 and over.parsed.code


EXPANSION = {"expansions": ["bridges-castles-bazaars"]}


@pytest.mark.parametrize(
    ("game", "players", "options"), [("carcassonne", 3, EXPANSION), ("risk", 3, {})]
)
def test_the_generated_client_reads_every_game_in_its_own_types(
    generated: ModuleType, server: str, game: str, players: int, options: dict[str, Any]
) -> None:
    """The other games' first moves, each answer parsed into that game's variant (the
    discriminator's ``game``): views, legal moves (each read back exactly as it was sent, so
    the move sent back is the move listed), event pages (a spectator's too, with Risk's
    hidden cards) and records."""
    models = part(generated, "models")
    prefix = game.capitalize()
    anonymous = generated.Client(base_url=server, raise_on_unexpected_status=True)
    body = models.CreateGameRequest.from_dict(
        {"game": game, "players": players, "options": options}
    )
    created = part(generated, "api.games.create_game").sync(client=anonymous, body=body)
    assert type(created).__name__ == f"{prefix}CreatedGame"
    join = part(generated, "api.seats.join_game")
    seats = [
        generated.AuthenticatedClient(
            base_url=server,
            token=join.sync(created.id, client=anonymous, body=models.JoinRequest(name=n)).token,
            raise_on_unexpected_status=True,
        )
        for n in ("Ann", "Bob", "Cid")[:players]
    ]
    get_game = part(generated, "api.games.get_game")
    legal_moves = part(generated, "api.moves.legal_moves")
    make_move = part(generated, "api.moves.make_move")
    bot = random.Random(game)
    for _ in range(SOME_MOVES):
        view = get_game.sync(created.id, client=seats[0])
        assert type(view).__name__ == f"{prefix}GameView"
        assert type(view.state).__name__ == f"{prefix}View"
        seat = seats[view.current_players[0]]
        answer = legal_moves.sync_detailed(created.id, client=seat)
        legal = answer.parsed
        assert type(legal).__name__ == f"{prefix}LegalMoves"
        sent = json.loads(answer.content)["moves"]
        assert [listed.to_dict() for listed in legal.moves] == sent
        move = bot.choice(legal.moves).move
        body = models.MoveRequest(move=move, expected_version=legal.version)
        assert isinstance(make_move.sync(created.id, client=seat, body=body), models.Played)
    page = part(generated, "api.records.event_log").sync(created.id, client=anonymous, limit=500)
    assert type(page).__name__ == f"{prefix}EventPage"
    assert all(type(item).__name__.startswith(prefix) for item in page.items)
    record = part(generated, "api.records.game_record").sync(created.id, client=anonymous)
    assert type(record).__name__ == f"{prefix}Record"


def test_a_bridged_placement_is_read_as_one(generated: ModuleType) -> None:
    """A bridged placement and a plain one are both ``"type": "place"``: the generated client
    reads each as its own model, the bridge kept (a client that read the first as the second
    sent back a different move)."""
    models = part(generated, "models")
    plain = {"type": "place", "tile": "BB6", "x": -1, "y": 0, "rotation": 0, "follower": "f0"}
    bridged = {**plain, "bridge": {"axis": "WE", "x": -1, "y": 0}}
    for move, model in ((bridged, "CarcassonneBridgedJSON"), (plain, "CarcassonnePlaceJSON")):
        listed = models.CarcassonneLegalMove.from_dict({"move": move, "notation": "-"})
        assert type(listed.move).__name__ == model
        assert listed.move.to_dict() == move
