"""Views at any version of long games, flat in the game's length (issue 12, parts 7 and 10).

The aim (issue 12, part 7): "views at any version of a 20,000-event game ≤ 2 ms median, flat
in game length (a benchmark at 1k, 5k, 20k events)". For each store (a SQLite file, and a
PostgreSQL database made for the run and dropped after it) and each size N, one game of at
least N events is built through the use cases (not HTTP), then:

* **a view at a version**, for ``--samples`` versions spread evenly over the game (the latest
  version left out: it is kept in memory), timed in a random order, the store's games taking
  turns in ``--rounds`` rounds (so that the machine's drift falls on every size alike), each
  view on a **cold**
  service: a new ``GameLedger`` on the same store, so that no game is cached (the view then
  loads the latest game too, as a process's first request for the game does); then the same
  version again on that service (**warm**: the latest game is now cached, the old version
  is not — it is never cached, and loads from the snapshot before it);
* **the view of the latest version**, cold (a new ``GameLedger``) and warm (the view kept
  serialised with the cached game);
* **the snapshots' size** in bytes: the first and the last of the game, and the largest (a
  snapshot holds the state and what the game needs to go on, not its line of play);
* **the baseline**: ``bench/calibration.py``'s fixed loop, best of 3, timed in every round
  before each game's views (ratio = median view / the calibrations' median); and the median
  against the smallest game's on the same store (the flatness in length, both measured in
  this run).

How the games are built (``--game``):

* ``risk`` (default): classic Risk for 6 players, each move chosen by the game's own bot
  (``GameLedger.bot_move``) for a seat drawn from ``whose_turn`` and made with
  ``GameLedger.play`` at the version seen, until the game has N events. A single classic game
  of 6 bots often runs past 20,000 events: the first seed whose game does (found by playing
  the engine alone, a second or two) is used for every size, so the smaller games are the
  beginning of the largest one and differ from it only in length. No undo, so every view
  starts from the snapshot before its version.
* ``undo``: a 2-player Azul game with consent undo, lengthened by taking back its last four
  turns again and again (as ``tests/integration/test_write_path.py`` ``long_game`` does). A
  view at a version whose nearest snapshot lies before an undo is replayed from the game's
  first event (docs/architecture.md, "The flow of a move"); the tool counts these versions
  and times them apart. Each undo replays the game from its first event too, so building is
  quadratic: use sizes up to about 5,000.

    .venv/bin/python bench/versions.py [--sizes 1000 5000 20000] [--samples 200]
        [--rounds 5] [--stores sqlite,postgres] [--game risk|undo]

Prints a markdown table and one JSON line (command, date, figures).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID

from calibration import calibration  # bench/calibration.py, the shared baseline
from pgdb import exit_on_sigterm, service_settings, temporary_database

from application.service import GameLedger
from application.store import GameStore
from domain.bots import choose_move
from domain.game import event_topic
from domain.randomness import RandomStream
from domain.registry import rules_for
from infrastructure.config import Settings
from infrastructure.container import Services, build_services

RISK_PLAYERS = 6
RISK_OPTIONS = {"ruleset": "classic"}
UNDO_TURNS = 4
"""The turns the ``undo`` game takes back each time (and plays again before the next)."""
TURNS_UNDONE = event_topic("azul", "TurnsUndone")


def risk_secret(seed: int) -> str:
    """The secret seed of the Risk game of bot seed ``seed``."""
    return f"bench-versions-{seed}"


def risk_seed(events: int, limit: int = 2000) -> int:
    """The first bot seed whose 6-player classic Risk game reaches ``events`` events as the
    store counts them (creation, one per seat, the opening, then per move ``MoveMade`` and
    the rules' events), found by playing the engine alone the way :func:`risk_game` plays
    through the use cases."""
    rules = rules_for("risk")
    for seed in range(limit):
        secret = risk_secret(seed)
        state = rules.setup(RISK_PLAYERS, rules.normalise_options(RISK_OPTIONS))
        count = 1 + RISK_PLAYERS
        for event in rules.begin(state, RandomStream(secret, 0)):
            state = rules.evolve(state, event)
            count += 1
        bot = random.Random(seed)
        while count < events and (acting := rules.current_players(state)):
            seat = bot.choice(acting)
            move = choose_move(rules, state, seat, bot)
            count += 1
            for event in rules.apply(
                state, seat, move, RandomStream(secret, state.random_position)
            ):
                state = rules.evolve(state, event)
                count += 1
        if count >= events:
            return seed
    raise SystemExit(f"no classic Risk game of the first {limit} seeds reaches {events} events")


def risk_game(app: GameLedger, seed: int, events: int) -> UUID:
    """A 6-player classic Risk game played by the game's bot through the use cases until it
    has at least ``events`` events."""
    game_id = app.create_game("risk", RISK_PLAYERS, dict(RISK_OPTIONS), seed=risk_secret(seed))
    tokens = [app.join(game_id, f"p{n}", n).token for n in range(RISK_PLAYERS)]
    bot = random.Random(seed)
    while True:
        version, seats = app.whose_turn(game_id)
        if version >= events:
            return game_id
        if not seats:
            raise SystemExit(
                f"the Risk game of seed {seed} ended at {version} events, before {events}: "
                "the engine and the use cases did not play the same game"
            )
        seat = bot.choice(seats)
        app.play(game_id, tokens[seat], app.bot_move(game_id, tokens[seat], bot), version)


def undo_game(app: GameLedger, events: int) -> UUID:
    """A 2-player Azul game with consent undo, lengthened past ``events`` events: random
    moves, and every :data:`UNDO_TURNS` turns the player of the earliest of them takes them
    back with the other's consent."""
    game_id = app.create_game("azul", 2, settings={"undo": "consent"}, seed="bench-versions")
    tokens = [app.join(game_id, f"p{n}", n).token for n in range(2)]
    bot = random.Random(1)
    line: list[int] = []  # the seat of each turn on the line of play

    def step() -> None:
        version, seats = app.whose_turn(game_id)
        if not seats:
            raise SystemExit(f"the undo game ended at {version} events, before {events}")
        seat = bot.choice(seats)
        moves = app.legal_moves(game_id, tokens[seat])["moves"]
        app.play(game_id, tokens[seat], bot.choice(moves)["move"], version)
        line.append(seat)

    for _ in range(UNDO_TURNS):
        step()
    while app.whose_turn(game_id)[0] < events:
        for _ in range(UNDO_TURNS):
            step()
        asker = line[-UNDO_TURNS]
        app.request_undo(game_id, tokens[asker], turns=UNDO_TURNS)
        app.answer_undo(game_id, tokens[1 - asker], True)
        del line[-UNDO_TURNS:]
    return game_id


@dataclass
class Figures:
    """What was measured on one game."""

    store: str
    size: int
    events: int
    build_s: float
    snapshots: int
    snapshot_first: int
    snapshot_last: int
    snapshot_max: int
    calibration_ms: list[float] = field(default_factory=list)
    cold_ms: list[float] = field(default_factory=list)
    warm_ms: list[float] = field(default_factory=list)
    versions: list[int] = field(default_factory=list)
    replayed: list[bool] = field(default_factory=list)
    latest_cold_ms: float = 0.0
    latest_warm_ms: float = 0.0
    rss_mb: float = 0.0

    def summary(self) -> dict[str, Any]:
        """The figures as JSON-ready numbers."""
        slowest = max(range(len(self.cold_ms)), key=self.cold_ms.__getitem__)
        out: dict[str, Any] = {
            "store": self.store,
            "size": self.size,
            "events": self.events,
            "build_s": round(self.build_s, 2),
            "snapshots": self.snapshots,
            "snapshot_bytes_first": self.snapshot_first,
            "snapshot_bytes_last": self.snapshot_last,
            "snapshot_bytes_max": self.snapshot_max,
            "calibration_ms": round(statistics.median(self.calibration_ms), 3),
            "samples": len(self.cold_ms),
            "cold_median_ms": round(statistics.median(self.cold_ms), 3),
            "cold_p95_ms": round(percentile(self.cold_ms, 95), 3),
            "warm_median_ms": round(statistics.median(self.warm_ms), 3),
            "warm_p95_ms": round(percentile(self.warm_ms, 95), 3),
            "slowest_ms": round(self.cold_ms[slowest], 3),
            "slowest_version": self.versions[slowest],
            "latest_cold_ms": round(self.latest_cold_ms, 3),
            "latest_warm_ms": round(self.latest_warm_ms, 3),
            "cold_median_per_calibration": round(
                statistics.median(self.cold_ms) / statistics.median(self.calibration_ms), 4
            ),
            "rss_mb": round(self.rss_mb, 1),
        }
        if any(self.replayed):
            for name, values in (("cold", self.cold_ms), ("warm", self.warm_ms)):
                replays = [ms for ms, r in zip(values, self.replayed, strict=True) if r]
                others = [ms for ms, r in zip(values, self.replayed, strict=True) if not r]
                out[f"replayed_{name}_median_ms"] = round(statistics.median(replays), 3)
                if others:
                    out[f"from_snapshot_{name}_median_ms"] = round(statistics.median(others), 3)
            out["replayed_versions"] = sum(self.replayed)
        return out


def percentile(values: list[float], pct: float) -> float:
    """The ``pct``-th percentile (nearest rank)."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(pct / 100 * len(ordered)) - 1))
    return ordered[rank]


def calibration_ms() -> float:
    """The calibration loop's best of 3, in ms."""
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        calibration()
        best = min(best, time.perf_counter() - started)
    return best * 1000


def rss_mb() -> float:
    """This process's resident memory now, in MB (Linux)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * resource.getpagesize() / 2**20


def spread(last: int, samples: int) -> list[int]:
    """``samples`` versions spread evenly over ``1 .. last - 1`` (the latest left out)."""
    top = last - 1
    if samples >= top:
        return list(range(1, top + 1))
    return sorted({1 + round(i * (top - 1) / (samples - 1)) for i in range(samples)})


def replayed_versions(store: GameStore, game_id: UUID, versions: list[int]) -> list[bool]:
    """For each version, whether its view replays the game from the first event: an undo
    lies between it and the snapshot before it (docs/architecture.md)."""
    assert store.snapshots is not None
    snapshots = [s.originator_version for s in store.snapshots.recorder.select_events(game_id)]
    undos = [
        e.originator_version
        for e in store.recorder.select_events(game_id)
        if e.topic == TURNS_UNDONE
    ]
    out = []
    for version in versions:
        base = max((s for s in snapshots if s <= version), default=0)
        out.append(any(base < u <= version for u in undos))
    return out


def start(services: Services, store_name: str, size: int, game_id: UUID, build_s: float) -> Figures:
    """The figures of one built game before any view is timed: its length and snapshots."""
    [store] = services.app.stores
    assert store.snapshots is not None
    snaps = list(store.snapshots.recorder.select_events(game_id))
    return Figures(
        store=store_name,
        size=size,
        events=services.app.view(game_id)["version"],
        build_s=build_s,
        snapshots=len(snaps),
        snapshot_first=len(snaps[0].state),
        snapshot_last=len(snaps[-1].state),
        snapshot_max=max(len(s.state) for s in snaps),
    )


def time_versions(
    stores: list[GameStore], game_id: UUID, versions: list[int], into: Figures
) -> None:
    """Time the view at each version on a cold service, then again on it (warm)."""
    for version in versions:
        cold = GameLedger(stores)
        started = time.perf_counter()
        cold.view(game_id, version=version)
        middle = time.perf_counter()
        cold.view(game_id, version=version)
        into.cold_ms.append((middle - started) * 1000)
        into.warm_ms.append((time.perf_counter() - middle) * 1000)
        into.versions.append(version)


def time_latest(stores: list[GameStore], game_id: UUID, into: Figures, repeat: int = 20) -> None:
    """Time the view of the latest version on a cold service, then again (kept serialised)."""
    cold_ms, warm_ms = [], []
    for _ in range(repeat):
        cold = GameLedger(stores)
        started = time.perf_counter()
        cold.view(game_id)
        middle = time.perf_counter()
        cold.view(game_id)
        cold_ms.append((middle - started) * 1000)
        warm_ms.append((time.perf_counter() - middle) * 1000)
    into.latest_cold_ms = statistics.median(cold_ms)
    into.latest_warm_ms = statistics.median(warm_ms)


def measure_store(
    services: Services,
    store_name: str,
    games: dict[int, tuple[UUID, float]],
    *,
    samples: int,
    rounds: int,
) -> list[Figures]:
    """Time the views of every game of one store, the games taking turns in ``rounds``
    rounds (so that the machine's drift falls on every size alike), each round with its own
    calibration."""
    stores = services.app.stores
    [store] = stores
    figures = {
        size: start(services, store_name, size, game_id, build_s)
        for size, (game_id, build_s) in games.items()
    }
    versions: dict[int, list[int]] = {}
    for size, (game_id, _) in games.items():
        versions[size] = spread(figures[size].events, samples)
        random.Random(size).shuffle(versions[size])
        GameLedger(stores).view(game_id, version=versions[size][0])  # code paths warmed
    for round_number in range(rounds):
        for size, (game_id, _) in games.items():
            figures[size].calibration_ms.append(calibration_ms())
            time_versions(stores, game_id, versions[size][round_number::rounds], figures[size])
    for size, (game_id, _) in games.items():
        time_latest(stores, game_id, figures[size])
        figures[size].replayed = replayed_versions(store, game_id, figures[size].versions)
        figures[size].rss_mb = rss_mb()
    return list(figures.values())


@contextmanager
def opened(store: str) -> Iterator[Services]:
    """The services (write side only) on a fresh store of kind ``store``, closed and dropped
    afterwards."""
    if store == "sqlite":
        with tempfile.TemporaryDirectory() as scratch:
            services = build_services(
                Settings(
                    store="sqlite",
                    sqlite_path=Path(scratch) / "versions.db",
                    embedded_projections=False,
                )
            )
            try:
                yield services
            finally:
                services.close()
        return
    with temporary_database("bench_versions") as dbname:
        services = build_services(service_settings(dbname))
        try:
            yield services
        finally:
            services.close()


def main() -> None:
    """Build the games, time their views, print the table and a JSON line."""
    exit_on_sigterm()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000, 20000])
    parser.add_argument("--samples", type=int, default=200, help="versions timed per game")
    parser.add_argument("--rounds", type=int, default=5, help="the games take turns")
    parser.add_argument("--stores", default="sqlite,postgres", help="comma-separated")
    parser.add_argument("--game", choices=["risk", "undo"], default="risk")
    args = parser.parse_args()
    stores = [s for s in args.stores.split(",") if s]
    sizes = sorted(args.sizes)
    began = time.perf_counter()
    seed = risk_seed(sizes[-1]) if args.game == "risk" else None
    if seed is not None:
        how = (
            f"6-player classic Risk played by its bot through the use cases (bot seed {seed}, "
            f"the first whose game reaches {sizes[-1]:,} events; smaller games are its "
            "beginning)"
        )
    else:
        how = "2-player Azul with consent undo, lengthened by taking back 4 turns again and again"
    print(f"games: {how}", file=sys.stderr)
    results: list[Figures] = []
    for store_name in stores:
        with opened(store_name) as services:
            games: dict[int, tuple[UUID, float]] = {}
            for size in sizes:
                started = time.perf_counter()
                if seed is not None:
                    game_id = risk_game(services.app, seed, size)
                else:
                    game_id = undo_game(services.app, size)
                games[size] = (game_id, time.perf_counter() - started)
                print(f"{store_name} {size}: built in {games[size][1]:.1f} s", file=sys.stderr)
            results.extend(
                measure_store(services, store_name, games, samples=args.samples, rounds=args.rounds)
            )
    when = datetime.now(UTC).isoformat(timespec="seconds")
    command = " ".join(["bench/versions.py", *sys.argv[1:]])
    print(f"{command} — {when}; games: {how}; {args.samples} versions per game")
    print()
    print(
        "| store | events | snapshot bytes first → last (max) | view at a version, cold: "
        "median / p95 ms | warm: median / p95 ms | slowest (version) | latest cold / warm ms "
        "| calibration ms | median / calibration | median / smallest game's |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    summaries = [f.summary() for f in results]
    for row in summaries:
        smallest = next(
            s for s in summaries if s["store"] == row["store"] and s["size"] == sizes[0]
        )
        row["cold_median_per_smallest"] = round(
            row["cold_median_ms"] / smallest["cold_median_ms"], 3
        )
        print(
            f"| {row['store']} | {row['events']:,} | {row['snapshot_bytes_first']:,} → "
            f"{row['snapshot_bytes_last']:,} ({row['snapshot_bytes_max']:,}) | "
            f"**{row['cold_median_ms']:.2f}** / {row['cold_p95_ms']:.2f} | "
            f"{row['warm_median_ms']:.2f} / {row['warm_p95_ms']:.2f} | "
            f"{row['slowest_ms']:.2f} (v{row['slowest_version']}) | "
            f"{row['latest_cold_ms']:.2f} / {row['latest_warm_ms']:.3f} | "
            f"{row['calibration_ms']:.1f} | {row['cold_median_per_calibration']:.3f} | "
            f"{row['cold_median_per_smallest']:.2f} |"
        )
    replays = [s for s in summaries if "replayed_versions" in s]
    if replays:
        print()
        print(
            "| store | events | versions replayed from the first event | their median ms, "
            "cold / warm | the other versions' median ms, cold / warm |"
        )
        print("|---|---|---|---|---|")
        nan = float("nan")
        for row in replays:
            print(
                f"| {row['store']} | {row['events']:,} | {row['replayed_versions']} of "
                f"{row['samples']} | {row['replayed_cold_median_ms']:.2f} / "
                f"{row['replayed_warm_median_ms']:.2f} | "
                f"{row.get('from_snapshot_cold_median_ms', nan):.2f} / "
                f"{row.get('from_snapshot_warm_median_ms', nan):.2f} |"
            )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print()
    print(f"peak RSS of the run {peak:.0f} MB; {time.perf_counter() - began:.0f} s in all")
    print(
        json.dumps(
            {
                "bench": "versions",
                "date": when,
                "command": command,
                "game": args.game,
                "risk_seed": seed,
                "samples": args.samples,
                "games": summaries,
                "peak_rss_mb": round(peak, 1),
                "seconds": round(time.perf_counter() - began, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
