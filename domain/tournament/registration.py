"""The registration rules of a tournament (docs/tournaments.md, "The tournament aggregate",
"Phases and rules"): pure decisions the aggregate asks before it records anything.

Phases: ``registration`` (entrants register and withdraw) → ``check-in`` (opened by the
organiser; entrants may still register, and each checks in) → ``running`` (started by the
organiser: the checked-in entrants are drawn their pairing numbers, the others are
``absent``) → ``finished`` (the last round over: nothing changes any more). An
entrant's status is one of :data:`STATUSES`; an entrant who has left
(withdrawn, removed, absent) never comes back — registering again is a new entrant with a new
token. Names are plain text, unique among the entrants who have not left, compared without
case (``casefold``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.tournament.errors import EntrantRefused, NoSuchEntrant, TournamentPhase

PHASES = ("registration", "check-in", "running", "finished")
"""The phases, in order."""

STATUSES = ("registered", "checked-in", "withdrawn", "removed", "absent", "disqualified")
"""An entrant's statuses: the first two are in the tournament, the others have left."""

LEFT = frozenset({"withdrawn", "removed", "absent", "disqualified"})
"""The statuses of an entrant who has left the tournament."""

Entrants = Mapping[str, Mapping[str, Any]]


def staying(entrants: Entrants) -> list[str]:
    """The ids of the entrants who have not left, in registration order."""
    return [key for key, entrant in entrants.items() if entrant["status"] not in LEFT]


def check_register(
    phase: str, fixed: Mapping[str, Any], entrants: Entrants, entrant_id: str, name: str
) -> bool:
    """Whether a registration is a late entry (after the start); raises when it is refused:
    after the start without late entry (``registration-closed``), a full tournament
    (``tournament-full``), a name taken (``name-taken``), an id used (``entrant-exists``)."""
    check_not_finished(phase)
    late = phase == "running"
    if late and not fixed["late_entry"]:
        raise TournamentPhase(
            "registration-closed", "The tournament has started; it takes no late entry."
        )
    if entrant_id in entrants:
        raise EntrantRefused("entrant-exists", "That entrant id is already used.")
    here = staying(entrants)
    limit = fixed["max_entrants"]
    if limit is not None and len(here) >= limit:
        raise EntrantRefused("tournament-full", f"The tournament is full ({limit} entrants).")
    folded = name.casefold()
    if any(entrants[key]["name"].casefold() == folded for key in here):
        raise EntrantRefused("name-taken", "An entrant of that name is already registered.")
    return late


def entrant(entrants: Entrants, entrant_id: str) -> Mapping[str, Any]:
    """The entrant ``entrant_id``; raises ``no-such-entrant``."""
    found = entrants.get(entrant_id)
    if found is None:
        raise NoSuchEntrant("no-such-entrant", "The tournament has no such entrant.")
    return found


def check_staying(entrants: Entrants, entrant_id: str) -> None:
    """Refuse a command about an entrant who has left (``entrant-left``)."""
    if entrant(entrants, entrant_id)["status"] in LEFT:
        raise EntrantRefused("entrant-left", "That entrant has left the tournament.")


def check_not_finished(phase: str) -> None:
    """Nothing changes an entrant's place once the tournament has finished
    (``tournament-finished``)."""
    if phase == "finished":
        raise TournamentPhase("tournament-finished", "The tournament has finished.")


def check_open_check_in(phase: str) -> None:
    """Check-in opens once, during registration (``check-in-open`` after that)."""
    if phase != "registration":
        raise TournamentPhase(
            "check-in-open", "Check-in is already open, or the tournament has started."
        )


def check_check_in(phase: str, entrants: Entrants, entrant_id: str) -> None:
    """An entrant checks in once, while check-in is open (``check-in-not-open``,
    ``checked-in``)."""
    check_staying(entrants, entrant_id)
    if phase != "check-in":
        raise TournamentPhase("check-in-not-open", "Check-in is not open.")
    if entrants[entrant_id]["status"] == "checked-in":
        raise EntrantRefused("checked-in", "That entrant has already checked in.")


def check_start(phase: str, fixed: Mapping[str, Any], entrants: Entrants) -> list[str]:
    """The ids of the entrants to start with (checked in, in registration order); refused
    unless check-in is open (``check-in-not-open``; after the start: ``tournament-started``)
    and enough have checked in to seat one table (``too-few-entrants``)."""
    if phase in ("running", "finished"):
        raise TournamentPhase("tournament-started", "The tournament has already started.")
    if phase != "check-in":
        raise TournamentPhase("check-in-not-open", "Open check-in before starting.")
    ready = [key for key, one in entrants.items() if one["status"] == "checked-in"]
    needed = max(2, fixed["min_table_size"])
    if len(ready) < needed:
        raise TournamentPhase(
            "too-few-entrants", f"At least {needed} entrants must have checked in."
        )
    return ready
