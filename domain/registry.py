"""The registry of games: the one place where a game joins the service (docs/architecture.md,
"One protocol for every game"). The application, the API, the bots and the conformance
tests find games here, so registering a game gives it all of them."""

from __future__ import annotations

from functools import cache
from typing import Any

from domain.azul import AZUL
from domain.carcassonne import CARCASSONNE
from domain.protocol import GameError, Rules
from domain.risk import RISK


class UnknownGame(GameError):
    """A game name that no registered game answers to."""


REGISTERED: tuple[Rules[Any, Any], ...] = (AZUL, CARCASSONNE, RISK)
"""Every game the service plays: adding a game is adding its rules object here."""


@cache
def games() -> dict[str, Rules[Any, Any]]:
    """Every registered game by name."""
    return {rules.name: rules for rules in REGISTERED}


def rules_for(name: str) -> Rules[Any, Any]:
    """The rules of the game called ``name``; raises :class:`UnknownGame`."""
    try:
        return games()[name]
    except KeyError:
        raise UnknownGame("unknown-game", f"There is no game called {name!r}.") from None
