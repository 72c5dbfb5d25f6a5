"""The turn index read model on every store (issue 3, part 1)."""

from __future__ import annotations

import itertools

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
