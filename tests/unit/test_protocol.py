"""The protocol declares what it offers (docs/architecture.md, "One protocol for every
game"): every registered game derives from ``RulesBase``, and nothing looks a capability up
on a game's rules with ``getattr``."""

from __future__ import annotations

import ast
from pathlib import Path

from domain.protocol import RulesBase
from domain.registry import games

ROOT = Path(__file__).resolve().parents[2]


def test_every_game_derives_from_the_base_class() -> None:
    for rules in games().values():
        assert isinstance(rules, RulesBase)
        assert rules.player_ranges[0].options == {}
        assert rules.options_info, rules.name


def test_nothing_looks_up_a_capability_with_getattr() -> None:
    found = []
    for package in ("domain", "application", "api", "infrastructure"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.Call)
                    and getattr(node.func, "id", "") == "getattr"
                    and "rules" in ast.unparse(node.args[0])
                ):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []
