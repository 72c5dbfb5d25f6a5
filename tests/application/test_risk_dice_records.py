"""Risk's dice recomputed from exported records (issue 6, "How it will be checked"):
simulated games are exported and verified (every die re-derived from the revealed seed),
each recorded roll's losses follow from its dice by the rules' comparison, and the rolls of
all the records together match the exact one-roll odds of docs/risk.md, "Exact odds of one roll"."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from uuid import UUID

from application.records import export_record
from application.simulation import simulate
from application.verification import verify_record
from domain.risk.dice import compare
from infrastructure.config import Settings
from infrastructure.container import build_services

ODDS = {
    (1, 1): {(0, 1): Fraction(15, 36)},
    (2, 1): {(0, 1): Fraction(125, 216)},
    (3, 1): {(0, 1): Fraction(855, 1296)},
    (1, 2): {(0, 1): Fraction(55, 216)},
    (2, 2): {(0, 2): Fraction(295, 1296), (1, 1): Fraction(420, 1296)},
    (3, 2): {(0, 2): Fraction(2890, 7776), (1, 1): Fraction(2611, 7776)},
}
"""Dice rolled (attacker, defender) -> (attacker losses, defender losses) -> exact odds
(docs/risk.md, "Exact odds of one roll")."""


def test_dice_from_exported_records_follow_the_rules_and_the_odds() -> None:
    services = build_services(Settings(store="memory", embedded_projections=False))
    try:
        report = simulate(services.app, "risk", games=12, players=4, seed=6)
        assert report["finished"] == 12
        rolls = []
        for game_id in report["game_ids"]:
            record = export_record(services.app, UUID(game_id))
            verdict = verify_record(record)
            assert verdict.ok and verdict.draws_checked, verdict.summary
            rolls += [e["data"] for e in record["events"] if e["type"] == "DiceRolled"]
    finally:
        services.close()
    for roll in rolls:
        assert len(roll["attacker_dice"]) == roll["attackers"]
        assert len(roll["defender_dice"]) == roll["defenders"]
        losses = compare(tuple(roll["attacker_dice"]), tuple(roll["defender_dice"]))
        assert losses == (roll["attacker_losses"], roll["defender_losses"])
    by_matchup: dict[tuple[int, int], Counter[tuple[int, int]]] = {m: Counter() for m in ODDS}
    for r in rolls:
        by_matchup[(r["attackers"], r["defenders"])][
            (r["attacker_losses"], r["defender_losses"])
        ] += 1
    tested = 0
    for matchup, outcomes in by_matchup.items():
        n = sum(outcomes.values())
        if n < 100:
            continue
        tested += n
        for outcome, p in ODDS[matchup].items():
            error = 5 * math.sqrt(float(p) * (1 - float(p)) / n)
            assert abs(outcomes[outcome] / n - float(p)) <= error, (matchup, outcome, n)
    assert tested >= 600, f"only {tested} rolls in matchups with 100 or more rolls"
