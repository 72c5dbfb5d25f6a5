"""The event store's write rate on PostgreSQL against the server's own insert rate, in one run
(issue 12, "The table lock", parts 9 and 10).

The library's PostgreSQL recorder takes ``LOCK TABLE ... IN EXCLUSIVE MODE`` in every save
(so notification ids are committed in order): saves queue one behind another whatever the
number of writers. Measured on a database made for the run (dropped after it):

* **writers** — 1, 4, 8 and 16 processes, each its own ``GameLedger`` (write side only, the
  service's settings), saving as fast as they can: ``--save create`` (default) creates a new
  Azul game per save (``GameLedger.create_game``: one new aggregate, one event);
  ``--save moves`` plays prepared games (``bench/move_scripts.py``), one move per save
  (``GameLedger.play`` with the expected version: a load of the game, the rules, the save);
* **pgbench, plain** — 16 clients inserting rows of the same size (the mean size and topic of
  the events just written) with as many rows per transaction as a save writes, into a table
  made like the library's (``notification_id bigserial``, the same keys): the server's insert
  rate without the lock;
* **pgbench, with the lock** — the same, in a transaction that first does what the library
  does (``SET LOCAL lock_timeout``, ``LOCK TABLE ... IN EXCLUSIVE MODE``, ``NOTIFY``): the
  ceiling the lock itself sets, with no Python in the way.

* **shards** — the most writers again on event stores of 2 and 4 parts (``--shards``;
  docs/operations.md, "Shards"), each part with its own table and lock, games spread over the
  parts (each shard count on a database of its own, made for the run); and pgbench's locked
  inserts spread over as many tables, each with its own lock: the lock's ceiling with that many
  parts, with no Python in the way.

Rounds alternate the cases; each case reports its median (best in the JSON line), the ratio to
pgbench's plain rate of the same run, and how many backends were waiting on a lock (sampled
every 50 ms from ``pg_stat_activity``).

    .venv/bin/python bench/pg_lock.py [--writers 1,4,8,16] [--duration 4] [--rounds 3]
        [--save create|moves] [--pgbench-clients 16] [--shards 1,2,4]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from move_scripts import PreparedGame, Script, prepare_game, record_scripts
from pgdb import connect, exit_on_sigterm, server_settings, service_settings, temporary_database

from application.service import GameLedger
from infrastructure.config import Settings
from infrastructure.container import build_services

PLAYERS = 4
BENCH_TABLE = "pgbench_events"
DDL = f"""
CREATE TABLE {BENCH_TABLE} (
    originator_id uuid NOT NULL,
    originator_version bigint NOT NULL,
    topic text,
    state bytea,
    notification_id bigserial,
    PRIMARY KEY (originator_id, originator_version));
CREATE UNIQUE INDEX {BENCH_TABLE}_notification_id_idx ON {BENCH_TABLE} (notification_id ASC);
"""


@dataclass(frozen=True)
class Rate:
    """One case in one round."""

    saves_per_s: float
    events_per_s: float
    lock_waiting: float


# The writer processes


def writer_settings(dbname: str, shards: int) -> Settings:
    """A writer's settings: the event store in ``shards`` parts, one pooled connection (a
    writer is one thread; 16 writers would otherwise hold 16 x 2)."""
    settings = service_settings(dbname)
    pg = replace(settings.postgres, pool_size=1, max_overflow=1)
    return replace(settings, postgres=pg, shards=shards)


def _writer(pipe: Connection, dbname: str, save: str, scripts: list[Script], shards: int) -> None:
    """A writer process: its own GameLedger; prepares and runs on the parent's orders."""
    settings = writer_settings(dbname, shards)
    services = build_services(settings)
    app = services.app
    app.create_game("azul", PLAYERS)  # connected, tables there, code warm
    games: list[PreparedGame] = []
    pipe.send("ready")
    while (order := pipe.recv()) is not None:
        if order[0] == "prepare":
            games = [prepare_game(app, scripts[n % len(scripts)]) for n in range(order[1])]
            pipe.send("prepared")
            continue
        _, start_at, seconds = order
        time.sleep(max(0.0, start_at - time.time()))
        deadline = time.perf_counter() + seconds
        if save == "create":
            pipe.send(_create_until(app, deadline))
        else:
            pipe.send(_play_until(app, games, deadline))
    services.close()


def _create_until(app: GameLedger, deadline: float) -> tuple[int, int]:
    saves = 0
    while time.perf_counter() < deadline:
        app.create_game("azul", PLAYERS)
        saves += 1
    return saves, saves


def _play_until(app: GameLedger, games: list[PreparedGame], deadline: float) -> tuple[int, int]:
    saves = events = 0
    for game in games:
        for step in game.script.steps:
            if time.perf_counter() >= deadline:
                return saves, events
            body = json.loads(step.body)
            played = app.play(
                game.game_id, game.tokens[step.seat], body["move"], body["expected_version"]
            )
            saves += 1
            events += played.events
    raise RuntimeError("a writer ran out of prepared games: raise --move-games")


class Writers:
    """Long-lived writer processes, started once, given work in each round."""

    def __init__(
        self, count: int, dbname: str, save: str, scripts: list[Script], shards: int = 1
    ) -> None:
        # The schema first, from this process alone (the writers then find it current).
        build_services(writer_settings(dbname, shards)).close()
        context = multiprocessing.get_context("fork")
        self.pipes: list[Connection] = []
        self.processes: list[Any] = []
        for _ in range(count):
            parent, child = context.Pipe()
            process = context.Process(target=_writer, args=(child, dbname, save, scripts, shards))
            process.start()
            self.pipes.append(parent)
            self.processes.append(process)
        for index in range(count):
            self._receive(index)

    def _receive(self, index: int) -> Any:
        """The next answer of writer ``index``; an error if it died instead."""
        pipe, process = self.pipes[index], self.processes[index]
        while not pipe.poll(1.0):
            if not process.is_alive():
                raise RuntimeError(f"writer {index} exited with {process.exitcode}")
        return pipe.recv()

    def run(self, count: int, seconds: float, move_games: int) -> tuple[int, int]:
        """``count`` writers at once for ``seconds``: saves and events written."""
        pipes = self.pipes[:count]
        if move_games:
            for pipe in pipes:
                pipe.send(("prepare", move_games))
            for index in range(count):
                self._receive(index)
        start_at = time.time() + 0.3
        for pipe in pipes:
            pipe.send(("run", start_at, seconds))
        saves = events = 0
        for index in range(count):
            done, written = self._receive(index)
            saves += done
            events += written
        return saves, events

    def close(self) -> None:
        """Stop every writer this object started, and wait for them (their connections
        closed)."""
        for pipe, process in zip(self.pipes, self.processes, strict=True):
            if process.is_alive():
                pipe.send(None)
        for process in self.processes:
            process.join(timeout=30)
        for process in self.processes:
            process.join(timeout=30)
            if process.is_alive():
                process.terminate()


# Lock waits


class LockSampler:
    """Counts, every 50 ms, the backends of the database waiting on a lock."""

    def __init__(self, dbname: str) -> None:
        self.dbname = dbname
        self.samples: list[int] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample)

    def __enter__(self) -> LockSampler:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def _sample(self) -> None:
        with connect(self.dbname) as conn:
            while not self._stop.wait(0.05):
                row = conn.execute(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE datname = %s AND wait_event_type = 'Lock'",
                    (self.dbname,),
                ).fetchone()
                self.samples.append(int(row[0]) if row else 0)

    @property
    def mean(self) -> float:
        """Mean backends waiting on a lock over the samples."""
        return statistics.mean(self.samples) if self.samples else 0.0


# pgbench


def event_shape(dbname: str, after_version: int) -> tuple[str, int]:
    """The most common topic and the mean state size in bytes of the events written so far
    past ``after_version`` of their game (0: every event; a prepared game's start version:
    the events of moves)."""
    with connect(dbname) as conn:
        row = conn.execute(
            "SELECT topic, count(*) FROM gameledger_events WHERE originator_version > %s "
            "GROUP BY topic ORDER BY count(*) DESC LIMIT 1",
            (after_version,),
        ).fetchone()
        size = conn.execute(
            "SELECT avg(length(state)) FROM gameledger_events WHERE originator_version > %s",
            (after_version,),
        ).fetchone()
    assert row is not None and size is not None
    return str(row[0]), round(float(size[0]))


def sharded_ddl(tables: int) -> str:
    """Tables made like the bench table, for the locked inserts spread over ``tables``."""
    return "".join(DDL.replace(BENCH_TABLE, f"{BENCH_TABLE}_{n}") for n in range(1, tables + 1))


def sharded_locked_script(folder: Path, locked: str, tables: int) -> Path:
    """The locked inserts, each transaction into one of ``tables`` tables drawn at random:
    the table lock's ceiling when the event store is in that many parts (no Python)."""
    lines = [f"\\set t random(1, {tables})"]
    for n in range(1, tables + 1):
        lines.append(("\\if" if n == 1 else "\\elif") + f" :t = {n}")
        lines.append(locked.replace(BENCH_TABLE, f"{BENCH_TABLE}_{n}").rstrip("\n"))
    lines.append("\\endif")
    path = folder / f"locked_{tables}.sql"
    path.write_text("\n".join(lines) + "\n")
    return path


def pgbench_scripts(folder: Path, topic: str, size: int, rows: int) -> dict[str, Path]:
    """The two pgbench scripts: plain inserts, and inserts behind the library's lock. (A
    colon would start a pgbench variable: the topic is written with dots, same length.)"""
    state = "\\x" + "ab" * size
    topic = topic.replace(":", ".")
    values = ", ".join(f"(gen_random_uuid(), 1, '{topic}', '{state}'::bytea)" for _ in range(rows))
    insert = (
        f"INSERT INTO {BENCH_TABLE} (originator_id, originator_version, topic, state) "
        f"VALUES {values};"
    )
    plain = folder / "plain.sql"
    plain.write_text(insert + "\n")
    locked = folder / "locked.sql"
    locked.write_text(
        "BEGIN;\n"
        "SET LOCAL lock_timeout = '5s';\n"
        f"LOCK TABLE {BENCH_TABLE} IN EXCLUSIVE MODE;\n"
        f"NOTIFY {BENCH_TABLE};\n"
        f"{insert}\n"
        "COMMIT;\n"
    )
    return {"plain": plain, "locked": locked}


def pgbench(dbname: str, script: Path, clients: int, seconds: float) -> float:
    """Transactions per second of ``script`` with ``clients`` clients."""
    pg = server_settings(dbname)
    done = subprocess.run(
        [
            "pgbench",
            "-h",
            pg.host,
            "-p",
            str(pg.port),
            "-U",
            pg.user,
            "-n",
            "-c",
            str(clients),
            "-j",
            str(min(clients, 2)),
            "-T",
            str(max(1, round(seconds))),
            "-f",
            str(script),
            dbname,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    output = done.stdout
    if done.returncode:
        raise RuntimeError(f"pgbench failed ({done.returncode}):\n{done.stderr[-2000:]}")
    found = re.search(r"tps = ([\d.]+) \(without initial connection time\)", output)
    if not found:
        raise RuntimeError(f"no tps in pgbench's output:\n{output}")
    return float(found.group(1))


# The run


def parse_args() -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writers", default="1,4,8,16", help="writer counts, comma-separated")
    parser.add_argument("--duration", type=float, default=4.0, help="seconds per measurement")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--save", choices=("create", "moves"), default="create")
    parser.add_argument("--move-games", type=int, default=8, help="games per writer (moves)")
    parser.add_argument("--pgbench-clients", type=int, default=16)
    parser.add_argument("--shards", default="1,2,4", help="parts of the event store")
    args = parser.parse_args()
    args.writers = [int(n) for n in args.writers.split(",")]
    args.shards = [int(n) for n in args.shards.split(",") if int(n) > 1]
    return args


def main() -> None:
    """Alternate pgbench and the writers for several rounds; print a table and a JSON line."""
    exit_on_sigterm()
    args = parse_args()
    began = time.perf_counter()
    scripts = record_scripts(4, PLAYERS) if args.save == "moves" else []
    move_games = args.move_games if args.save == "moves" else 0
    most = max(args.writers)
    cases = ["pgbench plain", "pgbench with the lock", *[f"{n} writers" for n in args.writers]]
    cases += [f"pgbench with the lock, {n} tables" for n in args.shards]
    cases += [f"{most} writers, {n} shards" for n in args.shards]
    rates: dict[str, list[Rate]] = {case: [] for case in cases}
    with ExitStack() as stack:
        dbname = stack.enter_context(temporary_database("bench_lock"))
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        writers = Writers(most, dbname, args.save, scripts)
        stack.callback(writers.close)
        # The stores in parts, each on its database; its writers are started for each
        # measurement and stopped after it (all at once would hold too many connections).
        databases = {
            shards: stack.enter_context(temporary_database(f"bench_lock_{shards}"))
            for shards in args.shards
        }
        # Some saves of the kind measured, to size pgbench's rows like them.
        saves, events = writers.run(1, 1.0, move_games)
        rows = max(1, round(events / saves))
        topic, size = event_shape(dbname, scripts[0].start_version if scripts else 0)
        with connect(dbname) as conn:
            conn.execute(DDL)
            if args.shards:
                conn.execute(sharded_ddl(max(args.shards)))
        scripts_sql = pgbench_scripts(Path(tmp), topic, size, rows)
        for tables in args.shards:
            locked = scripts_sql["locked"].read_text()
            scripts_sql[f"locked {tables}"] = sharded_locked_script(Path(tmp), locked, tables)
        for round_number in range(args.rounds):
            for case in cases:
                shards = int(case.split()[2]) if case.endswith(" shards") else 1
                database = databases.get(shards, dbname)
                pool = (
                    writers if shards == 1 else Writers(most, database, args.save, scripts, shards)
                )
                with LockSampler(database) as sampler:
                    if case.startswith("pgbench"):
                        kind = {"pgbench plain": "plain", "pgbench with the lock": "locked"}.get(
                            case, f"locked {case.split()[-2]}"
                        )
                        tps = pgbench(
                            dbname, scripts_sql[kind], args.pgbench_clients, args.duration
                        )
                        rate = Rate(tps, tps * rows, 0.0)
                    else:
                        count = int(case.split()[0])
                        saves, events = pool.run(count, args.duration, move_games)
                        rate = Rate(saves / args.duration, events / args.duration, 0.0)
                if pool is not writers:
                    pool.close()
                rates[case].append(
                    Rate(rate.saves_per_s, rate.events_per_s, round(sampler.mean, 2))
                )
            print(f"round {round_number + 1} of {args.rounds} done", file=sys.stderr)
    report(
        args,
        rates=rates,
        topic=topic,
        size=size,
        rows=rows,
        seconds=time.perf_counter() - began,
    )


def report(
    args: argparse.Namespace,
    *,
    rates: dict[str, list[Rate]],
    topic: str,
    size: int,
    rows: int,
    seconds: float,
) -> None:
    """The markdown table and the JSON line."""
    baseline = statistics.median(r.saves_per_s for r in rates["pgbench plain"])
    when = datetime.now(UTC).isoformat(timespec="seconds")
    what = "new Azul games (one event each)" if args.save == "create" else "Azul moves"
    print(
        f"PostgreSQL event store, saves of {what}, against pgbench "
        f"({args.pgbench_clients} clients, {rows} row(s) of {size} bytes per transaction, "
        f"topic {topic}); {args.duration:g} s per measurement, {args.rounds} alternating "
        f"rounds, medians; {when}"
    )
    print()
    print(
        "| case | saves or transactions /s | events or rows /s | / pgbench plain | "
        "backends waiting on a lock (mean) |"
    )
    print("|---|---|---|---|---|")
    summary: dict[str, Any] = {}
    for case, measured in rates.items():
        median = statistics.median(r.saves_per_s for r in measured)
        events = statistics.median(r.events_per_s for r in measured)
        waiting = statistics.median(r.lock_waiting for r in measured)
        ratio = median / baseline
        print(f"| {case} | {median:,.0f} | {events:,.0f} | **{ratio:.2f}x** | {waiting:.1f} |")
        summary[case] = {
            "median": round(median, 1),
            "best": round(max(r.saves_per_s for r in measured), 1),
            "events_per_s_median": round(events, 1),
            "ratio_to_pgbench_plain": round(ratio, 3),
            "lock_waiting_mean": waiting,
            "rounds": [round(r.saves_per_s, 1) for r in measured],
        }
    print(
        json.dumps(
            {
                "bench": "pg_lock",
                "date": when,
                "command": " ".join(["bench/pg_lock.py", *sys.argv[1:]]),
                "save": args.save,
                "duration_s": args.duration,
                "rounds": args.rounds,
                "pgbench_clients": args.pgbench_clients,
                "row_bytes": size,
                "rows_per_transaction": rows,
                "cases": summary,
                "seconds": round(seconds, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
