"""The transparency log on every store (issue 14, parts 2 and 3; docs/audit.md, "Signed
checkpoints" and "The transparency log"): appends in batches keep the RFC 9162 tree (every
stored head's root is the reference tree's, every proof the store makes verifies with
domain/merkle.py against the stored signed heads, at many sizes); the checkpointer logs each
game's end once, records running games as pending for the schedule, never twice across
restarts; a rebuild of the read models leaves the log alone."""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import replace
from typing import Any

import pytest

from application.checkpointer import checkpoint_running
from application.checkpoints import (
    canonical_json,
    checkpoint_signed_by,
    sign_checkpoint,
    tree_head_signed_by,
)
from application.records import export_record
from application.tlog import append
from application.transparency import (
    consistency,
    entries_page,
    game_name,
    inclusion,
    latest_head,
    stored_head,
    transparency_of,
)
from application.verification import verify_record
from domain.merkle import MemoryTree, leaf_hash, verify_consistency, verify_inclusion
from infrastructure.config import Settings
from infrastructure.container import Services, build_services
from tests.application.test_verification import finished
from tests.helpers import Table, start_game

STORED = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


def every_entry(services: Services) -> list[dict[str, Any]]:
    """The whole log, page by page."""
    found: list[dict[str, Any]] = []
    start: int | None = 0
    while start is not None:
        page = entries_page(services.tlog.store, start, 7)
        found += page["items"]
        start = page["next_start"]
    return found


def reference(entries: list[dict[str, Any]]) -> MemoryTree:
    tree = MemoryTree()
    for entry in entries:
        tree.append(canonical_json(entry["checkpoint"]))
    return tree


def check_log(services: Services) -> list[dict[str, Any]]:
    """The log holds no gap and no checkpoint twice, and every stored head is the reference
    tree's at its size, signed; the entries."""
    entries = every_entry(services)
    assert [e["leaf_index"] for e in entries] == list(range(len(entries)))
    logged = [(e["checkpoint"]["game"], e["checkpoint"]["version"]) for e in entries]
    assert len(set(logged)) == len(logged)
    tree = reference(entries)
    keys = services.keys.keyring()
    for entry in entries:
        assert checkpoint_signed_by(entry["checkpoint"], entry["signature"], keys.current)
    head = latest_head(services.tlog.store, services.keys)
    assert head["size"] == len(entries)
    assert head["root_hash"] == tree.root().hex()
    assert tree_head_signed_by(head, keys.current)
    return entries


def sizes(services: Services) -> list[int]:
    """Every size with a stored head."""
    return [n for n in range(len(every_entry(services)) + 1) if services.tlog.store.head(n)]


def test_appends_keep_the_tree_and_every_proof_verifies(services: Services) -> None:
    store, keyring = services.tlog.store, services.keys.keyring()
    tree = MemoryTree()
    batches = [1, 2, 3, 5, 8, 13, 1, 1, 30]
    for count in batches:
        batch = [
            sign_checkpoint(keyring, str(uuid.uuid4()), n + 1, f"{n:064x}", ended=n % 2 == 0)
            for n in range(count)
        ]
        with store.transaction() as tx:
            head = append(tx, keyring, batch)
        for signed in batch:
            tree.append(signed.leaf)
        assert head is not None and head["size"] == len(tree)
        assert head["root_hash"] == tree.root().hex()
        assert store.head(len(tree)) == head
    check_log(services)
    heads = [0, *(sum(batches[: n + 1]) for n in range(len(batches)))]
    assert sizes(services) == heads[1:]  # the empty tree's head is signed when first asked
    for size in heads[1:]:
        head = stored_head(store, services.keys, size)
        root = bytes.fromhex(head["root_hash"])
        for index in {0, size // 2, size - 1}:
            proved = inclusion(store, services.keys, index, size)
            assert proved["tree_head"] == head
            assert proved["leaf_hash"] == tree.subtree_hash(0, index).hex()
            path = [bytes.fromhex(p) for p in proved["proof"]]
            assert verify_inclusion(tree.subtree_hash(0, index), index, size, path, root)
    for first in heads:
        for second in heads:
            if first > second:
                continue
            proved = consistency(store, services.keys, first, second)
            old, new = proved["first_head"], proved["second_head"]
            assert (old["size"], new["size"]) == (first, second)
            path = [bytes.fromhex(p) for p in proved["proof"]]
            assert verify_consistency(
                first,
                second,
                bytes.fromhex(old["root_hash"]),
                bytes.fromhex(new["root_hash"]),
                path,
            )


def test_the_empty_log_has_a_signed_head(services: Services) -> None:
    head = latest_head(services.tlog.store, services.keys)
    assert head["size"] == 0
    assert head["root_hash"] == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert tree_head_signed_by(head, services.keys.keyring().current)
    assert latest_head(services.tlog.store, services.keys) == head  # kept, not signed again


def test_each_end_is_logged_once_and_running_games_wait_for_the_schedule(
    services: Services,
) -> None:
    app = services.app
    ended = [finished(app, 2, seed=f"tlog {n}") for n in range(2)]
    running = start_game(app, seed="tlog running")
    for _ in range(3):
        running.step()
    services.catch_up()
    entries = check_log(services)
    assert [e["checkpoint"]["ended"] for e in entries] == [True, True]
    for table, entry in zip(ended, entries, strict=True):
        game = app.game_at(table.game_id, app.finished_at(table.game_id)[1])
        checkpoint = entry["checkpoint"]
        assert checkpoint["game"] == str(table.game_id)
        assert checkpoint["version"] == game.version
        assert checkpoint["chain_head"] == game.chain_head
        proof, head = transparency_of(services.tlog.store, services.keys, str(table.game_id), 10**6)
        assert proof is not None and proof["leaf_index"] == entry["leaf_index"]
        assert proof["public_key"] and head["size"] == 2
        leaf = leaf_hash(canonical_json(proof["checkpoint"]))
        path = [bytes.fromhex(p) for p in proof["inclusion_proof"]]
        assert verify_inclusion(
            leaf, proof["leaf_index"], 2, path, bytes.fromhex(head["root_hash"])
        )
    assert (
        transparency_of(services.tlog.store, services.keys, str(running.game_id), 10**6)[0] is None
    )

    services.catch_up()  # nothing new: nothing logged
    assert len(every_entry(services)) == 2
    assert checkpoint_running(services.tlog.store, services.keys, 0) == 1
    [scheduled] = services.tlog.store.entries_of(str(running.game_id))
    version, _ = app.whose_turn(running.game_id)
    assert scheduled["checkpoint"]["ended"] is False
    assert scheduled["checkpoint"]["version"] == version
    assert checkpoint_running(services.tlog.store, services.keys, 0) == 0  # the head stayed
    running.step()
    services.catch_up()
    # another run less than an interval after the last one waits (whichever process ran it)
    assert checkpoint_running(services.tlog.store, services.keys, 60) == 0
    later = checkpoint_running(services.tlog.store, services.keys, 60, clock=lambda: 2e9)
    assert later == 1
    running.play_out()
    services.catch_up()
    logged = services.tlog.store.entries_of(str(running.game_id))
    assert [e["checkpoint"]["ended"] for e in logged] == [False, False, True]
    assert checkpoint_running(services.tlog.store, services.keys, 0) == 0  # nothing pending
    check_log(services)


def test_a_private_game_is_logged_under_the_digest_of_its_id(services: Services) -> None:
    """Every game is logged; the log is public and a private game's id is known only to whom it
    was given, so its checkpoints name it by the SHA-256 of its id (docs/audit.md, "Signed
    checkpoints"): running on the schedule, and at its end; its record carries them."""
    opened = services.app.open_game("azul", 2, private=True)
    game_id = opened.game_id
    tokens = [
        services.app.join(game_id, f"p{n}", n, secret=opened.join_secret).token for n in range(2)
    ]
    services.catch_up()
    assert checkpoint_running(services.tlog.store, services.keys, 0) == 1
    Table(services.app, game_id, tokens).play_out()
    services.catch_up()
    name = "sha256:" + hashlib.sha256(str(game_id).encode()).hexdigest()
    assert game_name(services.app, game_id) == name
    entries = check_log(services)
    assert [e["checkpoint"]["game"] for e in entries] == [name, name]
    assert [e["checkpoint"]["ended"] for e in entries] == [False, True]
    assert str(game_id) not in json.dumps(entries)
    assert services.tlog.store.entries_of(str(game_id)) == []
    assert services.tlog.store.entries_of(name) == entries

    record = export_record(services.app, game_id)
    transparency, _ = transparency_of(
        services.tlog.store, services.keys, name, len(record["events"])
    )
    assert transparency is not None and transparency["checkpoint"] == entries[1]["checkpoint"]
    keys = services.keys.keyring()
    report = verify_record({**record, "transparency": transparency}, pinned_keys=[keys.current])
    assert report.ok, report.summary


def test_a_public_game_is_logged_by_its_id(services: Services) -> None:
    game_id = services.app.create_game("azul", 2, lobby_fields={"private": False})
    services.catch_up()
    assert checkpoint_running(services.tlog.store, services.keys, 0) == 1
    assert game_name(services.app, game_id) == str(game_id)
    assert [e["checkpoint"]["game"] for e in every_entry(services)] == [str(game_id)]


@pytest.mark.parametrize("store", STORED)
def test_no_checkpoint_twice_across_restarts(settings: Settings) -> None:
    first = build_services(settings)
    try:
        tables = [finished(first.app, 2, seed=f"restart {n}") for n in range(2)]
        first.catch_up()
        before = check_log(first)
    finally:
        first.close()
    again = build_services(settings)
    try:
        again.catch_up()  # its position was kept with the log: nothing applied twice
        assert check_log(again) == before
        finished(again.app, 2, seed="restart after")
        again.catch_up()
        after = check_log(again)
        assert after[: len(before)] == before and len(after) == len(before) + 1
        assert [e["checkpoint"]["game"] for e in before] == [str(t.game_id) for t in tables]
    finally:
        again.close()


def test_a_rebuild_of_the_read_models_leaves_the_log_alone(services: Services) -> None:
    finished(services.app, 2, seed="rebuild")
    services.catch_up()
    store = services.tlog.store
    position = store.max_tracking_id(services.app.stores[0].name)
    before = (every_entry(services), sizes(services), latest_head(store, services.keys))
    services.rebuild()
    services.catch_up()
    assert (every_entry(services), sizes(services), latest_head(store, services.keys)) == before
    assert store.max_tracking_id(services.app.stores[0].name) == position


def test_a_proof_against_an_unknown_size_is_refused(services: Services) -> None:
    finished(services.app, 2, seed="refused")
    services.catch_up()
    store = services.tlog.store
    for call in (
        lambda: stored_head(store, services.keys, 5),
        lambda: inclusion(store, services.keys, 0, 5),
        lambda: consistency(store, services.keys, 0, 5),
        lambda: transparency_of(store, services.keys, "x", 1, 5),
    ):
        with pytest.raises(Exception, match="no signed tree head of size 5") as refused:
            call()
        assert getattr(refused.value, "code", None) == "tree-head-not-found"
    with pytest.raises(Exception, match="not in the tree") as outside:
        inclusion(store, services.keys, 1, 1)
    assert getattr(outside.value, "code", None) == "leaf-not-in-tree"
    with pytest.raises(Exception, match="prefix") as order:
        consistency(store, services.keys, 1, 0)
    assert getattr(order.value, "code", None) == "tree-sizes-out-of-order"


def test_the_proofs_do_not_depend_on_the_signing_key(services: Services) -> None:
    """A rotation signs later entries and heads with the new key; the old ones still check
    with the retired public key, which the keyring keeps."""
    finished(services.app, 2, seed="before rotation")
    services.catch_up()
    old = services.keys.keyring().current
    services.keys.rotate()
    finished(services.app, 2, seed="after rotation")
    services.catch_up()
    first, second = every_entry(services)
    assert checkpoint_signed_by(first["checkpoint"], first["signature"], old)
    new = services.keys.keyring().current
    assert checkpoint_signed_by(second["checkpoint"], second["signature"], new)
    assert tree_head_signed_by(stored_head(services.tlog.store, services.keys, 1), old)
    proof, _ = transparency_of(
        services.tlog.store, services.keys, first["checkpoint"]["game"], 10**6
    )
    assert proof is not None
    assert proof["public_key"] == next(
        k["public_key"] for k in services.keys.public_keys() if k["key_id"] == old.key_id
    )


def test_every_part_of_a_sharded_store_is_followed(settings: Settings) -> None:
    """The checkpointer keeps one position per part of the event store (docs/operations.md,
    "Shards"): games of every part are logged, each end once."""
    services = build_services(replace(settings, shards=3))
    try:
        tables = [finished(services.app, 2, seed=f"shard {n}") for n in range(6)]

        def parts() -> set[str]:
            return {services.app.games.store_of(t.game_id).name for t in tables}

        while len(parts()) < 2 and len(tables) < 40:  # a part is drawn at random per game
            tables.append(finished(services.app, 2, seed=f"shard {len(tables)}"))
        assert len(parts()) > 1
        services.catch_up()
        services.catch_up()
        entries = check_log(services)
        assert sorted(e["checkpoint"]["game"] for e in entries) == sorted(
            str(t.game_id) for t in tables
        )
        for store in services.app.stores:
            position = services.tlog.store.max_tracking_id(store.name)
            assert position == (store.recorder.max_notification_id() or None)
    finally:
        services.close()


@pytest.mark.postgres
@pytest.mark.parametrize("store", ["postgres"], indirect=True)
def test_only_an_append_that_stores_a_head_waits_for_the_disk(services: Services) -> None:
    """On PostgreSQL a transaction of the log commits without waiting for the disk while it
    only moves pending heads and the position (lost to a crash, it is applied again), and
    with the server's own ``synchronous_commit`` once it stores a signed tree head
    (infrastructure/tlog_postgres.py)."""
    store = services.tlog.store
    with store.transaction() as tx:
        curs = tx.curs  # type: ignore[attr-defined]
        curs.execute("SHOW synchronous_commit")
        assert curs.fetchone()["synchronous_commit"] == "off"
        append(tx, services.keys.keyring(), [
            sign_checkpoint(services.keys.keyring(), "durable", 1, "ab" * 32, ended=True)
        ])  # fmt: skip
        curs.execute("SHOW synchronous_commit")
        assert curs.fetchone()["synchronous_commit"] == "on"
    assert stored_head(store, services.keys, 1) is not None
