"""Carcassonne, the tile-laying game, with the expansion Bridges, Castles & Bazaars, as a
GameLedger game (docs/carcassonne.md).

:data:`CARCASSONNE` implements :class:`domain.protocol.Rules`. The rooms of a game package
(docs/architecture.md): ``rules`` the protocol, ``options`` the options, ``state`` the
state and its JSON form for snapshots, ``decisions`` the castle decision and the bazaar the
state may wait on, ``events`` the base game's events, ``evolve`` their handlers and the
catalogue ``EVENTS``, ``moves`` the placement, ``every_move`` the move union and every
move's JSON and notation (apart from ``moves``, which the expansion's moves import),
``view`` what is shown, ``invariants`` the conservation laws, ``bot`` the bot's policy. The
game's own modules: ``catalogue`` the tile data, ``tiletypes``/``tiles`` tile types and
rotated geometry, ``grid`` squares, ``board`` placing a tile and tracking features,
``placement`` legal placements and follower spots, ``completion`` what a placement
completes, ``scoring`` values and the majority rule, ``farms`` the farmer variants,
``stack`` drawing on demand, ``turn`` the events of a turn, ``recount`` the independent
scorer (its castles in ``expansion.castles.recount``). The expansion's parts are in
:mod:`domain.carcassonne.expansion` (``bridges``, ``castles``, ``bazaars``).
"""

from __future__ import annotations

from domain.carcassonne.every_move import Move
from domain.carcassonne.moves import Place
from domain.carcassonne.rules import CarcassonneRules
from domain.carcassonne.state import CarcassonneState
from domain.protocol import Rules

CARCASSONNE: Rules[CarcassonneState, Move] = CarcassonneRules()
"""The rules of Carcassonne, registered as ``"carcassonne"`` (typed as the protocol, so that
mypy checks that :class:`CarcassonneRules` satisfies it)."""

__all__ = ["CARCASSONNE", "CarcassonneRules", "CarcassonneState", "Move", "Place"]
