"""The turn index read model on every store (issue 3, part 1; issue 10, part 3: every undo,
back to any turn boundary including before the first turn, marks the turns it took back)."""

from __future__ import annotations

import itertools
import random
from uuid import UUID

import pytest

from application.projections.turns import turns_page
from application.service import GameLedger
from infrastructure.container import Services
from tests.helpers import Table


def test_turns_cover_the_log_and_mark_undone_turns(services: Services) -> None:
    app = services.app
    game_id = app.create_game("azul", 2, settings={"undo": "free"}, seed="turns")
    tokens = [app.join(game_id, name, n).token for n, name in enumerate(["Ann", "Bob"])]
    t = Table(app, game_id, tokens)
    for _ in range(12):
        t.step()
    services.catch_up()
    turns = services.turns.turns_of(str(game_id), include_undone=True)
    log = app.event_log(game_id, limit=500)["items"]
    moves = [e for e in log if e["type"] == "MoveMade"]
    assert [r.turn for r in turns] == list(range(1, 13))
    assert [r.first_version for r in turns] == [e["version"] for e in moves]
    assert [r.notation for r in turns] == [e["data"]["notation"] for e in moves]
    assert [r.seat for r in turns] == [e["data"]["seat"] for e in moves]
    assert turns[0].summary.startswith(("Ann: ", "Bob: "))
    for row, following in itertools.pairwise(turns):
        assert row.last_version == following.first_version - 1
    assert turns[-1].last_version == log[-1]["version"]

    _, acting = app.whose_turn(game_id)
    seat = 1 - acting[0]  # who moved last
    app.request_undo(game_id, tokens[seat])
    t.step()
    services.catch_up()
    every = services.turns.turns_of(str(game_id), include_undone=True)
    live = services.turns.turns_of(str(game_id), include_undone=False)
    undone = [r for r in every if r.undone_at is not None]
    assert len(undone) == 1 and undone[0].turn == 12
    assert [r.turn for r in live] == list(range(1, 13))  # turn 12 played again
    assert live[-1].first_version > undone[0].undone_at  # type: ignore[operator]

    for turn in (0, 5, 12):
        view = app.view_after_turn(game_id, turn, tokens[0])
        assert view["moves"] == turn
        assert view["viewer"]["seat"] == 0


def test_rebuild_gives_the_same_turns(services: Services) -> None:
    app = services.app
    game_id = app.create_game("azul", 3, seed="rebuild-turns")
    tokens = [app.join(game_id, f"p{n}", n).token for n in range(3)]
    Table(app, game_id, tokens).play_out()
    services.catch_up()
    before = services.turns.turns_of(str(game_id), include_undone=True)
    services.rebuild()
    assert services.turns.turns_of(str(game_id), include_undone=True) == before
    assert len(before) == app.view(game_id)["moves"]


# The turn index after undos (issue 10, part 3)

ARBITER = "turns-arbiter"


def live_turns(services: Services, game_id: UUID) -> list[tuple[int, int, int]]:
    """The index's turns not taken back: ``(turn, first version, seat)``."""
    rows = services.turns.turns_of(str(game_id), include_undone=False)
    return [(r.turn, r.first_version, r.seat) for r in rows]


def aggregate_turns(app: GameLedger, game_id: UUID) -> list[tuple[int, int, int]]:
    """The aggregate's line of play in the same shape."""
    game = app.games.at(game_id, whole_line=True)
    return [(n, version, seat) for n, (version, seat) in enumerate(game.line.turns, start=1)]


def assert_index_matches(services: Services, game_id: UUID) -> None:
    """The non-undone turns are the aggregate's; every move ever made has one row, and a
    row is undone exactly when its move is off the line of play."""
    services.catch_up()
    app = services.app
    expected = aggregate_turns(app, game_id)
    assert live_turns(services, game_id) == expected
    assert app.view(game_id)["moves"] == len(expected)
    every = services.turns.turns_of(str(game_id), include_undone=True)
    made = app.event_log(game_id, types=frozenset({"MoveMade"}), limit=500)["items"]
    assert [r.first_version for r in every] == [e["version"] for e in made]
    on_line = {version for _, version, _ in expected}
    assert {r.first_version for r in every if r.undone_at is None} == on_line


def test_a_free_undo_of_the_only_turn_marks_it_undone(services: Services) -> None:
    app = services.app
    game_id = app.create_game("azul", 2, settings={"undo": "free"}, seed="only-turn")
    t = Table(app, game_id, [app.join(game_id, f"p{n}", n).token for n in range(2)])
    t.step()
    services.catch_up()  # the turn is indexed before it is taken back (another batch)
    mover = aggregate_turns(app, game_id)[0][2]
    app.request_undo(game_id, t.tokens[mover])
    services.catch_up()
    assert app.view(game_id)["moves"] == 0
    rows = services.turns.turns_of(str(game_id), include_undone=True)
    assert len(rows) == 1 and rows[0].undone_at == app.view(game_id)["version"]
    assert live_turns(services, game_id) == []


def test_a_consent_undo_back_to_the_start_marks_both_turns(services: Services) -> None:
    app = services.app
    game_id = app.create_game("azul", 2, seed="back-to-start")
    t = Table(app, game_id, [app.join(game_id, f"p{n}", n).token for n in range(2)])
    t.step()
    t.step()
    services.catch_up()
    (_, _, first), (_, _, second) = aggregate_turns(app, game_id)
    assert first != second
    app.request_undo(game_id, t.tokens[first], turns=2)
    app.answer_undo(game_id, t.tokens[second], True)
    services.catch_up()
    assert app.view(game_id)["moves"] == 0
    rows = services.turns.turns_of(str(game_id), include_undone=True)
    assert [r.undone_at for r in rows] == [app.view(game_id)["version"]] * 2
    assert_index_matches(services, game_id)


def random_undo(app: GameLedger, t: Table, rng: random.Random, arbiter: bool) -> None:
    """An undo of a random number of turns (back to before the first turn included): by
    the arbiter, or asked by the seat of the first turn taken back and answered at random."""
    turns = aggregate_turns(app, t.game_id)
    if not turns:
        return
    count = rng.randint(1, len(turns))
    if arbiter:
        app.arbiter_undo(t.game_id, ARBITER, len(turns) - count, "random undo")
        return
    app.request_undo(t.game_id, t.tokens[turns[-count][2]], turns=count)
    while (request := app.view(t.game_id)["undo_request"]) is not None:
        seat = rng.choice(request["waiting"])
        app.answer_undo(t.game_id, t.tokens[seat], rng.random() < 0.8)


@pytest.mark.parametrize("seed", range(4))
def test_the_index_follows_random_moves_and_undos(services: Services, seed: int) -> None:
    """Seeded random sequences of moves and undos, the index compared with the aggregate
    at random points (so undos land in the same batch as the turns they take back, or in a
    later one), at the end, and after a rebuild."""
    app = services.app
    rng = random.Random(seed)
    settings = [{"undo": "free"}, {"undo": "consent"}, {"tournament": True}][seed % 3]
    players = 2 + seed % 3
    game_id = app.create_game(
        "azul", players, settings=settings, seed=f"random-{seed}", arbiter_token=ARBITER
    )
    t = Table(app, game_id, [app.join(game_id, f"p{n}", n).token for n in range(players)])
    t.bot = random.Random(seed)
    for _ in range(30):
        if rng.random() < 0.3:
            random_undo(app, t, rng, arbiter=bool(settings.get("tournament")))
        else:
            t.step()
        if rng.random() < 0.3:
            assert_index_matches(services, game_id)
    random_undo(app, t, rng, arbiter=bool(settings.get("tournament")))
    assert_index_matches(services, game_id)
    before = services.turns.turns_of(str(game_id), include_undone=True)
    assert any(r.undone_at is not None for r in before)
    services.rebuild()
    assert services.turns.turns_of(str(game_id), include_undone=True) == before
    assert_index_matches(services, game_id)


def test_turns_are_paged_on_every_store(services: Services) -> None:
    """Issue 10, part 6: ``after`` a version, ``limit``, ``next_after`` as the event log."""
    app = services.app
    game_id = app.create_game("azul", 2, seed="paged")
    t = Table(app, game_id, [app.join(game_id, f"p{n}", n).token for n in range(2)])
    for _ in range(5):
        t.step()
    services.catch_up()
    view, key = services.turns, str(game_id)
    whole = turns_page(view, key, include_undone=True, limit=500)
    assert len(whole["items"]) == 5 and whole["next_after"] is None
    pages, after = [], 0
    while after is not None:
        page = turns_page(view, key, include_undone=True, after=after, limit=2)
        pages.append([item["turn"] for item in page["items"]])
        after = page["next_after"]
    assert pages == [[1, 2], [3, 4], [5]]
    for bad in ({"limit": 0}, {"limit": 501}, {"after": -1}):
        with pytest.raises(ValueError):
            turns_page(view, key, include_undone=True, **bad)
