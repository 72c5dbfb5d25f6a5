"""Rule 6 of a record's checkpoint check (issue 14, part 4; docs/audit.md, "The rules", 6):
the record's signed tree head against one the user kept (``gameledger verify --tree-head``).
Its signature by the key policy; unpinned, it must be signed by the same key as the record's
head, since heads of two keys may be two services' logs and nothing says whose; of one size,
one root — and two roots are called a rewritten log only when pinned keys signed both (a
signed proof of misbehaviour); of another size, the advice to export the record again with
the proof for that size. Each finding is :class:`application.audit_documents.DocumentError`
for :mod:`application.audit_transparency` to report."""

from __future__ import annotations

from typing import Any

from application import audit_documents as documents
from application.audit_documents import DocumentError, TreeHead
from application.audit_keys import KeyPolicy, signers
from application.checkpoints import tree_head_bytes
from application.signing import PublicKey


def against_given(
    head: TreeHead, given: Any, keys: KeyPolicy, carried: PublicKey, place: tuple[str, int]
) -> bool:
    """Rule 6: the record's tree head against the one the user kept (``place``: the path of
    the record in the API, ``/api/v1/games/{id}/record``, and the checkpoint's leaf index, for
    the advice); whether the given head's signature was
    checked. Two heads of one size with different roots are called a rewritten log only when
    both are signed by pinned keys (a signed proof of misbehaviour); unpinned, heads signed by
    different keys are not compared at all (docs/audit.md, "The rules", 6)."""
    path, index = place
    kept = documents.tree_head(given, "the tree head given")
    key = carried if carried.key_id == kept.key_id else None
    checked = keys.check(
        "the tree head given",
        kept.key_id,
        tree_head_bytes(kept.document),
        kept.signature,
        key,
        at=kept.at,
    )
    if not keys.is_pinned and kept.key_id != head.key_id:
        raise DocumentError(
            f"the tree head given is signed by key {kept.key_id}, the record's tree head by key "
            f"{head.key_id}: unpinned, heads signed by different keys cannot be compared (they "
            "may be two services' logs, or one service's before and after a key rotation): pin "
            "the service's keys with --key or --keys"
        )
    if kept.size == head.size:
        if kept.root_hash != head.root_hash:
            raise DocumentError(_two_roots(head, kept, keys, checked))
        return checked
    if kept.size <= index:
        raise DocumentError(
            f"the record's inclusion proof is for tree size {head.size}, the tree head given is "
            f"of size {kept.size}, older than the checkpoint (entry {index}): keep a newer tree "
            "head, check that the one given is a prefix of it (gameledger verify-log OLD NEW), "
            "and verify the record against the newer one"
        )
    raise DocumentError(
        f"the record's inclusion proof is for tree size {head.size}, the tree head given is of "
        f"size {kept.size}: export the record again with --tree-size {kept.size} (or GET "
        f"{path}?tree_size={kept.size})"
    )


def _two_roots(head: TreeHead, kept: TreeHead, keys: KeyPolicy, checked: bool) -> str:
    """The message for the record's tree head and the one given, of one size, with different
    roots: a rewritten log when pinned keys signed both; unpinned, only what it shows."""
    roots = f"both of size {head.size}, with roots {kept.root_hash} and {head.root_hash}"
    if keys.is_pinned:
        return (
            f"the log was rewritten: the tree head given and the record's are {roots}, signed "
            f"by {signers(kept, head)}: the service signed two different trees of one size"
        )
    if checked:
        return (
            f"the tree head given and the record's are {roots}, both signed by key "
            f"{head.key_id}, unpinned (it came from the record): whoever holds that key signed "
            "two different trees of one size; if it is the service's key, its log was "
            "rewritten (pin the service's keys with --key or --keys to tell)"
        )
    return (
        f"the tree head given and the record's are {roots}, signed by key {head.key_id}, which "
        "the record does not carry: unpinned, neither signature was checked, so this proves "
        "nothing about the service (pin its keys with --key or --keys)"
    )
