"""Checking that the transparency log only grew (issue 14, part 4; docs/audit.md, "Checking
that the log only grew"): ``gameledger verify-log OLD NEW`` holds the service to a tree head
someone kept. Both heads' signatures by the key policy (:mod:`application.audit_keys`; with
no pinned key they are not checked, and the report says so), OLD no larger than NEW, and the
RFC 9162 consistency proof between them (``domain.merkle.verify_consistency``): the tree of
OLD's size must be a prefix of the tree of NEW's. A proof is not signed: one that does not
join the two heads proves nothing about the log, only that its source could not prove it
grew. "The log was rewritten" is said only on a signed proof of misbehaviour: two heads of one
size with different roots, both signed by pinned keys. Pure: the proof (a ``GET
/log/proofs/consistency`` answer) comes from a saved file, the service or the store, fetched
by the caller (api/cli_verify.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from application.audit_documents import ConsistencyAnswer, DocumentError, TreeHead
from application.audit_keys import KeyPolicy, SignatureRefused, signers
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


@dataclass(frozen=True)
class ProofSource:
    """Where the consistency proof came from, for the verdict's words: a saved answer
    (``file``: its path), the service at ``server`` (its URL), or else the configured store.
    A proof is not signed: one that fails to join the two heads proves nothing about the log,
    only that its source could not prove the log grew."""

    file: str | None = None
    server: str | None = None

    def no_join(self, old: TreeHead, new: TreeHead) -> str:
        """The verdict's words for a proof that does not join OLD's root to NEW's."""
        if self.file is not None:
            return (
                f"the proof does not join the two heads (from {self.file}: it proves nothing "
                "either way; fetch it from the service)"
            )
        who = f"the service at {self.server}" if self.server is not None else "the configured store"
        return (
            f"{who} could not prove that size {old.size} is a prefix of size {new.size}: its "
            f"proof does not join the two signed heads (roots {old.root_hash} and "
            f"{new.root_hash})"
        )


def check_signatures(old: TreeHead, new: TreeHead, keys: KeyPolicy) -> bool:
    """Both heads' signatures by the key policy: ``True`` when checked against pinned keys,
    ``False`` when none is pinned; :class:`SignatureRefused` for a bad one (or one made after
    its pinned key was retired)."""
    checked = True
    for name, head in (("OLD", old), ("NEW", new)):
        what = f"{name} (the tree head of size {head.size})"
        signed = tree_head_bytes(head.document)
        checked = keys.check(what, head.key_id, signed, head.signature, at=head.at) and checked
    return checked


def _report(old: TreeHead, new: TreeHead, keys: KeyPolicy) -> Callable[..., LogReport]:
    def report(ok: bool, summary: str, checked: bool = False) -> LogReport:
        return LogReport(
            ok, summary, old.size, new.size, old.root_hash, new.root_hash, keys.is_pinned, checked
        )

    return report


def head_missing(
    old: TreeHead, new: TreeHead, keys: KeyPolicy, size: int, server: str
) -> LogReport:
    """The verdict when the service at ``server`` (which publishes the keys that signed OLD
    and NEW: the caller checked) answers that it has no signed tree head of ``size``, the
    size of OLD or NEW. It keeps every head it signed (docs/audit.md, "The transparency
    log"), so it cannot show that its log still holds the tree someone kept a head of: a
    finding (exit 1), but not a signed proof of a rewriting — the answer itself is not signed
    (docs/audit.md, "Checking that the log only grew")."""
    report = _report(old, new, keys)
    try:
        checked = check_signatures(old, new, keys)
    except SignatureRefused as refused:
        return report(False, f"INVALID: {refused}")
    name, kept = ("OLD", old) if old.size == size else ("NEW", new)
    signed = (
        f"signed by pinned key {kept.key_id} at {kept.at}"
        if checked
        else "its signature not checked against a pinned key (pin the service's keys to hold "
        "it to that head)"
    )
    return report(
        False,
        f"INVALID: the service at {server} answers that it has no signed tree head of size "
        f"{size}, yet {name} (kept) is a tree head of that size, {signed}: the service cannot "
        "show that its log still holds that tree (it dropped the head, or made its log again)",
        checked,
    )


def _served_signature(served: TreeHead, field: str, keys: KeyPolicy) -> None:
    """A head of the answer that differs from a kept head of its size counts as the
    service's word only when a pinned key signed it; otherwise the answer is
    :class:`DocumentError` (unusable: exit 2), never evidence against the service — a saved
    proof file is not signed, and anyone can edit its heads (docs/audit.md, "Checking that the
    log only grew")."""
    what = f"the answer's {field} (the tree head of size {served.size})"
    if not keys.is_pinned:
        raise DocumentError(
            f"{what} has root {served.root_hash}, another than the kept head's of that size: "
            "unpinned, nothing tells whose head it is (pin the service's keys with --key or "
            "--keys)"
        )
    try:
        keys.check(
            what, served.key_id, tree_head_bytes(served.document), served.signature, at=served.at
        )
    except SignatureRefused as refused:
        raise DocumentError(str(refused)) from None


def _two_trees(old: TreeHead, new: TreeHead, checked: bool) -> str:
    """OLD and NEW of one size with different roots."""
    roots = (
        f"OLD and NEW are both of size {old.size}, with roots {old.root_hash} and {new.root_hash}"
    )
    if checked:
        return (
            f"INVALID: the log was rewritten: {roots}, signed by {signers(old, new)}: the "
            "service signed two different trees of one size"
        )
    return (
        f"INVALID: {roots}: unpinned, their signatures were not checked, so this proves "
        "nothing about the service (pin its keys with --key or --keys)"
    )


def verify_log(
    old: TreeHead,
    new: TreeHead,
    keys: KeyPolicy,
    answer: ConsistencyAnswer,
    source: ProofSource | None = None,
) -> LogReport:
    """The verdict on OLD and NEW with the consistency proof of ``answer`` (from
    ``source``). Raises :class:`DocumentError` when the answer is for other sizes, or carries
    a head of OLD's or NEW's size with another root that no pinned key signed (an unusable
    input); every finding on the log itself is a report. "The log was rewritten" is said only
    on a signed proof of it: two heads of one size with different roots, both signed by
    pinned keys."""
    if (answer.first, answer.second) != (old.size, new.size):
        raise DocumentError(
            f"the consistency proof is from size {answer.first} to {answer.second}, the tree "
            f"heads are of sizes {old.size} and {new.size}"
        )
    report = _report(old, new, keys)
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
    if old.size == new.size and old.root_hash != new.root_hash:
        return report(False, _two_trees(old, new, checked), checked)
    for name, kept, served in (("OLD", old, answer.first_head), ("NEW", new, answer.second_head)):
        if served is not None and served.size == kept.size and served.root_hash != kept.root_hash:
            _served_signature(served, "first_head" if name == "OLD" else "second_head", keys)
            return report(
                False,
                f"INVALID: the log was rewritten: the service's tree head of size {kept.size} "
                f"(signed by pinned key {served.key_id} at {served.at}) has root "
                f"{served.root_hash}, {name} (kept, signed by pinned key {kept.key_id}) has "
                f"{kept.root_hash}: the service signed two different trees of one size",
                checked,
            )
    if not verify_consistency(old.size, new.size, old.root, new.root, answer.proof):
        return report(False, f"INVALID: {(source or ProofSource()).no_join(old, new)}", checked)
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
