"""Every registered game through the whole service: random bots play through the use cases,
each finished game's record verifies, and a changed event in it is caught (issue 3's audit,
given to every game by registration)."""

from __future__ import annotations

import copy
from uuid import UUID

import pytest

from application.records import export_record
from application.simulation import simulate
from application.verification import verify_record
from domain.registry import games
from infrastructure.config import Settings
from infrastructure.container import build_services


@pytest.mark.parametrize("name", sorted(games()))
def test_simulated_games_export_and_verify(name: str) -> None:
    services = build_services(Settings(store="memory", embedded_projections=False))
    rules = games()[name]
    try:
        for players in (rules.min_players, rules.max_players):
            report = simulate(services.app, name, games=2, players=players, seed=players)
            assert report["finished"] == 2
            for game_id in report["game_ids"]:
                record = export_record(services.app, UUID(game_id))
                verdict = verify_record(record)
                assert verdict.ok, verdict.summary
                tampered = copy.deepcopy(record)
                played = [e for e in tampered["events"] if e["type"] in rules.event_types]
                target = played[len(played) // 2]
                target["data"]["tampered"] = True
                assert not verify_record(tampered).ok
    finally:
        services.close()
