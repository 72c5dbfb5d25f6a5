"""Checking a record's ``transparency`` field (issue 14, part 4; docs/audit.md, "Verifying a
record's checkpoint"), after the record itself has verified. The rules, in order:

1. no ``transparency`` (null or absent): fine without pinned keys (reported as no
   checkpoint); with pinned keys, or a tree head to check against, refused;
2. the checkpoint belongs to the record: its game (the record's id; a private game's by the
   SHA-256 of its id), a version the record has, that
   event's hash as ``chain_head``; a record whose game is over carries an ``ended: true``
   checkpoint of the event that ended it or of one after it (only ``RematchCreated`` follows
   the end, and gets a checkpoint of its own), and one whose game is not over an
   ``ended: false`` one;
3. the checkpoint's signature verifies under ``public_key``, ``key_id`` is that key's id, and
   with pinned keys it is a pinned key (:mod:`application.audit_keys`);
4. the tree head's signature, by the same key policy;
5. the inclusion proof leads from the checkpoint's leaf to the tree head's root
   (``domain.merkle.verify_inclusion``);
6. a tree head given by the user (``--tree-head``; :mod:`application.audit_given_head`): its
   signature by the key policy; unpinned, signed by the record's head's key; of the same size
   as the record's, the same root (two roots signed by pinned keys: the log was rewritten); of
   another size, the advice to export the record again with the proof for that size.

The first rule broken raises :class:`application.audit_format.Discrepancy` naming the field."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from application import audit_documents as documents
from application.audit_documents import DocumentError
from application.audit_format import Discrepancy
from application.audit_given_head import against_given
from application.audit_keys import KeyPolicy, SignatureRefused
from application.checkpoints import checkpoint_bytes, log_name, tree_head_bytes
from application.signing import PublicKey
from domain.merkle import leaf_hash, verify_inclusion

FIELDS = ("checkpoint", "signature", "public_key", "leaf_index", "tree_head", "inclusion_proof")
"""The fields of a record's ``transparency``."""

AFTER_THE_END = frozenset({"RematchCreated"})
"""Events that may follow the end of a game (docs/audit.md, "Lobby events")."""

OVER_WITHOUT_OUTCOME = frozenset({"GameAborted", "GameExpired"})
"""Events that end a game without an outcome."""


@dataclass(frozen=True)
class TransparencyReport:
    """What the checkpoint check found (``verify --json``'s ``transparency``): ``checked``
    — every signature was verified (false only unpinned, for a tree head signed by a key the
    record does not carry); the checkpoint's ``key_id``, ``version`` and ``ended``; whether
    keys were ``pinned``; its ``leaf_index`` in the tree of ``tree_size`` entries with root
    ``root_hash``; the tree head's signer; whether a tree head given was compared."""

    checked: bool
    key_id: str
    pinned: bool
    leaf_index: int
    tree_size: int
    root_hash: str
    ended: bool
    version: int
    tree_head_key_id: str
    tree_head_given: bool

    def sentence(self, events: int | None = None) -> str:
        """The summary's sentences on the checkpoint; with the record's number of ``events``,
        also which of them come after it (a running game's record exported since, or a
        ``RematchCreated``): the record's own word, which nothing in the log vouches for yet
        (docs/audit.md, "The rules")."""
        found = self._found()
        if events is not None and events > self.version:
            first = self.version + 1
            which = (
                f"Event {first} comes" if first == events else f"Events {first} to {events} come"
            )
            found += (
                f" {which} after the checkpoint: nothing in the service's log vouches for "
                f"{'it' if first == events else 'them'} yet."
            )
        return found

    def _found(self) -> str:
        state = "ended" if self.ended else "running"
        where = "the service's log" if self.pinned else "the log whose head the record carries"
        found = (
            f"Checkpoint: event {self.version} ({state}) is in {where}, entry "
            f"{self.leaf_index} of the tree of size {self.tree_size} (root {self.root_hash})"
        )
        if self.tree_head_given:
            found += ", the tree head given"
        if self.pinned:
            return f"{found}; signed by pinned key {self.key_id}."
        found += (
            f"; unpinned: signed by key {self.key_id}, which came from the record itself, so "
            "this shows only that the record is consistent with itself, not that the service "
            "logged it (pin the service's key with --key or --keys)"
        )
        if not self.checked:
            found += (
                f"; the tree head's signature (key {self.tree_head_key_id}, not in the record) "
                "was not checked"
            )
        return found + "."


NO_CHECKPOINT = "No checkpoint (not in the service's log)."
"""The summary's sentence for a record without ``transparency``, checked without pins."""

WAIT_FOR_CHECKPOINT = (
    "a running game is checkpointed every GAMELEDGER_CHECKPOINT_INTERVAL seconds (60 by "
    "default) once it moved: export it again after that"
)
"""The advice for a running game's record without a checkpoint yet (docs/audit.md, "Signed
checkpoints": when checkpoints are made)."""


def no_checkpoint(record: dict[str, Any]) -> str:
    """The summary's sentence for a record without a checkpoint, checked without pins: a
    running game's may not have been checkpointed yet."""
    if _ended_at(record) is None:
        return f"No checkpoint yet ({WAIT_FOR_CHECKPOINT})."
    return NO_CHECKPOINT


def check_transparency(
    record: dict[str, Any], keys: KeyPolicy, given: Any | None = None
) -> TransparencyReport | None:
    """Rules 1 to 6 (module docstring) on a record that verified; ``None`` for a record without
    a checkpoint that may go without one. ``given`` is a tree head document the user kept."""
    if "transparency" not in record or record["transparency"] is None:
        if keys.is_pinned or given is not None:
            raise Discrepancy(_no_checkpoint_refused(record, keys))
        return None
    try:
        return _check(record, record["transparency"], keys, given)
    except (DocumentError, SignatureRefused) as error:
        raise Discrepancy(str(error)) from None


def _no_checkpoint_refused(record: dict[str, Any], keys: KeyPolicy) -> str:
    """Rule 1's message: what the record lacks, why it is asked for, and what to do."""
    carries = (
        "the record has no transparency field (an export older than the service's checkpoints)"
        if "transparency" not in record
        else "the record carries no checkpoint (transparency is null)"
    )
    why = "pinned keys were given" if keys.is_pinned else "a tree head was given"
    if _ended_at(record) is None:
        advice = f"the game is still running: {WAIT_FOR_CHECKPOINT}"
    else:
        advice = "export the record again from the service, or it never logged this game"
    return (
        f"no checkpoint: {carries}, so nothing shows it is the game the service logged "
        f"({why}; {advice})"
    )


def _check(
    record: dict[str, Any], field: Any, keys: KeyPolicy, given: Any | None
) -> TransparencyReport:
    return check_field(
        field,
        keys,
        given,
        belongs=lambda checkpoint: _belongs(record, checkpoint),
        path=f"/api/v1/games/{record['game']['id']}/record",
    )


def check_field(
    field: Any,
    keys: KeyPolicy,
    given: Any | None,
    *,
    belongs: Callable[[dict[str, Any]], None],
    path: str,
) -> TransparencyReport:
    """Rules 2 to 6 on a record's ``transparency`` field: ``belongs`` is rule 2 for the
    record's own chain (a game's, :func:`_belongs`; a tournament's,
    :mod:`application.audit_tournament_checkpoint`), ``path`` the record's path in the API for
    rule 6's advice. Raises :class:`DocumentError` or :class:`SignatureRefused`."""
    if not isinstance(field, dict):
        raise DocumentError("transparency must be an object or null")
    for name in FIELDS:
        if name not in field:
            raise DocumentError(f"transparency.{name} is missing")
    checkpoint = documents.checkpoint(field["checkpoint"], "transparency.checkpoint")
    belongs(checkpoint)
    carried = _signed_checkpoint(field, checkpoint, keys)
    head = documents.tree_head(field["tree_head"], "transparency.tree_head")
    key_for_head = carried if carried.key_id == head.key_id else None
    signed = tree_head_bytes(head.document)
    checked = keys.check(
        "transparency.tree_head", head.key_id, signed, head.signature, key_for_head, at=head.at
    )
    index = field["leaf_index"]
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        raise DocumentError("transparency.leaf_index must be a whole number of at least 0")
    proof = documents.hash_list(field["inclusion_proof"], "transparency.inclusion_proof")
    leaf = leaf_hash(checkpoint_bytes(checkpoint))
    if not verify_inclusion(leaf, index, head.size, proof, head.root):
        raise DocumentError(
            f"the checkpoint is not in the log: transparency.inclusion_proof does not lead from "
            f"the checkpoint as entry {index} to the root {head.root_hash} of the tree of size "
            f"{head.size} (the checkpoint, its place, the proof or the tree head was changed)"
        )
    if given is not None:
        checked = against_given(head, given, keys, carried, (path, index)) and checked
    return TransparencyReport(
        checked=checked,
        key_id=checkpoint["key_id"],
        pinned=keys.is_pinned,
        leaf_index=index,
        tree_size=head.size,
        root_hash=head.root_hash,
        ended=checkpoint["ended"],
        version=checkpoint["version"],
        tree_head_key_id=head.key_id,
        tree_head_given=given is not None,
    )


def check_history(events: list[dict[str, Any]], checkpoint: dict[str, Any], what: str) -> None:
    """The checkpointed version is one of the record's events and its chain head that event's
    hash, else the service logged another history of this ``what`` (a game, a tournament)."""
    version = checkpoint["version"]
    if version > len(events):
        raise DocumentError(
            f"transparency.checkpoint.version is {version}, the record ends at event "
            f"{len(events)}: the service logged another history of this {what}"
        )
    at = events[version - 1]
    if checkpoint["chain_head"] != at["hash"]:
        raise DocumentError(
            f"transparency.checkpoint.chain_head is {checkpoint['chain_head']}, the record's "
            f"event {version} ({at['type']}) has hash {at['hash']}: the service logged another "
            f"history of this {what}"
        )


def _belongs(record: dict[str, Any], checkpoint: dict[str, Any]) -> None:
    """Rule 2: the checkpoint is of this record's history, and of its end if it ended."""
    events: list[dict[str, Any]] = record["events"]
    _names_the_game(record, checkpoint["game"])
    check_history(events, checkpoint, "game")
    version = checkpoint["version"]
    end = _ended_at(record)
    if end is None and checkpoint["ended"]:
        raise DocumentError(
            f"transparency.checkpoint.ended is true at event {version}, but the record's game "
            "is not over"
        )
    if end is not None and not (checkpoint["ended"] and version >= end):
        raise DocumentError(
            f"transparency.checkpoint is of event {version} (ended: "
            f"{str(checkpoint['ended']).lower()}), but the record's game ended at event {end} "
            f"({events[end - 1]['type']}): a finished record carries an ended: true "
            "checkpoint of its end or after it"
        )


def _names_the_game(record: dict[str, Any], name: str) -> None:
    """Rule 2's first part: the checkpoint names the record's game as the log does — a public
    game by its id, a private one (its ``Created`` says ``private: true``) by the SHA-256 of its
    id, and never the other way round (docs/audit.md, "Signed checkpoints")."""
    game_id = record["game"]["id"]
    private = record["events"][0]["data"].get("private") is True
    expected = log_name(game_id, private)
    if name == expected:
        return
    if private and name == game_id:
        raise DocumentError(
            f"transparency.checkpoint.game is {name}, but the record's game is private (its "
            f"Created says private: true): the service logs it as {expected}, the SHA-256 of "
            "its id, never by the id itself"
        )
    if not private and name == log_name(game_id, True):
        raise DocumentError(
            f"transparency.checkpoint.game is {name}, the name of a private game, but the "
            f"record's game is public (its Created does not say private: true): the service "
            f"logs it by its id {game_id}"
        )
    logged = f" (logged as {expected}, the SHA-256 of its id)" if private else ""
    raise DocumentError(
        f"transparency.checkpoint.game is {name}, the record's game.id is {game_id}{logged}"
    )


def _ended_at(record: dict[str, Any]) -> int | None:
    """The version of the event that ended the record's game, or ``None`` while it runs."""
    events: list[dict[str, Any]] = record["events"]
    last = len(events)
    while last > 1 and events[last - 1]["type"] in AFTER_THE_END:
        last -= 1
    if record["outcome"] is not None or events[last - 1]["type"] in OVER_WITHOUT_OUTCOME:
        return last
    return None


def _signed_checkpoint(
    field: dict[str, Any], checkpoint: dict[str, Any], keys: KeyPolicy
) -> PublicKey:
    """Rule 3: the checkpoint's signature under the record's key, then the key policy; the
    record's key."""
    carried = documents.public_key(field["public_key"], "transparency.public_key")
    signature = documents.signature(field["signature"], "transparency.signature")
    if checkpoint["key_id"] != carried.key_id:
        raise DocumentError(
            f"transparency.checkpoint.key_id is {checkpoint['key_id']}, but "
            f"transparency.public_key is the key {carried.key_id}"
        )
    if not carried.verify(checkpoint_bytes(checkpoint), signature):
        raise DocumentError(
            f"transparency.signature does not verify under transparency.public_key (key "
            f"{carried.key_id}): the checkpoint or its signature was changed"
        )
    keys.check(
        "the checkpoint",
        carried.key_id,
        checkpoint_bytes(checkpoint),
        signature,
        carried,
        at=checkpoint["at"],
    )
    return carried
