"""The expansion Bridges, Castles & Bazaars (docs/carcassonne.md, "The expansion"): its 12
tiles (BB1-BB11) shuffled into the stack, 2-6 players, each player's bridge and castle
tokens; and its parts, each a subpackage with the rooms of a game package where it has them
(docs/architecture.md, "The rooms of a game package"): :mod:`.bridges`, :mod:`.castles` and
:mod:`.bazaars`. The base game's catalogue (:mod:`domain.carcassonne.evolve`) binds their
handlers and its turn (:mod:`domain.carcassonne.turn`) runs their steps; nothing here imports
those back.
"""

from __future__ import annotations

from typing import Final

from domain.carcassonne.tiles import BASE, TYPES

EXPANSION: Final = "bridges-castles-bazaars"
"""The name of the expansion in the option ``expansions`` (the catalogue's ``set``)."""
EXPANSIONS: Final = (EXPANSION,)
MAX_PLAYERS: Final = 6
"""Players with the expansion ("2-5 players (up to 6 with the expansion)")."""
ALL_COUNTS: Final = tuple(tile.count if tile.set in (BASE, EXPANSION) else 0 for tile in TYPES)
"""Copies per type of the base game and the expansion: 72 + 12 tiles."""


def tokens_each(players: int) -> int:
    """Bridges, and castles, per player: 3 with 2-4 players, 2 with 5-6 ("Tokens")."""
    return 3 if players <= 4 else 2
