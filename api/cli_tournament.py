"""``gameledger tournament …`` (docs/tournaments.md, "The tournament record", "Simulating a
tournament"):

* ``tournament export ID [-o FILE] [--tree-size N]`` — a finished tournament's record, with
  the ``transparency`` of its chain and of every table's game proved against one signed tree
  head (the latest, or the stored one of N entries). Exit 0; 1 when the tournament does not
  exist or has not finished (``tournament-not-finished``);
* ``tournament simulate --game G --entrants N --format swiss|round-robin|elimination
  [--rounds R] [--table-size P] [--min-table-size M] [--seed S] [--options JSON] [-o FILE]
  [--memory]`` — a whole tournament played by bots through the use cases on the configured
  store, with a progress bar on a terminal, then exported and verified (the service's own
  keys pinned); the last line of stdout is a JSON summary. Exit 0 when it finished and
  verified, else 1.

``gameledger verify FILE`` tells a tournament record by its ``format`` (api/cli_verify.py)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import UUID

from application.audit_tournament import verify_tournament_record
from application.tournament_records import LogProofs, tournament_record
from application.tournament_simulation import simulate_tournament
from application.tournaments import Tournaments
from domain.errors import GameError
from domain.tournament.format import KINDS
from infrastructure.config import Settings
from infrastructure.container import Services, build_services


def add_parsers(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    options: Callable[[str], dict[str, Any]],
) -> None:
    """The ``tournament`` command and its actions (``options``: the parser of ``--options``)."""
    tournament = commands.add_parser("tournament", help="tournaments: export, simulate")
    actions = tournament.add_subparsers(required=True, metavar="ACTION")

    export = actions.add_parser("export", help="write a finished tournament's record (JSON)")
    export.add_argument("tournament_id", type=UUID, metavar="ID")
    export.add_argument("-o", "--output", metavar="FILE", help="write here, not to stdout")
    export.add_argument(
        "--tree-size",
        type=int,
        metavar="N",
        help="prove the checkpoints against the stored tree head of N entries (default: the "
        "latest)",
    )
    export.set_defaults(handler=_refused_to_stderr(_export))

    sim = actions.add_parser("simulate", help="bots play a whole tournament; export, verify")
    sim.add_argument("--game", required=True)
    sim.add_argument("--entrants", type=int, required=True)
    sim.add_argument("--format", choices=KINDS, required=True, dest="kind")
    sim.add_argument("--rounds", type=int, default=None, help="Swiss, round robin")
    sim.add_argument("--table-size", type=int, default=2)
    sim.add_argument("--min-table-size", type=int, default=None)
    sim.add_argument("--advance", type=int, default=None, help="elimination at larger tables")
    sim.add_argument("--seed", type=int, default=None)
    sim.add_argument("--options", type=options, default={}, help="the game's options (JSON)")
    sim.add_argument("-o", "--output", metavar="FILE", help="write the record here")
    sim.add_argument("--memory", action="store_true", help="keep nothing: in-memory store")
    sim.set_defaults(handler=_refused_to_stderr(_simulate))


def _refused_to_stderr(
    command: Callable[[argparse.Namespace], int],
) -> Callable[[argparse.Namespace], int]:
    """A refusal (a ``GameError``: no such tournament, not finished, a bad format) reported
    on stderr with exit status 1 instead of a traceback."""

    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except GameError as error:
            print(f"gameledger: {error.code}: {error}", file=sys.stderr)
            return 1

    return run


def _record(services: Services, tournament_id: UUID, tree_size: int | None) -> dict[str, Any]:
    proofs = LogProofs(services.tlog.store, services.keys, tree_size)
    desk = Tournaments(services.app.games)
    return tournament_record(services.app, desk, tournament_id, proofs=proofs)


def _export(args: argparse.Namespace) -> int:
    services = build_services(Settings.from_env(), create=False)
    try:
        record = _record(services, args.tournament_id, args.tree_size)
    finally:
        services.close()
    if args.output is None:
        print(json.dumps(record))
        return 0
    Path(args.output).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    summary = {
        "tournament_id": str(args.tournament_id),
        "file": args.output,
        "events": len(record["events"]),
        "games": len(record["games"]),
    }
    print(json.dumps(summary))
    return 0


def _format(args: argparse.Namespace) -> dict[str, Any]:
    """The tournament's format from the command's options (docs/tournaments.md,
    "Creation"): only what was given, the rest left to the format's defaults."""
    fmt: dict[str, Any] = {"kind": args.kind, "table_size": args.table_size}
    if args.min_table_size is not None:
        fmt["min_table_size"] = args.min_table_size
    if args.rounds is not None:
        fmt["rounds"] = args.rounds
    if args.advance is not None:
        fmt["advance"] = args.advance
    return fmt


def _simulate(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    settings = Settings(store="memory") if args.memory else Settings.from_env()
    services = build_services(settings)
    try:
        report = simulate_tournament(
            services.app,
            args.game,
            entrants=args.entrants,
            format=_format(args),
            seed=args.seed,
            options=args.options,
            progress=sys.stderr.isatty(),
        )
        services.catch_up()  # the checkpointer logs the tournament's end and its games'
        record = _record(services, UUID(report["tournament_id"]), None)
        keys = list(services.keys.keyring().keys())
    finally:
        services.close()
    verdict = verify_tournament_record(record, pinned_keys=keys)
    if args.output is not None:
        Path(args.output).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    report["verified"] = verdict.ok
    report["record"] = args.output
    report["seconds"] = round(time.perf_counter() - started, 3)
    if not verdict.ok:
        report["discrepancy"] = verdict.discrepancy
    print(json.dumps(report))
    return 0 if report["finished"] and verdict.ok else 1
