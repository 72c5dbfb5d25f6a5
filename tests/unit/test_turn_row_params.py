"""A turn's row reaches SQL with its values in the order of its columns (the dataclass's
fields, which the tables' DDL follows; application/projections/turns.py)."""

from __future__ import annotations

import dataclasses

from application.projections.turns import TurnRow


def test_a_rows_parameters_are_its_fields_in_order() -> None:
    row = TurnRow("g", 3, 1, 7, 9, "take 2 red", "Seat 1 took two red tiles", None)
    assert row.as_params() == dataclasses.astuple(row)
    assert [f.name for f in dataclasses.fields(TurnRow)] == [
        "game_id",
        "turn",
        "seat",
        "first_version",
        "last_version",
        "notation",
        "summary",
        "undone_at",
    ]
