"""Appends to the transparency log are serialised across processes (docs/audit.md, "The
transparency log"; docs/operations.md, "Transparency log"): on SQLite by ``BEGIN IMMEDIATE``, on
PostgreSQL by an advisory transaction lock. Real processes append at once and the log holds
every checkpoint once, with no gap, every stored head being the tree's at its size; followers
of several processes (here: several sets of services, each with its own connections) race to
checkpoint the same games' ends and each end is logged once."""

from __future__ import annotations

import multiprocessing
import threading
from typing import Any

import pytest

from application.checkpoints import canonical_json, sign_checkpoint
from application.signing import Keyring
from application.tlog import append
from domain.merkle import MemoryTree
from infrastructure.config import Settings
from infrastructure.container import build_services
from infrastructure.storage import Storage
from tests.application.test_verification import finished
from tests.integration.test_transparency_log import check_log, every_entry

pytestmark = pytest.mark.parametrize(
    "store", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)

PROCESSES = 4
BATCHES = 6
PER_BATCH = 3


def _append(settings: Settings, worker: int, ready: Any) -> None:
    """A process appending its own checkpoints, a batch per transaction, once all are ready."""
    storage = Storage(settings)
    keyring = Keyring.generate()
    store = storage.tlog_store()
    ready.wait(timeout=60)
    try:
        for batch in range(BATCHES):
            checkpoints = [
                sign_checkpoint(
                    keyring,
                    f"00000000-0000-0000-0000-{worker:06d}{batch:06d}",
                    n + 1,
                    f"{worker:032x}{batch:032x}",
                    ended=False,
                )
                for n in range(PER_BATCH)
            ]
            with store.transaction() as tx:
                append(tx, keyring, checkpoints)
    finally:
        storage.close()


def test_processes_appending_at_once_leave_no_gap_and_no_duplicate(settings: Settings) -> None:
    services = build_services(settings)  # the schema
    try:
        context = multiprocessing.get_context("spawn")
        ready = context.Barrier(PROCESSES)
        workers = [
            context.Process(target=_append, args=(settings, n, ready)) for n in range(PROCESSES)
        ]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=120)
            assert worker.exitcode == 0
        entries = every_entry(services)
        assert len(entries) == PROCESSES * BATCHES * PER_BATCH
        assert [e["leaf_index"] for e in entries] == list(range(len(entries)))
        logged = {(e["checkpoint"]["game"], e["checkpoint"]["version"]) for e in entries}
        assert len(logged) == len(entries)
        # each batch is contiguous: one append at a time
        for start in range(0, len(entries), PER_BATCH):
            games = {e["checkpoint"]["game"] for e in entries[start : start + PER_BATCH]}
            assert len(games) == 1
        tree = MemoryTree()
        store = services.tlog.store
        for entry in entries:
            tree.append(canonical_json(entry["checkpoint"]))
            size = len(tree)
            if size % PER_BATCH == 0:  # a head after each batch, the tree's at its size
                head = store.head(size)
                assert head is not None and head["root_hash"] == tree.root().hex()
            else:
                assert store.head(size) is None
    finally:
        services.close()


def test_followers_racing_log_each_end_once(settings: Settings) -> None:
    writer = build_services(settings)
    followers = [build_services(settings) for _ in range(3)]
    try:
        stop = threading.Event()
        errors: list[BaseException] = []

        def follow(services: Any) -> None:
            try:
                while not stop.is_set():
                    services.catch_up()
            except BaseException as error:
                errors.append(error)

        threads = [threading.Thread(target=follow, args=(f,)) for f in followers]
        for thread in threads:
            thread.start()
        tables = [finished(writer.app, 2, seed=f"race {n}") for n in range(4)]
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
        assert not errors
        for services in followers:
            services.catch_up()
        entries = check_log(writer)
        ends = [e for e in entries if e["checkpoint"]["ended"]]
        assert sorted(e["checkpoint"]["game"] for e in ends) == sorted(
            str(t.game_id) for t in tables
        )
    finally:
        for services in [writer, *followers]:
            services.close()
