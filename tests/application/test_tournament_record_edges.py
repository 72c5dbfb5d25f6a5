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
from application.errors import Conflict
from application.service import GameLedger
from application.simulation import play_out
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


def test_a_round_whose_games_were_never_created_still_exports(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The process that started the tournament stopped between saving round 1 and creating
    its tables' games, and the results manager had not caught up when the organiser forfeited
    those tables (their games do not exist: nothing refuses it). Round 2 is paired and played;
    when the manager follows round 1's ``RoundPaired`` it creates the last round's games only.
    The finished tournament's record must still be exported: a table the arbiter decided may
    lack its game's record (docs/tournaments.md, "Verifying a tournament")."""
    app = GameLedger()
    with monkeypatch.context() as crash:
        crash.setattr("application.tournaments.ensure_tables", lambda games, t: 0)
        desk, tid, organiser = started(app, {"kind": "swiss", "rounds": 2}, 4)
    for table in desk.load(tid).rounds[0]["tables"]:
        absent = [table["seats"][1]]
        desk.decide_table(
            tid, organiser, table["game"], lambda t, g=table["game"], a=absent: t.forfeit(g, a, "x")
        )
    assert desk.ensure_tables(tid) == 0  # round 2's were made by the command that paired it
    secret = desk.load(tid).table_secret
    for table in desk.load(tid).rounds[1]["tables"]:
        tokens = [seat_token(secret, table["game"], n) for n in range(2)]
        assert play_out(app, UUID(table["game"]), tokens, random.Random(4))
        with app.games.reading(UUID(table["game"])) as game:
            assert desk.record_game(game)
    assert desk.load(tid).phase == "finished"
    record = record_of(app, desk, tid)
    report = verify_tournament_record(record)
    assert report.ok, report.discrepancy
    assert report.arbiter_tables_without_game == 2 and report.games_verified == 2


def test_the_service_refuses_to_forfeit_an_entrant_who_has_played() -> None:
    """A forfeit names no-shows. The service took one naming an entrant who had made a move
    at the table, and the record it then exported did not verify ("named a no-show, made 1
    move(s)"). It is refused now (409 ``no-show-moved``: adjudicate the game instead), and
    nothing is recorded; the entrant who made no move is forfeited."""
    app = GameLedger()
    desk, tid, organiser = started(app, {"kind": "swiss", "rounds": 1}, 2)
    (table,) = desk.load(tid).rounds[0]["tables"]
    game_id = UUID(table["game"])
    version, (first,) = app.whose_turn(game_id)
    token = seat_token(desk.load(tid).table_secret, table["game"], first)
    app.play(game_id, token, app.bot_move(game_id, token, random.Random(1)), version)
    mover, other = table["seats"][first], table["seats"][1 - first]
    before = desk.load(tid).version
    with pytest.raises(Conflict) as refused:
        desk.decide_table(
            tid, organiser, table["game"], lambda t: t.forfeit(table["game"], [mover], "gone")
        )
    assert refused.value.code == "no-show-moved" and desk.load(tid).version == before
    desk.decide_table(
        tid, organiser, table["game"], lambda t: t.forfeit(table["game"], [other], "gone")
    )
    report = verify_tournament_record(record_of(app, desk, tid))
    assert report.ok, report.discrepancy
