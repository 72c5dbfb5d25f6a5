"""Azul, the tile-laying game, as a GameLedger game (its rules and decisions: docs/azul.md).

:data:`AZUL` implements :class:`domain.protocol.Rules`. The rooms every game has
(docs/architecture.md, "The rooms of a game package"): ``rules`` the game described and how a
move is decided, ``options`` the options, ``state`` the state, ``events`` each event's typed
definition, ``evolve`` how events change the state, ``moves`` move values with their JSON and
notation, ``view`` what is shown, ``invariants`` the conservation laws. Azul's own: ``tiles``
colours and wall geometry, ``offer`` taking tiles, ``tiling`` the end of a round,
``scoring`` placement, floor and bonus scoring, ``refill`` the bag draws, ``stalemate`` the
"no row can ever be completed" decision.
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
