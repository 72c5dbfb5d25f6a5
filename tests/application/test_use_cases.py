"""The use cases on every store: in memory, SQLite and PostgreSQL (issue 2, part 5)."""

from __future__ import annotations

import json

import pytest

from application.errors import BadRequest, Conflict, InvalidToken, NotFound
from domain.errors import GameNotReady, SeatUnavailable
from domain.protocol import IllegalMove, InvalidMove, InvalidOptions
from domain.randomness import commitment
from domain.registry import UnknownGame
from infrastructure.container import Services
from tests.helpers import start_game


def test_create_join_and_start(services: Services) -> None:
    app = services.app
    game_id = app.create_game("azul", 3)
    view = app.view(game_id)
    assert view["status"] == "waiting"
    assert view["seed"] is None and len(view["seed_sha256"]) == 64
    assert view["current_players"] == []

    first = app.join(game_id, "Ann")
    second = app.join(game_id, "Bob", 2)
    assert (first.seat, second.seat) == (0, 2)
    assert first.token != second.token
    assert app.view(game_id)["status"] == "waiting"

    third = app.join(game_id, "Cy")
    assert third.seat == 1
    view = app.view(game_id, third.token)
    assert view["status"] == "active"
    assert view["viewer"]["seat"] == 1
    assert [s["name"] for s in view["seats"]] == ["Ann", "Cy", "Bob"]
    types = [e["type"] for e in app.event_log(game_id)["items"]]
    assert types[:4] == ["Created", "SeatJoined", "SeatJoined", "SeatJoined"]
    assert "FactoriesFilled" in types


def test_seats_are_refused_when_taken_missing_or_full(services: Services) -> None:
    app = services.app
    game_id = app.create_game("azul", 2)
    app.join(game_id, "Ann", 0)
    with pytest.raises(SeatUnavailable) as taken:
        app.join(game_id, "Bob", 0)
    assert taken.value.code == "seat-taken"
    with pytest.raises(SeatUnavailable) as missing:
        app.join(game_id, "Bob", 5)
    assert missing.value.code == "no-such-seat"
    app.join(game_id, "Bob")
    with pytest.raises(Conflict) as full:
        app.join(game_id, "Cy")
    assert full.value.code == "game-full"


def test_creation_is_validated(services: Services) -> None:
    with pytest.raises(UnknownGame):
        services.app.create_game("chess", 2)
    with pytest.raises(InvalidOptions):
        services.app.create_game("azul", 5)
    with pytest.raises(InvalidOptions):
        services.app.create_game("azul", 2, {"wall": "purple"})


def test_no_move_before_every_seat_is_taken(services: Services) -> None:
    app = services.app
    game_id = app.create_game("azul", 2)
    token = app.join(game_id, "Ann").token
    assert app.legal_moves(game_id, token)["moves"] == []
    with pytest.raises(GameNotReady):
        app.play(game_id, token, {"type": "take"}, app.view(game_id)["version"])


def test_refused_moves_change_nothing(services: Services) -> None:
    app = services.app
    table = start_game(app)
    version, seat, move = table.mover()
    before = app.event_log(table.game_id, limit=500)

    with pytest.raises(Conflict) as stale:
        app.play(table.game_id, table.tokens[seat], move, version - 1)
    assert stale.value.code == "stale-version"
    with pytest.raises(InvalidToken):
        app.play(table.game_id, "not-a-token", move, version)
    other = table.tokens[1 - seat]
    with pytest.raises(IllegalMove) as not_yours:
        app.play(table.game_id, other, move, version)
    assert not_yours.value.code == "not-your-turn"
    with pytest.raises(NotFound):
        app.view(table.game_id, version=version + 5)

    assert app.event_log(table.game_id, limit=500) == before


def test_a_whole_game_reveals_a_seed_that_matches_its_commitment(services: Services) -> None:
    app = services.app
    table = start_game(app, players=3, seed=None)
    public_hash = app.view(table.game_id)["seed_sha256"]
    table.play_out()
    view = app.view(table.game_id)
    assert view["status"] == "finished"
    assert view["outcome"] is not None and view["current_players"] == []
    assert commitment(view["seed"]) == public_hash
    ended = app.event_log(table.game_id, types=frozenset({"GameEnded"}))["items"]
    assert [e["data"]["seed"] for e in ended] == [view["seed"]]


def test_secrets_never_appear_before_the_end(services: Services) -> None:
    app = services.app
    table = start_game(app, seed="a-secret-seed-nobody-may-see")
    for _ in range(12):
        table.step()
    everything = json.dumps(
        [app.event_log(table.game_id, token)["items"] for token in [None, *table.tokens]]
        + [app.view(table.game_id, token) for token in [None, *table.tokens]]
    )
    assert "a-secret-seed-nobody-may-see" not in everything
    for token in table.tokens:
        assert token not in everything
    assert "token_sha256" not in everything


def test_views_at_earlier_versions_equal_the_views_of_their_time(services: Services) -> None:
    app = services.app
    table = start_game(app)
    seen: dict[int, dict[str, object]] = {}
    for _ in range(15):
        view = app.view(table.game_id, table.tokens[0])
        seen[view["version"]] = view
        table.step()
    for version, view in seen.items():
        assert app.view(table.game_id, table.tokens[0], version) == view


def test_event_log_pages_filter_and_join_up(services: Services) -> None:
    app = services.app
    table = start_game(app)
    for _ in range(10):
        table.step()
    whole = app.event_log(table.game_id, limit=500)
    assert whole["next_after"] is None
    pages, after = [], 0
    while True:
        page = app.event_log(table.game_id, after=after, limit=7)
        pages.extend(page["items"])
        if page["next_after"] is None:
            break
        after = page["next_after"]
    assert pages == whole["items"]
    assert [e["version"] for e in pages] == list(range(1, whole["version"] + 1))
    taken = app.event_log(table.game_id, types=frozenset({"TilesTaken"}))["items"]
    assert taken and all(e["type"] == "TilesTaken" for e in taken)
    with pytest.raises(ValueError):
        app.event_log(table.game_id, limit=0)


def test_a_move_in_notation_is_read_by_the_use_case(services: Services) -> None:
    app = services.app
    table = start_game(app, 2)
    version, seats = app.whose_turn(table.game_id)
    listed = app.legal_moves(table.game_id, table.tokens[seats[0]])["moves"][0]
    token = table.tokens[seats[0]]
    for move, notation in ((listed["move"], listed["notation"]), (None, None)):
        with pytest.raises(BadRequest) as refused:
            app.play(table.game_id, token, move, version, notation=notation)
        assert refused.value.code == "invalid-request"
    with pytest.raises(InvalidMove):
        app.play(table.game_id, token, None, version, notation="not a move")
    played = app.play(table.game_id, token, None, version, notation=listed["notation"])
    assert played.version > version
    last = app.event_log(table.game_id, types=frozenset({"MoveMade"}))["items"][-1]
    assert last["data"]["move"] == listed["move"]


def test_a_tournament_game_mints_its_arbiter_token(services: Services) -> None:
    app = services.app
    casual = app.open_game("azul", 2)
    assert casual.arbiter_token is None
    opened = app.open_game("azul", 2, settings={"tournament": True})
    assert opened.arbiter_token and len(opened.arbiter_token) >= 40
    assert app.viewer(opened.game_id, opened.arbiter_token).arbiter
    assert opened.arbiter_token not in json.dumps(app.event_log(opened.game_id))
