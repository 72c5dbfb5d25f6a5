"""Issue 14's "How it will be checked", from outside (docs/audit.md, "Verifying a record's
checkpoint", "Checking that the log only grew"): a real gunicorn on SQLite and on PostgreSQL,
reached only over HTTP, and the ``gameledger`` console script run on the files a third party
saved from its answers (tests/e2e/outside.py).

* a private game logged under the SHA-256 of its id, and verified;
* the forgery: a game played to its end over HTTP; another legal game built from its revealed
  seed under the same id verifies alone, and is refused against the saved keys and with the
  real record's ``transparency`` copied in;
* keys swapped: the operator rotates the keyring; records signed before still verify with the
  saved keys of both keys; a record re-signed with a stranger's key is refused;
* log entries removed: rows deleted from the log's tables in the database (one game's entry
  and the log after it), or the whole log dropped and rebuilt from the event log — a tree head
  saved before then fails ``verify-log OLD NEW --server`` ("rewritten"), and so does a record's
  proof against it;
* old tree heads against new ones: heads saved while games are played are each a prefix of
  every later one, and a record exported for a saved head's size verifies against it."""

from __future__ import annotations

import contextlib
import hashlib
import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from application.signing import Keyring
from infrastructure.tlog_tables import ENTRIES, HEADS, NODES, TABLES
from tests.e2e.outside import Outside, environment, on_the_log, postgres_env, serving
from tests.transparency import ROTATED, Log, forge, logged

STORES = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(scope="module", params=STORES)
def running(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Outside]:
    """One service per store for the tests that never stop it or touch its database; running
    games are checkpointed on a short schedule, so the log grows while they play."""
    folder = tmp_path_factory.mktemp(f"outside-{request.param}")
    with contextlib.ExitStack() as stack:
        pg = None
        if request.param == "postgres":
            pg = stack.enter_context(postgres_env(request.getfixturevalue("postgres_database")))
        env = {**environment(request.param, folder, pg), "GAMELEDGER_CHECKPOINT_INTERVAL": "0.2"}
        yield stack.enter_context(serving(env, folder))


@pytest.fixture
def service(running: Outside, tmp_path: Path) -> Outside:
    """The shared service, saving this test's files in its own folder."""
    return running.within(tmp_path)


@pytest.fixture(params=STORES)
def env(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, str]]:
    """The environment of a service of the test's own, which it stops and starts."""
    if request.param == "sqlite":
        yield environment("sqlite", tmp_path, None)
        return
    with postgres_env(request.getfixturevalue("postgres_database")) as pg:
        yield environment("postgres", tmp_path, pg)


def read(path: str) -> Any:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def said(done: Any) -> str:
    """What a command printed (for assertion messages)."""
    return f"{done.returncode}: {done.stdout}{done.stderr}"


def head_and_record(service: Outside, game_id: str, name: str) -> tuple[str, str]:
    """The latest tree head and the game's record proved against it, saved (by size: the
    schedule may grow the log between the two requests)."""
    head = service.fetch(f"{name}-head.json", "/log/tree-head")
    record = service.save(f"{name}.json", service.record(game_id, tree_size=read(head)["size"]))
    return head, record


def test_the_forgery_from_outside(service: Outside) -> None:
    keys = service.fetch("keys.json", "/keys")
    game_id, tokens = service.new_game()
    service.play_to_the_end(game_id, tokens)
    entry = service.ended_entry(game_id)
    head, real = head_and_record(service, game_id, "real")
    forged = forge(read(real))
    assert forged["game"]["id"] == game_id and forged["seed"] == read(real)["seed"]
    assert forged["moves"] != read(real)["moves"]
    path = service.save("forged.json", forged)
    copied = service.save("copied.json", {**forged, "transparency": read(real)["transparency"]})

    checked, alone, pinned, caught = service.gameledger_all(
        ("verify", real, "--keys", keys, "--tree-head", head),
        ("verify", path),
        ("verify", path, "--keys", keys),
        ("verify", copied, "--keys", keys, "--tree-head", head),
    )
    assert checked.returncode == 0, said(checked)
    assert f"entry {entry['leaf_index']} of the tree of size {read(head)['size']}" in (
        checked.stdout
    )
    assert "the tree head given; signed by pinned key" in checked.stdout
    assert alone.returncode == 0, said(alone)  # what a record alone cannot show
    assert alone.stdout.strip().endswith("No checkpoint (not in the service's log).")
    assert pinned.returncode == 1, said(pinned)
    assert pinned.stdout.startswith("INVALID: record: no checkpoint: ")
    assert caught.returncode == 1, said(caught)
    assert caught.stdout.startswith("INVALID: record: transparency.checkpoint.")
    assert caught.stdout.strip().endswith("the service logged another history of this game")


def test_a_private_game_is_logged_without_its_id(service: Outside) -> None:
    """A private game's checkpoints name it by the SHA-256 of its id: found from the id,
    verified from its record, never shown in the public log."""
    keys = service.fetch("keys.json", "/keys")
    game_id = service.resigned_game(private=True)
    name = "sha256:" + hashlib.sha256(game_id.encode("ascii")).hexdigest()
    assert service.ended_entry(game_id)["checkpoint"]["game"] == name
    head, record = head_and_record(service, game_id, "private")
    assert read(record)["events"][0]["data"]["private"] is True
    listed = json.dumps(service.get("/log/entries?limit=1000"))
    assert name in listed and game_id not in listed
    done = service.gameledger("verify", record, "--keys", keys, "--tree-head", head)
    assert done.returncode == 0, said(done)


def test_old_tree_heads_against_new_ones(service: Outside) -> None:
    """Heads saved while games are played (running games checkpointed on the schedule too):
    each is a prefix of every later one; a record exported for a saved head's size verifies
    against it, one proved against another size gets the advice."""
    keys = service.fetch("keys.json", "/keys")
    heads: list[str] = []
    games: list[str] = []
    for n in range(3):
        service.one_move(*service.new_game())
        games.append(service.resigned_game())
        service.ended_entry(games[-1])
        heads.append(service.fetch(f"head-{n}.json", "/log/tree-head"))
    sizes = [read(head)["size"] for head in heads]
    assert sizes == sorted(sizes) and sizes[0] < sizes[-1], sizes
    exported = str(service.folder / "exported.json")
    done = service.gameledger("export", games[0], "--tree-size", str(sizes[1]),
                              "-o", exported, operator=True)  # fmt: skip
    assert done.returncode == 0, said(done)
    fetched = service.save("fetched.json", service.record(games[0], tree_size=sizes[2]))

    pairs = [(0, 1), (1, 2), (0, 2)]
    *grew, by_export, by_query, advised = service.gameledger_all(
        *[("verify-log", heads[a], heads[b], "--keys", keys, "--server", service.url)
          for a, b in pairs],
        ("verify", exported, "--keys", keys, "--tree-head", heads[1]),
        ("verify", fetched, "--keys", keys, "--tree-head", heads[2]),
        ("verify", fetched, "--tree-head", heads[0]),
    )  # fmt: skip
    for (older, _), done in zip(pairs, grew, strict=True):
        assert done.returncode == 0, said(done)
        assert done.stdout.startswith(f"OK: the tree of size {sizes[older]} (root ")
    for done in (by_export, by_query):
        assert done.returncode == 0, said(done)
        assert "the tree head given; signed by pinned key" in done.stdout
    assert advised.returncode == 1, said(advised)
    assert advised.stdout.strip().endswith(
        f"export the record again with --tree-size {sizes[0]} (or GET /api/v1/games/"
        f"{games[0]}/record?tree_size={sizes[0]})"
    )


def test_keys_swapped(service: Outside) -> None:
    """The operator rotates the keyring while the service runs (last of the shared service's
    tests: it leaves two keys)."""
    before = service.fetch("keys-before.json", "/keys")
    old_ids = {key["key_id"] for key in read(before)["keys"]}
    first = service.resigned_game()
    service.ended_entry(first)
    old_head, old_record = head_and_record(service, first, "old")

    rotated = service.gameledger("keys", "rotate", operator=True)
    assert rotated.returncode == 0, said(rotated)
    second = service.resigned_game()
    new_id = service.ended_entry(second)["checkpoint"]["key_id"]
    assert new_id not in old_ids
    keys = service.fetch("keys.json", "/keys")
    assert {key["key_id"] for key in read(keys)["keys"]} == {new_id, *old_ids}
    new_head, again = head_and_record(service, first, "again")
    assert read(again)["transparency"]["tree_head"]["key_id"] == new_id
    assert read(again)["transparency"]["checkpoint"]["key_id"] in old_ids
    stranger = Log(Keyring.generate())
    resigned = service.save("stranger.json", logged(service.record(second), stranger))

    kept, proved, grew, stale, refused = service.gameledger_all(
        ("verify", old_record, "--keys", keys, "--tree-head", old_head),
        ("verify", again, "--keys", keys, "--tree-head", new_head),
        ("verify-log", old_head, new_head, "--keys", keys, "--server", service.url),
        ("verify", again, "--keys", before),
        ("verify", resigned, "--keys", keys),
    )
    # the records of before the rotation still verify with the keys file of both keys
    for done in (kept, proved, grew):
        assert done.returncode == 0, said(done)
    # … but not with the keys saved before: the new key is not pinned there
    assert stale.returncode == 1, said(stale)
    assert stale.stdout.strip() == (
        f"INVALID: record: transparency.tree_head is signed by key {new_id}, which is not a "
        f"pinned key (pinned: {', '.join(sorted(old_ids))}); {ROTATED}"
    )
    # a record re-signed with a stranger's key, in a log of the stranger's
    assert refused.returncode == 1, said(refused)
    assert refused.stdout.strip() == (
        f"INVALID: record: the checkpoint is signed by key {stranger.keyring.key_id}, which is "
        f"not a pinned key (pinned: {', '.join(sorted({new_id, *old_ids}))}); {ROTATED}"
    )


# Log entries removed


def logged_ends(service: Outside, games: list[str]) -> int:
    """Each game's end logged; the log's size then."""
    for game in games:
        service.ended_entry(game)
    return int(service.get("/log/tree-head")["size"])


def grown_to(service: Outside, size: int) -> str:
    """The latest tree head once the log has at least ``size`` entries, saved; its file."""
    for _ in range(200):
        if service.get("/log/tree-head")["size"] >= size:
            break
        time.sleep(0.05)
    return service.fetch("new-head.json", "/log/tree-head")


def test_one_games_entry_removed(env: dict[str, str], tmp_path: Path) -> None:
    """The operator deletes a game's entry from the log's table, with its node hashes (and,
    to keep the tree whole, everything logged after it): the game is no longer in the log,
    and the log grows on from there."""
    with serving(env, tmp_path) as service:
        keys = service.fetch("keys.json", "/keys")
        games = [service.resigned_game() for _ in range(3)]
        assert logged_ends(service, games) == 3
        removed = service.ended_entry(games[1])["leaf_index"]
        old = service.fetch("old-head.json", "/log/tree-head")
        before = service.save("before.json", service.record(games[1]))
    on_the_log(env, [
        f"DELETE FROM {ENTRIES} WHERE leaf_index >= {removed}",
        f"DELETE FROM {NODES} WHERE ((idx + 1) * (1 << level)) > {removed}",
        f"DELETE FROM {HEADS} WHERE size > {removed}",
    ])  # fmt: skip
    with serving(env, tmp_path) as service:
        assert service.get(f"/games/{games[1]}/checkpoints") == {"items": []}
        logged_ends(service, [service.resigned_game() for _ in range(3)])
        new = grown_to(service, 4)
        now = service.save("now.json", service.record(games[1], tree_size=read(new)["size"]))
        assert read(now)["transparency"] is None
        rewritten, missing, kept = service.gameledger_all(
            ("verify-log", old, new, "--keys", keys, "--server", service.url),
            ("verify", now, "--keys", keys, "--tree-head", new),
            ("verify", before, "--keys", keys, "--tree-head", old),
        )
    assert rewritten.returncode == 1, said(rewritten)
    # either the service still signs a head of OLD's size, with another root (a signed proof
    # of the rewrite), or it has dropped that head and cannot show the kept tree any more
    assert rewritten.stdout.startswith("INVALID: the log was rewritten: ") or (
        "the service cannot show that its log still holds that tree" in rewritten.stdout
    ), said(rewritten)
    assert missing.returncode == 1 and "no checkpoint" in missing.stdout, said(missing)
    # the record saved before still shows, against the head saved before, that it was logged
    assert kept.returncode == 0, said(kept)


def test_the_log_dropped_and_rebuilt(env: dict[str, str], tmp_path: Path) -> None:
    """The operator empties the log's tables (its follower's position too) and lets the
    service log every game again from the event log: the same games, signed at other times,
    in another tree."""
    with serving(env, tmp_path) as service:
        keys = service.fetch("keys.json", "/keys")
        games = [service.resigned_game() for _ in range(3)]
        assert logged_ends(service, games) == 3
        old = service.fetch("old-head.json", "/log/tree-head")
        before = service.record(games[0])["transparency"]["checkpoint"]
    on_the_log(env, [f"DELETE FROM {table}" for table in TABLES])
    # checkpoints are signed to the second: the log made again is signed a second later
    signed = datetime.strptime(read(old)["at"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    time.sleep(max(0.0, signed.timestamp() + 1.05 - time.time()))
    with serving(env, tmp_path) as service:
        assert logged_ends(service, games) == 3
        assert service.record(games[0])["transparency"]["checkpoint"] != before
        logged_ends(service, [service.resigned_game()])
        new = grown_to(service, 4)
        record = service.save("record.json", service.record(games[0], tree_size=3))
        rewritten, refused = service.gameledger_all(
            ("verify-log", old, new, "--keys", keys, "--server", service.url),
            ("verify", record, "--keys", keys, "--tree-head", old),
        )
    assert rewritten.returncode == 1, said(rewritten)
    assert rewritten.stdout.startswith("INVALID: the log was rewritten: "), said(rewritten)
    assert refused.returncode == 1, said(refused)
    assert refused.stdout.startswith(
        "INVALID: record: the log was rewritten: the tree head given and the record's are "
        "both of size 3, with roots "
    )
