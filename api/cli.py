"""The ``gameledger`` command (README, docs/operations.md):

* ``serve`` — the development server (production: gunicorn, see docs/operations.md);
* ``simulate GAME --games N --players P [--seed S] [--options JSON] [--memory]`` — random bots
  play full games through the application layer; the last line of stdout is one JSON object;
* ``projections rebuild`` — rebuild every read model from zero;
* ``projections run`` — follow the event log into the read models until stopped (for
  ``GAMELEDGER_PROJECTIONS=external``)."""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from collections.abc import Sequence
from typing import Any

from application.simulation import simulate
from infrastructure.config import ConfigurationError, Settings
from infrastructure.container import build_services


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        result: int = args.handler(args)
    except ConfigurationError as error:
        print(f"gameledger: {error}", file=sys.stderr)
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

    projections = commands.add_parser("projections", help="read models")
    actions = projections.add_subparsers(required=True, metavar="ACTION")
    actions.add_parser("rebuild", help="rebuild every read model from zero").set_defaults(
        handler=_rebuild
    )
    actions.add_parser("run", help="follow the event log until stopped").set_defaults(
        handler=_run_projections
    )
    return parser


def _json_object(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise argparse.ArgumentTypeError(f"not JSON: {error}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("options must be a JSON object")
    return value


def _serve(args: argparse.Namespace) -> int:
    from api.app import create_app  # noqa: PLC0415 - Flask only for this command

    app = create_app()
    print(f"GameLedger on http://{args.host}:{args.port}/api/v1/docs", file=sys.stderr)
    app.run(host=args.host, port=args.port, threaded=True)
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


def _rebuild(_: argparse.Namespace) -> int:
    services = build_services(Settings.from_env())
    try:
        applied = services.rebuild()
        rows = len(services.games_list.all_rows())
    finally:
        services.close()
    print(json.dumps({"events_applied": applied, "games": rows}))
    return 0


def _run_projections(_: argparse.Namespace) -> int:
    services = build_services(Settings.from_env())
    stopped = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stopped.set())
    services.start_following()
    print("following the event log; Ctrl-C stops", file=sys.stderr)
    stopped.wait()
    services.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
