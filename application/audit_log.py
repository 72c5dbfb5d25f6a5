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


def head_missing(old: TreeHead, new: TreeHead, keys: KeyPolicy, size: int) -> LogReport:
    """The verdict when the service (or the store) has no signed tree head of ``size``, the
    size of OLD or NEW: every head it ever signed is kept (docs/audit.md, "The transparency
    log"), so one it lacks of a size someone holds a head of was dropped, or the log was made
    again past that size — either way it cannot show that its log still holds that tree
    (docs/audit.md, "Checking that the log only grew")."""

    def report(summary: str, checked: bool = False) -> LogReport:
        return LogReport(
            False, summary, old.size, new.size, old.root_hash, new.root_hash, keys.is_pinned,
            checked,
        )  # fmt: skip

    try:
        checked = check_signatures(old, new, keys)
    except SignatureRefused as refused:
        return report(f"INVALID: {refused}")
    name, kept = ("OLD", old) if old.size == size else ("NEW", new)
    signed = (
        f", signed by pinned key {kept.key_id} at {kept.at}"
        if checked
        else " (signatures not checked against a pinned key)"
    )
    return report(
        f"INVALID: the log was rewritten: the service has no signed tree head of size {size}, "
        f"yet {name} (kept) is a tree head of that size{signed}: the service cannot show that "
        "its log still holds that tree",
        checked,
    )


def _served_signature(served: TreeHead, field: str, keys: KeyPolicy) -> None:
    """A head of the answer taken as the service's word (another root than a kept head of its
    size: a rewriting) must be signed by a pinned key; else the answer is not the service's
    and is :class:`DocumentError` (unusable), never evidence against it. Unpinned, nothing is
    checked (docs/audit.md, "Checking that the log only grew")."""
    what = f"the answer's {field} (the tree head of size {served.size})"
    try:
        keys.check(what, served.key_id, tree_head_bytes(served.document), served.signature)
    except SignatureRefused as refused:
        raise DocumentError(str(refused)) from None


def verify_log(
    old: TreeHead, new: TreeHead, keys: KeyPolicy, answer: ConsistencyAnswer
) -> LogReport:
    """The verdict on OLD and NEW with the consistency proof of ``answer``. Raises
    :class:`DocumentError` when the answer is for other sizes, or (pinned) carries a head of
    OLD's or NEW's size with another root that no pinned key signed (an unusable input);
    every finding on the log itself is a report."""
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
            _served_signature(served, "first_head" if name == "OLD" else "second_head", keys)
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
