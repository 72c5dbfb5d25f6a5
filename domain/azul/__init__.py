"""Azul, the tile-laying game, as a GameLedger game (its rules and decisions: docs/azul.md).

:data:`AZUL` implements :class:`domain.protocol.Rules`. Modules, one purpose each:
``tiles`` colours and wall geometry, ``state`` the state, ``moves`` move values with their
JSON and notation, ``scoring`` placement, floor and bonus scoring, ``refill`` the bag
draws, ``evolve`` how events change the state, ``tiling`` the end of a round, ``rules``
the protocol, ``view`` what is shown, ``invariants`` the conservation laws.
"""

from __future__ import annotations

from domain.azul.moves import Move, Place, Take
from domain.azul.rules import AzulRules
from domain.azul.state import AzulState
from domain.protocol import Rules

AZUL: Rules[AzulState, Move] = AzulRules()
"""The rules of Azul, registered as ``"azul"`` (typed as the protocol, so that mypy checks
that :class:`AzulRules` satisfies it)."""

__all__ = ["AZUL", "AzulRules", "AzulState", "Move", "Place", "Take"]
