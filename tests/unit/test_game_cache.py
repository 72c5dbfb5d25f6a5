"""The games a process keeps in memory stay within their budget in bytes (issue 12, part 4;
docs/operations.md, "Memory"): the least recently used go first, a game's cost follows its
state, and the games kept forget the past of their line of play."""

from __future__ import annotations

import contextlib
import threading

from application.cache import GameCache, estimated_bytes
from application.service import GameLedger
from application.shards import shard_of
from domain.game import Game
from tests.helpers import start_game


def games(count: int) -> list[Game]:
    app = GameLedger()
    tables = [start_game(app, players=4, seed=f"cache {n}") for n in range(count)]
    for table in tables:
        for _ in range(6):
            table.step()
    return [app.games.at(table.game_id, whole_line=True) for table in tables]


def test_the_cache_keeps_within_its_budget_dropping_the_least_recently_used() -> None:
    kept = games(6)
    for game in kept:
        game.trim_line()  # as the cache keeps them
    size = max(estimated_bytes(game) for game in kept)
    cache = GameCache(max_bytes=3 * size)
    for game in kept[:3]:
        cache.put(game)
    assert cache.get(kept[0].id) is kept[0]  # now the most recently used
    for game in kept[3:]:
        cache.put(game)
        assert cache.bytes <= cache.max_bytes
    assert len(cache) <= 3
    assert cache.get(kept[1].id) is None and cache.get(kept[2].id) is None
    assert cache.get(kept[5].id) is kept[5]


def test_a_game_kept_forgets_the_past_of_its_line_of_play() -> None:
    [game] = games(1)
    assert game.line.complete and game.line.turns
    moves, current = game.moves, game.line.current
    GameCache(max_bytes=10**9).put(game)
    assert not game.line.complete and game.line.turns == [] and game.line.effective == []
    assert game.moves == moves and game.line.current == current


def test_a_game_larger_than_the_budget_is_not_kept() -> None:
    [game] = games(1)
    game.trim_line()
    cache = GameCache(max_bytes=estimated_bytes(game) - 1)
    cache.put(game)
    assert len(cache) == 0 and cache.bytes == 0


def test_discarding_gives_the_bytes_back() -> None:
    kept = games(2)
    cache = GameCache(max_bytes=10**9)
    for game in kept:
        cache.put(game)
    cache.discard(kept[0].id)
    assert cache.get(kept[0].id) is None
    assert cache.bytes == estimated_bytes(kept[1])


class Held(Exception):
    """The command below refuses once it is let go (it saves nothing)."""


def test_commands_of_two_games_of_one_part_do_not_wait_for_each_other() -> None:
    """Every game id carries its part of the store in its last byte (application/shards.py):
    the lock a game shares with others must not be chosen by that byte, or every game of a
    part waits for every other one's commands and their commits."""
    app = GameLedger()
    first = app.create_game("azul", 2, seed="held")
    stripe = app.games.cache.stripe_of(first)
    others = [app.create_game("azul", 2, seed=f"other {n}") for n in range(20)]
    assert {shard_of(game_id) for game_id in [first, *others]} == {0}
    other = next((g for g in others if app.games.cache.stripe_of(g) != stripe), None)
    assert other is not None, "twenty games of one part all share the first one's lock"

    holding, release = threading.Event(), threading.Event()

    def hold(_: Game) -> None:
        holding.set()
        release.wait(10)
        raise Held

    def command() -> None:
        with contextlib.suppress(Held):
            app.games.command(first, None, hold)

    held = threading.Thread(target=command)
    held.start()
    try:
        assert holding.wait(10)
        read = threading.Thread(target=lambda: app.view(other, None))
        read.start()
        read.join(5)
        assert not read.is_alive(), "a read of another game waited for the held command"
    finally:
        release.set()
        held.join(10)


def test_views_kept_are_found_by_the_token_they_were_asked_with() -> None:
    """A view serialised is kept for the viewer it shows and the token (its commitment) it was
    asked with: another token, or none, finds nothing until its own view is made."""
    [game] = games(1)
    kept = GameCache(max_bytes=10**9).put(game)
    assert kept.shown_to(None, game.version) is None
    kept.keep_document("spectator", b"spectator's", None)
    kept.keep_document("seat 0", b"seat 0's", "commitment of seat 0's token")
    assert kept.shown_to(None, game.version) == (game.version, b"spectator's")
    assert kept.shown_to("commitment of seat 0's token", game.version) == (
        game.version,
        b"seat 0's",
    )
    assert kept.shown_to("commitment of seat 1's token", game.version) is None
    kept.keep_document("spectator", b"spectator's", "commitment of a resigned seat's token")
    assert kept.shown_to("commitment of a resigned seat's token", game.version) == (
        game.version,
        b"spectator's",
    )


def test_a_new_version_of_a_game_keeps_no_views_of_the_last() -> None:
    """The views kept go with the version they show: a game kept again at another version
    starts with none, at the same version with the same."""
    app = GameLedger()
    table = start_game(app, players=2, seed="views")
    cache = GameCache(max_bytes=10**9)
    game = app.games.at(table.game_id)
    kept = cache.put(game)
    kept.keep_document("spectator", b"before", None)
    assert cache.put(game).shown_to(None, game.version) == (game.version, b"before")  # same version
    table.step()
    moved = app.games.at(table.game_id)
    assert moved.version > game.version
    assert cache.put(moved).shown_to(None, moved.version) is None


def test_a_game_known_as_of_a_token_stays_known_as_of_it() -> None:
    """A kept game remembers the last two change tokens as of which it was the store's latest
    (on SQLite a spectator's and a seat's are of two kinds); none vouches for nothing."""
    [game] = games(1)
    kept = GameCache(max_bytes=10**9).put(game, synced=("polled", 1))
    assert kept.knows(("polled", 1)) and not kept.knows(None)
    kept.vouch(7)
    assert kept.knows(7) and kept.knows(("polled", 1))
    kept.vouch(("polled", 2))
    assert kept.knows(("polled", 2)) and kept.knows(7) and not kept.knows(("polled", 1))
    kept.vouch(None)
    assert kept.synced == ((("polled", 2), game.version), (7, game.version))
