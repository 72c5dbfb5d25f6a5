"""The undo policy (issue 3; docs/audit.md, "Undo").

Undo never deletes or rewrites history: it is an event that takes the game back to an
earlier turn boundary. Who may undo is fixed at creation by the game's settings:

* ``undo: none`` — nobody;
* ``undo: consent`` (casual default) — a player asks to take back their own last turn(s); every
  other player accepts or refuses; one refusal ends the request;
* ``undo: free`` — a player's request takes effect at once (solo practice);
* ``tournament: true`` — only the arbiter, with a recorded reason, whatever ``undo`` says.

A finished game is never undone: its seed has been revealed, and an undo would let players
play again knowing every draw to come. While a request waits for answers, no move is made.
"""

from __future__ import annotations

from typing import Any

from domain.protocol import GameError, InvalidOptions

UNDO_MODES = ("none", "consent", "free")


class UndoRefused(GameError):
    """An undo that the game's policy does not allow now."""


def normalise_settings(settings: dict[str, Any] | None) -> dict[str, Any]:
    """The ledger settings of a new game with defaults: ``undo`` and ``tournament``."""
    given = dict(settings or {})
    unknown = set(given) - {"undo", "tournament"}
    if unknown:
        raise InvalidOptions("invalid-settings", f"Unknown settings: {', '.join(sorted(unknown))}.")
    tournament = given.get("tournament", False)
    if not isinstance(tournament, bool):
        raise InvalidOptions("invalid-settings", "'tournament' must be true or false.")
    undo = given.get("undo", "none" if tournament else "consent")
    if undo not in UNDO_MODES:
        raise InvalidOptions("invalid-settings", f"'undo' must be one of {', '.join(UNDO_MODES)}.")
    return {"undo": undo, "tournament": tournament}


def players_may_undo(settings: dict[str, Any]) -> None:
    """Refuse a player's request in tournament games and where undo is off."""
    if settings.get("tournament"):
        raise UndoRefused("arbiter-only", "In a tournament game only the arbiter may undo.")
    if settings.get("undo", "none") == "none":
        raise UndoRefused("undo-not-allowed", "Undo is switched off for this game.")


def own_turns_boundary(turns: list[list[int]], seat: int, count: int) -> int:
    """The version to go back to so that ``seat``'s last ``count`` turns are taken back:
    the version just before the first of them (turns are ``[move version, seat]``)."""
    if count < 1:
        raise UndoRefused("nothing-to-undo", "Take back at least one turn.")
    own = [version for version, mover in turns if mover == seat]
    if len(own) < count:
        raise UndoRefused(
            "nothing-to-undo", f"Seat {seat} has fewer than {count} turn(s) to take back."
        )
    return own[-count] - 1


def turn_boundary(turns: list[list[int]], keep: int) -> int:
    """The version after turn ``keep`` (0 = before the first move), for the arbiter."""
    if not 0 <= keep < len(turns):
        raise UndoRefused("nothing-to-undo", f"Turns 0 to {len(turns) - 1} can be gone back to.")
    return turns[keep][0] - 1
