"""Checking that the transparency log only grew (issue 14, part 4; docs/audit.md, "Checking
that the log only grew"): ``verify_log`` on signed tree heads of a real RFC 9162 tree and
consistency proofs made from it — consistent heads pass; a rewritten log, a shrunk one, a
signature by another key and a proof for other sizes do not."""

from __future__ import annotations

from typing import Any

import pytest

from application import audit_documents as documents
from application.audit_documents import ConsistencyAnswer, DocumentError
from application.audit_keys import KeyPolicy
from application.audit_log import LogReport, verify_log
from application.signing import Keyring
from tests.transparency import Log

SERVICE = Keyring.generate()
OTHER = Keyring.generate()
PINNED = KeyPolicy.of([SERVICE.current])


@pytest.fixture
def log() -> Log:
    """A log of 13 checkpoints."""
    grown = Log(SERVICE)
    grown.fill(13)
    return grown


def check(
    old: dict[str, Any], new: dict[str, Any], answer: dict[str, Any], keys: KeyPolicy = PINNED
) -> LogReport:
    """``verify_log`` on documents."""
    return verify_log(
        documents.tree_head(old, "OLD"),
        documents.tree_head(new, "NEW"),
        keys,
        documents.consistency_answer(answer, "the proof"),
    )


@pytest.mark.parametrize(("first", "second"), [(1, 13), (4, 13), (7, 8), (13, 13), (0, 5)])
def test_consistent_heads(log: Log, first: int, second: int) -> None:
    report = check(log.head(first), log.head(second), log.consistency(first, second))
    assert report.ok and report.signatures_checked and report.pinned
    assert report.summary.startswith(
        f"OK: the tree of size {first} (root {log.head(first)['root_hash']}, signed "
    )
    assert report.summary.endswith(
        f"the log only grew; signatures checked against pinned key(s) {SERVICE.key_id}."
    )


def test_without_pins_the_signatures_are_not_checked(log: Log) -> None:
    report = check(log.head(5), log.head(13), log.consistency(5, 13), KeyPolicy())
    assert report.ok and not report.signatures_checked and not report.pinned
    assert report.summary.endswith(
        "signatures not checked against a pinned key (give --key or --keys)."
    )


def rewritten(log: Log, changed: int) -> Log:
    """The same log with entry ``changed`` replaced, signed by the same key."""
    other = Log(log.keyring)
    for index, (checkpoint, _) in enumerate(log.entries):
        other.append(
            {**checkpoint, "ended": not checkpoint["ended"]} if index == changed else checkpoint
        )
    return other


@pytest.mark.parametrize("changed", [0, 3, 6])
def test_a_rewritten_log(log: Log, changed: int) -> None:
    kept = log.head(7)
    now = rewritten(log, changed)
    report = check(kept, now.head(13), {**now.consistency(7, 13), "first_head": None})
    assert not report.ok
    assert report.summary.startswith(
        "INVALID: the log was rewritten: the tree of size 7 is not a prefix of the tree of size 13"
    )
    served = check(kept, now.head(13), now.consistency(7, 13))  # the service's head of size 7
    assert served.summary == (
        f"INVALID: the log was rewritten: the service's tree head of size 7 has root "
        f"{now.head(7)['root_hash']}, OLD (kept) has {kept['root_hash']}"
    )


def test_an_entry_after_the_old_head_may_change_nothing_before(log: Log) -> None:
    """A change after OLD's entries is no rewriting of what OLD saw."""
    now = rewritten(log, 10)
    assert check(log.head(7), now.head(13), now.consistency(7, 13)).ok


def test_equal_sizes_with_other_roots(log: Log) -> None:
    now = rewritten(log, 2)
    report = check(log.head(13), now.head(13), {**now.consistency(13, 13), "first_head": None})
    assert report.summary.startswith("INVALID: the log was rewritten: the tree of size 13 is not")


def test_a_log_does_not_shrink(log: Log) -> None:
    report = check(log.head(9), log.head(4), {"first": 9, "second": 4, "proof": []})
    assert report.summary == (
        "INVALID: OLD is of size 9, larger than NEW (size 4): a log only grows (or the two were "
        "given in the wrong order)"
    )


def test_signatures_by_the_key_policy(log: Log) -> None:
    other = Log(OTHER)
    other.entries, other.tree = log.entries, log.tree
    report = check(log.head(4), other.head(13), log.consistency(4, 13))
    assert report.summary == (
        f"INVALID: NEW (the tree head of size 13) is signed by key {OTHER.key_id}, which is not "
        f"a pinned key (pinned: {SERVICE.key_id})"
    )
    forged = {**log.head(4), "root_hash": "ab" * 32}
    report = check(forged, log.head(13), log.consistency(4, 13))
    assert report.summary == (
        f"INVALID: OLD (the tree head of size 4): the signature does not verify under the pinned "
        f"key {SERVICE.key_id} (what was signed, or the signature, was changed)"
    )
    # unpinned, the same forgery is caught by the service's head, or else by the proof
    report = check(forged, log.head(13), log.consistency(4, 13), KeyPolicy())
    assert report.summary.startswith("INVALID: the log was rewritten: the service's tree head")
    bare = {**log.consistency(4, 13), "first_head": None}
    report = check(forged, log.head(13), bare, KeyPolicy())
    assert report.summary.startswith("INVALID: the log was rewritten: the tree of size 4")


def test_a_proof_for_other_sizes_is_refused(log: Log) -> None:
    with pytest.raises(
        DocumentError,
        match="the consistency proof is from size 3 to 13, the tree heads are of sizes 4 and 13",
    ):
        check(log.head(4), log.head(13), log.consistency(3, 13))


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([], "OLD is not a JSON object"),
        ({"format": "gameledger-tree-head/2"}, "OLD.format must be 'gameledger-tree-head/1'"),
        ({"format": "gameledger-tree-head/1", "size": 1}, "OLD.root_hash is missing"),
    ],
)
def test_a_tree_head_that_is_not_one(document: Any, message: str) -> None:
    with pytest.raises(DocumentError, match=message):
        documents.tree_head(document, "OLD")


def test_a_malformed_tree_head_field(log: Log) -> None:
    for name, value, message in [
        ("size", -1, "OLD.size must be a whole number of at least 0"),
        ("size", True, "OLD.size must be a whole number"),
        ("root_hash", "AB" * 32, "OLD.root_hash must be 64 lowercase hex digits"),
        ("at", "2026-11-22T12:00:00+00:00", "OLD.at must be a UTC time to the second ending in Z"),
        ("key_id", "xyz", "OLD.key_id must be a key id"),
        ("signature", "abc", "OLD.signature must be 64 bytes, not 2"),
    ]:
        with pytest.raises(DocumentError, match=message):
            documents.tree_head({**log.head(3), name: value}, "OLD")


def test_an_answer_without_the_services_heads(log: Log) -> None:
    answer = documents.consistency_answer({"first": 2, "second": 13, "proof": []}, "p")
    assert answer == ConsistencyAnswer(2, 13, (), None, None)
    report = verify_log(
        documents.tree_head(log.head(2), "OLD"),
        documents.tree_head(log.head(13), "NEW"),
        PINNED,
        answer,
    )
    assert not report.ok  # an empty proof joins nothing
