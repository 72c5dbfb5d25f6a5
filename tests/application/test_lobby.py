"""The lobby verbs as use cases (issue 13, part 4; docs/api.md, "Lobby"): leave, resign,
abort, expiry, private games, rematch and claim — each a ledger event, on every store."""

from __future__ import annotations

import random
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from uuid import UUID

import pytest

from application import lobby
from application.errors import Conflict, InvalidToken
from application.records import event_log, export_record
from application.service import GameLedger
from application.verification import verify_record
from domain.errors import GameNotReady, IllegalMove, SeatUnavailable
from domain.undo import UndoRefused
from infrastructure.config import ConfigurationError, Settings
from infrastructure.container import Services, build_services
from tests.helpers import Table, start_game

SHARED_STORES = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
"""The stores two services (two processes) can share."""


def types(app: GameLedger, game_id: UUID) -> list[str]:
    """The types of a game's events, in order."""
    return [e["type"] for e in event_log(app, game_id)]


# Leave


def test_leave_frees_the_seat_and_kills_the_token(services: Services) -> None:
    app = services.app
    game_id = app.create_game("azul", 3)
    first = app.join(game_id, "ann")
    app.join(game_id, "bob")
    lobby.leave(app, game_id, first.token)
    view = app.view(game_id)
    assert view["seats"][0] == {"seat": 0, "name": None, "joined": False, "resigned": False}
    assert types(app, game_id)[-1] == "SeatLeft"
    with pytest.raises(InvalidToken):
        lobby.leave(app, game_id, first.token)
    with pytest.raises(InvalidToken):
        app.view(game_id, first.token)
    assert app.join(game_id, "cid").seat == 0  # the seat is free again


def test_a_started_game_is_not_left() -> None:
    table = start_game(GameLedger())
    with pytest.raises(GameNotReady) as refused:
        lobby.leave(table.app, table.game_id, table.tokens[0])
    assert refused.value.code == "game-started"


# Resign


def test_resigning_from_two_players_ends_the_game(services: Services) -> None:
    table = start_game(services.app)
    table.step()
    lobby.resign(table.app, table.game_id, table.tokens[1])
    view = table.app.view(table.game_id)
    assert view["status"] == "finished"
    assert view["outcome"]["winners"] == [0]
    assert view["outcome"]["ranks"] == [1, 2]
    assert view["outcome"]["details"] == {"ended_by": "resignation", "resigned": [1]}
    assert view["seed"] is not None  # revealed as at any end
    assert view["current_players"] == []
    with pytest.raises(IllegalMove):
        table.app.play(table.game_id, table.tokens[0], {"x": 1}, view["version"])


@pytest.mark.parametrize("game", ["azul", "carcassonne", "risk"])
def test_with_more_players_the_bot_plays_the_resigned_seat_out(game: str) -> None:
    app = GameLedger()
    game_id = app.create_game(game, 3, seed=f"lobby-{game}")
    tokens = [app.join(game_id, f"p{n}").token for n in range(3)]
    lobby.resign(app, game_id, tokens[0])
    table = Table(app, game_id, tokens)
    assert 0 not in app.whose_turn(game_id)[1]
    table.play_out()
    view = app.view(game_id)
    assert view["status"] == "finished"
    assert view["outcome"]["ranks"][0] == 3  # ranked last whatever the score
    assert 0 not in view["outcome"]["winners"]
    assert view["lobby"]["resigned"] == [0]
    moves = [e for e in event_log(app, game_id) if e["type"] == "MoveMade"]
    assert any(e["data"]["seat"] == 0 for e in moves)  # the bot's moves are recorded


def test_the_bot_is_driven_by_the_seed_alone() -> None:
    """Two games with the same seed and the same commands get the same bot moves."""
    logs = []
    for _ in range(2):
        app = GameLedger()
        game_id = app.create_game("azul", 3, seed="same-seed")
        tokens = [app.join(game_id, f"p{n}").token for n in range(3)]
        lobby.resign(app, game_id, tokens[2])
        Table(app, game_id, tokens).play_out()
        items = event_log(app, game_id)
        logs.append([(e["type"], e["data"]) for e in items])
    assert logs[0] == logs[1]


def test_a_resigned_seat_sees_what_a_spectator_sees_and_cannot_move() -> None:
    app = GameLedger()
    game_id = app.create_game("risk", 3, seed="hidden")
    tokens = [app.join(game_id, f"p{n}").token for n in range(3)]
    lobby.resign(app, game_id, tokens[1])
    assert app.viewer(game_id, tokens[1]).seat is None
    assert app.view(game_id, tokens[1])["state"] == app.view(game_id)["state"]
    version = app.view(game_id)["version"]
    with pytest.raises(GameNotReady) as refused:
        app.play(game_id, tokens[1], {"type": "pass"}, version)
    assert refused.value.code == "seat-resigned"
    with pytest.raises(GameNotReady) as again:
        lobby.resign(app, game_id, tokens[1])
    assert again.value.code == "seat-resigned"


def test_resigning_before_the_start_is_refused() -> None:
    app = GameLedger()
    game_id = app.create_game("azul", 2)
    token = app.join(game_id, "ann").token
    with pytest.raises(GameNotReady) as refused:
        lobby.resign(app, game_id, token)
    assert refused.value.code == "game-not-started"


# Abort


def test_the_creator_aborts_a_waiting_game(services: Services) -> None:
    app = services.app
    opened = app.open_game("azul", 2)
    app.join(opened.game_id, "ann")
    with pytest.raises(InvalidToken):
        lobby.abort(app, opened.game_id, "not-the-creator")
    lobby.abort(app, opened.game_id, opened.creator_token)
    assert app.view(opened.game_id)["status"] == "aborted"
    assert types(app, opened.game_id)[-1] == "GameAborted"
    with pytest.raises(Conflict) as refused:
        app.join(opened.game_id, "bob")
    assert refused.value.code == "game-aborted"
    services.catch_up()
    assert [r.status for r in services.games_list.all_rows()] == ["aborted"]


def test_a_started_game_is_not_aborted() -> None:
    app = GameLedger()
    opened = app.open_game("azul", 2)
    for name in ("ann", "bob"):
        app.join(opened.game_id, name)
    with pytest.raises(GameNotReady) as refused:
        lobby.abort(app, opened.game_id, opened.creator_token)
    assert refused.value.code == "game-started"


# Expiry


def test_a_join_after_the_expiry_expires_the_game(services: Services) -> None:
    app = services.app
    game_id = app.create_game("azul", 2)
    app.join(game_id, "ann", expiry_seconds=3600)  # not yet
    later = datetime.now(UTC) + timedelta(hours=2)
    assert lobby.expire_due(app, [game_id], 3600 * 3, later) == []
    assert lobby.expire_due(app, [game_id], 3600, later) == [game_id]
    assert lobby.expire_due(app, [game_id], 3600, later) == []  # once
    assert app.view(game_id)["status"] == "expired"
    with pytest.raises(Conflict) as refused:
        app.join(game_id, "bob")
    assert refused.value.code == "game-expired"


def test_the_join_itself_records_the_expiry() -> None:
    app = GameLedger()
    game_id = app.create_game("azul", 2)
    time.sleep(1.01)  # expiry counts from the creation's timestamp
    with pytest.raises(Conflict) as refused:
        app.join(game_id, "ann", expiry_seconds=1)
    assert refused.value.code == "game-expired"
    assert types(app, game_id) == ["Created", "GameExpired"]
    assert verify_record(export_record(app, game_id)).ok


def test_the_sweeper_takes_the_waiting_games_of_the_list(services: Services) -> None:
    app = services.app
    waiting = app.create_game("azul", 2)
    table = start_game(app)
    services.catch_up()
    candidates = lobby.waiting_games(services.games_list.all_rows())
    assert candidates == [waiting]
    assert table.game_id not in candidates


# Private games


def test_a_private_game_needs_its_secret_and_is_not_listed(services: Services) -> None:
    app = services.app
    opened = app.open_game("azul", 2, private=True)
    assert opened.join_secret
    with pytest.raises(InvalidToken) as missing:
        app.join(opened.game_id, "ann")
    assert missing.value.code == "join-secret-required"
    with pytest.raises(InvalidToken) as wrong:
        app.join(opened.game_id, "ann", secret="guess")
    assert wrong.value.code == "invalid-join-secret"
    app.join(opened.game_id, "ann", secret=opened.join_secret)
    created = app.event_log(opened.game_id)["items"][0]["data"]
    assert created["private"] is True
    assert opened.join_secret not in str(created)
    assert app.view(opened.game_id)["lobby"]["private"] is True
    services.catch_up()
    assert services.games_list.all_rows() == []


# Rematch


def test_a_rematch_keeps_each_seat_for_its_player(services: Services) -> None:
    app = services.app
    table = start_game(app)
    table.play_out()
    made = lobby.rematch(app, table.game_id, table.tokens[0])
    assert made.creator_token
    again = lobby.rematch(app, table.game_id, table.tokens[1])
    assert again == lobby.Rematched(made.game_id, None)
    old = app.view(table.game_id)
    assert old["lobby"]["rematch"] == str(made.game_id)
    assert types(app, table.game_id)[-1] == "RematchCreated"
    new = app.view(made.game_id)
    assert (new["game"], new["players"], new["options"], new["settings"]) == (
        old["game"],
        old["players"],
        old["options"],
        old["settings"],
    )
    assert new["seed_sha256"] != old["seed_sha256"]
    created = app.event_log(made.game_id)["items"][0]["data"]
    assert created["rematch_of"] == str(table.game_id)
    with pytest.raises(SeatUnavailable) as reserved:
        app.join(made.game_id, "stranger")
    assert reserved.value.code == "seat-reserved"
    with pytest.raises(InvalidToken):
        lobby.claim(app, made.game_id, "stolen")
    second = lobby.claim(app, made.game_id, table.tokens[1])
    assert second.seat == 1 and second.token != table.tokens[1]
    with pytest.raises(SeatUnavailable):
        lobby.claim(app, made.game_id, table.tokens[1])
    lobby.claim(app, made.game_id, table.tokens[0])
    view = app.view(made.game_id, second.token)
    assert view["status"] == "active"
    assert [s["name"] for s in view["seats"]] == [s["name"] for s in old["seats"]]


def test_only_a_finished_casual_game_has_a_rematch() -> None:
    table = start_game(GameLedger())
    with pytest.raises(Conflict) as refused:
        lobby.rematch(table.app, table.game_id, table.tokens[0])
    assert refused.value.code == "game-not-finished"
    with pytest.raises(InvalidToken):
        lobby.rematch(table.app, table.game_id, "nobody")


def test_no_player_undo_once_a_seat_resigned() -> None:
    app = GameLedger()
    game_id = app.create_game("azul", 3, seed="undo", settings={"undo": "free"})
    tokens = [app.join(game_id, f"p{n}").token for n in range(3)]
    table = Table(app, game_id, tokens)
    table.step()
    lobby.resign(app, game_id, tokens[2])
    with pytest.raises(UndoRefused) as refused:
        app.request_undo(game_id, tokens[0])
    assert refused.value.code == "undo-not-allowed"


def test_a_claim_after_the_expiry_expires_the_rematch() -> None:
    table = start_game(GameLedger())
    table.play_out()
    made = lobby.rematch(table.app, table.game_id, table.tokens[0])
    time.sleep(1.01)
    with pytest.raises(Conflict) as refused:
        lobby.claim(table.app, made.game_id, table.tokens[0], expiry_seconds=1)
    assert refused.value.code == "game-expired"
    assert types(table.app, made.game_id) == ["Created", "GameExpired"]


def test_concurrent_rematch_requests_make_one_game(services: Services) -> None:
    table = start_game(services.app)
    table.play_out()
    with ThreadPoolExecutor(4) as pool:
        made = list(
            pool.map(
                lambda n: lobby.rematch(services.app, table.game_id, table.tokens[n % 2]), range(8)
            )
        )
    assert len({m.game_id for m in made}) == 1
    assert sum(m.creator_token is not None for m in made) == 1
    assert types(services.app, table.game_id).count("RematchCreated") == 1


@pytest.mark.parametrize("store", SHARED_STORES)
def test_two_processes_asking_for_a_rematch_make_one_game(
    services: Services, settings: Settings
) -> None:
    """Two services on one store (as two server processes): no shared lock, one rematch.
    (The memory store is not shared between services: only the stored ones are.)"""
    other = build_services(settings)
    try:
        table = start_game(services.app)
        table.play_out()
        apps = [services.app, other.app]
        with ThreadPoolExecutor(4) as pool:
            made = list(
                pool.map(
                    lambda n: lobby.rematch(apps[n % 2], table.game_id, table.tokens[n % 2]),
                    range(8),
                )
            )
        assert len({m.game_id for m in made}) == 1
        assert sum(m.creator_token is not None for m in made) == 1
    finally:
        other.close()


def test_the_expiry_is_configured_by_the_environment() -> None:
    assert Settings.from_env({}).lobby_expiry_seconds == 7 * 24 * 3600
    found = Settings.from_env({"GAMELEDGER_LOBBY_EXPIRY_SECONDS": "0"})
    assert found.lobby_expiry_seconds == 0
    for bad in ("-1", "soon"):
        with pytest.raises(ConfigurationError):
            Settings.from_env({"GAMELEDGER_LOBBY_EXPIRY_SECONDS": bad})


def risk_with_an_eliminated_seat() -> tuple[GameLedger, UUID, list[str], list[int]]:
    """A 3-player classic Risk game played by bots until one seat is eliminated."""
    app = GameLedger()
    game_id = app.create_game("risk", 3, {"ruleset": "classic"}, seed="eliminated")
    tokens = [app.join(game_id, f"p{n}").token for n in range(3)]
    bot = random.Random(0)
    for _ in range(5000):
        with app.games.reading(game_id) as game:
            out, acting, version = (
                game.rules.out_of_play(game.state),
                game.current_players,
                game.version,
            )
        if out:
            return app, game_id, tokens, out
        seat = acting[0]
        app.play(game_id, tokens[seat], app.bot_move(game_id, tokens[seat], bot), version)
    raise AssertionError("no seat was eliminated in 5000 moves")


def test_an_eliminated_seat_neither_resigns_nor_wins_by_the_others_resigning() -> None:
    """Risk's eliminated players are out of play (docs/risk.md, "Resigning"): the last seat
    still playing wins when the other resigns, the resigned seat second, the eliminated last;
    the record verifies. (The eliminated seat once won this way.)"""
    app, game_id, tokens, out = risk_with_an_eliminated_seat()
    eliminated = out[0]
    with pytest.raises(GameNotReady) as refused:
        lobby.resign(app, game_id, tokens[eliminated])
    assert refused.value.code == "seat-out-of-play"
    playing = [seat for seat in range(3) if seat != eliminated]
    lobby.resign(app, game_id, tokens[playing[0]])
    outcome = app.view(game_id)["outcome"]
    assert outcome["winners"] == [playing[1]]
    assert outcome["ranks"][playing[1]] == 1
    assert outcome["ranks"][playing[0]] == 2
    assert outcome["ranks"][eliminated] == 3
    report = verify_record(export_record(app, game_id))
    assert report.ok, report.summary
