"""What one save of the event store costs the client on PostgreSQL (issue 12, part 5):
processor and wall time per save of one event through the service's recorder
(``infrastructure/pgrecorder.py``: one statement calling the function that takes the table's
lock, NOTIFYs and inserts), against the library's own save of the same rows
(``PostgresApplicationRecorder.insert_events``: ``BEGIN``, the lock, ``NOTIFY``, the INSERT
and ``COMMIT`` in a pipeline) and a one-statement query (``SELECT 1``) through the same pool,
in the same run, in a database made for the run.

    .venv/bin/python bench/pg_save.py [--saves 2000]
"""

from __future__ import annotations

import argparse
import json
import os
import time
import uuid
from collections.abc import Callable

from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder
from pgdb import exit_on_sigterm, service_env, temporary_database

from infrastructure.config import Settings
from infrastructure.container import build_services

STATE = b'{"seat": 1, "factory": 3, "colour": "blue", "line": 2}' * 4
WARM = 100


def per_call(calls: int, call: Callable[[int], None]) -> tuple[float, float]:
    """CPU and wall microseconds per call of ``call(n)`` for n in range(calls)."""
    cpu, wall = time.process_time(), time.perf_counter()
    for n in range(calls):
        call(n)
    return (
        (time.process_time() - cpu) / calls * 1e6,
        (time.perf_counter() - wall) / calls * 1e6,
    )


def main() -> None:
    """Measure and print the table and a JSON line."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--saves", type=int, default=2000)
    args = parser.parse_args()
    exit_on_sigterm()
    with temporary_database("pgsave") as dbname:
        services = build_services(Settings.from_env({**os.environ, **service_env(dbname)}))
        try:
            recorder = services.app.stores[0].recorder
            datastore = services.storage.postgres
            assert datastore is not None
            events = [
                StoredEvent(uuid.uuid4(), 1, "bench:Saved", STATE) for _ in range(args.saves + WARM)
            ]
            for event in events[:WARM]:
                recorder.insert_events([event])

            library = PostgresApplicationRecorder(datastore, events_table_name="bench_events")
            library.create_table()
            more = [
                StoredEvent(uuid.uuid4(), 1, "bench:Saved", STATE) for _ in range(args.saves + WARM)
            ]
            for event in more[:WARM]:
                library.insert_events([event])

            def save(n: int) -> None:
                recorder.insert_events([events[WARM + n]])

            def library_save(n: int) -> None:
                library.insert_events([more[WARM + n]])

            def select(_: int) -> None:
                with datastore.get_connection() as conn, conn.cursor() as cursor:
                    cursor.execute(b"SELECT 1", prepare=True)
                    cursor.fetchall()

            save_cpu, save_wall = per_call(args.saves, save)
            library_cpu, library_wall = per_call(args.saves, library_save)
            select_cpu, select_wall = per_call(args.saves, select)
        finally:
            services.close()
    print(f"one save on PostgreSQL, {args.saves} saves of one event")
    print("| call | CPU µs | wall µs |")
    print("|---|---|---|")
    print(f"| the service's save (one statement) | {save_cpu:,.0f} | {save_wall:,.0f} |")
    print(f"| the library's save (a pipeline) | {library_cpu:,.0f} | {library_wall:,.0f} |")
    print(f"| SELECT 1 | {select_cpu:,.0f} | {select_wall:,.0f} |")
    print(
        json.dumps(
            {
                "bench": "pg_save",
                "save_cpu_us": round(save_cpu, 1),
                "save_wall_us": round(save_wall, 1),
                "library_cpu_us": round(library_cpu, 1),
                "library_wall_us": round(library_wall, 1),
                "select_cpu_us": round(select_cpu, 1),
                "select_wall_us": round(select_wall, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
