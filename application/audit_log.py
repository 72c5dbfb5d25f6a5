"""Checking that the transparency log only grew (issue 14, part 4; docs/audit.md, "Checking
that the log only grew"): ``gameledger verify-log OLD NEW`` holds the service to a tree head
someone kept. Both heads' signatures by the key policy (:mod:`application.audit_keys`; with
no pinned key they are not checked, and the report says so), OLD no larger than NEW, and the
RFC 9162 consistency proof between them (``domain.merkle.verify_consistency``): the tree of
OLD's size must be a prefix of the tree of NEW's — else the log was rewritten. Pure: the proof
(a ``GET /log/proofs/consistency`` answer) comes from a saved file, the service or the store,
fetched by the caller (api/cli_verify.py)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from application.audit_documents import ConsistencyAnswer, DocumentError, TreeHead
from application.audit_keys import KeyPolicy, SignatureRefused
from application.checkpoints import tree_head_bytes
from domain.merkle import verify_consistency


@dataclass(frozen=True)
class LogReport:
    """The verdict of ``verify-log``: ``ok`` (the log only grew) and a one-line ``summary``;
    the two heads; whether their signatures were checked against pinned keys."""

    ok: bool
    summary: str
    old_size: int
    new_size: int
    old_root: str
    new_root: str
    pinned: bool
    signatures_checked: bool

    def to_json(self) -> dict[str, Any]:
        """The report as JSON-ready primitives."""
        return asdict(self)


def check_signatures(old: TreeHead, new: TreeHead, keys: KeyPolicy) -> bool:
    """Both heads' signatures by the key policy: ``True`` when checked against pinned keys,
    ``False`` when none is pinned; :class:`SignatureRefused` for a bad one."""
    checked = True
    for name, head in (("OLD", old), ("NEW", new)):
        what = f"{name} (the tree head of size {head.size})"
        signed = tree_head_bytes(head.document)
        checked = keys.check(what, head.key_id, signed, head.signature) and checked
    return checked


def verify_log(
    old: TreeHead, new: TreeHead, keys: KeyPolicy, answer: ConsistencyAnswer
) -> LogReport:
    """The verdict on OLD and NEW with the consistency proof of ``answer``. Raises
    :class:`DocumentError` when the answer is for other sizes (an unusable input); every
    finding on the log itself is a report."""
    if (answer.first, answer.second) != (old.size, new.size):
        raise DocumentError(
            f"the consistency proof is from size {answer.first} to {answer.second}, the tree "
            f"heads are of sizes {old.size} and {new.size}"
        )

    def report(ok: bool, summary: str, checked: bool = False) -> LogReport:
        return LogReport(
            ok, summary, old.size, new.size, old.root_hash, new.root_hash, keys.is_pinned, checked
        )

    try:
        checked = check_signatures(old, new, keys)
    except SignatureRefused as refused:
        return report(False, f"INVALID: {refused}")
    if old.size > new.size:
        return report(
            False,
            f"INVALID: OLD is of size {old.size}, larger than NEW (size {new.size}): a log only "
            "grows (or the two were given in the wrong order)",
            checked,
        )
    for name, kept, served in (("OLD", old, answer.first_head), ("NEW", new, answer.second_head)):
        if served is not None and served.size == kept.size and served.root_hash != kept.root_hash:
            return report(
                False,
                f"INVALID: the log was rewritten: the service's tree head of size {kept.size} "
                f"has root {served.root_hash}, {name} (kept) has {kept.root_hash}",
                checked,
            )
    if not verify_consistency(old.size, new.size, old.root, new.root, answer.proof):
        return report(
            False,
            f"INVALID: the log was rewritten: the tree of size {old.size} is not a prefix of "
            f"the tree of size {new.size} (the consistency proof does not join root "
            f"{old.root_hash} to root {new.root_hash})",
            checked,
        )
    keys_said = (
        f"signatures checked against pinned key(s) {keys.pinned_ids()}"
        if checked
        else "signatures not checked against a pinned key (give --key or --keys)"
    )
    return report(
        True,
        f"OK: the tree of size {old.size} (root {old.root_hash}, signed {old.at}) is a prefix "
        f"of the tree of size {new.size} (root {new.root_hash}, signed {new.at}): the log only "
        f"grew; {keys_said}.",
        checked,
    )
