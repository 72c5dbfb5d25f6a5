"""A tournament record's checkpoint (issue 15, part 6; docs/tournaments.md, "Verifying a
tournament", 7): the tournament's hash chain is logged in the service's transparency log like
a game's, under ``tournament:<id>`` (application/checkpointer.py), and a record carries the
``transparency`` of its end as a game record does. The rules are a game record's
(:mod:`application.audit_transparency`, docs/audit.md "The rules") with rule 2 for a
tournament: the checkpoint names ``tournament:<id>``, its chain head is the record's event of
that version — else the service logged another history of this tournament — and it is the
``ended: true`` checkpoint of the record's last event (``TournamentFinished``).

This is what catches a rewritten tournament whose every hash was recomputed and whose games
do not contradict it (a forfeit forged in place of a result, the game's record left out):
its chain head is not the one the service signed."""

from __future__ import annotations

from typing import Any

from application.audit_documents import DocumentError
from application.audit_format import Discrepancy
from application.audit_keys import KeyPolicy, SignatureRefused
from application.audit_transparency import TransparencyReport, check_field, check_history
from application.checkpoints import tournament_log_name


def check_tournament_transparency(
    record: dict[str, Any], keys: KeyPolicy, given: Any | None = None
) -> TransparencyReport | None:
    """The record's ``transparency`` (module docstring); ``None`` for a record without one
    checked without pinned keys or a tree head (refused with either)."""
    field = record.get("transparency")
    tournament_id = record["tournament"]["id"]
    if field is None:
        if keys.is_pinned or given is not None:
            carries = (
                "the record has no transparency field"
                if "transparency" not in record
                else "the record carries no checkpoint (transparency is null)"
            )
            why = "pinned keys were given" if keys.is_pinned else "a tree head was given"
            raise Discrepancy(
                f"no checkpoint: {carries}, so nothing shows it is the tournament the service "
                f"logged ({why}; the service logs a tournament's end a moment after it: export "
                "the record again against a newer tree head — the standings say checkpointed: "
                "true once theirs holds it — and link a head you kept to it with verify-log)"
            )
        return None
    try:
        return check_field(
            field,
            keys,
            given,
            belongs=lambda checkpoint: _belongs(record, checkpoint),
            path=f"/api/v1/tournaments/{tournament_id}/record",
        )
    except (DocumentError, SignatureRefused) as error:
        raise Discrepancy(str(error)) from None


def _belongs(record: dict[str, Any], checkpoint: dict[str, Any]) -> None:
    """Rule 2 for a tournament (module docstring)."""
    expected = tournament_log_name(record["tournament"]["id"])
    if checkpoint["game"] != expected:
        raise DocumentError(
            f"transparency.checkpoint.game is {checkpoint['game']}, the tournament's name in "
            f"the log is {expected}"
        )
    events: list[dict[str, Any]] = record["events"]
    check_history(events, checkpoint, "tournament")
    version = checkpoint["version"]
    if version != len(events) or not checkpoint["ended"]:
        raise DocumentError(
            f"transparency.checkpoint is of event {version} (ended: "
            f"{str(checkpoint['ended']).lower()}), but a tournament record carries the ended: "
            f"true checkpoint of its last event, {len(events)} ({events[-1]['type']})"
        )
