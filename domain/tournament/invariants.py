"""The tournament aggregate's invariants (docs/tournaments.md, "The tournament aggregate",
"Invariants"), as a game's rules have theirs (``Rules.check_invariants``): a list of what is
wrong, empty when nothing is. The unit tests check them after every command; a verifier may
check them after replaying a record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.randomness import commitment
from domain.tournament.errors import BadResult
from domain.tournament.registration import PHASES, STATUSES, staying
from domain.tournament.results import check_ranks
from domain.tournament.rounds import round_over, table_game_id

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
    if tournament.phase not in ("running", "finished"):
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
    problems.extend(round_problems(tournament, set(numbered)))
    return problems


def round_problems(tournament: Tournament, numbered: set[str]) -> list[str]:
    """What is wrong with the rounds: numbers 1..n; each round seating an entrant at most
    once, only numbered entrants, each table's game at its fixed id; every round but the
    last over; results that are rankings of their tables; a finished tournament's ranking
    naming every numbered entrant once."""
    problems: list[str] = []
    for index, rnd in enumerate(tournament.rounds, start=1):
        if rnd["number"] != index:
            problems.append(f"round {index} is numbered {rnd['number']}")
        seated = [e for table in rnd["tables"] for e in table["seats"]] + rnd["byes"]
        if len(set(seated)) != len(seated):
            problems.append(f"round {index} seats an entrant twice")
        if not set(seated) <= numbered:
            problems.append(f"round {index} seats an entrant without a pairing number")
        for table in rnd["tables"]:
            expected = str(table_game_id(tournament.id, index, table["table"]))
            if table["game"] != expected:
                problems.append(f"round {index} table {table['table']} has a foreign game id")
            outcome = table["result"]
            if outcome is not None:
                try:
                    check_ranks(outcome["ranks"], len(table["seats"]))
                except BadResult:
                    problems.append(f"round {index} table {table['table']} has bad ranks")
        if index < len(tournament.rounds) and not round_over(rnd):
            problems.append(f"round {index + 1} was paired before round {index} was over")
    if tournament.phase == "finished" and sorted(tournament.ranking) != sorted(numbered):
        problems.append("the final ranking does not name every entrant who played once")
    if any(act["entrant"] not in numbered for act in tournament.penalties):
        problems.append("a penalty for an entrant who did not play")
    return problems
