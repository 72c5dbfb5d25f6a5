"""A retired key signs nothing new (docs/audit.md, "The key policy", and the threat model's
stolen key): the keys the service publishes carry ``retired_at``, a keys file that gives it
is read with it, and ``verify``/``verify-log`` refuse a checkpoint or tree head signed by a
pinned key after its retirement — what a thief of a retired key would sign."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from application import audit_documents as documents
from application.audit_documents import DocumentError
from application.audit_keys import KeyPolicy
from application.audit_log import ProofSource, verify_log
from application.records import export_record
from application.service import GameLedger
from application.signing import Keyring, PublicKey
from application.verification import verify_record
from tests.helpers import start_game
from tests.transparency import AT, Log, logged

SERVICE = Keyring.generate()
BEFORE = "2026-11-22T11:59:59Z"
"""A retirement before everything the test log signs (at :data:`tests.transparency.AT`)."""
AFTER = "2026-11-23T00:00:00Z"


@pytest.fixture(scope="module")
def played() -> dict[str, Any]:
    app = GameLedger()
    table = start_game(app, 2, seed="retired")
    table.play_out()
    return export_record(app, table.game_id)


def retired(at: str | None) -> PublicKey:
    """The service's key as a keys file that says it was retired ``at`` pins it."""
    keys = {"keys": [{"public_key": SERVICE.public_keys()[0]["public_key"], "retired_at": at}]}
    (key,) = documents.pinned_keys(keys, "keys.json")
    return key


def test_the_published_keys_carry_their_retirement() -> None:
    rotated = SERVICE.rotated()
    current, old = rotated.public_keys()
    assert current["retired_at"] is None and current["current"]
    assert old["key_id"] == SERVICE.key_id and not old["current"]
    assert old["retired_at"] is not None and old["retired_at"] >= old["created_at"]
    (read,) = [k for k in documents.pinned_keys({"keys": [current, old]}, "k") if k.retired_at]
    assert read.key_id == SERVICE.key_id and read.retired_at == old["retired_at"]


def test_a_keys_files_retired_at_must_be_a_time() -> None:
    key = SERVICE.public_keys()[0]
    with pytest.raises(DocumentError, match=r"k\[0\]\.retired_at must be a UTC time"):
        documents.pinned_keys([{**key, "retired_at": "yesterday"}], "k")


def test_a_checkpoint_signed_after_the_retirement_is_refused(played: dict[str, Any]) -> None:
    record = logged(copy.deepcopy(played), Log(SERVICE))
    assert verify_record(record, pinned_keys=[retired(AFTER)]).ok
    assert verify_record(record, pinned_keys=[retired(AT)]).ok  # signed at its retirement
    report = verify_record(record, pinned_keys=[retired(BEFORE)])
    assert not report.ok
    assert report.discrepancy == (
        f"record: the checkpoint is signed by key {SERVICE.key_id} at {AT}, after it was "
        f"retired at {BEFORE}: the service signs nothing with a retired key, so whoever signed "
        "this holds a key that leaked"
    )
    unpinned = verify_record(record)  # nothing says the record's own key is retired
    assert unpinned.ok


def test_a_tree_head_signed_after_the_retirement_is_refused(played: dict[str, Any]) -> None:
    """The checkpoint signed before the key's retirement; a head of the log signed by the
    same key afterwards — by whoever kept (or stole) the retired key."""
    log = Log(SERVICE)
    record = logged(copy.deepcopy(played), log)
    log.at = AFTER
    record["transparency"] = log.transparency(3)
    report = verify_record(record, pinned_keys=[retired("2026-11-22T18:00:00Z")])
    assert report.discrepancy == (
        f"record: transparency.tree_head is signed by key {SERVICE.key_id} at {AFTER}, after it "
        "was retired at 2026-11-22T18:00:00Z: the service signs nothing with a retired key, so "
        "whoever signed this holds a key that leaked"
    )


def test_verify_log_refuses_a_head_signed_after_the_retirement() -> None:
    log = Log(SERVICE)
    log.fill(5)
    old = documents.tree_head(log.head(3), "OLD")
    log.at = AFTER
    new = documents.tree_head(log.head(5), "NEW")
    answer = documents.consistency_answer(log.consistency(3, 5), "proof")
    keys = KeyPolicy.of([retired("2026-11-22T18:00:00Z")])
    report = verify_log(old, new, keys, answer, ProofSource(file="p.json"))
    assert not report.ok
    assert report.summary == (
        f"INVALID: NEW (the tree head of size 5) is signed by key {SERVICE.key_id} at {AFTER}, "
        "after it was retired at 2026-11-22T18:00:00Z: the service signs nothing with a retired "
        "key, so whoever signed this holds a key that leaked"
    )
    assert verify_log(old, new, KeyPolicy.of([retired(None)]), answer).ok


def test_one_key_pinned_twice_keeps_the_earlier_retirement() -> None:
    policy = KeyPolicy.of([retired(None), retired(AFTER), retired(BEFORE), retired(None)])
    assert [key.retired_at for key in policy.pinned] == [BEFORE]
