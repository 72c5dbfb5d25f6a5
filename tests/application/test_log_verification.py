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
from application.audit_log import LogReport, ProofSource, head_missing, verify_log
from application.checkpoints import tree_head_bytes
from application.signing import Keyring
from tests.transparency import ROTATED, Log, sign

SERVICE = Keyring.generate()
OTHER = Keyring.generate()
PINNED = KeyPolicy.of([SERVICE.current])


@pytest.fixture
def log() -> Log:
    """A log of 13 checkpoints."""
    grown = Log(SERVICE)
    grown.fill(13)
    return grown


URL = "https://ledger.example"
SERVER = ProofSource(server=URL)


def check(
    old: dict[str, Any],
    new: dict[str, Any],
    answer: dict[str, Any],
    keys: KeyPolicy = PINNED,
    source: ProofSource = SERVER,
) -> LogReport:
    """``verify_log`` on documents (the proof fetched from the service, by default)."""
    return verify_log(
        documents.tree_head(old, "OLD"),
        documents.tree_head(new, "NEW"),
        keys,
        documents.consistency_answer(answer, "the proof"),
        source,
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
    """The service's own signed head of OLD's size, with another root, is the signed proof of
    a rewriting; a proof that does not join the heads only says that it could not prove the
    log grew (a proof is unsigned)."""
    kept = log.head(7)
    now = rewritten(log, changed)
    report = check(kept, now.head(13), {**now.consistency(7, 13), "first_head": None})
    assert not report.ok
    assert report.summary == (
        f"INVALID: the service at {URL} could not prove that size 7 is a prefix of size 13: its "
        f"proof does not join the two signed heads (roots {kept['root_hash']} and "
        f"{now.head(13)['root_hash']})"
    )
    served = check(kept, now.head(13), now.consistency(7, 13))  # the service's head of size 7
    assert served.summary == (
        f"INVALID: the log was rewritten: the service's tree head of size 7 (signed by pinned "
        f"key {SERVICE.key_id} at {kept['at']}) has root {now.head(7)['root_hash']}, OLD (kept, "
        f"signed by pinned key {SERVICE.key_id}) has {kept['root_hash']}: the service signed "
        "two different trees of one size"
    )


def test_a_proof_file_that_does_not_join_the_heads_proves_nothing(log: Log) -> None:
    """The outside trial: one hash of a genuine proof flipped, between two genuine pinned
    heads. Not "the log was rewritten": a proof file is unsigned, anyone can change it."""
    answer = log.consistency(5, 13)
    answer["proof"][0] = ("0" if answer["proof"][0][0] != "0" else "1") + answer["proof"][0][1:]
    for keys in (PINNED, KeyPolicy()):
        report = check(log.head(5), log.head(13), answer, keys, ProofSource(file="cons-bad.json"))
        assert not report.ok
        assert report.summary == (
            "INVALID: the proof does not join the two heads (from cons-bad.json: it proves "
            "nothing either way; fetch it from the service)"
        )
    store = check(log.head(5), log.head(13), answer, PINNED, ProofSource())
    assert store.summary.startswith(
        "INVALID: the configured store could not prove that size 5 is a prefix of size 13"
    )


def test_an_entry_after_the_old_head_may_change_nothing_before(log: Log) -> None:
    """A change after OLD's entries is no rewriting of what OLD saw."""
    now = rewritten(log, 10)
    assert check(log.head(7), now.head(13), now.consistency(7, 13)).ok


def test_equal_sizes_with_other_roots(log: Log) -> None:
    """Two heads of one size with different roots, both signed by pinned keys: the signed
    proof of a rewriting, whatever the proof. Unpinned, it proves nothing about the service."""
    now = rewritten(log, 2)
    old, new = log.head(13), now.head(13)
    report = check(old, new, {**now.consistency(13, 13), "first_head": None})
    assert report.summary == (
        f"INVALID: the log was rewritten: OLD and NEW are both of size 13, with roots "
        f"{old['root_hash']} and {new['root_hash']}, signed by pinned key {SERVICE.key_id}: the "
        "service signed two different trees of one size"
    )
    unpinned = check(old, new, {**now.consistency(13, 13), "first_head": None}, KeyPolicy())
    assert not unpinned.ok and "rewritten" not in unpinned.summary
    assert unpinned.summary.endswith(
        "unpinned, their signatures were not checked, so this proves nothing about the service "
        "(pin its keys with --key or --keys)"
    )


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
        f"a pinned key (pinned: {SERVICE.key_id}); {ROTATED}"
    )
    forged = {**log.head(4), "root_hash": "ab" * 32}
    report = check(forged, log.head(13), log.consistency(4, 13))
    assert report.summary == (
        f"INVALID: OLD (the tree head of size 4): the signature does not verify under the pinned "
        f"key {SERVICE.key_id} (what was signed, or the signature, was changed)"
    )
    # unpinned, the same forgery is caught by the service's head (which, unsigned as far as
    # anyone can tell, makes the answer unusable), or else by the proof: never "rewritten"
    with pytest.raises(DocumentError, match="unpinned, nothing tells whose head it is"):
        check(forged, log.head(13), log.consistency(4, 13), KeyPolicy())
    bare = {**log.consistency(4, 13), "first_head": None}
    report = check(forged, log.head(13), bare, KeyPolicy())
    assert report.summary.startswith(
        f"INVALID: the service at {URL} could not prove that size 4 is a prefix of size 13"
    )


def test_an_empty_head_with_another_root(log: Log) -> None:
    """A signed "size 0" head whose root is not the hash of nothing names no tree: it is not
    the prefix of every log, however it was signed."""
    empty = {**log.head(0), "root_hash": log.head(1)["root_hash"]}
    empty["signature"] = sign(SERVICE, tree_head_bytes(empty))
    report = check(empty, log.head(13), {**log.consistency(0, 13), "first_head": None})
    assert report.summary.startswith(
        f"INVALID: the service at {URL} could not prove that size 0 is a prefix of size 13"
    )


def test_a_service_without_the_head_kept(log: Log) -> None:
    """``verify-log --server`` when the service has no signed head of a kept head's size."""
    old, new = documents.tree_head(log.head(4), "OLD"), documents.tree_head(log.head(13), "NEW")
    report = head_missing(old, new, PINNED, 4, URL)
    assert not report.ok and report.signatures_checked
    assert report.summary == (
        f"INVALID: the service at {URL} answers that it has no signed tree head of size 4, yet "
        f"OLD (kept) is a tree head of that size, signed by pinned key {SERVICE.key_id} at "
        f"{old.at}: the service cannot show that its log still holds that tree (it dropped the "
        "head, or made its log again)"
    )
    assert "rewritten" not in report.summary  # the 404 is not signed
    assert head_missing(old, new, KeyPolicy(), 13, URL).summary == (
        f"INVALID: the service at {URL} answers that it has no signed tree head of size 13, yet "
        "NEW (kept) is a tree head of that size, its signature not checked against a pinned key "
        "(pin the service's keys to hold it to that head): the service cannot show that its log "
        "still holds that tree (it dropped the head, or made its log again)"
    )
    stranger = documents.tree_head(Log(OTHER).head(0), "OLD")
    assert head_missing(stranger, new, PINNED, 0, URL).summary == (
        f"INVALID: OLD (the tree head of size 0) is signed by key {OTHER.key_id}, which is not a "
        f"pinned key (pinned: {SERVICE.key_id}); {ROTATED}"
    )


def test_a_head_in_the_answer_is_evidence_only_when_signed(log: Log) -> None:
    """A saved (or intercepted) answer whose "service's head" was changed frames nobody: with
    pinned keys, a served head with another root than the kept one is the service's word only
    under a pinned key's signature; otherwise the answer is not the service's (unusable)."""
    kept = log.head(5)
    answer = log.consistency(5, 13)
    answer["first_head"] = {**answer["first_head"], "root_hash": "ab" * 32}
    with pytest.raises(
        DocumentError,
        match=(
            r"the answer's first_head \(the tree head of size 5\): the signature does not "
            r"verify under the pinned key"
        ),
    ):
        check(kept, log.head(13), answer)
    # unpinned, an edited first_head frames nobody either: unusable, never "rewritten"
    with pytest.raises(DocumentError, match="unpinned, nothing tells whose head it is"):
        check(kept, log.head(13), answer, KeyPolicy(), ProofSource(file="cons.json"))
    stranger = Log(OTHER)
    stranger.fill(5)
    answer["first_head"] = stranger.head(5)
    with pytest.raises(DocumentError, match=r"is signed by key .*, which is not a pinned key"):
        check(kept, log.head(13), answer)
    # signed by the service, another root of the same size: the service said both
    now = rewritten(log, 1)
    report = check(kept, now.head(13), now.consistency(5, 13))
    assert report.summary.startswith("INVALID: the log was rewritten: the service's tree head")


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
        ("signature", "abc", "OLD.signature must be an Ed25519 signature: 64 bytes"),
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
