"""The registry of games: the one place where a game joins the service (docs/architecture.md,
"One protocol for every game"). The application, the API, the bots and the conformance
tests find games here, so registering a game gives it all of them."""

from __future__ import annotations

from functools import cache
from typing import Any

from domain.protocol import GameError, Rules


class UnknownGame(GameError):
    """A game name that no registered game answers to."""


@cache
def games() -> dict[str, Rules[Any, Any]]:
    """Every registered game by name (imported on first use, never at import time)."""
    from domain.azul import AZUL  # noqa: PLC0415 - games load lazily
    from domain.carcassonne import CARCASSONNE  # noqa: PLC0415
    from domain.risk import RISK  # noqa: PLC0415

    registered: list[Rules[Any, Any]] = [AZUL, CARCASSONNE, RISK]
    return {rules.name: rules for rules in registered}


def rules_for(name: str) -> Rules[Any, Any]:
    """The rules of the game called ``name``; raises :class:`UnknownGame`."""
    try:
        return games()[name]
    except KeyError:
        raise UnknownGame("unknown-game", f"There is no game called {name!r}.") from None
