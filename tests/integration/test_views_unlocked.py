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

from application.service import GameLedger
from infrastructure.container import Services
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
