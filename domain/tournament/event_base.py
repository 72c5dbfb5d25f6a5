"""The base of every tournament event (docs/tournaments.md, "The tournament aggregate",
"Events"): a link of the tournament's hash chain (:mod:`domain.tournament.chain`)."""

from __future__ import annotations

from typing import Any

from eventsourcing.domain import Aggregate

from domain.tournament import chain


class TournamentEvent(Aggregate.Event):
    """Base of every event of a tournament: each is a link of its hash chain."""

    class_version = 1
    prev_hash: str
    hash: str

    def public_data(self) -> dict[str, Any]:
        """The data the log shows and the chain hashes."""
        return chain.public_fields(type(self).__name__, dict(vars(self)))

    def apply(self, aggregate: Any) -> None:
        """The chain's head moves on to this event (subclasses evolve first)."""
        aggregate.chain_head = self.hash
