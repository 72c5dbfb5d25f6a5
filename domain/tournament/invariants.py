"""The tournament aggregate's invariants (docs/tournaments.md, "The tournament aggregate",
"Invariants"), as a game's rules have theirs (``Rules.check_invariants``): a list of what is
wrong, empty when nothing is. The unit tests check them after every command; a verifier may
check them after replaying a record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.randomness import commitment
from domain.tournament.registration import PHASES, STATUSES, staying

if TYPE_CHECKING:
    from domain.tournament.aggregate import Tournament


def check_invariants(tournament: Tournament) -> list[str]:
    """Every invariant the tournament breaks, each as a sentence."""
    problems: list[str] = []
    entrants = tournament.entrants
    if commitment(tournament.seed) != tournament.seed_sha256:
        problems.append("the seed does not match its commitment")
    if tournament.phase not in PHASES:
        problems.append(f"unknown phase {tournament.phase!r}")
    for key, entrant in entrants.items():
        if entrant["status"] not in STATUSES:
            problems.append(f"entrant {key} has an unknown status {entrant['status']!r}")
        if entrant["status"] == "removed" and not entrant["reason"]:
            problems.append(f"entrant {key} was removed without a reason")
        if entrant["late"] and not tournament.format["late_entry"]:
            problems.append(f"entrant {key} entered late in a format without late entry")
    here = staying(entrants)
    names = [entrants[key]["name"].casefold() for key in here]
    if len(set(names)) != len(names):
        problems.append("two entrants who have not left share a name")
    limit = tournament.format["max_entrants"]
    if limit is not None and len(here) > limit:
        problems.append(f"more than {limit} entrants")
    tokens = [entrant["token_sha256"] for entrant in entrants.values()]
    if len(set(tokens)) != len(tokens):
        problems.append("two entrants share a token")
    numbered = {key: e["number"] for key, e in entrants.items() if e["number"] is not None}
    if tournament.phase != "running":
        if numbered:
            problems.append("pairing numbers before the start")
        if tournament.random_position != 0:
            problems.append("the random stream was used before the start")
        if tournament.phase == "registration" and any(
            e["status"] in ("checked-in", "absent") for e in entrants.values()
        ):
            problems.append("a check-in before check-in opened")
        return problems
    if sorted(numbered.values()) != list(range(1, len(numbered) + 1)):
        problems.append("the pairing numbers are not 1..n, each once")
    for key, entrant in entrants.items():
        if entrant["status"] == "registered":
            problems.append(f"entrant {key} is neither checked in nor absent after the start")
        if entrant["status"] == "absent" and entrant["number"] is not None:
            problems.append(f"absent entrant {key} has a pairing number")
        if entrant["status"] == "checked-in" and entrant["number"] is None:
            problems.append(f"entrant {key} plays without a pairing number")
    return problems
