"""The options each game shows in ``GET /game-types`` (docs/api.md, "Game types"): a client
builds its form from them, so the values an option takes are listed once each."""

from __future__ import annotations

from domain.registry import games


def test_every_option_lists_each_of_its_values_once() -> None:
    for name, rules in games().items():
        for option in rules.options_info:
            values = list(option.values or ())
            repeated = sorted({str(v) for v in values if values.count(v) > 1})
            assert not repeated, f"{name} option {option.name!r} repeats {repeated}"
