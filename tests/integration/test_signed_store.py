"""Signed moves on real stores (SQLite file, PostgreSQL server; issue 14, part 5): the keys and
signatures survive a restart — read back from stored events and from snapshots (a seat's key
is part of the snapshot's seats) — so a keyed seat must still sign after one; the record
verifies; a finished signed game imports into another store as itself."""

from __future__ import annotations

import pytest

from application.records import export_record, import_record
from application.verification import verify_record
from domain.errors import GameError
from infrastructure.config import Settings
from infrastructure.container import build_services
from tests.signed import SignedTable, signed_game

pytestmark = pytest.mark.parametrize(
    "store", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True
)


def test_keys_and_signatures_survive_a_restart_and_an_import(settings: Settings) -> None:
    first = build_services(settings)
    table = signed_game(first.app, keyed=(0,), seed="signed-store")
    while first.app.whose_turn(table.game_id)[0] < 60:  # past the first snapshot (50 events)
        assert table.step()
    first.close()

    second = build_services(settings)  # loads from the snapshot and the events after it
    try:
        again = SignedTable(second.app, table.game_id, table.tokens, keys=table.keys)
        while second.app.whose_turn(table.game_id)[1] != [0]:
            assert again.step()
        version, _, move = again.mover()
        with pytest.raises(GameError) as unsigned:
            second.app.play(table.game_id, table.tokens[0], move, version)
        assert unsigned.value.code == "signature-required"
        again.play_out()
        record = export_record(second.app, table.game_id)
    finally:
        second.close()
    report = verify_record(record)
    assert report.ok, report.discrepancy
    assert report.signatures_checked > 0

    archive = build_services(Settings(store="memory", embedded_projections=False))
    try:
        assert import_record(archive.app, record) == table.game_id
        assert export_record(archive.app, table.game_id) == record
    finally:
        archive.close()
