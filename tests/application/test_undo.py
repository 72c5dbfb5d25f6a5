"""Undo as an event, in every mode, and forks for analysis (issue 3, parts 2 and 7)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from application.errors import Conflict, InvalidToken
from application.service import GameLedger
from domain.game import GameNotReady
from domain.protocol import InvalidOptions
from domain.undo import UndoRefused
from infrastructure.container import Services
from tests.helpers import Table

ARBITER = "the-arbiter-token"


def table(app: GameLedger, settings: dict[str, Any], players: int = 2) -> Table:
    game_id = app.create_game(
        "azul",
        players,
        settings=settings,
        seed="undo-seed",
        arbiter_token=ARBITER if settings.get("tournament") else None,
    )
    tokens = [app.join(game_id, f"p{n}", n).token for n in range(players)]
    return Table(app, game_id, tokens)


def played_by(t: Table, seat: int) -> int:
    """Play random moves until ``seat`` has just moved; the version before its move."""
    while True:
        version, acting = t.app.whose_turn(t.game_id)
        if acting == [seat]:
            t.step()
            return version
        t.step()


def rules_view(app: GameLedger, game_id: UUID, version: int | None = None) -> dict[str, Any]:
    view = app.view(game_id, version=version)
    return {"state": view["state"], "current_players": view["current_players"]}


def test_consent_undo_needs_every_other_player(services: Services) -> None:
    app = services.app
    t = table(app, {"undo": "consent"}, players=3)
    for _ in range(4):
        t.step()
    before = played_by(t, 1)
    moves = app.view(t.game_id)["moves"]
    app.request_undo(t.game_id, t.tokens[1])
    assert app.view(t.game_id)["undo_request"]["waiting"] == [0, 2]
    version, acting = app.whose_turn(t.game_id)
    move = app.legal_moves(t.game_id, t.tokens[acting[0]])["moves"][0]["move"]
    with pytest.raises(GameNotReady) as pending:
        app.play(t.game_id, t.tokens[acting[0]], move, version)
    assert pending.value.code == "undo-pending"
    with pytest.raises(UndoRefused):
        app.answer_undo(t.game_id, t.tokens[1], True)  # the asker does not answer
    app.answer_undo(t.game_id, t.tokens[0], True)
    assert app.view(t.game_id)["moves"] == moves  # not yet: seat 2 must accept too
    app.answer_undo(t.game_id, t.tokens[2], True)

    after = app.view(t.game_id)
    assert after["moves"] == moves - 1 and after["undo_request"] is None
    assert rules_view(app, t.game_id) == rules_view(app, t.game_id, before)
    types = [e["type"] for e in app.event_log(t.game_id, limit=500)["items"]]
    assert types[-4:] == ["UndoRequested", "UndoAnswered", "UndoAnswered", "TurnsUndone"]


def test_one_refusal_ends_the_request(services: Services) -> None:
    app = services.app
    t = table(app, {})
    played_by(t, 0)
    state = rules_view(app, t.game_id)
    app.request_undo(t.game_id, t.tokens[0])
    app.answer_undo(t.game_id, t.tokens[1], False)
    view = app.view(t.game_id)
    assert view["undo_request"] is None
    assert rules_view(app, t.game_id) == state
    t.step()  # play goes on


def test_free_undo_is_immediate_and_none_refuses(services: Services) -> None:
    app = services.app
    free = table(app, {"undo": "free"})
    before = played_by(free, 0)
    played_by(free, 0)
    app.request_undo(free.game_id, free.tokens[0], turns=2)
    assert rules_view(app, free.game_id) == rules_view(app, free.game_id, before)
    assert app.view(free.game_id)["moves"] == 0

    none = table(app, {"undo": "none"})
    played_by(none, 0)
    with pytest.raises(UndoRefused) as refused:
        app.request_undo(none.game_id, none.tokens[0])
    assert refused.value.code == "undo-not-allowed"
    with pytest.raises(UndoRefused) as nothing:
        app.request_undo(none.game_id, none.tokens[1])
    assert nothing.value.code in ("undo-not-allowed", "nothing-to-undo")


def test_only_the_arbiter_undoes_a_tournament_game(services: Services) -> None:
    app = services.app
    t = table(app, {"tournament": True})
    for _ in range(6):
        t.step()
    after_two = app.view_after_turn(t.game_id, 2)
    with pytest.raises(UndoRefused) as refused:
        app.request_undo(t.game_id, t.tokens[0])
    assert refused.value.code == "arbiter-only"
    with pytest.raises(InvalidToken):
        app.arbiter_undo(t.game_id, t.tokens[0], 2, "misclick")
    with pytest.raises(UndoRefused) as no_reason:
        app.arbiter_undo(t.game_id, ARBITER, 2, "  ")
    assert no_reason.value.code == "reason-required"
    app.arbiter_undo(t.game_id, ARBITER, 2, "a tile fell off the table")
    assert rules_view(app, t.game_id) == {k: after_two[k] for k in ("state", "current_players")}
    undone = app.event_log(t.game_id, types=frozenset({"TurnsUndone"}))["items"]
    assert undone[0]["data"]["by"] == "arbiter"
    assert undone[0]["data"]["reason"] == "a tile fell off the table"
    arbiter_view = app.view(t.game_id, ARBITER)
    assert arbiter_view["viewer"] == {"seat": None, "arbiter": True}
    with pytest.raises(InvalidOptions):
        app.create_game("azul", 2, settings={"undo": "sometimes"})


def test_undo_never_changes_luck(services: Services) -> None:
    """Taking back the move that ended a round and making it again draws the same tiles."""
    app = services.app
    t = table(app, {"undo": "free"})
    while True:
        version, acting = app.whose_turn(t.game_id)
        seat = acting[0]
        moves = app.legal_moves(t.game_id, t.tokens[seat])["moves"]
        move = moves[0]["move"]
        app.play(t.game_id, t.tokens[seat], move, version)
        log = app.event_log(t.game_id, after=version, limit=500)["items"]
        if any(e["type"] == "FactoriesFilled" for e in log):
            break
    first = [(e["type"], e["data"]) for e in log]

    app.request_undo(t.game_id, t.tokens[seat])
    version, acting = app.whose_turn(t.game_id)
    assert acting == [seat]
    app.play(t.game_id, t.tokens[seat], move, version)
    again = app.event_log(t.game_id, after=version, limit=500)["items"]
    assert [(e["type"], e["data"]) for e in again] == first


def test_a_finished_game_is_never_undone(services: Services) -> None:
    app = services.app
    t = table(app, {"undo": "free"})
    t.play_out()
    with pytest.raises(UndoRefused) as over:
        app.request_undo(t.game_id, t.tokens[0])
    assert over.value.code == "game-over"


def test_undo_commands_carry_the_version_seen(services: Services) -> None:
    app = services.app
    t = table(app, {"undo": "free"})
    played_by(t, 0)
    with pytest.raises(Conflict):
        app.request_undo(t.game_id, t.tokens[0], expected_version=3)


def test_fork_for_analysis(services: Services) -> None:
    app = services.app
    t = table(app, {})
    for _ in range(7):
        t.step()
    source_before = app.view(t.game_id)
    fork_id = app.fork(t.game_id, 5)
    fork = app.view(fork_id)
    assert fork["analysis"] == {
        "source": str(t.game_id),
        "turn": 5,
        "version": app.view_after_turn(t.game_id, 5)["version"],
    }
    assert fork["seed_sha256"] != source_before["seed_sha256"]
    tokens = [app.join(fork_id, f"analyst {n}", n).token for n in range(2)]
    assert rules_view(app, fork_id) == {
        k: app.view_after_turn(t.game_id, 5)[k] for k in ("state", "current_players")
    }
    Table(app, fork_id, tokens).play_out()
    assert app.view(fork_id)["status"] == "finished"
    assert app.view(t.game_id) == source_before
    services.catch_up()
    rows = {r.game_id: r for r in services.games_list.all_rows()}
    assert rows[str(fork_id)].analysis and not rows[str(t.game_id)].analysis
