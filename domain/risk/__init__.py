"""Risk by the "Constitution" house rules, and classic Risk, as a GameLedger game
(docs/risk.md).

:data:`RISK` implements :class:`domain.protocol.Rules`. The rooms every game has
(docs/architecture.md, "The rooms of a game package"): ``rules``, ``options``, ``state``,
``events`` (the events both rulesets record), ``evolve`` (the catalogue of every event),
``moves`` (with ``move_json``, ``move_notation`` and ``deal_moves``), ``view``, ``invariants``,
``bot``; what both rulesets share besides: ``mapdata``/``worldmap`` the map, ``dice`` one roll
of a battle, ``cards`` trophy cards and the deck, ``setup`` the opening, colours and
placement, ``rounds`` rounds, turns, placing, elimination and the end. The subpackages
:mod:`domain.risk.constitution` (the invasion and reinforcement phases, the exchange session)
and :mod:`domain.risk.classic` (the option ``ruleset: "classic"``) hold each ruleset's own
phases (docs/risk.md, the module table).
"""

from __future__ import annotations

from domain.protocol import Rules
from domain.risk.moves import RiskMove
from domain.risk.rules import RiskRules
from domain.risk.state import RiskState

RISK: Rules[RiskState, RiskMove] = RiskRules()
"""The rules of Risk, registered as ``"risk"``."""

__all__ = ["RISK", "RiskMove", "RiskRules", "RiskState"]
