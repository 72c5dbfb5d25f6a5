"""Risk by the "Constitution" house rules, as a GameLedger game (docs/risk.md;
docs/risk.md).

:data:`RISK` implements :class:`domain.protocol.Rules`. Modules, one purpose each:
``mapdata``/``worldmap`` the map as validated data, ``dice`` one roll of a battle,
``options`` the agreed numbers, ``state`` the state, ``moves`` move values with their JSON
and notation, ``cards`` trophy cards and the golden horse, ``turn`` a move as a run of
events, ``rounds`` rounds, turns, placing and the end, ``setup`` turn order, colours, the
deal and placement, ``invasion`` invasions and battles, ``reinforcement`` reinforcements,
trades, purchases and moves, ``exchange`` the exchange session and the settlement,
``evolve`` the event table, ``view`` what each viewer sees, ``invariants`` conservation laws,
``bot`` a random player that settles, ``rules`` the protocol; ``classic`` (with
``classic_turn``, ``classic_battle``, ``classic_cards``, ``classic_bot``) classic Risk, the
option ``ruleset: "classic"``.
"""

from __future__ import annotations

from domain.protocol import Rules
from domain.risk.moves import RiskMove
from domain.risk.rules import RiskRules
from domain.risk.state import RiskState

RISK: Rules[RiskState, RiskMove] = RiskRules()
"""The rules of Risk, registered as ``"risk"``."""

__all__ = ["RISK", "RiskMove", "RiskRules", "RiskState"]
