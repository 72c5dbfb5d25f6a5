"""Tournament records (issue 15, part 6; docs/tournaments.md, "The tournament record"): a
finished tournament exported as one self-contained JSON document that anyone can verify
(:mod:`application.audit_tournament`) without the service's store.

A record holds the tournament's events as its event log presents them (public data and the
hash chain's envelope; never a secret field of :data:`domain.tournament.chain.SECRET_FIELDS`),
every table's game record (:func:`application.records.export_record`, as for a single game),
and — informative, recomputed by the verifier — the pairing inputs of every round, the final
standings and the entrants. Only a finished tournament is exported: its seed, which every
pairing draw and every table's game seed derive from, is revealed only at the end."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from application.checkpoints import Signer, tournament_log_name
from application.errors import Conflict, NotFound
from application.records import RecordStore, export_record, record_document
from application.service import GameLedger
from application.tlog import LogStore
from application.tournament_record_format import (
    FORMAT,
    FORMAT_VERSION,
    entrants_of,
    present,
    replayed,
    summary,
)
from application.tournaments import Tournaments
from application.transparency import latest_head, record_transparency, transparency_of
from domain.tournament.event_base import TournamentEvent
from domain.tournament.standings import standing_rows


@dataclass(frozen=True)
class LogProofs:
    """Where a record's ``transparency`` fields come from: the service's log, its keys, and
    the tree head to prove against (``tree_size``; None: the latest)."""

    store: LogStore
    signer: Signer
    tree_size: int | None = None


def tournament_record(
    ledger: GameLedger,
    tournaments: Tournaments,
    tournament_id: UUID,
    *,
    proofs: LogProofs | None = None,
    records: RecordStore | None = None,
) -> dict[str, Any]:
    """The record of a finished tournament (module docstring); 409 ``tournament-not-finished``
    before its end. A table the arbiter decided whose game was never created (the process
    pairing its round stopped before creating it) is carried without its game's record.
    ``proofs``: the log the ``transparency`` of the tournament's chain and of each table's
    game is proved in, all against one tree head (none: no ``transparency``). ``records``:
    where finished games' records are kept once built (the service's; each table's game record
    is then built once, not on every export: :func:`application.records.record_document`)."""
    tournaments.load(tournament_id)  # tournament-not-found
    store = ledger.games.store_of(tournament_id)
    stored = [e for e in store.events.get(tournament_id) if isinstance(e, TournamentEvent)]
    tournament, rounds = replayed(stored)
    if tournament.phase != "finished":
        raise Conflict(
            "tournament-not-finished",
            "The tournament has not finished: its record is exported at the end, when its seed "
            "is revealed (every pairing draw and every table's game seed derive from it).",
        )
    events = [present(event) for event in stored]
    if proofs is not None and proofs.tree_size is None:  # one tree head for every proof
        size = latest_head(proofs.store, proofs.signer)["size"]
        proofs = LogProofs(proofs.store, proofs.signer, size)
    games = []
    for rnd in tournament.rounds:
        for table in rnd["tables"]:
            game_id = UUID(table["game"])
            try:
                game = (
                    json.loads(record_document(ledger, records, game_id).body)
                    if records is not None
                    else export_record(ledger, game_id)
                )
            except NotFound:
                if table["result"]["how"] == "played":
                    raise
                continue  # never created (a crash before its round's tables): the arbiter's
            if proofs is not None:
                game["transparency"], _ = record_transparency(
                    ledger,
                    proofs.store,
                    proofs.signer,
                    game_id,
                    len(game["events"]),
                    tree_size=proofs.tree_size,
                )
            games.append(game)
    transparency = None
    if proofs is not None:
        name = tournament_log_name(str(tournament_id))
        transparency, _ = transparency_of(
            proofs.store, proofs.signer, name, len(events), proofs.tree_size, ended=True
        )
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "tournament": summary(tournament),
        "entrants": entrants_of(tournament),
        "seed_sha256": tournament.seed_sha256,
        "seed": tournament.seed,
        "events": events,
        "chain_head": tournament.chain_head,
        "rounds": rounds,
        "standings": standing_rows(tournament),
        "games": games,
        "transparency": transparency,
    }
