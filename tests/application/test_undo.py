"""Undo as an event, in every mode, and forks for analysis (issue 3, parts 2 and 7)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from application.errors import Conflict, InvalidToken
from application.service import GameLedger
from domain.errors import GameNotReady
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


def line_of_play(app: GameLedger, game_id: UUID) -> list[list[int]]:
    """The aggregate's turns now: ``[move version, seat]`` of each turn of the line of play."""
    return app.games.at(game_id, app.view(game_id)["version"], whole_line=True).line.turns


def test_free_undo_of_own_turns_is_immediate_and_none_refuses(services: Services) -> None:
    app = services.app
    free = table(app, {"undo": "free"})
    played_by(free, 0)
    before = played_by(free, 0)
    app.request_undo(free.game_id, free.tokens[0])  # turns=1: the last turn, seat 0's own
    assert rules_view(app, free.game_id) == rules_view(app, free.game_id, before)
    assert app.view(free.game_id)["undo_request"] is None
    types = [e["type"] for e in app.event_log(free.game_id, limit=500)["items"]]
    assert types[-1] == "TurnsUndone" and "UndoRequested" not in types

    none = table(app, {"undo": "none"})
    played_by(none, 0)
    with pytest.raises(UndoRefused) as refused:
        app.request_undo(none.game_id, none.tokens[0])
    assert refused.value.code == "undo-not-allowed"
    with pytest.raises(UndoRefused) as nothing:
        app.request_undo(none.game_id, none.tokens[1])
    assert nothing.value.code in ("undo-not-allowed", "nothing-to-undo")


def test_turns_counts_the_line_of_play_and_starts_at_an_own_turn(services: Services) -> None:
    """``turns`` is how many of the last turns of the line of play are taken back, the
    first of them the asker's own (docs/audit.md, "Undo")."""
    app = services.app
    t = table(app, {"undo": "consent"}, players=3)
    for _ in range(5):
        t.step()
    turns = line_of_play(app, t.game_id)
    last_mover = turns[-1][1]
    other = next(s for s in range(3) if s != last_mover)
    with pytest.raises(UndoRefused) as not_own:
        app.request_undo(t.game_id, t.tokens[other])  # the last turn is not theirs
    assert not_own.value.code == "not-own-turn"
    with pytest.raises(UndoRefused) as too_many:
        app.request_undo(t.game_id, t.tokens[last_mover], turns=6)
    assert too_many.value.code == "nothing-to-undo"
    seat = turns[-3][1]
    app.request_undo(t.game_id, t.tokens[seat], turns=3)
    request = app.view(t.game_id)["undo_request"]
    assert request["turns"] == 3 and request["to_version"] == turns[-3][0] - 1
    assert request["waiting"] == [s for s in range(3) if s != seat]


def test_free_undo_asks_the_seats_whose_turns_it_takes_back(services: Services) -> None:
    """Under ``free`` at a table of three, taking back another seat's turn needs that seat's
    consent — and only theirs (issue 10, part 7)."""
    app = services.app
    t = table(app, {"undo": "free"}, players=3)
    for _ in range(6):
        t.step()
    turns = line_of_play(app, t.game_id)
    seat = turns[-3][1]
    others = sorted({mover for _, mover in turns[-3:]} - {seat})
    assert others  # Azul: three seats in turn, so the last three turns are not all one seat's
    moves = app.view(t.game_id)["moves"]
    app.request_undo(t.game_id, t.tokens[seat], turns=3)
    view = app.view(t.game_id)
    assert view["moves"] == moves  # nothing taken back yet
    assert view["undo_request"]["waiting"] == others
    for other in others:
        app.answer_undo(t.game_id, t.tokens[other], True)
    after = app.view(t.game_id)
    assert after["moves"] == moves - 3 and after["undo_request"] is None
    assert rules_view(app, t.game_id) == rules_view(app, t.game_id, turns[-3][0] - 1)
    undone = app.event_log(t.game_id, types=frozenset({"TurnsUndone"}))["items"]
    assert undone[-1]["data"]["by"] == "consent"

    t.step()
    seat = line_of_play(app, t.game_id)[-1][1]
    app.request_undo(t.game_id, t.tokens[seat], turns=1)  # own turn only: at once
    assert app.view(t.game_id)["undo_request"] is None
    assert app.view(t.game_id)["moves"] == moves - 3


def test_a_refused_free_undo_keeps_the_other_seats_turn(services: Services) -> None:
    app = services.app
    t = table(app, {"undo": "free"}, players=3)
    for _ in range(4):
        t.step()
    turns = line_of_play(app, t.game_id)
    seat, other = turns[-2][1], turns[-1][1]
    assert seat != other
    state = rules_view(app, t.game_id)
    app.request_undo(t.game_id, t.tokens[seat], turns=2)
    assert app.view(t.game_id)["undo_request"]["waiting"] == [other]
    with pytest.raises(UndoRefused) as not_asked:
        third = next(s for s in range(3) if s not in (seat, other))
        app.answer_undo(t.game_id, t.tokens[third], True)
    assert not_asked.value.code == "not-asked"
    app.answer_undo(t.game_id, t.tokens[other], False)
    assert rules_view(app, t.game_id) == state
    assert line_of_play(app, t.game_id) == turns


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
