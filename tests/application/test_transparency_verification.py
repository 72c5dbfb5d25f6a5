"""A record's checkpoint in the transparency log, checked by ``verify_record`` (issue 14,
part 4; docs/audit.md, "Verifying a record's checkpoint"): real records of games played
through the use cases, real Ed25519 keys, a real RFC 9162 tree of several checkpoints. The
forgery of the issue (another legal game from the revealed seed under the same game id)
verifies on its own and is rejected by its checkpoint; so are a record re-signed with another
key, a checkpoint left out of the log, a tampered proof and a rewritten log."""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Iterator
from typing import Any

import pytest

from application import lobby
from application.checkpoints import checkpoint_bytes
from application.records import export_record
from application.service import GameLedger
from application.signing import Keyring, PublicKey, b64url
from application.verification import VerificationReport, verify_record
from infrastructure.config import Settings
from infrastructure.container import Services, build_services
from tests.helpers import Table, start_game
from tests.transparency import ROTATED, Log, checkpoint_of, forge, logged, sign

SERVICE = Keyring.generate()
"""The service's key (the one users pin)."""

FORGER = Keyring.generate()


@pytest.fixture(scope="module")
def app() -> Iterator[GameLedger]:
    """One in-memory service for the module."""
    services = build_services(Settings(store="memory", embedded_projections=False))
    yield services.app
    services.close()


@pytest.fixture(scope="module")
def played(app: GameLedger) -> dict[str, Any]:
    """A finished 3-player game's record, without transparency."""
    table = start_game(app, 3, seed="logged")
    table.play_out()
    return export_record(app, table.game_id)


@pytest.fixture
def log() -> Log:
    """The service's log."""
    return Log(SERVICE)


@pytest.fixture
def record(played: dict[str, Any], log: Log) -> dict[str, Any]:
    """The finished game's record with its checkpoint, entry 3 of a log of 6."""
    return copy.deepcopy(logged(played, log))


def pins(*keyrings: Keyring) -> list[PublicKey]:
    """The public keys of keyrings, as a user pins them."""
    return [key for keyring in keyrings for key in (keyring.current, *keyring.retired)]


def refused(report: VerificationReport) -> str:
    """The message of a record refused for its own fields."""
    assert not report.ok, report.summary
    assert report.discrepancy is not None and report.discrepancy.startswith("record: ")
    assert report.version is None and report.summary == f"INVALID: {report.discrepancy}"
    return report.discrepancy.removeprefix("record: ")


# Sound records


def test_a_logged_record_verifies_with_the_pinned_key(record: dict[str, Any]) -> None:
    report = verify_record(record, pinned_keys=pins(SERVICE))
    assert report.ok, report.discrepancy
    found = report.to_json()["transparency"]
    assert found == {
        "checked": True,
        "key_id": SERVICE.key_id,
        "pinned": True,
        "leaf_index": 3,
        "tree_size": 6,
        "root_hash": record["transparency"]["tree_head"]["root_hash"],
        "ended": True,
        "version": len(record["events"]),
        "tree_head_key_id": SERVICE.key_id,
        "tree_head_given": False,
    }
    assert report.summary.endswith(
        f"Checkpoint: event {len(record['events'])} (ended) is in the service's log, entry 3 of "
        f"the tree of size 6 (root {found['root_hash']}); signed by pinned key "
        f"{SERVICE.key_id}."
    )


def test_records_of_every_store_verify_with_their_checkpoint(services: Services) -> None:
    """Exported from memory, SQLite and PostgreSQL, written as JSON and read back."""
    table = start_game(services.app, 2, seed="stores")
    table.play_out()
    log = Log(SERVICE)
    record = json.loads(json.dumps(logged(export_record(services.app, table.game_id), log)))
    report = verify_record(record, pinned_keys=pins(SERVICE), tree_head=log.head())
    assert report.ok, report.discrepancy


def test_without_pins_the_key_is_reported_unpinned(record: dict[str, Any]) -> None:
    report = verify_record(record)
    assert report.ok and report.transparency is not None
    assert not report.transparency.pinned and report.transparency.checked
    assert (
        f"is in the log whose head the record carries, entry 3 of the tree of size 6 (root "
        f"{report.transparency.root_hash}); unpinned: signed by key {SERVICE.key_id}, which came "
        "from the record itself, so this shows only that the record is consistent with itself, "
        "not that the service logged it" in report.summary
    )
    assert "the service's log" not in report.summary


def test_a_record_without_checkpoint(played: dict[str, Any], log: Log) -> None:
    report = verify_record(played)
    assert report.ok and report.transparency is None
    assert report.to_json()["transparency"] is None
    no_checkpoint = "every draw re-derived from the seed. No checkpoint (not in the service's log)."
    assert report.summary.endswith(no_checkpoint)
    assert verify_record({**played, "transparency": None}).summary == report.summary
    message = refused(verify_record(played, pinned_keys=pins(SERVICE)))
    assert message.startswith("no checkpoint: the record has no transparency field")
    assert "pinned keys were given" in message
    message = refused(verify_record({**played, "transparency": None}, pinned_keys=pins(SERVICE)))
    assert message == (
        "no checkpoint: the record carries no checkpoint (transparency is null), so nothing "
        "shows it is the game the service logged (pinned keys were given; export the record "
        "again from the service, or it never logged this game)"
    )
    log.fill(2)
    message = refused(verify_record(played, tree_head=log.head()))
    assert message.startswith("no checkpoint: ") and "a tree head was given" in message


def test_a_running_game_not_checkpointed_yet(app: GameLedger) -> None:
    """A running game is checkpointed on the schedule: a record exported before its first
    checkpoint says to wait for it (docs/audit.md, "Signed checkpoints")."""
    table = start_game(app, 2, seed="not yet")
    table.step()
    running = {**export_record(app, table.game_id), "transparency": None}
    report = verify_record(running)
    assert report.ok and report.summary.endswith(
        "No checkpoint yet (a running game is checkpointed every GAMELEDGER_CHECKPOINT_INTERVAL "
        "seconds (60 by default) once it moved: export it again after that)."
    )
    assert refused(verify_record(running, pinned_keys=pins(SERVICE))) == (
        "no checkpoint: the record carries no checkpoint (transparency is null), so nothing "
        "shows it is the game the service logged (pinned keys were given; the game is still "
        "running: a running game is checkpointed every GAMELEDGER_CHECKPOINT_INTERVAL seconds "
        "(60 by default) once it moved: export it again after that)"
    )


def test_a_running_game_carries_its_latest_checkpoint(app: GameLedger, log: Log) -> None:
    table = start_game(app, 2, seed="running")
    for _ in range(8):
        table.step()
    early = export_record(app, table.game_id)
    log.fill(1)
    index = log.append(checkpoint_of(early, SERVICE))
    for _ in range(4):
        table.step()
    later = export_record(app, table.game_id)
    record = {**later, "transparency": log.transparency(index)}
    report = verify_record(record, pinned_keys=pins(SERVICE))
    assert report.ok, report.discrepancy
    assert report.transparency is not None and not report.transparency.ended
    assert report.transparency.version == len(early["events"]) < len(later["events"])
    assert f"Checkpoint: event {len(early['events'])} (running)" in report.summary
    # what comes after the checkpoint is the record's word alone: said so
    assert report.summary.endswith(
        f"Events {len(early['events']) + 1} to {len(later['events'])} come after the "
        "checkpoint: nothing in the service's log vouches for them yet."
    )
    covered = verify_record({**early, "transparency": log.transparency(index)})
    assert covered.ok and "come after" not in covered.summary


def test_a_finished_games_checkpoint_is_of_its_end(app: GameLedger, log: Log) -> None:
    table = start_game(app, 2, seed="rematched")
    table.play_out()
    ended = export_record(app, table.game_id)
    lobby.rematch(app, table.game_id, table.tokens[0])
    rematched = export_record(app, table.game_id)
    assert rematched["events"][-1]["type"] == "RematchCreated"
    index = log.append(checkpoint_of(ended, SERVICE))
    report = verify_record({**rematched, "transparency": log.transparency(index)})
    assert report.ok, report.discrepancy  # RematchCreated follows the end
    last = len(rematched["events"])
    again = log.append(checkpoint_of(rematched, SERVICE, version=last, ended=True))
    report = verify_record({**rematched, "transparency": log.transparency(again)})
    assert report.ok, report.discrepancy  # the service checkpoints RematchCreated too
    assert report.transparency is not None and report.transparency.version == last

    running = log.append(checkpoint_of(ended, SERVICE, version=len(ended["events"]) - 3))
    message = refused(verify_record({**ended, "transparency": log.transparency(running)}))
    assert message == (
        f"transparency.checkpoint is of event {len(ended['events']) - 3} (ended: false), but "
        f"the record's game ended at event {len(ended['events'])} (GameEnded): a finished "
        "record carries an ended: true checkpoint of its end or after it"
    )


def test_an_aborted_games_checkpoint_is_ended(app: GameLedger, log: Log) -> None:
    opened = app.open_game("azul", 3)
    app.join(opened.game_id, "ann")
    lobby.abort(app, opened.game_id, opened.creator_token)
    record = export_record(app, opened.game_id)
    assert record["outcome"] is None
    index = log.append(checkpoint_of(record, SERVICE))
    assert log.entries[index][0]["ended"] is True
    assert verify_record({**record, "transparency": log.transparency(index)}).ok


def test_after_a_rotation_the_tree_head_is_signed_by_the_new_key(
    played: dict[str, Any],
) -> None:
    log = Log(SERVICE)
    record = logged(played, log)
    log.keyring = SERVICE.rotated()
    log.fill(2)
    record["transparency"] = log.transparency(3)
    assert record["transparency"]["tree_head"]["key_id"] == log.keyring.key_id != SERVICE.key_id

    unpinned = verify_record(record)
    assert unpinned.ok and unpinned.transparency is not None
    assert not unpinned.transparency.checked
    assert (
        f"the tree head's signature (key {log.keyring.key_id}, not in the record) was not "
        "checked" in unpinned.summary
    )
    pinned = verify_record(record, pinned_keys=pins(log.keyring))  # the old key is kept in it
    assert pinned.ok and pinned.transparency is not None and pinned.transparency.checked
    message = refused(verify_record(record, pinned_keys=pins(SERVICE)))
    assert message == (
        f"transparency.tree_head is signed by key {log.keyring.key_id}, which is not a pinned "
        f"key (pinned: {SERVICE.key_id}); {ROTATED}"
    )


# Private games


@pytest.fixture(scope="module")
def private(app: GameLedger) -> dict[str, Any]:
    """A finished private game's record, without transparency."""
    opened = app.open_game("azul", 2, private=True)
    tokens = [
        app.join(opened.game_id, f"p{n}", n, secret=opened.join_secret).token for n in range(2)
    ]
    Table(app, opened.game_id, tokens).play_out()
    record = export_record(app, opened.game_id)
    assert record["events"][0]["data"]["private"] is True
    return record


def test_a_private_games_checkpoint_names_it_by_the_digest_of_its_id(
    private: dict[str, Any], log: Log
) -> None:
    game_id = private["game"]["id"]
    digest = "sha256:" + hashlib.sha256(game_id.encode("ascii")).hexdigest()
    record = logged(private, log)
    assert record["transparency"]["checkpoint"]["game"] == digest
    report = verify_record(record, pinned_keys=pins(SERVICE), tree_head=log.head())
    assert report.ok, report.summary

    by_id = checkpoint_of(private, SERVICE) | {"game": game_id}
    record = {**private, "transparency": log.transparency(log.append(by_id))}
    assert refused(verify_record(record)) == (
        f"transparency.checkpoint.game is {game_id}, but the record's game is private (its "
        f"Created says private: true): the service logs it as {digest}, the SHA-256 of its id, "
        "never by the id itself"
    )


def test_a_public_games_checkpoint_never_names_it_by_a_digest(
    played: dict[str, Any], log: Log
) -> None:
    game_id = played["game"]["id"]
    digest = "sha256:" + hashlib.sha256(game_id.encode("ascii")).hexdigest()
    hidden = checkpoint_of(played, SERVICE) | {"game": digest}
    record = {**played, "transparency": log.transparency(log.append(hidden))}
    assert refused(verify_record(record)) == (
        f"transparency.checkpoint.game is {digest}, the name of a private game, but the "
        f"record's game is public (its Created does not say private: true): the service logs "
        f"it by its id {game_id}"
    )
    other = "sha256:" + "ab" * 32
    record = {**played, "transparency": log.transparency(log.append(hidden | {"game": other}))}
    assert refused(verify_record(record)) == (
        f"transparency.checkpoint.game is {other}, the record's game.id is {game_id}"
    )


def test_a_checkpoint_names_a_game_in_one_of_three_forms(record: dict[str, Any]) -> None:
    game_id = record["game"]["id"]
    for name in (
        "sha256:" + "AB" * 32,
        "sha256:ab",
        "ab" * 32,
        game_id.upper(),
        "tournament:" + game_id.upper(),
        "tournament:ab",
    ):
        record["transparency"]["checkpoint"]["game"] = name
        assert refused(verify_record(record)) == (
            "transparency.checkpoint.game must be a game id (a lowercase UUID), sha256: and 64 "
            "lowercase hex digits (a private game's), or tournament: and a lowercase UUID"
        )


# The forgery of the issue


def test_the_forgery_verifies_alone_and_is_rejected_by_the_checkpoint(
    app: GameLedger, record: dict[str, Any], log: Log
) -> None:
    forged = forge(record)
    assert (forged["game"]["id"], forged["seed"]) == (record["game"]["id"], record["seed"])
    assert forged["seed_sha256"] == record["seed_sha256"] and forged["seats"] == record["seats"]
    assert forged["moves"] != record["moves"] and forged["chain_head"] != record["chain_head"]
    assert verify_record(forged).ok  # what issue 14 is about

    # with the real game's checkpoint copied in: another history of the game
    message = refused(verify_record({**forged, "transparency": record["transparency"]}))
    version = record["transparency"]["checkpoint"]["version"]
    if version <= len(forged["events"]):
        assert message.startswith(
            f"transparency.checkpoint.chain_head is {record['chain_head']}, the record's event "
            f"{version} ("
        )
    else:
        assert message.startswith(f"transparency.checkpoint.version is {version}, the record ")
    assert message.endswith("the service logged another history of this game")

    # without a checkpoint, against the pinned key
    assert refused(verify_record(forged, pinned_keys=pins(SERVICE))).startswith("no checkpoint")

    # with a checkpoint in a log of the forger's own, signed by the forger's key
    own = Log(FORGER)
    signed = logged(forged, own)
    unpinned = verify_record(signed)
    assert unpinned.ok and "which came from the record itself" in unpinned.summary
    assert refused(verify_record(signed, pinned_keys=pins(SERVICE))) == (
        f"the checkpoint is signed by key {FORGER.key_id}, which is not a pinned key (pinned: "
        f"{SERVICE.key_id}); {ROTATED}"
    )
    # the tree head a player kept of the real log, of the same size: another key's log, which
    # unpinned cannot be compared (and never "the log was rewritten": nothing says whose)
    kept = log.head()
    assert kept["size"] == signed["transparency"]["tree_head"]["size"]
    assert refused(verify_record(signed, tree_head=kept)) == (
        f"the tree head given is signed by key {SERVICE.key_id}, the record's tree head by key "
        f"{FORGER.key_id}: unpinned, heads signed by different keys cannot be compared (they may "
        "be two services' logs, or one service's before and after a key rotation): pin the "
        "service's keys with --key or --keys"
    )
    assert refused(verify_record(signed, pinned_keys=pins(SERVICE), tree_head=kept)).startswith(
        f"the checkpoint is signed by key {FORGER.key_id}, which is not a pinned key"
    )


def test_the_forgers_log_is_not_the_one_a_player_kept(
    app: GameLedger, record: dict[str, Any], log: Log
) -> None:
    """Even signed by the service's key (stolen), a log that holds the forgery instead of
    the real game is not the one whose head a player kept."""
    forged = forge(record)
    kept = log.head()
    rewritten = Log(SERVICE)
    signed = logged(forged, rewritten)
    assert len(rewritten.tree) == kept["size"]
    report = verify_record(signed, pinned_keys=pins(SERVICE), tree_head=kept)
    assert refused(report) == (
        f"the log was rewritten: the tree head given and the record's are both of size 6, with "
        f"roots {kept['root_hash']} and {signed['transparency']['tree_head']['root_hash']}, "
        f"signed by pinned key {SERVICE.key_id}: the service signed two different trees of one "
        "size"
    )


# Keys


def test_a_record_re_signed_with_another_key(record: dict[str, Any]) -> None:
    checkpoint = {**record["transparency"]["checkpoint"], "key_id": FORGER.key_id}
    own = Log(FORGER)
    own.fill(2)
    index = own.append(checkpoint)
    resigned = {**record, "transparency": own.transparency(index)}
    assert verify_record(resigned).ok  # consistent with itself, reported unpinned
    assert "unpinned" in verify_record(resigned).summary
    assert refused(verify_record(resigned, pinned_keys=pins(SERVICE))) == (
        f"the checkpoint is signed by key {FORGER.key_id}, which is not a pinned key (pinned: "
        f"{SERVICE.key_id}); {ROTATED}"
    )
    assert verify_record(resigned, pinned_keys=pins(SERVICE, FORGER)).ok


def test_the_key_swapped_in_the_real_log(record: dict[str, Any]) -> None:
    """Only the checkpoint re-signed, the real tree head and proof kept: the leaf changed."""
    field = record["transparency"]
    field["checkpoint"]["key_id"] = FORGER.key_id
    field["public_key"] = b64url(FORGER.current.public_raw)
    field["signature"] = sign(FORGER, checkpoint_bytes(field["checkpoint"]))
    assert refused(verify_record(record, pinned_keys=pins(SERVICE))).startswith(
        f"the checkpoint is signed by key {FORGER.key_id}, which is not a pinned key"
    )
    message = refused(verify_record(record))  # unpinned: the real tree head is not the forger's
    assert message.startswith("the checkpoint is not in the log: ")


def test_a_public_key_that_is_not_the_signers(record: dict[str, Any]) -> None:
    record["transparency"]["public_key"] = b64url(FORGER.current.public_raw)
    assert refused(verify_record(record)) == (
        f"transparency.checkpoint.key_id is {SERVICE.key_id}, but transparency.public_key is "
        f"the key {FORGER.key_id}"
    )


def test_a_changed_checkpoint_breaks_its_signature(record: dict[str, Any]) -> None:
    record["transparency"]["checkpoint"]["at"] = "2030-01-01T00:00:00Z"
    assert refused(verify_record(record)) == (
        f"transparency.signature does not verify under transparency.public_key (key "
        f"{SERVICE.key_id}): the checkpoint or its signature was changed"
    )


@pytest.mark.parametrize("pinned", [False, True])
def test_a_changed_tree_head_breaks_its_signature(record: dict[str, Any], pinned: bool) -> None:
    record["transparency"]["tree_head"]["size"] = 7
    keys = pins(SERVICE) if pinned else None
    whose = "the pinned key" if pinned else "the record's public key"
    assert refused(verify_record(record, pinned_keys=keys)) == (
        f"transparency.tree_head: the signature does not verify under {whose} "
        f"{SERVICE.key_id} (what was signed, or the signature, was changed)"
    )


# The checkpoint and the log


def test_a_checkpoint_left_out_of_the_log(played: dict[str, Any], log: Log) -> None:
    """Signed, but never appended: no proof leads from it to any head of the log."""
    log.fill(5)
    checkpoint = checkpoint_of(played, SERVICE)
    field = {**log.transparency(2), "checkpoint": checkpoint}
    field["signature"] = sign(SERVICE, checkpoint_bytes(checkpoint))
    message = refused(verify_record({**played, "transparency": field}, pinned_keys=pins(SERVICE)))
    assert message.startswith(
        "the checkpoint is not in the log: transparency.inclusion_proof does not lead from the "
        f"checkpoint as entry 2 to the root {log.head()['root_hash']} of the tree of size 5"
    )


@pytest.mark.parametrize(
    "tamper",
    [
        lambda f: f["inclusion_proof"].__setitem__(0, "00" * 32),
        lambda f: f["inclusion_proof"].pop(),
        lambda f: f["inclusion_proof"].append("11" * 32),
        lambda f: f.__setitem__("leaf_index", 2),
        lambda f: f["inclusion_proof"].reverse(),
    ],
    ids=["hash changed", "shortened", "lengthened", "another index", "reordered"],
)
def test_a_tampered_inclusion_proof(record: dict[str, Any], tamper: Any) -> None:
    tamper(record["transparency"])
    message = refused(verify_record(record, pinned_keys=pins(SERVICE)))
    assert message.startswith("the checkpoint is not in the log: ")


def test_a_checkpoint_must_be_of_the_records_own_history(
    played: dict[str, Any], log: Log, app: GameLedger
) -> None:
    """Each signed by the service's key, logged, proved: still not this record's."""
    events = played["events"]
    last = len(events)

    def carried(checkpoint: dict[str, Any], record: dict[str, Any] = played) -> str:
        field = log.transparency(log.append(checkpoint))
        return refused(verify_record({**record, "transparency": field}, pinned_keys=pins(SERVICE)))

    # version v with the hash of another event
    shifted = checkpoint_of(played, SERVICE) | {"version": last - 1}
    assert carried(shifted) == (
        f"transparency.checkpoint.chain_head is {events[-1]['hash']}, the record's event "
        f"{last - 1} ({events[-2]['type']}) has hash {events[-2]['hash']}: the service logged "
        "another history of this game"
    )
    # the record's events cut before the checkpoint
    table = start_game(app, 2, seed="cut")
    for _ in range(4):
        table.step()
    cut = export_record(app, table.game_id)  # the game's record, cut where it then ended
    for _ in range(2):
        table.step()
    whole = export_record(app, table.game_id)
    assert carried(checkpoint_of(whole, SERVICE), cut) == (
        f"transparency.checkpoint.version is {len(whole['events'])}, the record ends at event "
        f"{len(cut['events'])}: the service logged another history of this game"
    )
    # a running record with an ended checkpoint of its last event
    assert carried(checkpoint_of(whole, SERVICE, ended=True), whole) == (
        f"transparency.checkpoint.ended is true at event {len(whole['events'])}, but the "
        "record's game is not over"
    )


def test_a_tree_head_smaller_than_the_leaf_index(record: dict[str, Any], log: Log) -> None:
    """A signed head of a tree that does not reach the checkpoint's entry proves nothing."""
    field = record["transparency"]
    for size in (field["leaf_index"], field["leaf_index"] - 1, 0):
        field["tree_head"] = log.head(size)
        assert refused(verify_record(record, pinned_keys=pins(SERVICE))).startswith(
            "the checkpoint is not in the log: transparency.inclusion_proof does not lead from "
            f"the checkpoint as entry {field['leaf_index']} to the root "
        )


def test_another_games_checkpoint(record: dict[str, Any], log: Log) -> None:
    record["transparency"] = log.transparency(0)
    assert refused(verify_record(record)) == (
        f"transparency.checkpoint.game is {log.entries[0][0]['game']}, the record's game.id "
        f"is {record['game']['id']}"
    )


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("signature", "not base64!", "transparency.signature must be an Ed25519 signature: 64"),
        ("signature", "AAAA", "transparency.signature must be an Ed25519 signature: 64 bytes"),
        ("leaf_index", -1, "transparency.leaf_index must be a whole number of at least 0"),
        ("inclusion_proof", ["xyz"], "transparency.inclusion_proof[0] must be 64 lowercase hex"),
        ("checkpoint", {"format": "x"}, "transparency.checkpoint.format must be"),
        ("tree_head", [], "transparency.tree_head is not a JSON object"),
        ("public_key", "AAAA", "transparency.public_key is not 32 bytes"),
        ("public_key", "A" * 43, "transparency.public_key is not an acceptable Ed25519 public"),
    ],
)
def test_a_malformed_transparency_field(
    record: dict[str, Any], field: str, value: Any, message: str
) -> None:
    record["transparency"][field] = value
    assert refused(verify_record(record)).startswith(message)


def test_malformed_transparency_fields_are_named(record: dict[str, Any]) -> None:
    del record["transparency"]["tree_head"]
    assert refused(verify_record(record)) == "transparency.tree_head is missing"
    assert refused(verify_record({**record, "transparency": []})) == (
        "transparency must be an object or null"
    )
    record["transparency"] = {"checkpoint": None}
    assert refused(verify_record(record)) == "transparency.signature is missing"


# A tree head the user kept


def test_the_tree_head_given(record: dict[str, Any], log: Log) -> None:
    kept = log.head()
    report = verify_record(record, pinned_keys=pins(SERVICE), tree_head=kept)
    assert report.ok and report.transparency is not None and report.transparency.tree_head_given
    assert "(root " + kept["root_hash"] + "), the tree head given; signed by pinned key" in (
        report.summary
    )


def test_a_tree_head_of_another_size_gives_advice(record: dict[str, Any], log: Log) -> None:
    log.fill(4)
    message = refused(verify_record(record, tree_head=log.head()))
    assert message == (
        "the record's inclusion proof is for tree size 6, the tree head given is of size 10: "
        f"export the record again with --tree-size 10 (or GET /api/v1/games/"
        f"{record['game']['id']}/record?tree_size=10)"
    )
    record["transparency"] = log.transparency(3)
    assert verify_record(record, tree_head=log.head()).ok
    message = refused(verify_record(record, tree_head=log.head(3)))
    assert message == (
        "the record's inclusion proof is for tree size 10, the tree head given is of size 3, "
        "older than the checkpoint (entry 3): keep a newer tree head, check that the one given "
        "is a prefix of it (gameledger verify-log OLD NEW), and verify the record against the "
        "newer one"
    )


def test_a_rewritten_log_is_caught_by_the_tree_head_given(record: dict[str, Any], log: Log) -> None:
    """The service's key signs a log with one earlier entry changed: the record's own proof
    holds against it, but not the tree head a player kept before."""
    kept = log.head()
    rewritten = Log(SERVICE)
    for index, (checkpoint, _) in enumerate(log.entries):
        rewritten.append({**checkpoint, "version": 99} if index == 1 else checkpoint)
    record["transparency"] = rewritten.transparency(3)
    assert verify_record(record, pinned_keys=pins(SERVICE)).ok
    assert refused(verify_record(record, pinned_keys=pins(SERVICE), tree_head=kept)).startswith(
        "the log was rewritten: the tree head given and the record's are both of size 6"
    )


def test_the_tree_head_given_is_held_to_the_key_policy(record: dict[str, Any]) -> None:
    other = Log(FORGER)
    other.fill(6)
    kept = other.head()
    assert refused(verify_record(record, pinned_keys=pins(SERVICE), tree_head=kept)) == (
        f"the tree head given is signed by key {FORGER.key_id}, which is not a pinned key "
        f"(pinned: {SERVICE.key_id}); {ROTATED}"
    )
    kept["size"] = 1
    assert refused(verify_record(record, tree_head={**kept, "size": "six"})) == (
        "the tree head given.size must be a whole number of at least 0"
    )
