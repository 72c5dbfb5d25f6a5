"""A tournament's record on every store (issue 15, part 6; docs/tournaments.md, "The
tournament record"): played by bots through the use cases on memory, SQLite and PostgreSQL,
its chain and its games checkpointed by the checkpointer into the store's transparency log
(``tournament:<id>``), exported with every proof against one tree head, written as JSON and
read back, and verified with the service's keys pinned."""

from __future__ import annotations

import json
import random
from uuid import UUID

from application.audit_tournament import verify_tournament_record
from application.checkpoints import tournament_log_name
from application.simulation import play_out
from application.tournament_records import LogProofs, tournament_record
from application.tournament_simulation import simulate_tournament
from application.tournaments import Tournaments
from infrastructure.container import Services
from tests.helpers import started_tournament


def test_a_tournament_record_of_every_store_verifies(services: Services) -> None:
    fmt = {"kind": "swiss", "rounds": 2}
    report = simulate_tournament(services.app, "azul", entrants=4, format=fmt, seed=8)
    tid = UUID(report["tournament_id"])
    services.catch_up()
    (ended,) = services.tlog.store.entries_of(tournament_log_name(str(tid)))
    desk = Tournaments(services.app.games)
    assert ended["checkpoint"]["ended"] and ended["checkpoint"]["version"] == desk.load(tid).version
    proofs = LogProofs(services.tlog.store, services.keys)
    record = json.loads(json.dumps(tournament_record(services.app, desk, tid, proofs=proofs)))
    sizes = {g["transparency"]["tree_head"]["size"] for g in record["games"]}
    assert sizes == {record["transparency"]["tree_head"]["size"]}  # one tree head for all
    keys = list(services.keys.keyring().keys())
    verdict = verify_tournament_record(record, pinned_keys=keys)
    assert verdict.ok, verdict.discrepancy
    assert verdict.games_verified == report["tables"] == 4


def test_a_record_verifies_pinned_while_an_adjudicated_tables_game_still_runs(
    services: Services,
) -> None:
    """The outside trial's run: a table adjudicated while its game runs on, the tournament
    finished before any scheduled checkpoint of that game. Pinned verification accepts the
    record (the game's record verifies, the tournament's checkpoint covers the decision) and
    says so; a played table's game without a checkpoint would still be refused."""
    desk = Tournaments(services.app.games)
    fmt = {"kind": "swiss", "rounds": 1}
    created, tokens = started_tournament(desk, fmt, 4, "Stopped Cup", "p{}")
    tid = created.tournament_id
    first, second = desk.load(tid).rounds[0]["tables"]
    desk.decide_table(
        tid,
        created.organiser_token,
        first["game"],
        lambda t: t.adjudicate(first["game"], [1, 2], None, "the clock broke"),
    )
    seats = [""] * 2
    for token in tokens.values():
        for m in desk.my_tables(tid, token):
            if m["game"] == second["game"]:
                seats[m["seat"]] = m["token"]
    assert play_out(services.app, UUID(second["game"]), seats, random.Random(3))
    services.catch_up()
    services.catch_up()
    assert desk.load(tid).phase == "finished"
    proofs = LogProofs(services.tlog.store, services.keys)
    record = json.loads(json.dumps(tournament_record(services.app, desk, tid, proofs=proofs)))
    running = next(g for g in record["games"] if g["game"]["id"] == first["game"])
    assert running["outcome"] is None and running["transparency"] is None
    keys = list(services.keys.keyring().keys())
    verdict = verify_tournament_record(record, pinned_keys=keys)
    assert verdict.ok, verdict.discrepancy
    assert "still running without a checkpoint" in verdict.summary
    played = next(g for g in record["games"] if g["game"]["id"] == second["game"])
    played["transparency"] = None
    assert not verify_tournament_record(record, pinned_keys=keys).ok
