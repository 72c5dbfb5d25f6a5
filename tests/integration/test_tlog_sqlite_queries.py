"""The SQLite transparency log reads a few subtree hashes or a few checkpoints by index, never
by a scan of the table (docs/audit.md, "The transparency log": a proof costs O(log n) reads;
docs/performance.md, "The transparency log at 10 million checkpoints", where a scan made a
proof of a 100,000-entry log 60 times slower than at 1,000 entries). SQLite's plan for a
row-value ``IN (VALUES ...)`` of more than one row is a full scan; these tests ask SQLite for
the plan of the store's own queries on a real log file, and check their answers."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from application.checkpoints import sign_checkpoint
from application.signing import Keyring
from application.tlog import append, frontier_keys, prefetched
from domain.merkle import MemoryTree, consistency_proof
from infrastructure.config import Settings
from infrastructure.container import Services, build_services
from infrastructure.tlog_sqlite import logged_query, subtree_query


@pytest.fixture
def logged(tmp_path: Path) -> Any:
    """A SQLite store whose log holds 45 checkpoints appended in batches of 1 to 5."""
    services = build_services(
        Settings(store="sqlite", sqlite_path=tmp_path / "games.db", embedded_projections=False)
    )
    keyring = Keyring.generate()
    checkpoints = [
        sign_checkpoint(
            keyring, f"00000000-0000-4000-8000-{n:012d}", n + 1, f"{n:064x}", ended=n % 3 == 0
        )
        for n in range(45)
    ]
    start = 0
    for size in (1, 5, 2, 4, 3) * 3:
        with services.tlog.store.transaction() as tx:
            append(tx, keyring, checkpoints[start : start + size])
        start += size
    yield services, checkpoints
    services.close()


def plan(services: Services, query: tuple[str, list[Any]]) -> list[str]:
    """SQLite's plan for the query on the log's file: one line per step."""
    path = services.settings.sqlite_file("tlog")
    with sqlite3.connect(path) as conn:
        rows = conn.execute(f"EXPLAIN QUERY PLAN {query[0]}", query[1]).fetchall()
    return [str(row[3]) for row in rows]


def no_scan_of_the_log(steps: list[str], table: str) -> None:
    """The only scans are of the keys asked for; the log's table (``table``: its alias) is
    searched by an index."""
    for step in steps:
        if step.startswith("SCAN "):
            assert step == "SCAN k" or "CONSTANT ROW" in step, steps
    assert any(step.startswith(f"SEARCH {table} USING") for step in steps), steps


def test_subtree_hashes_are_searched_by_key(logged: Any) -> None:
    services, checkpoints = logged
    keys = sorted(set(frontier_keys(45) + frontier_keys(37) + [(0, 3), (2, 5), (4, 1)]))
    no_scan_of_the_log(plan(services, subtree_query(keys)), "n")
    tree = MemoryTree()
    for checkpoint in checkpoints:
        tree.append(checkpoint.leaf)
    found = services.tlog.store.subtree_hashes([*keys, (5, 1), (0, 45)])  # two not there
    assert found == {key: tree.subtree_hash(*key) for key in keys}


def test_which_checkpoints_are_logged_is_searched_by_the_game_index(logged: Any) -> None:
    services, checkpoints = logged
    asked = [(c.game, c.version) for c in checkpoints[::7]] + [(checkpoints[0].game, 99)]
    no_scan_of_the_log(plan(services, logged_query(asked)), "e")
    with services.tlog.store.transaction() as tx:
        assert tx.logged(asked) == set(asked[:-1])


def test_a_consistency_proof_reads_what_it_needs(logged: Any) -> None:
    """The prefetched proof (one query for every subtree) is the reference tree's."""
    services, checkpoints = logged
    tree = MemoryTree()
    for checkpoint in checkpoints:
        tree.append(checkpoint.leaf)
    for old in (1, 6, 8, 12, 27, 44):
        proof = prefetched(services.tlog.store, lambda s, m=old: consistency_proof(s, m, 45))
        assert proof == consistency_proof(tree, old, 45)
