"""The service with about a million events in its store (issue 12, part 10: "scale: appends
and views with about a million events in the store; rebuild time per 100k events").

Two stores of one kind are made for the run and dropped after it (PostgreSQL: two databases
on the server of ``GAMELEDGER_POSTGRES_*``; SQLite: two files in a temporary directory):

* the **large** store, filled with ``--events`` events (default 1,000,000 on PostgreSQL,
  250,000 on SQLite): seeded 4-player Azul games played to the end by bots through the use
  cases, in ``--workers`` processes (default 2 on PostgreSQL, 1 on SQLite, whose writers
  would only queue for its one lock). Each move is chosen by the game's bot on an engine copy
  of the game kept beside it and made with ``GameLedger.play`` at the version the last save
  returned: the store gets exactly what a client's moves give it, without the two reads per
  move a client makes (the fill rate is printed as it goes);
* the **almost empty** store, filled the same way with ``--small-events`` events (default
  20,000: enough games for a full first page of the games list).

Then every figure is measured on both stores in the same run, the large one as a ratio to
the almost empty one (the baseline):

* **(e) rebuild**: ``Services.rebuild()`` (what ``gameledger projections rebuild`` does:
  both read models, the games list and the turn index, rebuilt from the first event and
  swapped in), in seconds per 100k events in the store; once on the large store, the median
  of three on the small one. The fill runs without read models, so this is also what fills
  them for the reads below;

and then in ``--rounds`` rounds, the two stores taking turns:

* **(a) appends**: ``--append-games`` fresh 4-player Azul games played as a client plays
  them (``whose_turn``, the bot's move for a seat, ``play`` with the version seen), moves
  per second;
* **(b) a game view** of ``--views`` random games of the store: cold (a new ``GameLedger``
  on the same store, nothing cached: the game is loaded from its latest snapshot) and warm
  (the same view again: kept serialised with the cached game, after the query that checks
  the store for newer events — none on SQLite when nothing was committed);
* **(c) the games list** (``application.projections.games_list.games_page``, 50 rows): the
  first page, and a deep page reached by its cursor (the page starting 90% of the way down
  the list; on the small store, whose list is about one page long, the first page is the
  baseline of both);
* **(d) the event log of one game filtered by type** (``GameLedger.event_log`` with
  ``types={"WallTiled"}``, 100 events a page) for the same random games, each on a new
  ``GameLedger`` that has just loaded the game (untimed): so that neither store gains from
  games left cached by earlier rounds (the small store's would all be).

Medians over all rounds; the calibration loop (``bench/calibration.py``) is timed each round
as well, to show how loaded the machine was. Prints a markdown table and one JSON line with
the command, the date and the figures.

    .venv/bin/python bench/scale.py [--store postgres|sqlite] [--events N] [--small-events N]
        [--workers N] [--rounds 3] [--append-games 3] [--views 50]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID

from calibration import calibration  # bench/calibration.py, the shared baseline
from pgdb import connect, exit_on_sigterm, service_settings, temporary_database

from application.projections.games_list import games_page
from application.service import GameLedger
from domain.bots import choose_move
from domain.randomness import RandomStream
from domain.registry import rules_for
from infrastructure.config import Settings
from infrastructure.container import Services, build_services

GAME = "azul"
PLAYERS = 4
PAGE = 50
LOG_TYPE = "WallTiled"
DEFAULT_EVENTS = {"postgres": 1_000_000, "sqlite": 250_000}
DEFAULT_WORKERS = {"postgres": 2, "sqlite": 1}


@dataclass(frozen=True)
class Target:
    """Where a store is: a PostgreSQL database's name, or a SQLite file's path."""

    store: str
    where: str

    def settings(self) -> Settings:
        """Settings of a process on this store with no read-model followers."""
        if self.store == "postgres":
            return service_settings(self.where)
        return Settings(store="sqlite", sqlite_path=Path(self.where), embedded_projections=False)

    def disk_mb(self) -> float:
        """The store's size on disk (the database, or the SQLite files), in MB."""
        if self.store == "postgres":
            with connect() as conn:
                row = conn.execute("SELECT pg_database_size(%s)", (self.where,)).fetchone()
            return float(row[0]) / 2**20 if row else 0.0
        return sum(f.stat().st_size for f in Path(self.where).parent.iterdir()) / 2**20


def game_seed(index: int) -> str:
    """The secret seed of game ``index``."""
    return f"bench-scale-{index}"


def filled_game(app: GameLedger, index: int) -> int:
    """Game ``index`` played to its end by bots: each move chosen on an engine copy of the
    game kept beside it (the same rules, seed and draws) and made through ``GameLedger.play``
    at the version the last save returned. The game's events."""
    rules = rules_for(GAME)
    secret = game_seed(index)
    game_id = app.create_game(GAME, PLAYERS, seed=secret)
    tokens = [app.join(game_id, f"bot-{n}", n).token for n in range(PLAYERS)]
    version = app.whose_turn(game_id)[0]
    state = rules.setup(PLAYERS, rules.normalise_options({}))
    for event in rules.begin(state, RandomStream(secret, 0)):
        state = rules.evolve(state, event)
    bot = random.Random(index)
    while acting := rules.current_players(state):
        seat = bot.choice(acting)
        move = choose_move(rules, state, seat, bot)
        version = app.play(game_id, tokens[seat], rules.move_to_json(move), version).version
        for event in rules.apply(state, seat, move, RandomStream(secret, state.random_position)):
            state = rules.evolve(state, event)
    if app.whose_turn(game_id) != (version, []):
        raise RuntimeError(f"game {index}: the engine copy and the store disagree")
    return version


def client_game(app: GameLedger, index: int) -> int:
    """Game ``index`` played as a client plays it (``whose_turn``, the bot's move for a
    seat, ``play`` with the version seen); the moves made."""
    game_id = app.create_game(GAME, PLAYERS, seed=game_seed(index))
    tokens = [app.join(game_id, f"bot-{n}", n).token for n in range(PLAYERS)]
    bot = random.Random(index)
    moves = 0
    while True:
        version, seats = app.whose_turn(game_id)
        if not seats:
            return moves
        seat = bot.choice(seats)
        app.play(game_id, tokens[seat], app.bot_move(game_id, tokens[seat], bot), version)
        moves += 1


def fill_worker(target: Target, first: int, step: int, events: int) -> dict[str, Any]:
    """Play games ``first``, ``first + step``, ... on ``target`` until they add up to
    ``events`` events (in a process of its own)."""
    services = build_services(target.settings())
    played = made = 0
    index = first
    started = time.perf_counter()
    try:
        while made < events:
            made += filled_game(services.app, index)
            played += 1
            index += step
    finally:
        services.close()
    return {
        "games": played,
        "events": made,
        "seconds": time.perf_counter() - started,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def fill(
    target: Target, services: Services, events: int, workers: int, first: int
) -> dict[str, Any]:
    """Fill ``target`` with about ``events`` events in ``workers`` processes, printing the
    rate as it goes; what the fill took."""
    store = services.app.stores[0]
    before = store.recorder.max_notification_id() or 0
    started = time.perf_counter()
    share = -(-events // workers)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        futures = [
            pool.submit(fill_worker, target, first + k, workers, share) for k in range(workers)
        ]
        report_at = started + 30
        while not all(f.done() for f in futures):
            time.sleep(0.5)
            if time.perf_counter() >= report_at:
                report_at += 30
                now = (store.recorder.max_notification_id() or 0) - before
                spent = time.perf_counter() - started
                print(
                    f"  filled {now:,} of {events:,} events, {now / spent:,.0f} events/s",
                    file=sys.stderr,
                )
        reports = [f.result() for f in futures]
    seconds = time.perf_counter() - started
    total = sum(r["events"] for r in reports)
    return {
        "events": total,
        "games": sum(r["games"] for r in reports),
        "workers": workers,
        "seconds": round(seconds, 1),
        "events_per_s": round(total / seconds, 1),
        "worker_peak_rss_mb": [round(r["peak_rss_mb"], 1) for r in reports],
    }


def median_ms(action: Callable[[], object], repeat: int) -> float:
    """The median time of ``action`` over ``repeat`` calls, in ms."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


@dataclass
class Side:
    """One store and what was measured on it."""

    name: str
    target: Target
    services: Services
    events: int = 0
    games: list[UUID] = field(default_factory=list)
    deep_cursor: str | None = None
    fill: dict[str, Any] = field(default_factory=dict)
    rebuild_s: list[float] = field(default_factory=list)
    samples: dict[str, list[float]] = field(default_factory=dict)

    def add(self, name: str, value: float) -> None:
        """One more sample of figure ``name``."""
        self.samples.setdefault(name, []).append(value)

    def figure(self, name: str) -> float:
        """The median of figure ``name``."""
        return statistics.median(self.samples[name])


def prepare_reads(side: Side) -> None:
    """After the rebuild: the store's games (from the games list) and the deep page's
    cursor, found by walking the list once."""
    view = side.services.games_list
    rows = view.all_rows()
    side.games = [UUID(row.game_id) for row in rows]
    cursors: list[str | None] = [None]
    while True:
        page = games_page(view, limit=PAGE, cursor=cursors[-1])
        if page.next_cursor is None:
            break
        cursors.append(page.next_cursor)
    side.deep_cursor = cursors[int(0.9 * (len(cursors) - 1))]


def measure_round(side: Side, round_number: int, args: argparse.Namespace) -> None:
    """One round of (a)-(d) on one store (module docstring)."""
    app = side.services.app
    stores = app.stores
    started = time.perf_counter()
    moves = sum(
        client_game(app, 10_000_000 * (round_number + 1) + n) for n in range(args.append_games)
    )
    side.add("appends_moves_per_s", moves / (time.perf_counter() - started))
    chosen = random.Random(round_number).sample(side.games, min(args.views, len(side.games)))
    for game_id in chosen:
        ledger = GameLedger(stores)
        started = time.perf_counter()
        ledger.view(game_id)
        middle = time.perf_counter()
        ledger.view(game_id)
        side.add("view_cold_ms", (middle - started) * 1000)
        side.add("view_warm_ms", (time.perf_counter() - middle) * 1000)
    view = side.services.games_list
    side.add("list_first_ms", median_ms(lambda: games_page(view, limit=PAGE), 20))
    deep = side.deep_cursor
    side.add("list_deep_ms", median_ms(lambda: games_page(view, limit=PAGE, cursor=deep), 20))
    types = frozenset({LOG_TYPE})
    for game_id in chosen:
        ledger = GameLedger(stores)
        ledger.view(game_id)  # the game loaded first: what is timed is the log's own read
        started = time.perf_counter()
        ledger.event_log(game_id, limit=100, types=types)
        side.add("log_by_type_ms", (time.perf_counter() - started) * 1000)
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        calibration()
        best = min(best, time.perf_counter() - began)
    side.add("calibration_ms", best * 1000)


@contextmanager
def made_stores(store: str) -> Iterator[tuple[Target, Target]]:
    """Two empty stores of kind ``store`` (the small one, the large one), dropped after."""
    with ExitStack() as stack:
        if store == "postgres":
            small = Target(store, stack.enter_context(temporary_database("bench_scale_small")))
            large = Target(store, stack.enter_context(temporary_database("bench_scale_large")))
        else:
            small_dir = stack.enter_context(tempfile.TemporaryDirectory())
            large_dir = stack.enter_context(tempfile.TemporaryDirectory())
            small = Target(store, str(Path(small_dir) / "small.db"))
            large = Target(store, str(Path(large_dir) / "large.db"))
        yield small, large


ROWS: list[tuple[str, str]] = [  # figure, title
    ("appends_moves_per_s", "(a) appends, fresh games played as a client, moves/s"),
    ("view_cold_ms", "(b) game view of a random game, cold, ms"),
    ("view_warm_ms", "(b) game view of a random game, warm, ms"),
    ("list_first_ms", "(c) games list, first page, ms"),
    ("list_deep_ms", "(c) games list, deep page by cursor, ms"),
    ("log_by_type_ms", f"(d) event log of a game, type={LOG_TYPE}, ms"),
    ("rebuild_s_per_100k", "(e) rebuild, both read models, s per 100k events"),
]


def main() -> None:
    """Fill, rebuild, measure; print the table and a JSON line."""
    exit_on_sigterm()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", choices=["postgres", "sqlite"], default="postgres")
    parser.add_argument("--events", type=int, help="large store (default 1M / 250k on SQLite)")
    parser.add_argument("--small-events", type=int, default=20_000)
    parser.add_argument("--workers", type=int, help="fill processes (default 2 / 1 on SQLite)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--append-games", type=int, default=3, help="per store per round")
    parser.add_argument("--views", type=int, default=50, help="random games per round")
    args = parser.parse_args()
    events = args.events or DEFAULT_EVENTS[args.store]
    workers = args.workers or DEFAULT_WORKERS[args.store]
    began = time.perf_counter()
    when = datetime.now(UTC).isoformat(timespec="seconds")
    command = " ".join(["bench/scale.py", *sys.argv[1:]])
    with made_stores(args.store) as (small_target, large_target), ExitStack() as stack:
        sides = []
        for name, target in (("small", small_target), ("large", large_target)):
            services = build_services(target.settings())
            stack.callback(services.close)
            sides.append(Side(name, target, services))
        small, large = sides
        for side, wanted, side_workers, first in (
            (small, args.small_events, 1, 1_000_000),
            (large, events, workers, 0),
        ):
            print(f"filling the {side.name} store: {wanted:,} events", file=sys.stderr)
            side.fill = fill(side.target, side.services, wanted, side_workers, first)
            side.events = side.services.app.stores[0].recorder.max_notification_id() or 0
            print(f"  {side.fill}", file=sys.stderr)
        for side, times in ((large, 1), (small, 3)):
            for _ in range(times):
                started = time.perf_counter()
                side.services.rebuild()
                side.rebuild_s.append(time.perf_counter() - started)
            print(f"{side.name} rebuilt in {side.rebuild_s} s", file=sys.stderr)
            prepare_reads(side)
        for round_number in range(args.rounds):
            for side in sides:
                measure_round(side, round_number, args)
            print(f"round {round_number + 1} of {args.rounds} done", file=sys.stderr)
        disk = {side.name: round(side.target.disk_mb(), 1) for side in sides}
    for side in sides:
        side.samples["rebuild_s_per_100k"] = [
            statistics.median(side.rebuild_s) / side.events * 100_000
        ]
    print(
        f"{command} — {when}; {args.store}; {PLAYERS}-player Azul games played to the end by "
        f"bots; {args.rounds} rounds"
    )
    print()
    print(
        f"fill of the large store: {large.fill['events']:,} events ({large.fill['games']:,} "
        f"games) in {large.fill['seconds']:,.0f} s by {workers} "
        f"process{'es' if workers > 1 else ''} = "
        f"**{large.fill['events_per_s']:,.0f} events/s**; on disk {disk['large']:,} MB "
        f"(small store {disk['small']:,} MB); fill processes' peak RSS "
        f"{', '.join(f'{m:.0f}' for m in large.fill['worker_peak_rss_mb'])} MB"
    )
    print()
    print(
        f"| figure | almost empty store ({small.events:,} events, {len(small.games)} games) "
        f"| large store ({large.events:,} events, {len(large.games):,} games) | large / small |"
    )
    print("|---|---|---|---|")
    figures: dict[str, Any] = {}
    for key, title in ROWS:
        base = small.figure("list_first_ms" if key == "list_deep_ms" else key)
        value = large.figure(key)
        ratio = value / base
        print(f"| {title} | {base:,.3g} | {value:,.3g} | **{ratio:.2f}** |")
        figures[key] = {"small": round(base, 4), "large": round(value, 4), "ratio": round(ratio, 3)}
    deep_vs_first = large.figure("list_deep_ms") / large.figure("list_first_ms")
    figures["list_deep_per_first_large"] = round(deep_vs_first, 3)
    calibration_ms = {side.name: round(side.figure("calibration_ms"), 2) for side in sides}
    peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print()
    print(
        f"(c) the deep page against the first on the large store: {deep_vs_first:.2f}; "
        f"the small store's baseline of the deep page is its first page (its list is "
        f"{len(small.games)} games). Calibration loop, median of the rounds: "
        f"{calibration_ms['small']} ms (small's rounds) / {calibration_ms['large']} ms "
        f"(large's). Rebuild seconds: large {large.rebuild_s[0]:.1f}, small "
        f"{', '.join(f'{s:.2f}' for s in small.rebuild_s)}. "
        f"Peak RSS of this (measuring) process {peak_rss_mb:.0f} MB. "
        f"{time.perf_counter() - began:,.0f} s in all."
    )
    print(
        json.dumps(
            {
                "bench": "scale",
                "date": when,
                "command": command,
                "store": args.store,
                "events": {"small": small.events, "large": large.events},
                "games": {"small": len(small.games), "large": len(large.games)},
                "fill": {"small": small.fill, "large": large.fill},
                "disk_mb": disk,
                "rebuild_s": {"small": small.rebuild_s, "large": large.rebuild_s},
                "figures": figures,
                "calibration_ms": calibration_ms,
                "peak_rss_mb": round(peak_rss_mb, 1),
                "rounds": args.rounds,
                "seconds": round(time.perf_counter() - began, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
