"""A view of a game asked again is answered without the game's lock (docs/architecture.md,
"Read side"; issue 12, part 6): many watching one game do not queue behind each other nor
behind a command being saved. What they are shown is always a version the store holds — never
a move changed in place and not (yet, or ever) saved — and a saved move is shown by the next
view."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import OperationalError

from application.errors import Conflict, InvalidToken
from application.lobby import resign
from application.service import GameLedger
from infrastructure.config import Settings
from infrastructure.container import Services, build_services
from tests.helpers import Table, eventually, start_game

STORES_WITH_TOKENS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
WAIT = 10.0


def in_thread(work: Callable[[], Any]) -> Callable[[], Any]:
    """Run ``work`` in a thread of its own; the answer's getter waits at most WAIT seconds
    (an error if the work is still waiting then)."""
    answers: list[Any] = []
    failures: list[BaseException] = []

    def run() -> None:
        try:
            answers.append(work())
        except BaseException as error:
            failures.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()

    def answer() -> Any:
        thread.join(WAIT)
        assert not thread.is_alive(), "the view waited for the game's lock"
        if failures:
            raise failures[0]
        return answers[0]

    return answer


@contextmanager
def lock_held(app: GameLedger, game_id: UUID) -> Iterator[None]:
    """The game's lock held by another thread (as a command being saved holds it)."""
    taken, done = threading.Event(), threading.Event()

    def hold() -> None:
        with app.games.cache.locked(game_id):
            taken.set()
            done.wait(WAIT)

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    assert taken.wait(WAIT)
    try:
        yield
    finally:
        done.set()
        holder.join(WAIT)


def watched_game(services: Services) -> Table:
    """A game a few moves in, its views already asked once (so kept), in a process whose
    watcher runs (PostgreSQL's spectators read the notified token)."""
    services.watcher.start()
    app = services.app
    table = start_game(app, players=2)
    for _ in range(3):
        table.step()
    version = app.whose_turn(table.game_id)[0]
    assert eventually(lambda: services.app.view(table.game_id)["version"] == version)
    app.view(table.game_id)
    return table


@pytest.mark.parametrize("store", STORES_WITH_TOKENS)
def test_a_view_asked_again_is_answered_while_the_games_lock_is_held(
    services: Services,
) -> None:
    table = watched_game(services)
    app = services.app
    seen = app.view(table.game_id)
    seat_view = app.view(table.game_id, table.tokens[0])
    with lock_held(app, table.game_id):
        assert in_thread(lambda: app.view(table.game_id))() == seen
        # a seat's view asks the store (SQLite: its last event's id; PostgreSQL: the game's
        # events after the kept version), then needs no lock either
        assert in_thread(lambda: app.view(table.game_id, table.tokens[0]))() == seat_view
    # a seat's view is its own: another seat's token is never given the first seat's view
    assert app.view(table.game_id, table.tokens[1]) != seat_view


@pytest.mark.parametrize("store", STORES_WITH_TOKENS)
@pytest.mark.parametrize("saved", [True, False])
def test_a_move_being_saved_is_not_shown_until_it_is(
    services: Services, saved: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a command's save is under way (the game already changed in place, under its
    lock), a view shows the version before it at once; once saved, the next view shows the
    move; a save that fails is never shown."""
    table = watched_game(services)
    app = services.app
    before = app.view(table.game_id)
    [store] = app.stores
    record = store.record
    saving, release = threading.Event(), threading.Event()

    def slow_record(game: Any) -> int:
        saving.set()
        assert release.wait(WAIT)
        if not saved:
            raise OperationalError("the store went away")
        count: int = record(game)
        return count

    monkeypatch.setattr(store, "record", slow_record)
    version, seat, move = table.mover()
    played = in_thread(lambda: app.play(table.game_id, table.tokens[seat], move, version))
    assert saving.wait(WAIT)
    assert app.games.cache.get(table.game_id) is not None
    during = in_thread(lambda: app.view(table.game_id))()
    assert during == before  # the version the store holds, not the move changed in place
    release.set()
    if saved:
        assert played().version > version
        assert app.view(table.game_id)["version"] == played().version
    else:
        with pytest.raises(OperationalError):
            played()
        assert app.view(table.game_id) == before


@pytest.mark.parametrize("store", STORES_WITH_TOKENS)
def test_a_refused_command_that_caught_the_game_up_leaves_no_stale_view(
    settings: Settings,
) -> None:
    """Found by review: a seat moves through process A; its next command in process B is
    refused after B caught its cached game up in place; B's views must then show the seat's
    own move (they showed the version before it: the views kept were of the old version)."""
    a, b = build_services(settings), build_services(settings)
    try:
        table = start_game(a.app, players=2)
        table.step()
        version, seat, move = table.mover()
        token = table.tokens[seat]
        assert b.app.view(table.game_id, token)["version"] == version  # B keeps this view
        played = a.app.play(table.game_id, token, move, version)
        with pytest.raises(InvalidToken):
            b.app.play(table.game_id, "not-a-token", move, played.version)
        assert b.app.view(table.game_id, token)["version"] == played.version
        assert b.app.view(table.game_id)["version"] == played.version
        b.app.whose_turn(table.game_id)  # a read under the lock between: the same
        assert b.app.view(table.game_id, token)["version"] == played.version
    finally:
        a.close()
        b.close()


@pytest.mark.parametrize("store", STORES_WITH_TOKENS)
def test_a_view_during_a_save_shows_another_processs_commit_of_that_version(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by review: process B is saving move X (its cached game changed in place to
    version v+1, unsaved) when process A saves move Y as v+1; a seat's view in B after that
    must show A's v+1, not v (B asked the store for what came after its unsaved v+1)."""
    a, b = build_services(settings), build_services(settings)
    try:
        table = start_game(a.app, players=2)
        table.step()
        version, seats = a.app.whose_turn(table.game_id)
        token = table.tokens[seats[0]]
        moves = a.app.legal_moves(table.game_id, token)["moves"]
        assert len(moves) >= 2
        b.app.view(table.game_id, token)  # B keeps the game and this view (version v)
        [store_b] = b.app.stores
        record = store_b.record
        saving, release = threading.Event(), threading.Event()

        def slow_record(game: Any) -> int:
            saving.set()
            assert release.wait(WAIT)
            count: int = record(game)
            return count

        monkeypatch.setattr(store_b, "record", slow_record)
        in_b = in_thread(lambda: b.app.play(table.game_id, token, moves[0]["move"], version))
        assert saving.wait(WAIT)
        played = a.app.play(table.game_id, token, moves[1]["move"], version)  # saved first
        shown: list[int] = []
        reader = threading.Thread(
            target=lambda: shown.append(b.app.view(table.game_id, token)["version"]),
            daemon=True,
        )
        reader.start()
        reader.join(0.5)
        release.set()
        reader.join(WAIT)
        with pytest.raises(Conflict):
            in_b()  # B's move was decided on v: the store's v+1 is A's
        assert shown == [played.version], f"B showed {shown}, the store holds {played.version}"
    finally:
        a.close()
        b.close()


@pytest.mark.parametrize("store", STORES_WITH_TOKENS)
def test_no_view_is_given_to_another_token(services: Services) -> None:
    """Hidden information: a view kept is found only by the token it was made for; another
    seat's, another game's, a mangled or a made-up token is refused as before, and a
    resigned seat is shown what spectators see."""
    services.watcher.start()
    app = services.app
    table = start_game(app, players=3)
    other = start_game(app, players=2, seed="other")
    table.step()
    views = [app.view(table.game_id, t) for t in table.tokens]
    spectator = app.view(table.game_id)
    for _ in range(3):
        assert [app.view(table.game_id, t) for t in table.tokens] == views
        assert app.view(table.game_id) == spectator
        for bad in ["nope", other.tokens[0], table.tokens[0][:-1] + "x"]:
            with pytest.raises(InvalidToken):
                app.view(table.game_id, bad)
    assert len({str(v) for v in views} | {str(spectator)}) == 4
    resign(app, table.game_id, table.tokens[2])
    resigned = app.view(table.game_id, table.tokens[2])
    assert resigned == app.view(table.game_id)
    assert app.view(table.game_id, table.tokens[0]) != resigned
