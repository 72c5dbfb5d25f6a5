"""A tournament's record on every store (issue 15, part 6; docs/tournaments.md, "The
tournament record"): played by bots through the use cases on memory, SQLite and PostgreSQL,
its chain and its games checkpointed by the checkpointer into the store's transparency log
(``tournament:<id>``), exported with every proof against one tree head, written as JSON and
read back, and verified with the service's keys pinned."""

from __future__ import annotations

import json
from uuid import UUID

from application.audit_tournament import verify_tournament_record
from application.checkpoints import tournament_log_name
from application.tournament_records import LogProofs, tournament_record
from application.tournament_simulation import simulate_tournament
from application.tournaments import Tournaments
from infrastructure.container import Services


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
