"""Tournament records the service makes in less common cases, each verified
(docs/tournaments.md, "The arbiter", "Verifying a tournament"): a forfeit of a no-show whose
time ran out (the bot then plays its seat out, as docs/api.md "Clocks" says for tables of
three or more)."""

from __future__ import annotations

import json
import random
from typing import Any
from uuid import UUID

import pytest

from application.audit_tournament import verify_tournament_record
from application.service import GameLedger
from application.tournament_records import tournament_record
from application.tournament_tables import seat_token
from application.tournaments import Tournaments
from domain.tournament.event_base import TournamentEvent
from tests import fake_time

CLOCK = {"clock": {"type": "fischer", "base_seconds": 60, "increment_seconds": 0}}


def started(
    app: GameLedger, fmt: dict[str, Any], count: int, settings: dict[str, Any] | None = None
) -> tuple[Tournaments, UUID, str]:
    desk = Tournaments(app.games)
    created = desk.create("azul", {}, settings, fmt, "Edge Cup")
    tid, organiser = created.tournament_id, created.organiser_token
    tokens = [desk.register(tid, f"player {n}").token for n in range(count)]
    desk.organiser(tid, organiser, lambda t: t.open_check_in())
    for token in tokens:
        desk.check_in(tid, token)
    desk.organiser(tid, organiser, lambda t: t.start())
    return desk, tid, organiser


def record_of(app: GameLedger, desk: Tournaments, tid: UUID) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(json.dumps(tournament_record(app, desk, tid)))
    return loaded


def test_a_forfeit_of_a_no_show_whose_time_ran_out_verifies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A table of three: the no-show sits first and never moves; its time runs out, the
    scheduler flags it and the bot plays its seat from then on, while the others play on.
    The arbiter forfeits the no-show. The bot's moves at its seat are the service's, not the
    entrant's: the record verifies."""
    clock = fake_time.install(monkeypatch)
    monkeypatch.setattr(
        TournamentEvent, "create_timestamp", classmethod(lambda cls: clock.timestamp())
    )
    app = GameLedger()
    desk, tid, organiser = started(app, {"kind": "swiss", "table_size": 3, "rounds": 1}, 3, CLOCK)
    (table,) = desk.load(tid).rounds[0]["tables"]
    game_id = UUID(table["game"])
    _, (first,) = app.whose_turn(game_id)
    clock.advance(61)
    app.games.command(game_id, None, lambda g: g.flag(first, clock.at, by="scheduler"))
    with app.games.reading(game_id) as game:
        assert not game.finished and game.resigned == [first]
    secret = desk.load(tid).table_secret
    _, seats = app.whose_turn(game_id)
    token = seat_token(secret, table["game"], seats[0])
    app.play(
        game_id, token, app.bot_move(game_id, token, random.Random(1)), app.whose_turn(game_id)[0]
    )
    clock.advance(1)
    no_show = table["seats"][first]
    desk.decide_table(
        tid, organiser, table["game"], lambda t: t.forfeit(table["game"], [no_show], "no-show")
    )
    record = record_of(app, desk, tid)
    game_record = next(g for g in record["games"] if g["game"]["id"] == table["game"])
    assert any(move["seat"] == first for move in game_record["moves"])  # the bot's
    report = verify_tournament_record(record)
    assert report.ok, report.discrepancy
    assert report.forfeited == 1
