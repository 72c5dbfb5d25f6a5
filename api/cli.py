"""The ``gameledger`` command (README, docs/operations.md):

* ``serve`` — the development server (production: gunicorn, see docs/operations.md);
* ``simulate GAME --games N --players P [--seed S] [--options JSON] [--memory]`` — random bots
  play full games through the application layer; the last line of stdout is one JSON object;
* ``db upgrade`` — create or migrate every table and index of the store (safe to run by
  several processes at once; docs/operations.md, "Schema");
* ``projections rebuild`` — rebuild every read model from zero (atomically: a failed
  rebuild leaves the old rows);
* ``projections run`` — follow the event log into the read models until stopped (for
  ``GAMELEDGER_PROJECTIONS=external``);
* ``lobby expire`` — record the expiry of every listed game still waiting for players past
  ``GAMELEDGER_LOBBY_EXPIRY_SECONDS`` (docs/operations.md, "Lobby expiry"; safe to repeat);
* ``export GAME_ID [-o FILE] [--token T] [--tree-size N]``, ``import FILE``, ``replay FILE
  [--to N]`` — game records (docs/audit.md): ``-`` reads stdin;
* ``verify FILE [--key K]... [--keys FILE] [--tree-head FILE] [--json]``, ``verify-log OLD
  NEW [...]`` — a record checked, with its checkpoint in the transparency log, and the log
  checked to have only grown (api/cli_verify.py; docs/audit.md);
* ``keys show [--json]``, ``keys rotate`` — the service signing key (api/cli_keys.py;
  docs/audit.md, "Service signing key");
* ``tournament export ID``, ``tournament simulate --game G --entrants N --format F ...`` —
  a finished tournament's record, and a whole tournament played by bots, exported and
  verified (api/cli_tournament.py; docs/tournaments.md)."""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID

import psycopg
from eventsourcing.persistence import PersistenceError

from api import cli_keys, cli_tournament, cli_verify
from application import lobby
from application.records import export_record, import_record
from application.simulation import simulate
from application.transparency import record_transparency
from application.verification import replay_record
from domain.jsonvalue import JsonRefused, strict_loads
from domain.protocol import GameError
from infrastructure import schema
from infrastructure.config import ConfigurationError, Settings
from infrastructure.container import build_services, store_failure, unreachable_store
from infrastructure.storage import Storage


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    parser = _parser()
    args = parser.parse_args(cli_verify.keys_joined(sys.argv[1:] if argv is None else argv))
    try:
        result: int = args.handler(args)
    except ConfigurationError as error:
        print(f"gameledger: {error}", file=sys.stderr)
        return 2
    except (PersistenceError, psycopg.Error) as error:
        print(f"gameledger: {store_failure(Settings.from_env(), error)}", file=sys.stderr)
        return 2
    return result


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gameledger", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    serve = commands.add_parser("serve", help="run the development server")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.set_defaults(handler=_serve)

    sim = commands.add_parser("simulate", help="random bots play full games")
    sim.add_argument("game")
    sim.add_argument("--games", type=int, default=10)
    sim.add_argument("--players", type=int, default=2)
    sim.add_argument("--seed", type=int, default=None)
    sim.add_argument("--options", type=_json_object, default={})
    sim.add_argument("--memory", action="store_true", help="keep nothing: in-memory store")
    sim.set_defaults(handler=_simulate)

    database = commands.add_parser("db", help="the store's schema")
    steps = database.add_subparsers(required=True, metavar="ACTION")
    steps.add_parser("upgrade", help="create or migrate every table and index").set_defaults(
        handler=_upgrade
    )

    projections = commands.add_parser("projections", help="read models")
    actions = projections.add_subparsers(required=True, metavar="ACTION")
    actions.add_parser("rebuild", help="rebuild every read model from zero").set_defaults(
        handler=_rebuild
    )
    actions.add_parser("run", help="follow the event log until stopped").set_defaults(
        handler=_run_projections
    )
    lobby_parser = commands.add_parser("lobby", help="the lobby's housekeeping")
    lobby_actions = lobby_parser.add_subparsers(required=True, metavar="ACTION")
    lobby_actions.add_parser("expire", help="expire the games waiting too long").set_defaults(
        handler=_expire
    )
    _audit_parsers(commands)
    cli_tournament.add_parsers(commands, _json_object)
    cli_keys.add_parsers(commands)
    return parser


def _audit_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The game-record commands (docs/audit.md)."""
    export = commands.add_parser("export", help="write a game's record (JSON)")
    export.add_argument("game_id", type=UUID, metavar="GAME_ID")
    export.add_argument("-o", "--output", metavar="FILE", help="write here, not to stdout")
    export.add_argument("--token", help="a seat's or the arbiter's token (default: spectator)")
    export.add_argument(
        "--tree-size",
        type=int,
        metavar="N",
        help="prove the checkpoint against the stored tree head of N entries (default: the "
        "latest; docs/audit.md, 'Record format')",
    )
    export.set_defaults(handler=_export)

    load = commands.add_parser("import", help="recreate a finished game from its record")
    load.add_argument("file", metavar="FILE")
    load.set_defaults(handler=_import)

    cli_verify.add_parsers(commands)

    replay = commands.add_parser("replay", help="the state after a turn of a record")
    replay.add_argument("file", metavar="FILE")
    replay.add_argument("--to", type=int, default=None, metavar="N", help="turn (default: end)")
    replay.set_defaults(handler=_replay)


def _json_object(text: str) -> dict[str, Any]:
    try:
        value = strict_loads(text, max_depth=RECORD_DEPTH)
    except JsonRefused as error:
        raise argparse.ArgumentTypeError(f"not plain JSON: {error}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("options must be a JSON object")
    return value


def _serve(args: argparse.Namespace) -> int:
    from api.app import create_app  # noqa: PLC0415 - Flask only for this command
    from api.devserver import ProblemRequestHandler  # noqa: PLC0415

    settings = Settings.from_env()
    app = create_app(build_services(settings))
    where = settings.sqlite_path if settings.store == "sqlite" else settings.store
    print(f"GameLedger on http://{args.host}:{args.port}/api/v1/docs", file=sys.stderr)
    print(f"store: {where}", file=sys.stderr)
    app.run(host=args.host, port=args.port, threaded=True, request_handler=ProblemRequestHandler)
    return 0


def _simulate(args: argparse.Namespace) -> int:
    settings = Settings(store="memory") if args.memory else Settings.from_env()
    services = build_services(settings)
    try:
        report = simulate(
            services.app,
            args.game,
            games=args.games,
            players=args.players,
            seed=args.seed,
            options=args.options,
            progress=sys.stderr.isatty(),
        )
        if not args.memory:
            services.catch_up()
    finally:
        services.close()
    if args.memory:
        report.pop("game_ids", None)
    print(json.dumps(report))
    return 0 if report["finished"] == report["games"] else 1


def _upgrade(_: argparse.Namespace) -> int:
    settings = Settings.from_env()
    with unreachable_store(settings):
        storage = Storage(settings)
        try:
            report = schema.upgrade(storage)
        finally:
            storage.close()
    where = str(settings.sqlite_path) if settings.store == "sqlite" else settings.store
    print(json.dumps({"store": where, **report.to_json()}))
    return 0


def _rebuild(_: argparse.Namespace) -> int:
    services = build_services(Settings.from_env(), create=False)
    try:
        applied = services.rebuild()
        rows = len(services.games_list.all_rows())
    finally:
        services.close()
    print(json.dumps({"events_applied": applied, "games": rows}))
    return 0


def _expire(_: argparse.Namespace) -> int:
    """The sweeper: every game of the games list still waiting past the expiry is expired
    (a ``GameExpired`` event each); prints ``{"expired": [ids], "after_seconds": N}``."""
    settings = Settings.from_env()
    services = build_services(settings, create=False)
    try:
        services.catch_up()
        expired = lobby.expire_due(
            services.app,
            lobby.waiting_games(services.games_list.all_rows()),
            settings.lobby_expiry_seconds,
            datetime.now(UTC),
        )
    finally:
        services.close()
    found = [str(game_id) for game_id in expired]
    print(json.dumps({"expired": found, "after_seconds": settings.lobby_expiry_seconds}))
    return 0


def _run_projections(_: argparse.Namespace) -> int:
    settings = Settings.from_env()
    # On PostgreSQL the runner may start beside the servers on an empty database, and
    # brings the schema up to date like them; a SQLite file it would have to create is
    # refused (a wrong data directory must not become an empty store that is followed).
    services = build_services(settings, create=settings.store == "postgres")
    stopped = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stopped.set())
    services.start_following()
    print("following the event log; Ctrl-C stops", file=sys.stderr)
    stopped.wait()
    services.close()
    return 0


class _Failed(Exception):
    """A record command that cannot go on: the message for stderr and the exit status."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def _audit(command: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Report a refused or unreadable record on stderr with exit status 1 (2 when the file
    cannot be read at all) instead of a traceback."""

    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except _Failed as failed:
            print(f"gameledger: {failed}", file=sys.stderr)
            return failed.status
        except GameError as error:
            print(f"gameledger: {error.code}: {error}", file=sys.stderr)
            return 1

    return run


RECORD_DEPTH = 64
"""How deeply a record file may nest (records nest about ten levels)."""


def _read_record(path: str) -> Any:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
        return strict_loads(text, max_depth=RECORD_DEPTH)
    except (OSError, UnicodeDecodeError, JsonRefused) as error:
        raise _Failed(f"cannot read a record from {path}: {error}", 2) from None


@_audit
def _export(args: argparse.Namespace) -> int:
    services = build_services(Settings.from_env(), create=False)
    try:
        record = export_record(services.app, args.game_id, args.token)
        record["transparency"], _ = record_transparency(
            services.app,
            services.tlog.store,
            services.keys,
            args.game_id,
            len(record["events"]),
            tree_size=args.tree_size,
        )
    finally:
        services.close()
    if args.output is None:
        print(json.dumps(record))
        return 0
    Path(args.output).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    summary = {"game_id": str(args.game_id), "file": args.output, "events": len(record["events"])}
    print(json.dumps(summary))
    return 0


@_audit
def _import(args: argparse.Namespace) -> int:
    record = _read_record(args.file)
    services = build_services(Settings.from_env())
    try:
        game_id = import_record(services.app, record)
        services.catch_up()
    finally:
        services.close()
    print(game_id)
    return 0


@_audit
def _replay(args: argparse.Namespace) -> int:
    print(json.dumps(replay_record(_read_record(args.file), args.to)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
