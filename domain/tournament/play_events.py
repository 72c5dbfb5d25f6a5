"""The events of a running tournament (docs/tournaments.md, "Rounds", "Results and
standings", "The arbiter"): rounds paired, results recorded, the arbiter's acts, the end.
Each evolves the tournament in its ``apply`` (the aggregate's state is plain JSON: ``rounds``,
``penalties``, ``acts``) and is a link of the hash chain (:class:`TournamentEvent`).

Every arbiter's act is also kept in ``acts`` — ``{"act", "round", "reason", ...}`` — so the
standings show their history (docs/tournaments.md, "The arbiter").
"""

from __future__ import annotations

from typing import Any

from domain.jsonvalue import copy_json
from domain.tournament.event_base import TournamentEvent
from domain.tournament.results import result


def _table(state: Any, round_number: int, table: int) -> dict[str, Any]:
    found: dict[str, Any] = state.rounds[round_number - 1]["tables"][table - 1]
    return found


class RoundPaired(TournamentEvent):
    """A round was paired: ``tables`` are ``{"table", "game", "seats"}`` (entrant ids in seat
    order, seat 0 first), ``byes`` the entrants who sit it out, ``random_position`` where the
    tournament's stream stands after the pairing."""

    round: int
    tables: list[dict[str, Any]]
    byes: list[str]
    random_position: int

    def apply(self, aggregate: Any) -> None:
        """The round is the tournament's latest; no table has a result yet."""
        tables = [{**copy_json(table), "result": None} for table in self.tables]
        aggregate.rounds.append({"number": self.round, "tables": tables, "byes": list(self.byes)})
        aggregate.random_position = self.random_position
        super().apply(aggregate)


class ResultRecorded(TournamentEvent):
    """A table's game ended and its outcome was recorded: ranks and scores by seat, and the
    game's version and chain head at its end (binding the tournament to the game's record)."""

    round: int
    table: int
    game: str
    ranks: list[int]
    scores: list[int]
    version: int
    chain_head: str

    def apply(self, aggregate: Any) -> None:
        """The table has its result."""
        _table(aggregate, self.round, self.table)["result"] = result(
            self.ranks, self.scores, "played", version=self.version, chain_head=self.chain_head
        )
        super().apply(aggregate)


class TableForfeited(TournamentEvent):
    """The arbiter forfeited the no-shows (``absent``) of a table: the others share first
    place, the no-shows the place after them (``ranks``)."""

    round: int
    table: int
    game: str
    absent: list[str]
    ranks: list[int]
    reason: str

    def apply(self, aggregate: Any) -> None:
        """The table has its result; the act is in the history."""
        seats = _table(aggregate, self.round, self.table)["seats"]
        _table(aggregate, self.round, self.table)["result"] = result(
            self.ranks,
            [0] * len(seats),
            "forfeit",
            self.reason,
            no_shows=[seats.index(entrant) for entrant in self.absent],
        )
        aggregate.acts.append(
            {
                "act": "forfeit",
                "round": self.round,
                "game": self.game,
                "absent": list(self.absent),
                "reason": self.reason,
            }
        )
        super().apply(aggregate)


class TableAdjudicated(TournamentEvent):
    """The arbiter decided the result of a game that could not be finished."""

    round: int
    table: int
    game: str
    ranks: list[int]
    scores: list[int]
    reason: str

    def apply(self, aggregate: Any) -> None:
        """The table has its result; the act is in the history."""
        _table(aggregate, self.round, self.table)["result"] = result(
            self.ranks, self.scores, "adjudicated", self.reason
        )
        aggregate.acts.append(
            {
                "act": "adjudicate",
                "round": self.round,
                "game": self.game,
                "ranks": list(self.ranks),
                "reason": self.reason,
            }
        )
        super().apply(aggregate)


class ResultCorrected(TournamentEvent):
    """The arbiter corrected a table's result (the ranks and scores it now has)."""

    round: int
    table: int
    game: str
    ranks: list[int]
    scores: list[int]
    reason: str

    def apply(self, aggregate: Any) -> None:
        """The table's result is the corrected one; the act is in the history."""
        table = _table(aggregate, self.round, self.table)
        before = table["result"]
        table["result"] = {
            **before,
            "ranks": list(self.ranks),
            "scores": list(self.scores),
            "reason": self.reason,
            "corrections": before["corrections"] + 1,
        }
        aggregate.acts.append(
            {
                "act": "correct",
                "round": self.round,
                "game": self.game,
                "ranks": list(self.ranks),
                "was": list(before["ranks"]),
                "reason": self.reason,
            }
        )
        super().apply(aggregate)


class PenaltyAwarded(TournamentEvent):
    """The arbiter deducted ``points`` tournament points from an entrant."""

    entrant: str
    points: int | float
    reason: str
    round: int

    def apply(self, aggregate: Any) -> None:
        """The deduction counts in the standings; the act is in the history."""
        act = {
            "act": "penalty",
            "round": self.round,
            "entrant": self.entrant,
            "points": self.points,
            "reason": self.reason,
        }
        aggregate.penalties.append(act)
        aggregate.acts.append(dict(act))
        super().apply(aggregate)


class EntrantDisqualified(TournamentEvent):
    """The arbiter disqualified an entrant: seated no more, ranked last."""

    entrant: str
    reason: str
    round: int

    def apply(self, aggregate: Any) -> None:
        """The entrant is disqualified; the act is in the history."""
        aggregate.entrants[self.entrant]["status"] = "disqualified"
        aggregate.entrants[self.entrant]["reason"] = self.reason
        aggregate.acts.append(
            {
                "act": "disqualify",
                "round": self.round,
                "entrant": self.entrant,
                "reason": self.reason,
            }
        )
        super().apply(aggregate)


class TournamentFinished(TournamentEvent):
    """The tournament is over: its seed revealed (anyone can now check every draw) and the
    final ranking (entrant ids, first to last) recorded."""

    seed: str
    ranking: list[str]

    def apply(self, aggregate: Any) -> None:
        """The tournament is finished."""
        aggregate.phase = "finished"
        aggregate.ranking = list(self.ranking)
        super().apply(aggregate)
