"""Rounds (docs/tournaments.md, "Rounds"): when the next round may be paired, how many rounds
a tournament has, when it is over, and the ids of its tables' games.

* A round is **over** when every table has a result (played, forfeited or adjudicated).
* The rounds a tournament has: a Swiss, the organiser's ``rounds`` or, when not given,
  ``ceil(log2(n))`` for the ``n`` entrants who started (at least 1: FIDE's rule of thumb for a
  clear winner); a round robin and a two-player bracket, their schedule's
  (``domain.tournament.pairing.planned_rounds``); multi-player elimination, until its final
  table (a round of one table and no bye) is over.
* A tournament is also over when too few entrants are left to seat one table (:func:`too_few`).
* Each table's game has an id fixed by the tournament, the round and the table
  (:func:`table_game_id`): the service creates it, and creating it again is refused by the
  store, so a table never gets two games.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

from domain.tournament.errors import NoSuchTable, ResultRefused, RoundRefused
from domain.tournament.format import pairing_settings
from domain.tournament.pairing import planned_rounds
from domain.tournament.pairing.sizes import split
from domain.tournament.standings import eliminated_at

TABLE_NAMESPACE = UUID("5b0c6f1e-6d1f-4c5e-9a55-1ed6e7b0a715")
"""The UUID namespace of tables' game ids (a constant of this service)."""


def table_game_id(tournament_id: UUID, round_number: int, table: int) -> UUID:
    """The id of the game of ``table`` (1-based) of round ``round_number``, so anyone can
    check it: the bits of a UUID 5 of the tournament's id, the round and the table, made a
    UUID of version 8 whose last byte is the tournament id's (a version 8 id's last byte names
    the part of the event store that holds it: docs/operations.md, "Shards"; the tables live
    beside their tournament)."""
    name = f"{tournament_id}/round/{round_number}/table/{table}"
    value = uuid.uuid5(TABLE_NAMESPACE, name).int
    value = (value & ~(0xF << 76)) | (8 << 76)
    value = (value & ~(0b11 << 62)) | (0b10 << 62)
    part = tournament_id.int & 0xFF if tournament_id.version == 8 else 0
    return UUID(int=(value & ~0xFF) | part)


def round_over(rnd: Mapping[str, Any]) -> bool:
    """Whether every table of the round has a result."""
    return all(table["result"] is not None for table in rnd["tables"])


def started_count(entrants: Mapping[str, Mapping[str, Any]]) -> int:
    """How many entrants were drawn a pairing number at the start (late entrants not)."""
    return sum(1 for e in entrants.values() if e["number"] is not None and not e["late"])


def rounds_planned(
    fixed: Mapping[str, Any], entrants: Mapping[str, Mapping[str, Any]]
) -> int | None:
    """The rounds the tournament has (module docstring); None for multi-player elimination."""
    count = started_count(entrants)
    if fixed["kind"] == "swiss":
        given = fixed["rounds"]
        return int(given) if given is not None else max(1, math.ceil(math.log2(count)))
    return planned_rounds(pairing_settings(fixed), count)


def is_over(state: Any, active: int) -> bool:
    """Whether the tournament has no round left to play: its last round is over and it was
    the last planned, or the final table, or ``active`` entrants (still to be seated) are too
    few for a table."""
    rounds: list[dict[str, Any]] = state.rounds
    if not rounds or not round_over(rounds[-1]):
        return False
    last = rounds[-1]
    planned = rounds_planned(state.format, state.entrants)
    if planned is not None and len(rounds) >= planned:
        return True
    if planned is None and len(last["tables"]) == 1 and not last["byes"]:
        return True
    return too_few(state.format, active)


def too_few(fixed: Mapping[str, Any], active: int) -> bool:
    """Whether ``active`` entrants are too few to seat one table: fewer than the minimum (and
    two) or, in a Swiss, so few that no split into tables of the target size or one less
    seats any (``sizes.split``: 4 entrants at tables of 6, min 4; docs/tournaments.md,
    "Table sizes"). A Swiss left so would otherwise pair nothing (``too-few-entrants``)."""
    smallest: int = fixed["min_table_size"]
    if active < max(2, smallest):
        return True
    return fixed["kind"] == "swiss" and not split(active, fixed["table_size"], smallest).sizes


def check_running(state: Any) -> None:
    """The arbiter acts on a running tournament only (``tournament-not-running``): once
    finished, its results and ranking are final."""
    if state.phase != "running":
        raise RoundRefused("tournament-not-running", "The tournament is not running.")


def check_next_round(state: Any, active: int) -> int:
    """The number of the next round, if one may be paired now: the tournament runs
    (``tournament-not-running``), the last round is over (``round-not-over``) and the
    tournament is not (``no-round-left``)."""
    check_running(state)
    if state.rounds and not round_over(state.rounds[-1]):
        raise RoundRefused("round-not-over", "A table of the last round has no result yet.")
    if is_over(state, active):
        raise RoundRefused("no-round-left", "Every round has been played.")
    return len(state.rounds) + 1


def check_finish(state: Any) -> None:
    """The organiser may finish a running tournament once its last round is over, and after
    at least one round (``tournament-not-running``, ``round-not-over``, ``no-round-yet``)."""
    check_running(state)
    if not state.rounds:
        raise RoundRefused("no-round-yet", "No round has been played.")
    if not round_over(state.rounds[-1]):
        raise RoundRefused("round-not-over", "A table of the last round has no result yet.")


def find_table(state: Any, game_id: str) -> tuple[int, dict[str, Any]]:
    """The round number and table of the game ``game_id``; ``no-such-table``."""
    for rnd in state.rounds:
        for table in rnd["tables"]:
            if table["game"] == game_id:
                return rnd["number"], table
    raise NoSuchTable("no-such-table", "That game is not a table of this tournament.")


def check_undecided(table: Mapping[str, Any]) -> None:
    """A table takes its first result once (``table-decided``)."""
    if table["result"] is not None:
        raise ResultRefused("table-decided", "That table already has its result.")


def check_advancement_kept(
    state: Any, round_number: int, table: Mapping[str, Any], ranks: Sequence[int]
) -> None:
    """Elimination: once the round after a table's is paired, those who went on from it are
    seated there, so a correction may no longer change who they are (``next-round-paired``;
    docs/tournaments.md, "The arbiter"): the bracket, or the heats, would hold an entrant who
    skipped a round and one who played it though knocked out."""
    fixed = state.format
    if fixed["kind"] != "elimination" or round_number >= len(state.rounds):
        return
    numbers = {key: e["number"] for key, e in state.entrants.items() if e["number"] is not None}
    seats = table["seats"]
    before = set(eliminated_at(fixed, seats, table["result"]["ranks"], numbers))
    if set(eliminated_at(fixed, seats, ranks, numbers)) != before:
        raise ResultRefused(
            "next-round-paired",
            "The next round is paired: a correction may no longer change who went on from "
            "this table.",
        )


def check_decided(table: Mapping[str, Any]) -> None:
    """A result is corrected only once there is one (``table-not-decided``)."""
    if table["result"] is None:
        raise ResultRefused("table-not-decided", "That table has no result to correct.")
