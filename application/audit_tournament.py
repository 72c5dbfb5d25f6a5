"""Verifying a tournament record (issue 15, part 6; docs/tournaments.md, "Verifying a
tournament"). Anyone holding a record (:mod:`application.tournament_records`) can check,
without the service's store:

1. its shape (:func:`application.audit_tournament_format.check_shape`);
2. the tournament's hash chain, every link recomputed;
3. the revealed tournament seed against the commitment made at creation;
4. every event decided again by the tournament's own code from the revealed seed — the
   pairing numbers drawn, every round's pairing from the standings before it, every result's
   place, every arbiter's act, the end and its ranking
   (:mod:`application.audit_tournament_replay`);
5. every table's game: its record verified completely, created for this table with the seed
   derived from the tournament seed and the entrants in their seats, and every played result
   equal to its game's outcome (:mod:`application.audit_tournament_tables`);
6. the record's own summaries — ``tournament``, ``entrants``, each round's pairing inputs
   (``rounds``), the final ``standings`` — against what the events give;
7. its checkpoint in the service's transparency log, when it carries one or keys are pinned
   (:mod:`application.audit_tournament_checkpoint`).

The first discrepancy found is reported, naming the event (and there the round and table)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from application.audit_format import Discrepancy, first_difference
from application.audit_keys import KeyPolicy
from application.audit_tournament_checkpoint import check_tournament_transparency
from application.audit_tournament_format import check_chain, check_seed, check_shape
from application.audit_tournament_replay import Replay
from application.audit_tournament_tables import TableGames
from application.audit_transparency import NO_CHECKPOINT, TransparencyReport
from application.signing import PublicKey
from application.tournament_record_format import entrants_of, summary
from domain.tournament.aggregate import Tournament
from domain.tournament.standings import standing_rows

CHECKED = (
    "hash chain, seed commitment, the pairing numbers drawn from the seed, every round's "
    "pairing re-derived from the standings and the seed, every table's game (its record "
    "verified, its seed derived from the tournament seed, its seats the entrants), every "
    "result against its game's outcome, the arbiter's acts, the final ranking and standings"
)
"""What an OK summary says was checked."""


@dataclass(frozen=True)
class TournamentReport:
    """The verdict on a tournament record: ``ok``, a short ``summary`` and, when not ok, the
    first ``discrepancy`` with the event it is at (``version``, ``event_type``; ``None`` for
    the record's own fields). Counts: its ``events``, ``entrants`` (with a pairing number),
    ``rounds``, ``tables`` by how they were decided, the game records ``games_verified`` and
    the moves their rules re-decided, the arbiter's acts, the tables the arbiter decided
    whose game's record the record does not carry (allowed: docs/tournaments.md, "Verifying a
    tournament"; said in the summary). ``transparency``: what its
    checkpoint check found (``None``: the record has none)."""

    ok: bool
    summary: str
    record: str = "tournament"
    tournament_id: str | None = None
    events: int = 0
    entrants: int = 0
    rounds: int = 0
    tables: int = 0
    played: int = 0
    forfeited: int = 0
    adjudicated: int = 0
    games_verified: int = 0
    moves_redecided: int = 0
    arbiter_acts: int = 0
    arbiter_tables_without_game: int = 0
    winner: str | None = None
    discrepancy: str | None = None
    version: int | None = None
    event_type: str | None = None
    transparency: TransparencyReport | None = None

    def to_json(self) -> dict[str, Any]:
        """The report as JSON-ready primitives."""
        return asdict(self)


def verify_tournament_record(
    record: Any, *, pinned_keys: Iterable[PublicKey] | None = None, tree_head: Any = None
) -> TournamentReport:
    """Check a tournament record completely (the module docstring lists the checks, in
    their order); never raises on a malformed record. ``pinned_keys``: the service's public
    keys the user trusts — the tournament's checkpoint and every game record's are checked
    against them (docs/audit.md, "The key policy"); ``tree_head``: a signed tree head the
    user kept, which the tournament's checkpoint must be under."""
    pinned = list(pinned_keys) if pinned_keys is not None else None
    try:
        check_shape(record)
        check_chain(record)
        check_seed(record)
        tables = TableGames(record["games"], record["seed"], pinned)
        replay = Replay(record, tables)
        tournament = replay.run()
        tables.check_all_seated()
        _check_summaries(record, tournament, replay.inputs)
        transparency = check_tournament_transparency(record, KeyPolicy.of(pinned), tree_head)
    except Discrepancy as found:
        part = record.get("tournament") if isinstance(record, dict) else None
        return TournamentReport(
            ok=False,
            summary=f"INVALID: {found}",
            tournament_id=str(part.get("id")) if isinstance(part, dict) else None,
            discrepancy=str(found),
            version=found.version,
            event_type=found.type_name,
        )
    return _report(record, tournament, tables, transparency)


def _check_summaries(
    record: dict[str, Any], tournament: Tournament, inputs: list[dict[str, Any]]
) -> None:
    """Check 6: the record's ``tournament``, ``entrants``, ``rounds`` and ``standings``
    against what the events give."""
    fixed = {**summary(tournament), "created_at": record["events"][0]["timestamp"]}
    expected = (
        ("tournament", fixed),
        ("entrants", entrants_of(tournament)),
        ("rounds", inputs),
        ("standings", standing_rows(tournament)),
    )
    for field, value in expected:
        difference = first_difference(field, record[field], value, "the events give")
        if difference:
            raise Discrepancy(difference)


def _report(
    record: dict[str, Any],
    tournament: Tournament,
    tables: TableGames,
    transparency: TransparencyReport | None,
) -> TournamentReport:
    hows = [table["result"]["how"] for rnd in tournament.rounds for table in rnd["tables"]]
    games, moves = tables.count()
    winner_id = tournament.ranking[0] if tournament.ranking else None
    winner = tournament.entrants[winner_id]["name"] if winner_id else None
    numbered = sum(1 for e in tournament.entrants.values() if e["number"] is not None)
    events = len(record["events"])
    fmt = tournament.format
    head = (
        f"OK: tournament {tournament.id} ({tournament.name}; {tournament.game}, {fmt['kind']}, "
        f"tables of {fmt['table_size']}): {events} events, {numbered} entrants, "
        f"{len(tournament.rounds)} rounds, {len(hows)} tables ({hows.count('played')} played, "
        f"{hows.count('forfeit')} forfeited, {hows.count('adjudicated')} adjudicated), "
        f"{games} game records verified ({moves} moves re-decided by the rules), "
        f"{len(tournament.acts)} arbiter's acts; won by {winner}."
    )
    if tables.without_record:
        head += (
            f" {tables.without_record} table(s) decided by the arbiter without its game's "
            "record: nothing in this record shows how that game went."
        )
    if tables.unpinned:
        head += (
            f" {len(tables.unpinned)} game(s) of tables decided by the arbiter were still "
            "running without a checkpoint in the given log: their records verify, but are not "
            "shown to be the service's (the tournament's own checkpoint covers the decision)."
        )
    sentence = NO_CHECKPOINT if transparency is None else transparency.sentence(events)
    return TournamentReport(
        ok=True,
        summary=f"{head} Checked: {CHECKED}. {sentence}",
        tournament_id=str(tournament.id),
        events=events,
        entrants=numbered,
        rounds=len(tournament.rounds),
        tables=len(hows),
        played=hows.count("played"),
        forfeited=hows.count("forfeit"),
        adjudicated=hows.count("adjudicated"),
        games_verified=games,
        moves_redecided=moves,
        arbiter_acts=len(tournament.acts),
        arbiter_tables_without_game=tables.without_record,
        winner=winner,
        transparency=transparency,
    )
