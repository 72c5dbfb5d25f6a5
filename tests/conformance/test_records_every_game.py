"""Every registered game through the whole service: random bots play through the use cases,
each finished game's record verifies, and a changed event in it is caught (issue 3's audit,
given to every game by registration)."""

from __future__ import annotations

import copy
from typing import Any
from uuid import UUID

import pytest

from application.records import export_record
from application.service import GameLedger
from application.simulation import simulate
from application.verification import verify_record
from domain.registry import games
from infrastructure.config import Settings
from infrastructure.container import build_services

EXPANSION = {"expansions": ["bridges-castles-bazaars"]}
VARIANTS: dict[str, list[tuple[dict[str, Any], tuple[int, ...]]]] = {
    "carcassonne": [
        (EXPANSION, (2, 6)),
        ({**EXPANSION, "bazaar": "no-auction"}, (3,)),
    ],
    "risk": [({"ruleset": "classic"}, (2, 3))],
}
"""Options beyond the defaults that every game's records must also verify with, and the
player counts to play them at."""


def cases(name: str) -> list[tuple[dict[str, Any], tuple[int, ...]]]:
    rules = games()[name]
    return [({}, (rules.min_players, rules.max_players)), *VARIANTS.get(name, [])]


@pytest.mark.parametrize("name", sorted(games()))
def test_simulated_games_export_and_verify(name: str) -> None:
    services = build_services(Settings(store="memory", embedded_projections=False))
    rules = games()[name]
    try:
        for options, counts in cases(name):
            for players in counts:
                verify_simulated(services.app, name, players, options, rules.event_types)
    finally:
        services.close()


def verify_simulated(
    app: GameLedger, name: str, players: int, options: dict[str, Any], types: tuple[str, ...]
) -> None:
    """Two simulated games: their records verify, and a changed event in each is caught."""
    report = simulate(app, name, games=2, players=players, seed=players, options=options)
    assert report["finished"] == 2
    for game_id in report["game_ids"]:
        record = export_record(app, UUID(game_id))
        verdict = verify_record(record)
        assert verdict.ok, verdict.summary
        tampered = copy.deepcopy(record)
        played = [e for e in tampered["events"] if e["type"] in types]
        played[len(played) // 2]["data"]["tampered"] = True
        assert not verify_record(tampered).ok
