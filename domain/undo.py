"""The undo policy (issue 3; docs/audit.md, "Undo").

Undo never deletes or rewrites history: it is an event that takes the game back to an
earlier turn boundary. Who may undo is fixed at creation by the game's settings:

* ``undo: none`` — nobody;
* ``undo: consent`` (casual default) — a player asks to take back the last turn(s) of the line
  of play, going back to the start of one of their own turns; every other player accepts or
  refuses; one refusal ends the request;
* ``undo: free`` (solo practice) — a request that takes back only the asker's own turns takes
  effect at once; one that would also take back other seats' turns asks those seats, as
  ``consent`` asks everyone: nobody's turn is taken back without their consent or the arbiter;
* ``tournament: true`` — only the arbiter, with a recorded reason, whatever ``undo`` says.

A player's request counts ``turns`` on the line of play (the last ``turns`` turns, whoever
played them), as the arbiter's ``turn`` and the recorded ``turns`` of ``UndoRequested`` and
``TurnsUndone`` do. Whenever nobody needs to be asked, the undo takes effect at once.

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


def last_turns_boundary(turns: list[list[int]], seat: int, count: int) -> int:
    """The version to go back to so that the last ``count`` turns of the line of play are
    taken back: the version just before the first of them, which must be one of ``seat``'s
    own turns (turns are ``[move version, seat]``)."""
    if count < 1:
        raise UndoRefused("nothing-to-undo", "Take back at least one turn.")
    if len(turns) < count:
        raise UndoRefused(
            "nothing-to-undo", f"The line of play has {len(turns)} turn(s), fewer than {count}."
        )
    version, mover = turns[-count]
    if mover != seat:
        raise UndoRefused(
            "not-own-turn",
            f"Turn {len(turns) - count + 1} was seat {mover}'s: a player goes back to the "
            "start of one of their own turns.",
        )
    return version - 1


def asked_to_consent(
    settings: dict[str, Any], players: int, turns: list[list[int]], seat: int, to_version: int
) -> list[int]:
    """The seats that must accept ``seat``'s undo back to ``to_version`` before it takes
    effect: under ``consent`` every other seat; under ``free`` the other seats with a turn
    among those taken back. None: the undo takes effect at once."""
    if settings.get("undo") == "free":
        return sorted({mover for version, mover in turns if version > to_version} - {seat})
    return [other for other in range(players) if other != seat]


def turn_boundary(turns: list[list[int]], keep: int) -> int:
    """The version after turn ``keep`` (0 = before the first move), for the arbiter."""
    if not 0 <= keep < len(turns):
        raise UndoRefused("nothing-to-undo", f"Turns 0 to {len(turns) - 1} can be gone back to.")
    return turns[keep][0] - 1
