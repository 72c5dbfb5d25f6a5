"""Persistence on real stores (SQLite file, PostgreSQL server): atomic turns, conflicts
under concurrency, replay without randomness, and games surviving a restart."""

from __future__ import annotations

import os
import random
import threading

import pytest

from application.errors import Conflict
from domain import randomness
from infrastructure.config import Settings
from infrastructure.container import Services, build_services
from tests.helpers import start_game

pytestmark = pytest.mark.parametrize(
    "store", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True
)


def test_games_survive_a_restart(settings: Settings) -> None:
    first = build_services(settings)
    table = start_game(first.app)
    for _ in range(8):
        table.step()
    before = first.app.view(table.game_id, table.tokens[1])
    first.close()

    second = build_services(settings)
    try:
        assert second.app.view(table.game_id, table.tokens[1]) == before
    finally:
        second.close()


def test_replaying_stored_events_never_draws_a_random_number(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer = build_services(settings)
    table = start_game(writer.app)
    table.play_out()
    expected = writer.app.view(table.game_id)
    writer.close()

    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("a random generator was called during replay")

    monkeypatch.setattr(randomness.RandomStream, "number", refuse)
    monkeypatch.setattr(random.Random, "random", refuse)
    monkeypatch.setattr(random.Random, "getrandbits", refuse)
    monkeypatch.setattr(os, "urandom", refuse)
    reader = build_services(settings)
    try:
        assert reader.app.view(table.game_id) == expected
        for version in range(1, expected["version"] + 1, 13):
            reader.app.view(table.game_id, version=version)
    finally:
        reader.close()


def test_concurrent_moves_on_one_version_save_exactly_one(services: Services) -> None:
    app = services.app
    table = start_game(app)
    version, seat, move = table.mover()
    barrier = threading.Barrier(4)
    outcomes: list[str] = []

    def submit() -> None:
        barrier.wait()
        try:
            app.play(table.game_id, table.tokens[seat], move, version)
            outcomes.append("saved")
        except Conflict as error:
            outcomes.append(error.code)

    threads = [threading.Thread(target=submit) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["saved"] + ["stale-version"] * 3
    log = app.event_log(table.game_id, limit=500)["items"]
    assert [e["type"] for e in log].count("MoveMade") == 1
    assert [e["version"] for e in log] == list(range(1, len(log) + 1))


def test_concurrent_joins_take_distinct_seats(services: Services) -> None:
    app = services.app
    game_id = app.create_game("azul", 4)
    barrier = threading.Barrier(4)
    seats: list[int] = []

    def join(n: int) -> None:
        barrier.wait()
        seats.append(app.join(game_id, f"p{n}").seat)

    threads = [threading.Thread(target=join, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(seats) == [0, 1, 2, 3]
    assert app.view(game_id)["status"] == "active"
