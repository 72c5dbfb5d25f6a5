"""The game and the record verifier decide undo by one policy (issue 11, part 5;
docs/audit.md, "Undo"): domain/undo.py.

* The verifier calls the very functions of :mod:`domain.undo` the aggregate calls, so a
  change of the policy is seen by both at once.
* For random games (every undo setting, two or three seats) and random sequences of moves,
  undo requests, answers and arbiter's undos, every record the game makes verifies, with
  the same number of turns undone; and at the end, for every undo event a forger could
  append (requests, player's undos, answers, arbiter's undos, to every turn boundary and
  beside it), the verifier accepts it exactly when the game, given the command, would have
  recorded that very event (the record's summary is not forged along, so "accepts" means
  that no event is a discrepancy).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import domain.undo
from application import audit_undo
from application.records import export_record
from application.service import GameLedger
from application.verification import verify_record
from domain.errors import GameError
from domain.game import Game
from infrastructure.config import Settings
from infrastructure.container import build_services
from tests.application.test_verification import ARBITER, casual, insert, until_moved
from tests.helpers import Table

SETTINGS = [{"undo": "consent"}, {"undo": "free"}, {"undo": "none"}, {"tournament": True}]

Action = tuple[Any, ...]
Forged = list[tuple[str, dict[str, Any]]]


@pytest.fixture(scope="module")
def app() -> Iterator[GameLedger]:
    """One in-memory service for the module."""
    services = build_services(Settings(store="memory", embedded_projections=False))
    yield services.app
    services.close()


# One policy, called by both


def test_the_verifier_calls_the_domain_policy_itself() -> None:
    """The verifier's ``undo`` is the module the game uses, not a copy of it."""
    assert vars(audit_undo)["undo"] is domain.undo
    assert vars(audit_undo)["undo"].request_undo is domain.undo.request_undo


def test_a_change_of_the_policy_is_seen_by_the_game_and_the_verifier(
    app: GameLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under a policy in which nobody is ever asked, a consent game's undo takes effect at
    once, and the verifier accepts that record; under the real policy it refuses it."""
    monkeypatch.setattr(domain.undo, "asked_to_consent", lambda *_: [])
    t = casual(app, {"undo": "consent"})
    until_moved(t, 0)
    app.request_undo(t.game_id, t.tokens[0])
    record = export_record(app, t.game_id)
    undone = record["events"][-1]
    assert undone["type"] == "TurnsUndone" and undone["data"]["by"] == "player"
    assert verify_record(record).ok
    monkeypatch.undo()
    report = verify_record(record)
    assert not report.ok and report.event_type == "TurnsUndone"
    assert "with undo: consent this undo needs the consent of seat(s) [1] first" in str(
        report.discrepancy
    )


# Random undo sequences

actions = st.lists(
    st.one_of(
        st.just(("move",)),
        st.just(("move",)),
        st.tuples(st.just("request"), st.integers(0, 2), st.integers(0, 4)),
        st.tuples(st.just("answer"), st.integers(0, 2), st.booleans()),
        st.tuples(st.just("arbiter"), st.integers(0, 6), st.sampled_from(["", " ", "slip"])),
    ),
    max_size=24,
)


def run(app: GameLedger, t: Table, script: list[Action]) -> None:
    """Play the script through the use cases; the refusals change nothing."""
    players = len(t.tokens)
    for action in script:
        try:
            if action[0] == "move":
                t.step()
            elif action[0] == "request":
                app.request_undo(t.game_id, t.tokens[action[1] % players], action[2])
            elif action[0] == "answer":
                app.answer_undo(t.game_id, t.tokens[action[1] % players], action[2])
            else:
                app.arbiter_undo(t.game_id, ARBITER, action[1], action[2])
        except GameError:
            pass


def latest(app: GameLedger, game_id: UUID) -> Game:
    """The game as it is now."""
    return app.games.at(game_id, whole_line=True)


def recorded(game: Game, command: Any) -> Forged | None:
    """The undo events ``command`` makes a copy of ``game`` record, or None if the policy
    refuses it."""
    trial = copy.deepcopy(game)
    try:
        command(trial)
    except GameError:
        return None
    events = [e for e in trial.collect_events() if isinstance(e, Game.Event)]
    return [(e.type_name, e.public_data()) for e in events]


def forgeries(game: Game) -> Iterator[tuple[Forged, Forged | None]]:
    """Each undo event (or pair) a forger might append, with what the game itself records
    for the command it stands for (None: the policy refuses the command)."""
    players, turns = game.players, game.line.whole().turns
    boundaries = sorted({v - 1 for v, _ in turns[-4:]} | {v for v, _ in turns[-2:]} | {0})
    for to_version in boundaries:
        count = sum(1 for v, _ in turns if v > to_version)
        for seat in range(players):
            others = [s for s in range(players) if s != seat]
            movers = sorted({s for v, s in turns if v > to_version} - {seat})
            asked = recorded(game, lambda g, s=seat, c=count: g.request_undo(s, c))
            base = {"seat": seat, "to_version": to_version, "turns": count}
            for waiting in {tuple(others), tuple(movers)}:
                yield [("UndoRequested", {**base, "waiting": list(waiting)})], asked
            undone = {**base, "by": "player", "reason": ""}
            yield [("TurnsUndone", undone)], asked
        keep = len(turns) - count
        arbiter = recorded(game, lambda g, k=keep: g.arbiter_undo(k, "slip"))
        undone = {"to_version": to_version, "turns": count, "by": "arbiter", "seat": -1}
        yield [("TurnsUndone", {**undone, "reason": "slip"})], arbiter
    request = game.undo_request
    for seat in range(players):
        for accept in (True, False):
            answered = recorded(game, lambda g, s=seat, a=accept: g.answer_undo(s, a))
            answer: Forged = [("UndoAnswered", {"seat": seat, "accepted": accept})]
            yield answer, answered
            if request is not None:
                consent = {"to_version": request["to_version"], "turns": request["turns"]}
                consent |= {"by": "consent", "seat": request["seat"], "reason": ""}
                yield [*answer, ("TurnsUndone", consent)], answered


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    ledger=st.sampled_from(SETTINGS),
    players=st.sampled_from([2, 3]),
    script=actions,
    bot=st.integers(0, 1000),
)
def test_the_verifier_decides_every_undo_as_the_game_does(
    app: GameLedger, ledger: dict[str, Any], players: int, script: list[Action], bot: int
) -> None:
    t = casual(app, ledger, players)
    t.bot = random.Random(bot)
    run(app, t, script)
    record = export_record(app, t.game_id)
    report = verify_record(record)
    undone = sum(e["data"]["turns"] for e in record["events"] if e["type"] == "TurnsUndone")
    assert report.ok, report.discrepancy
    assert report.turns_undone == undone
    game = latest(app, t.game_id)
    end = len(record["events"])
    for forged, made in forgeries(game):
        trial = copy.deepcopy(record)
        for offset, (type_name, data) in enumerate(forged):
            insert(trial, end + offset, type_name, data)
        checked = verify_record(trial)
        # accepted by the rules and the undo policy: no event is a discrepancy (the
        # record's summary, not forged along, may still differ from its events)
        accepted = checked.ok or checked.version is None
        assert accepted == (made == forged), (forged, made, checked.discrepancy)
