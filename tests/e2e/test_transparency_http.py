"""The transparency log over HTTP (issue 14, parts 2 to 4; docs/api.md, "Transparency log";
docs/audit.md, "Signed checkpoints" and "The transparency log"): a game played to its end gets
its ``ended`` checkpoint, signed by a key of ``GET /keys``; the API's inclusion and consistency
proofs verify with domain/merkle.py against its signed tree heads; a record's
``transparency`` verifies; running games are checkpointed on the schedule; bad sizes are
problems; a checkpointer or a schedule that fails shows in ``/health``."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.app import create_app
from application.checkpoints import canonical_json, checkpoint_signed_by, tree_head_signed_by
from application.signing import PublicKey, from_b64url
from domain.merkle import leaf_hash, verify_consistency, verify_inclusion
from infrastructure.config import Settings
from infrastructure.container import Services, build_services
from tests.e2e.conftest import bearer, new_game
from tests.e2e.test_openapi_problems import check

API = "/api/v1"


@pytest.fixture
def http_services(tmp_path: Path) -> Iterator[Services]:
    """The service on a SQLite file, running games checkpointed every 0.2 s."""
    built = build_services(
        Settings(store="sqlite", sqlite_path=tmp_path / "log.db", checkpoint_interval=0.2)
    )
    yield built
    built.close()


def eventually(condition: Callable[[], Any], timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.05)
    return condition()


def play_to_the_end(client: FlaskClient, game_id: str, tokens: list[str]) -> int:
    """The first legal move of a seat to act, until the game is over; its last version."""
    while True:
        view = client.get(f"{API}/games/{game_id}").json
        if not view["current_players"]:
            assert view["outcome"] is not None
            return int(view["version"])
        seat = view["current_players"][0]
        legal = client.get(f"{API}/games/{game_id}/legal-moves", headers=bearer(tokens[seat])).json
        made = client.post(
            f"{API}/games/{game_id}/moves",
            json={"move": legal["moves"][0]["move"], "expected_version": view["version"]},
            headers=bearer(tokens[seat]),
        )
        assert made.status_code == 200, made.json


def public_key(client: FlaskClient, key_id: str) -> PublicKey:
    """The published key of ``key_id`` (GET /keys)."""
    for key in client.get(f"{API}/keys").json["keys"]:
        if key["key_id"] == key_id:
            return PublicKey(from_b64url(key["public_key"], "key"), key["created_at"])
    raise AssertionError(f"no published key {key_id}")


def hashes(values: list[str]) -> list[bytes]:
    return [bytes.fromhex(v) for v in values]


def test_a_game_played_to_the_end_is_logged_and_its_proofs_verify(client: FlaskClient) -> None:
    game_id, tokens = new_game(client)
    last = play_to_the_end(client, game_id, tokens)
    checkpoints = f"{API}/games/{game_id}/checkpoints"
    ended = eventually(
        lambda: [i for i in client.get(checkpoints).json["items"] if i["checkpoint"]["ended"]]
    )
    [entry] = ended
    checkpoint = entry["checkpoint"]
    record = client.get(f"{API}/games/{game_id}/record").json
    assert checkpoint["game"] == game_id and checkpoint["version"] == last
    assert checkpoint["chain_head"] == record["chain_head"] == record["events"][-1]["hash"]
    key = public_key(client, checkpoint["key_id"])
    assert checkpoint_signed_by(checkpoint, entry["signature"], key)

    # the record carries its checkpoint and a proof against the latest signed tree head
    transparency = record["transparency"]
    assert transparency["checkpoint"] == checkpoint
    assert transparency["signature"] == entry["signature"]
    head = transparency["tree_head"]
    assert tree_head_signed_by(head, key)
    leaf = leaf_hash(canonical_json(checkpoint))
    root = bytes.fromhex(head["root_hash"])
    proof = hashes(transparency["inclusion_proof"])
    assert verify_inclusion(leaf, entry["leaf_index"], head["size"], proof, root)
    assert not verify_inclusion(leaf, entry["leaf_index"], head["size"] + 1, proof, root)

    # the API's inclusion proof, against the stored head of the same size
    index, size = entry["leaf_index"], head["size"]
    included = client.get(f"{API}/log/proofs/inclusion?leaf_index={index}&tree_size={size}").json
    assert included["leaf_hash"] == leaf.hex() and included["tree_head"] == head
    assert verify_inclusion(leaf, index, size, hashes(included["proof"]), root)
    assert client.get(f"{API}/log/tree-heads/{size}").json == head

    # later games grow the log: each older head is a prefix of the newer
    other, other_tokens = new_game(client)
    play_to_the_end(client, other, other_tokens)
    newer = eventually(lambda: (h := client.get(f"{API}/log/tree-head").json)["size"] > size and h)
    second = newer["size"]  # (the schedule may grow the log meanwhile: sizes are explicit)
    proved = client.get(f"{API}/log/proofs/consistency?first={size}&second={second}").json
    assert proved["first_head"] == head and proved["second_head"] == newer
    assert tree_head_signed_by(newer, key)
    old_root, new_root = root, bytes.fromhex(newer["root_hash"])
    assert verify_consistency(size, newer["size"], old_root, new_root, hashes(proved["proof"]))
    assert not verify_consistency(size, newer["size"], new_root, new_root, hashes(proved["proof"]))

    # a record proved against the older head a client kept, and against the newer
    kept = client.get(f"{API}/games/{game_id}/record?tree_size={size}")
    assert kept.json["transparency"]["tree_head"] == head
    assert kept.headers["ETag"] == f'"{last}-{size}"'
    latest = client.get(f"{API}/games/{game_id}/record").json["transparency"]
    assert latest["tree_head"]["size"] >= newer["size"]
    assert tree_head_signed_by(latest["tree_head"], key)
    proof = hashes(latest["inclusion_proof"])
    latest_root = bytes.fromhex(latest["tree_head"]["root_hash"])
    assert verify_inclusion(leaf, index, latest["tree_head"]["size"], proof, latest_root)

    # every entry of the log is listed, a page at a time
    page = client.get(f"{API}/log/entries?start=0&limit=1").json
    assert len(page["items"]) == 1 and page["next_start"] == 1
    listed = client.get(f"{API}/log/entries?start=0&limit=1000").json
    assert listed["next_start"] is None
    assert [i["leaf_index"] for i in listed["items"]] == list(range(len(listed["items"])))
    assert entry in listed["items"]


def test_running_games_are_checkpointed_on_the_schedule(client: FlaskClient) -> None:
    game_id, _ = new_game(client)
    view = client.get(f"{API}/games/{game_id}").json
    checkpoints = f"{API}/games/{game_id}/checkpoints"

    def latest() -> Any:
        items = client.get(checkpoints).json["items"]
        return items and items[-1]["checkpoint"]["version"] == view["version"] and items

    found = eventually(latest)
    entry = found[-1]
    assert entry["checkpoint"]["ended"] is False
    assert entry["checkpoint"]["chain_head"] == view["chain_head"]
    time.sleep(0.5)  # the game did not move: no new checkpoint
    assert client.get(checkpoints).json["items"] == found
    record = client.get(f"{API}/games/{game_id}/record").json
    assert record["transparency"]["checkpoint"] == entry["checkpoint"]
    assert record["seed"] is None  # a running game's record still hides its seed


def test_the_log_refuses_sizes_and_indexes_it_cannot_prove(
    client: FlaskClient, http_services: Services
) -> None:
    spec = client.get(f"{API}/openapi.json").json
    game_id, _ = new_game(client)
    head = eventually(lambda: (h := client.get(f"{API}/log/tree-head").json)["size"] and h)
    size = head["size"]
    record = "/api/v1/games/{game_id}/record"
    check(spec, "get", record, client.get(f"{API}/games/{game_id}/record?tree_size=999"),
          "tree-head-not-found")  # fmt: skip
    check(spec, "get", record, client.get(f"{API}/games/{game_id}/record?tree_size=x"), None)
    check(spec, "get", "/api/v1/log/tree-heads/{size}", client.get(f"{API}/log/tree-heads/999"),
          "tree-head-not-found")  # fmt: skip
    inclusion = "/api/v1/log/proofs/inclusion"
    check(spec, "get", inclusion,
          client.get(f"{API}/log/proofs/inclusion?leaf_index=0&tree_size=999"),
          "tree-head-not-found")  # fmt: skip
    check(spec, "get", inclusion,
          client.get(f"{API}/log/proofs/inclusion?leaf_index={size}&tree_size={size}"),
          "leaf-not-in-tree")  # fmt: skip
    check(spec, "get", inclusion, client.get(f"{API}/log/proofs/inclusion"), "invalid-request")
    consistency = "/api/v1/log/proofs/consistency"
    check(spec, "get", consistency,
          client.get(f"{API}/log/proofs/consistency?first={size}&second=0"),
          "tree-sizes-out-of-order")  # fmt: skip
    check(spec, "get", consistency,
          client.get(f"{API}/log/proofs/consistency?first=0&second=999"),
          "tree-head-not-found")  # fmt: skip
    entries = "/api/v1/log/entries"
    check(spec, "get", entries, client.get(f"{API}/log/entries?limit=1001"), "invalid-request")
    check(spec, "get", entries, client.get(f"{API}/log/entries?start=-1"), "invalid-request")
    missing = "/api/v1/games/00000000-0000-4000-8000-000000000000/checkpoints"
    check(spec, "get", "/api/v1/games/{game_id}/checkpoints", client.get(missing),
          "game-not-found")  # fmt: skip
    # the empty tree's head is always there: a prefix of every tree
    empty = client.get(f"{API}/log/tree-heads/0").json
    assert empty["size"] == 0
    assert tree_head_signed_by(empty, http_services.keys.keyring().current)
    proved = client.get(f"{API}/log/proofs/consistency?first=0").json
    assert proved["proof"] == [] and proved["second_head"]["size"] >= size


def test_the_tree_head_is_cacheable(client: FlaskClient) -> None:
    latest = client.get(f"{API}/log/tree-head")
    assert latest.headers["Cache-Control"] == "public, max-age=10"
    again = client.get(f"{API}/log/tree-head", headers={"If-None-Match": latest.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    stored = client.get(f"{API}/log/tree-heads/0")
    assert stored.headers["Cache-Control"] == "public, max-age=31536000"
    assert stored.json == latest.json  # the empty log's head, kept when first asked


def test_a_failing_checkpointer_or_schedule_shows_in_health(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import infrastructure.follower  # noqa: PLC0415

    monkeypatch.setattr(infrastructure.follower, "RETRY_FIRST", 0.05)
    monkeypatch.setattr(infrastructure.follower, "RETRY_MOST", 0.2)
    services = build_services(
        Settings(store="sqlite", sqlite_path=tmp_path / "broken.db", checkpoint_interval=0.1)
    )
    try:
        client = create_app(services, follow=True).test_client()
        store = services.tlog.store
        with store.datastore.transaction(commit=True) as cursor:
            cursor.execute("DROP TABLE tlog_pending")  # a real failure of both
        new_game(client)
        health = eventually(
            lambda: (
                (h := client.get(f"{API}/health")).status_code == 503
                and len(h.json["read_models"]) == 2
                and h
            )
        )
        assert health.json["status"] == "degraded"
        names = {f["read_model"] for f in health.json["read_models"]}
        assert names == {"checkpoints", "checkpoint_schedule"}
        with store.datastore.transaction(commit=True) as cursor:
            for statement in store.ddl():  # mended: both go on
                cursor.execute(statement)
        assert eventually(lambda: client.get(f"{API}/health").status_code == 200)
        assert eventually(lambda: client.get(f"{API}/log/tree-head").json["size"] >= 1)
    finally:
        services.close()
