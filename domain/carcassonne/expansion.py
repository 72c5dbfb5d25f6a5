"""What the expansion Bridges, Castles & Bazaars adds to a game, as far as it is implemented
(docs/carcassonne.md,
"The expansion"): its 12 tiles (BB1-BB11) shuffled into the stack, 2-6 players, and each
player's bridge and castle tokens. Bridges are played in :mod:`domain.carcassonne.bridges`,
castles in :mod:`domain.carcassonne.castles`; bazaars not yet (a bazaar tile is placed as
an ordinary tile).
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
