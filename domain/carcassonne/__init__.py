"""Carcassonne (base game), the tile-laying game, as a GameLedger game
(docs/carcassonne.md).

:data:`CARCASSONNE` implements :class:`domain.protocol.Rules`. Modules, one purpose each:
``catalogue`` the tile data, ``tiles`` tile types and rotated geometry, ``grid`` squares,
``state`` the state, ``board`` placing a tile and tracking features, ``placement`` legal
placements and follower spots, ``moves`` move values with their JSON and notation,
``scoring`` values and the majority rule, ``farms`` the farmer variants, ``turn`` the events
of a turn (draws, scoring, the end), ``evolve`` how events change the state, ``options`` the
options (farmers, two-tile city, expansion, a scenario's stack), ``expansion`` what Bridges,
Castles & Bazaars adds, ``bridges`` its bridges, ``castles``/``castle_turn`` its castles,
``bazaars``/``bazaar_turn``/``bazaar_moves`` its bazaars (auctions), ``rules`` the
protocol, ``view`` what is shown, ``invariants`` the conservation laws and ``recount`` the
independent scorer they use.
"""

from __future__ import annotations

from domain.carcassonne.moves import Move, Place
from domain.carcassonne.rules import CarcassonneRules
from domain.carcassonne.state import CarcassonneState
from domain.protocol import Rules

CARCASSONNE: Rules[CarcassonneState, Move] = CarcassonneRules()
"""The rules of Carcassonne, registered as ``"carcassonne"`` (typed as the protocol, so that
mypy checks that :class:`CarcassonneRules` satisfies it)."""

__all__ = ["CARCASSONNE", "CarcassonneRules", "CarcassonneState", "Move", "Place"]
