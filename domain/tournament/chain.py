"""The hash chain of a tournament's events (docs/tournaments.md, "The tournament aggregate",
"Hash chain"): the same construction as a game's (domain/chain.py; docs/audit.md, "Hash
chain"), with the tournament's id under the key ``tournament``::

    hash = SHA-256( prev_hash + "\\n" + canonical({"type", "tournament", "version",
                                                   "timestamp", "data"}) )

``data`` is the event's public data: every field but the secret ones (:data:`SECRET_FIELDS`:
the tournament seed, bound by its public ``seed_sha256``; the organiser's and entrants' token
digests) and the chain's own. No tournament event hides anything else, so nothing is sealed.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from domain import chain as game_chain
from domain.chain import CHAIN_FIELDS, ENVELOPE_FIELDS

GENESIS = ""
"""The ``prev_hash`` of a tournament's first event."""

SECRET_FIELDS: dict[str, frozenset[str]] = {
    "Created": frozenset({"seed", "organiser_sha256", "table_secret"}),
    "EntrantRegistered": frozenset({"token_sha256"}),
    "EntrantEnteredLate": frozenset({"token_sha256"}),
}
"""Fields of tournament events that no reader of the event log is shown (nor hashed)."""


def public_fields(type_name: str, fields: dict[str, Any]) -> dict[str, Any]:
    """The public data of a tournament event of ``type_name`` made of ``fields``."""
    hidden = SECRET_FIELDS.get(type_name, frozenset()) | CHAIN_FIELDS | ENVELOPE_FIELDS
    return {k: v for k, v in fields.items() if k not in hidden}


def event_link(
    prev_hash: str, envelope: tuple[str, UUID, int, datetime], data: dict[str, Any]
) -> str:
    """The hash of a tournament event: ``envelope`` is its type, tournament id, version, time
    (a game's construction, :func:`domain.chain.event_link`, with the id under ``tournament``)."""
    return game_chain.event_link(prev_hash, envelope, data, subject="tournament")
