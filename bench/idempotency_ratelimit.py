"""The per-request cost of rate limits and of ``Idempotency-Key`` (issue 13, parts 3 and 6), as
ratios in one run, in process (Flask's test client, no socket), on a SQLite store:

* **view** — ``GET /api/v1/games/{id}``: rate limits off, on with ``memory://``, on with Redis
  (``redis://127.0.0.1:6379``, skipped when it does not answer);
* **create** — ``POST /api/v1/games``: without a key, with a new key each time (a claim and an
  answer written to ``<stem>-idempotency.db``), and the same key again (a replay); limits off,
  so that only the key's cost is measured.

Each case runs ``--rounds`` rounds of ``--requests`` requests, alternating the variants; the
table gives each variant's median microseconds per request and its ratio to the first variant.

    .venv/bin/python bench/idempotency_ratelimit.py [--requests 300] [--rounds 5]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import redis
from flask.testing import FlaskClient

from api.app import create_app
from infrastructure.config import RateLimits, Settings
from infrastructure.container import Services, build_services

REDIS = "redis://127.0.0.1:6379"
HIGH = RateLimits(reads="1000000/minute", writes="1000000/minute", creates="1000000/minute")


def client(services: Services, limits: RateLimits) -> FlaskClient:
    settings = dataclasses.replace(services.settings, rate_limits=limits)
    return create_app(dataclasses.replace(services, settings=settings), follow=False).test_client()


def timed(request: Callable[[], object], count: int) -> float:
    """Microseconds per request over ``count`` requests."""
    start = time.perf_counter()
    for _ in range(count):
        request()
    return (time.perf_counter() - start) / count * 1e6


def measure(variants: dict[str, Callable[[], object]], count: int, rounds: int) -> dict[str, float]:
    found: dict[str, list[float]] = {name: [] for name in variants}
    for request in variants.values():
        timed(request, max(1, count // 10))  # warm
    for _ in range(rounds):
        for name, request in variants.items():
            found[name].append(timed(request, count))
    return {name: statistics.median(values) for name, values in found.items()}


def report(case: str, medians: dict[str, float]) -> None:
    base = next(iter(medians.values()))
    for name, value in medians.items():
        print(f"| {case} | {name} | {value:,.0f} | {value / base:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        services = build_services(Settings(store="sqlite", sqlite_path=Path(data) / "b.db"))
        try:
            off = client(services, dataclasses.replace(HIGH, enabled=False))
            game = off.post("/api/v1/games", json={"game": "azul", "players": 2}).json["id"]
            path = f"/api/v1/games/{game}"
            memory = client(services, HIGH)
            reads: dict[str, Callable[[], object]] = {
                "limits off": lambda: off.get(path),
                "limits on, memory://": lambda: memory.get(path),
            }
            try:
                redis.Redis.from_url(REDIS, socket_connect_timeout=1).ping()
                shared = client(services, dataclasses.replace(HIGH, storage_uri=REDIS))
                reads["limits on, redis://"] = lambda: shared.get(path)
            except redis.RedisError:
                print("(Redis not reachable: its row is skipped)", file=sys.stderr)
            body = {"game": "azul", "players": 2}
            same = {"Idempotency-Key": str(uuid.uuid4())}
            off.post("/api/v1/games", json=body, headers=same)
            creates: dict[str, Callable[[], object]] = {
                "no key": lambda: off.post("/api/v1/games", json=body),
                "a new key each time": lambda: off.post(
                    "/api/v1/games", json=body, headers={"Idempotency-Key": str(uuid.uuid4())}
                ),
                "the same key (replay)": lambda: off.post("/api/v1/games", json=body, headers=same),
            }
            print("| case | variant | µs per request | ratio |")
            print("|---|---|---|---|")
            report("view (GET)", measure(reads, args.requests, args.rounds))
            report("create (POST)", measure(creates, args.requests // 3, args.rounds))
        finally:
            services.close()


if __name__ == "__main__":
    main()
