"""GameLedger over HTTP against a Flask hello world, measured from outside in one run
(issue 12, parts 5, 6 and 10).

Three gunicorn servers run side by side with exactly the same settings
(``-c python:api.gunicorn_conf --workers W --threads T``): the hello world of
``bench/hello_app.py``, the service on a SQLite file (a temporary ``GAMELEDGER_DATA_DIR``) and
the service on PostgreSQL (a database made for the run and dropped after it). After a second
of views on each server to warm it, each case is measured on each server in alternating
rounds (hello, SQLite, PostgreSQL, hello, ...) with the same client and concurrency; the table
gives each server's median rate and its ratio to the hello world's median (the best rounds
are in the JSON line).

Cases:

* **view, spectator** / **view, seat token** — ``GET /api/v1/games/{id}`` of an Azul 4-player
  game some 40 moves in, without and with a seat's bearer token (wrk);
* **games list** — ``GET /api/v1/games`` (the first page, 50 games) with ``--games`` games in
  the store (wrk);
* **moves** — ``POST /api/v1/games/{id}/moves`` with ``expected_version`` (Python client,
  ``bench/http_load.py``): each connection plays its own Azul 4-player games in order, many
  games at once. **Every timed request is one move**; the games were created with a known
  seed and seated through the application layer before the servers started, and the moves
  recorded by playing the same seeds in memory (``bench/move_scripts.py``), so the client
  does no game logic and sends no other request while timed. The hello world gets the very
  same requests (paths, tokens, bodies) from the same client. Not timed: creating and
  seating games, choosing moves. Several games share each of the ``--scripts`` recorded seeds
  (each its own id, tokens and aggregate). The Python client is slower than wrk (it shares
  the two cores with the servers): the moves ratio is against the hello world through that
  client, not wrk's hello-world rate.

Beside the rates, a second table gives the CPU time per request of the server under test
(gunicorn's processes and any runner), of the PostgreSQL server and of the clients, read
from the operating system before and after each measurement (``bench/cpu_use.py``): on a
machine of two cores the rates are bound by the server's processor time, and its time per
request against the hello world's says what each part costs.

The service's rate limits are raised so that one client address never reaches them
(``gunicorn_servers.NEVER_LIMITED``: the limiter still counts every request); any error or
non-2xx answer is counted and shown beside its rate.

The service runs with its read models embedded in the worker (one worker), or with one
``gameledger projections run`` beside them (several workers, or ``--read-models runner``:
the production setup of docs/operations.md; on a machine of two cores the runner then shares
them with the worker and the client).

    .venv/bin/python bench/http_compare.py [--workers 1] [--threads 8] [--connections 8]
        [--duration 3] [--rounds 3] [--stores sqlite,postgres] [--games 1000]
        [--read-models embedded|runner]
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import cpu_use
import gunicorn_servers
import http_load
import wrk_runner
from gunicorn_servers import HELLO_APP, SERVICE_APP, Server
from move_scripts import PreparedGame, Script, open_store, prepare_game, record_scripts
from pgdb import exit_on_sigterm, service_env, service_settings, temporary_database

from infrastructure.config import Settings

PLAYERS = 4
VIEW_MOVES = 40
STORE_TITLES = {"sqlite": "SQLite", "postgres": "PostgreSQL"}


@dataclass
class Measure:
    """One case on one server in one round."""

    rate: float
    errors: int
    p50_ms: float
    p99_ms: float
    samples: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    cpu_us: dict[str, float] = field(default_factory=dict)
    """CPU microseconds per request of the server, the database and the clients
    (``bench/cpu_use.py``)."""


@dataclass
class StoreGames:
    """What was prepared in one store."""

    view_game: PreparedGame
    move_pools: list[list[list[PreparedGame]]]  # [round][connection] -> games
    count: int


def parse_args() -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=1, help="gunicorn workers (all servers)")
    parser.add_argument("--threads", type=int, default=8, help="gunicorn threads (all servers)")
    parser.add_argument("--connections", type=int, default=8, help="concurrent connections")
    parser.add_argument("--duration", type=float, default=3.0, help="seconds per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per case")
    parser.add_argument("--stores", default="sqlite,postgres", help="comma-separated")
    parser.add_argument("--games", type=int, default=1000, help="games in each store")
    parser.add_argument("--games-per-connection", type=int, default=6, help="per round (moves)")
    parser.add_argument("--scripts", type=int, default=8, help="distinct recorded games")
    parser.add_argument("--wrk-threads", type=int, default=1)
    parser.add_argument("--client-processes", type=int, default=2, help="Python client")
    parser.add_argument("--cases", default="view,view-seat,list,moves", help="comma-separated")
    parser.add_argument(
        "--read-models",
        choices=["embedded", "runner"],
        default="embedded",
        help="followed in the worker, or by a `gameledger projections run` beside it",
    )
    args = parser.parse_args()
    args.stores = [s for s in args.stores.split(",") if s]
    args.cases = [c for c in args.cases.split(",") if c]
    if not set(args.stores) <= set(STORE_TITLES):
        parser.error("--stores takes sqlite and/or postgres")
    return args


def prepare_store(
    settings: Settings, scripts: list[Script], args: argparse.Namespace
) -> StoreGames:
    """Create and seat every game the run needs in one store (untimed, no HTTP)."""
    services = open_store(settings)
    app = services.app
    try:
        made = 0

        def next_game() -> PreparedGame:
            nonlocal made
            made += 1
            return prepare_game(app, scripts[made % len(scripts)])

        pools = [
            [
                [next_game() for _ in range(args.games_per_connection)]
                for _ in range(args.connections)
            ]
            for _ in range(args.rounds)
        ]
        while made < args.games - 1:
            next_game()
        view_game = next_game()  # the newest: first in the list
    finally:
        services.close()
    return StoreGames(view_game, pools, made)


def advance(server: Server, game: PreparedGame, moves: int) -> None:
    """Play the first ``moves`` moves of ``game`` over HTTP (untimed), so its view is that of
    a game under way."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    for step in game.script.steps[:moves]:
        conn.request(
            "POST",
            game.moves_path,
            body=step.body,
            headers={
                "Content-Type": "application/json",
                "Authorization": f"Bearer {game.tokens[step.seat]}",
            },
        )
        answer = conn.getresponse()
        data = answer.read()
        if answer.status != 200:
            raise RuntimeError(f"preparing the view game: {answer.status} {data[:300]!r}")
    conn.close()


def wait_for_list(server: Server, games: int, timeout: float = 120.0) -> float:
    """Wait until the games list holds ``games`` games (its read model has caught up)."""
    started = time.monotonic()
    total = -1
    while time.monotonic() - started < timeout:
        total = listed_count(server)
        if total >= games:
            return time.monotonic() - started
        time.sleep(0.2)
    raise RuntimeError(f"{server.name}: the games list holds {total} of {games} games")


def listed_count(server: Server) -> int:
    """How many games the list holds, page by page."""
    count, cursor = 0, ""
    while True:
        query = "limit=200" + (f"&cursor={cursor}" if cursor else "")
        with urllib.request.urlopen(f"{server.base}/api/v1/games?{query}", timeout=10) as answer:
            page = json.loads(answer.read())
        count += len(page["items"])
        if page["next_cursor"] is None:
            return count
        cursor = page["next_cursor"]


def health(server: Server) -> str:
    """``GET /api/v1/health`` once the cases are done: the status and the body."""
    try:
        with urllib.request.urlopen(f"{server.base}/api/v1/health", timeout=10) as answer:
            return f"{answer.status} {answer.read().decode()[:300]}"
    except urllib.error.HTTPError as error:
        return f"{error.code} {error.read().decode()[:300]}"
    except OSError as error:
        return f"no answer: {error}"


def measure_get(server: Server, path: str, token: str | None, args: argparse.Namespace) -> Measure:
    """One GET case on one server: wrk, or the Python client when wrk is missing."""
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if wrk_runner.available():
        result = wrk_runner.run(
            server.base + path,
            connections=args.connections,
            threads=args.wrk_threads,
            seconds=args.duration,
            headers=headers,
        )
        return Measure(result.rate, result.errors, result.p50_ms, result.p99_ms)
    request = http_load.FixedRequest("GET", path, tuple(headers.items()))
    load = http_load.run(
        server.port,
        [request] * args.connections,
        processes=args.client_processes,
        seconds=args.duration,
    )
    return Measure(load.rate, load.errors, load.percentile(0.5), load.percentile(0.99))


def measure_moves(
    server: Server, work: list[list[PreparedGame]], cycle: bool, args: argparse.Namespace
) -> Measure:
    """The moves case on one server with the Python client."""
    load = http_load.run(
        server.port,
        work,
        processes=args.client_processes,
        seconds=args.duration,
        cycle=cycle,
    )
    extra = {
        "statuses": dict(load.statuses),
        "games_finished": load.games_finished,
        "games_abandoned": load.games_abandoned,
        "connections_out_of_games": load.exhausted,
    }
    return Measure(
        load.rate,
        load.errors,
        load.percentile(0.5),
        load.percentile(0.99),
        samples=load.samples,
        extra=extra,
    )


@contextmanager
def servers(
    args: argparse.Namespace, scratch: Path, dbname: str | None
) -> Iterator[dict[str, Server]]:
    """The hello world and the service on each store, stopped on the way out."""
    with ExitStack() as stack:
        common = {"workers": args.workers, "threads": args.threads, "log_dir": scratch}
        running: dict[str, Server] = {}
        hello = gunicorn_servers.start("hello", HELLO_APP, env={}, ready_path="/", **common)
        stack.callback(hello.stop)
        running["hello"] = hello
        for store in args.stores:
            env = {**gunicorn_servers.NEVER_LIMITED}
            if args.read_models == "embedded":
                env["GAMELEDGER_PROJECTIONS"] = "embedded"
            if store == "sqlite":
                env |= {"GAMELEDGER_STORE": "sqlite", "GAMELEDGER_DATA_DIR": str(scratch / "data")}
            else:
                assert dbname is not None
                env |= service_env(dbname)
            server = gunicorn_servers.start(
                f"service-{store}",
                SERVICE_APP,
                env=env,
                runner=args.read_models == "runner" or args.workers > 1,
                **common,
            )
            stack.callback(server.stop)
            running[store] = server
        yield running


def store_settings(store: str, scratch: Path, dbname: str | None) -> Settings:
    """The settings the prepared games are written with: the servers' own store."""
    if store == "sqlite":
        return Settings(
            store="sqlite",
            sqlite_path=scratch / "data" / "gameledger.db",
            embedded_projections=False,
        )
    assert dbname is not None
    return service_settings(dbname)


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Prepare, start the servers, measure every case in alternating rounds."""
    log = print_progress
    started = time.perf_counter()
    scripts = record_scripts(args.scripts, PLAYERS)
    moves_per_game = statistics.mean(len(s.steps) for s in scripts)
    log(f"recorded {len(scripts)} games, {moves_per_game:.0f} moves each on average")
    results: dict[str, dict[str, list[Measure]]] = {}
    notes: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="gameledger-http-") as tmp, ExitStack() as stack:
        scratch = Path(tmp)
        dbname = (
            stack.enter_context(temporary_database("bench_http"))
            if "postgres" in args.stores
            else None
        )
        prepared: dict[str, StoreGames] = {}
        for store in args.stores:
            begin = time.perf_counter()
            prepared[store] = prepare_store(store_settings(store, scratch, dbname), scripts, args)
            spent = time.perf_counter() - begin
            log(f"{store}: {prepared[store].count} games prepared in {spent:.1f} s")
        with servers(args, scratch, dbname) as running:
            for store in args.stores:
                caught_up = wait_for_list(running[store], prepared[store].count)
                advance(running[store], prepared[store].view_game, VIEW_MOVES)
                log(f"{store}: games list caught up in {caught_up:.1f} s; view game advanced")
            order = ["hello", *args.stores]
            for name in order:  # warm-up, not counted: a second of views on each server
                view = prepared[name if name != "hello" else args.stores[0]].view_game
                warm = argparse.Namespace(**{**vars(args), "duration": 1.0})
                measure_get(running[name], f"/api/v1/games/{view.game_id}", None, warm)
            for case in args.cases:
                results[case] = {name: [] for name in order}
                for round_number in range(args.rounds):
                    for name in order:
                        results[case][name].append(
                            measure_case(
                                case,
                                name=name,
                                round_number=round_number,
                                running=running,
                                prepared=prepared,
                                args=args,
                            )
                        )
                    log(f"{case}: round {round_number + 1} of {args.rounds} done")
            notes["health_after"] = {name: health(running[name]) for name in args.stores}
            notes["server_log_problems"] = {
                name: server.log_problems() for name, server in running.items()
            }
    notes["seconds"] = round(time.perf_counter() - started, 1)
    notes["moves_per_game"] = round(moves_per_game, 1)
    return {"results": results, "notes": notes}


def measure_case(
    case: str,
    *,
    name: str,
    round_number: int,
    running: dict[str, Server],
    prepared: dict[str, StoreGames],
    args: argparse.Namespace,
) -> Measure:
    """One case on one server (``name``: hello or a store) in one round. The hello world is
    sent the first store's requests."""
    server = running[name]
    games = prepared[name] if name != "hello" else prepared[args.stores[0]]
    runner = server.runner.pid if server.runner is not None else None
    before = cpu_use.snapshot((process.pid for process in server.processes), runner)
    measure = run_case(case, server, games, round_number, args, hello=name == "hello")
    spent = cpu_use.snapshot((process.pid for process in server.processes), runner) - before
    measure.cpu_us = spent.per_request_us(measure.rate * args.duration)
    return measure


def run_case(
    case: str,
    server: Server,
    games: StoreGames,
    round_number: int,
    args: argparse.Namespace,
    *,
    hello: bool,
) -> Measure:
    """Measure one case on ``server`` with ``games``' requests (the hello world's moves: the
    same requests over and over, as it keeps no game)."""
    view = games.view_game
    if case == "view":
        return measure_get(server, f"/api/v1/games/{view.game_id}", None, args)
    if case == "view-seat":
        return measure_get(server, f"/api/v1/games/{view.game_id}", view.tokens[0], args)
    if case == "list":
        return measure_get(server, "/api/v1/games", None, args)
    if case == "moves":
        return measure_moves(server, games.move_pools[round_number], hello, args)
    raise ValueError(f"unknown case {case}")


CASE_TITLES = {
    "view": "game view, spectator (GET /games/{id})",
    "view-seat": "game view, seat token (GET /games/{id})",
    "list": "games list (GET /games, 50 of GAMES)",
    "moves": "moves (POST /games/{id}/moves), 1 request = 1 move",
}


def summarise(report: dict[str, Any], args: argparse.Namespace) -> tuple[list[str], dict[str, Any]]:
    """The markdown table and the JSON summary."""
    results: dict[str, dict[str, list[Measure]]] = report["results"]
    titles = [STORE_TITLES[s] for s in args.stores]
    header = "| case | client | hello req/s |" + "".join(
        f" {t} req/s | {t} / hello |" for t in titles
    )
    lines = [header, "|" + "---|" * (3 + 2 * len(titles))]
    cases: dict[str, Any] = {}
    for case, by_server in results.items():
        hello = by_server["hello"]
        hello_median = statistics.median(m.rate for m in hello)
        hello_best = max(m.rate for m in hello)
        client = "python" if case == "moves" or not wrk_runner.available() else "wrk"
        title = CASE_TITLES[case].replace("GAMES", f"{args.games:,}")
        row = f"| {title} | {client} | {hello_median:,.0f} |"
        summary: dict[str, Any] = {"client": client}
        for name, measures in by_server.items():
            rates = [m.rate for m in measures]
            median = statistics.median(rates)
            entry: dict[str, Any] = {
                "rates": [round(r, 1) for r in rates],
                "median": round(median, 1),
                "best": round(max(rates), 1),
                "errors": sum(m.errors for m in measures),
                "p50_ms": round(statistics.median(m.p50_ms for m in measures), 2),
                "p99_ms": round(statistics.median(m.p99_ms for m in measures), 2),
                "cpu_us_per_request": {
                    party: round(statistics.median(m.cpu_us[party] for m in measures), 1)
                    for party in ("server", "database", "clients", "runner")
                },
            }
            samples = [s for m in measures for s in m.samples][:5]
            if samples:
                entry["error_samples"] = samples
            if measures[0].extra:
                entry["rounds"] = [m.extra for m in measures]
            if name != "hello":
                entry["ratio_median"] = round(median / hello_median, 3)
                entry["ratio_best"] = round(max(rates) / hello_best, 3)
                flag = f" ({entry['errors']} errors)" if entry["errors"] else ""
                row += f" {median:,.0f}{flag} | **{entry['ratio_median']:.2f}x** |"
            summary[name] = entry
        lines.append(row)
        cases[case] = summary
    return lines, cases


def cpu_table(cases: dict[str, Any], args: argparse.Namespace) -> list[str]:
    """The CPU microseconds per request of each server (gunicorn's processes, and the runner
    beside them), the database and the clients, medians of the rounds; the server's own
    cost against the hello world's as a ratio (hello ÷ server, as the rates)."""
    titles = [STORE_TITLES[s] for s in args.stores]
    lines = [
        "CPU µs per request (server = gunicorn and any runner, the runner's part in "
        "parentheses; database = every PostgreSQL process; clients = wrk or the Python "
        "client):",
        "",
        "| case | hello server | "
        + "".join(f"{t} server | {t} server ÷ hello, as rates | {t} database | " for t in titles)
        + "clients (hello / "
        + " / ".join(titles)
        + ") |",
        "|" + "---|" * (3 + 3 * len(titles)),
    ]
    for case, summary in cases.items():
        hello = summary["hello"]["cpu_us_per_request"]
        row = f"| {CASE_TITLES[case].split(' (')[0]} | {hello['server']:,.0f} |"
        clients = [f"{hello['clients']:,.0f}"]
        for store in args.stores:
            used = summary[store]["cpu_us_per_request"]
            ratio = hello["server"] / used["server"] if used["server"] else 0.0
            server, ratios = f"{used['server']:,.0f}", f"**{ratio:.2f}x**"
            worker = used["server"] - used["runner"]
            if used["runner"] and worker > 0:
                server += f" (runner {used['runner']:,.0f})"
                ratios += f" (worker alone {hello['server'] / worker:.2f}x)"
            row += f" {server} | {ratios} | {used['database']:,.0f} |"
            clients.append(f"{used['clients']:,.0f}")
        lines.append(row + " " + " / ".join(clients) + " |")
    return lines


def print_progress(message: str) -> None:
    """Progress on stderr (the results go to stdout)."""
    print(message, file=sys.stderr, flush=True)


def main() -> None:
    """Run, print the table and one JSON line."""
    exit_on_sigterm()
    args = parse_args()
    report = run(args)
    lines, cases = summarise(report, args)
    when = datetime.now(UTC).isoformat(timespec="seconds")
    client = (
        f"wrk -t{args.wrk_threads} -c{args.connections}"
        if wrk_runner.available()
        else f"python {args.client_processes} processes"
    )
    print(
        f"GameLedger vs Flask hello world, {when}: gunicorn -c python:api.gunicorn_conf "
        f"--workers {args.workers} --threads {args.threads}; read models {args.read_models}; "
        f"{args.connections} connections; "
        f"GETs with {client}, moves with the Python client ({args.client_processes} processes); "
        f"{args.duration:g} s per measurement, {args.rounds} alternating rounds, medians"
    )
    print()
    for line in lines:
        print(line)
    print()
    for line in cpu_table(cases, args):
        print(line)
    print()
    for name, answer in report["notes"]["health_after"].items():
        if not answer.startswith("200 "):
            print(f"health after the run, {name}: {answer}")
    for name, problems in report["notes"]["server_log_problems"].items():
        for problem in problems:
            print(f"server log, {name}: {problem}")
    for case, summary in cases.items():
        for name, entry in summary.items():
            if isinstance(entry, dict) and entry.get("errors"):
                print(f"errors, {case}, {name}: {entry['errors']}: {entry.get('error_samples')}")
            if isinstance(entry, dict) and name != "hello":
                short = sum(r.get("connections_out_of_games", 0) for r in entry.get("rounds", []))
                if short:
                    print(
                        f"warning: {case}, {name}: {short} connections ran out of prepared "
                        "games before the end of the window (raise --games-per-connection)"
                    )
    print(
        json.dumps(
            {
                "bench": "http_compare",
                "date": when,
                "command": " ".join(["bench/http_compare.py", *sys.argv[1:]]),
                "stores": args.stores,
                "workers": args.workers,
                "read_models": args.read_models,
                "threads": args.threads,
                "connections": args.connections,
                "wrk_threads": args.wrk_threads if wrk_runner.available() else None,
                "client_processes": args.client_processes,
                "duration_s": args.duration,
                "rounds": args.rounds,
                "games_in_store": args.games,
                "cases": cases,
                "notes": report["notes"],
            }
        )
    )


if __name__ == "__main__":
    main()
