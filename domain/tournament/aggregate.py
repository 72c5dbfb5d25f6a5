"""The tournament aggregate (issue 15, part 1; docs/tournaments.md, "The tournament
aggregate"): one event-sourced aggregate per tournament, built with the same care as a game
(domain/game.py): typed events, each a link of the tournament's hash chain
(:mod:`domain.tournament.chain`), every decision taken by a pure function before anything is
recorded (:mod:`domain.tournament.registration`, :mod:`domain.tournament.format`), an
invariant check (:mod:`domain.tournament.invariants`).

The events it stores (each ``class_version`` 1, every field JSON-safe):

* ``Created`` — the game kind, its options and ledger settings (those of every game of the
  tournament: ``tournament`` is always true), the format, the tournament's name, the
  SHA-256 commitment to the tournament seed; the seed, the organiser token's digest and the
  tables' secret are secret fields;
* ``EntrantRegistered`` — an entrant's id and name (its token's digest is secret);
* ``EntrantWithdrew``, ``EntrantRemoved`` (by the organiser, with a reason);
* ``CheckInOpened``, ``EntrantCheckedIn``;
* ``TournamentStarted`` — the pairing numbers drawn (``draw_numbers`` from the tournament's
  ``RandomStream``), the entrants left out as absent, and the stream's position after the
  draw, where the first round's pairing goes on;
* ``EntrantEnteredLate`` — a late entrant (a Swiss that allows it) with the next free number.

Commands take entrant ids: who may send them (the organiser's token, an entrant's own) is the
application's to check, with :meth:`Tournament.is_organiser` and :meth:`Tournament.entrant_of`.
"""

from __future__ import annotations

import hmac
from typing import Any, cast
from uuid import UUID, uuid4

from eventsourcing.domain import Aggregate, event

from domain import aggregate_adapter, undo
from domain.jsonvalue import copy_json
from domain.randomness import RandomStream
from domain.registry import rules_for
from domain.text import plain_text
from domain.tournament import chain, registration, results, rounds
from domain.tournament.errors import TournamentPhase
from domain.tournament.event_base import TournamentEvent
from domain.tournament.format import normalise_format, pairing_settings
from domain.tournament.pairing import PairingError, Round, draw_numbers, pair_round
from domain.tournament.play_events import (
    EntrantDisqualified,
    PenaltyAwarded,
    ResultCorrected,
    ResultRecorded,
    RoundPaired,
    TableAdjudicated,
    TableForfeited,
    TournamentFinished,
)
from domain.tournament.standings import pairing_inputs, standing_order


class Tournament(Aggregate):
    """One tournament, rebuilt from its events."""

    class_version = 1

    class Event(TournamentEvent):
        """Base of the events declared here (domain/tournament/event_base.py)."""

    class Created(Event, Aggregate.Created):
        """The tournament was created by its organiser."""

        game: str
        options: dict[str, Any]
        settings: dict[str, Any]
        format: dict[str, Any]
        name: str
        seed: str
        seed_sha256: str
        organiser_sha256: str
        table_secret: str

    class EntrantRegistered(Event):
        """An entrant registered (before the start)."""

        entrant: str
        name: str
        token_sha256: str

        def apply(self, aggregate: Any) -> None:
            """The entrant is in, registered."""
            tournament = cast(Tournament, aggregate)
            tournament.entrants[self.entrant] = _entrant(self.name, self.token_sha256)
            super().apply(tournament)

    class EntrantEnteredLate(Event):
        """An entrant registered after the start, with the next free pairing number."""

        entrant: str
        name: str
        token_sha256: str
        number: int

        def apply(self, aggregate: Any) -> None:
            """The entrant is in, checked in, numbered."""
            tournament = cast(Tournament, aggregate)
            tournament.entrants[self.entrant] = {
                **_entrant(self.name, self.token_sha256, "checked-in"),
                "number": self.number,
                "late": True,
            }
            super().apply(tournament)

    class EntrantWithdrew(Event):
        """An entrant withdrew."""

        entrant: str

        def apply(self, aggregate: Any) -> None:
            """The entrant has left (a number drawn stays: pairing seats it no more)."""
            tournament = cast(Tournament, aggregate)
            tournament.entrants[self.entrant]["status"] = "withdrawn"
            super().apply(tournament)

    class EntrantRemoved(Event):
        """The organiser removed an entrant, for a reason."""

        entrant: str
        reason: str

        def apply(self, aggregate: Any) -> None:
            """The entrant has left, with the reason."""
            tournament = cast(Tournament, aggregate)
            tournament.entrants[self.entrant]["status"] = "removed"
            tournament.entrants[self.entrant]["reason"] = self.reason
            super().apply(tournament)

    class CheckInOpened(Event):
        """The organiser opened check-in."""

        def apply(self, aggregate: Any) -> None:
            """The tournament is checking in."""
            tournament = cast(Tournament, aggregate)
            tournament.phase = "check-in"
            super().apply(tournament)

    class EntrantCheckedIn(Event):
        """An entrant checked in."""

        entrant: str

        def apply(self, aggregate: Any) -> None:
            """The entrant will be seated when the tournament starts."""
            tournament = cast(Tournament, aggregate)
            tournament.entrants[self.entrant]["status"] = "checked-in"
            super().apply(tournament)

    class TournamentStarted(Event):
        """The organiser started the tournament: ``numbers`` are the pairing numbers drawn,
        ``absent`` the entrants who had not checked in, ``random_position`` the stream's
        position after the draw."""

        numbers: dict[str, int]
        absent: list[str]
        random_position: int

        def apply(self, aggregate: Any) -> None:
            """The tournament runs; its entrants have their numbers."""
            tournament = cast(Tournament, aggregate)
            for key, number in self.numbers.items():
                tournament.entrants[key]["number"] = number
            for key in self.absent:
                tournament.entrants[key]["status"] = "absent"
            tournament.phase = "running"
            tournament.random_position = self.random_position
            super().apply(tournament)

    @classmethod
    def create(
        cls,
        *,
        game: str,
        options: dict[str, Any],
        settings: dict[str, Any] | None,
        format: dict[str, Any],
        name: str,
        seed: str,
        seed_sha256: str,
        organiser_sha256: str,
        table_secret: str,
        tournament_id: UUID | None = None,
    ) -> Tournament:
        """A new tournament (with ``tournament_id``, else a random id). The game's options
        are normalised by its rules, the ledger settings by :func:`domain.undo.
        normalise_settings` with ``tournament`` forced true, the format by
        :func:`domain.tournament.format.normalise_format`; the name is plain text."""
        rules = rules_for(game)
        fixed_options = rules.normalise_options(options)
        fields: dict[str, Any] = {
            "game": game,
            "options": fixed_options,
            "settings": undo.normalise_settings({**(settings or {}), "tournament": True}),
            "format": normalise_format(format, rules, fixed_options),
            "name": plain_text("name", name),
            "seed": seed,
            "seed_sha256": seed_sha256,
            "organiser_sha256": organiser_sha256,
            "table_secret": table_secret,
        }
        tournament_id = tournament_id or uuid4()
        timestamp = cls.Created.create_timestamp()
        public = chain.public_fields("Created", fields)
        digest = chain.event_link(chain.GENESIS, ("Created", tournament_id, 1, timestamp), public)
        return aggregate_adapter.create(
            cls,
            cls.Created,
            id=tournament_id,
            timestamp=timestamp,
            prev_hash=chain.GENESIS,
            hash=digest,
            **copy_json(fields),
        )

    @event(Created)
    def __init__(
        self,
        *,
        game: str,
        options: dict[str, Any],
        settings: dict[str, Any],
        format: dict[str, Any],
        name: str,
        seed: str,
        seed_sha256: str,
        organiser_sha256: str,
        table_secret: str,
    ) -> None:
        self.game = game
        self.options = copy_json(options)
        self.settings = copy_json(settings)
        self.format = copy_json(format)
        self.name = name
        self.seed = seed
        self.seed_sha256 = seed_sha256
        self.organiser_sha256 = organiser_sha256
        self.table_secret = table_secret
        """The secret the service derives the tables' seat and arbiter tokens from
        (application/tournament_tables.py); never shown, never revealed."""
        self.phase = "registration"
        self.entrants: dict[str, dict[str, Any]] = {}
        """Each entrant by id, in registration order: name, token digest, status, pairing
        number (None before the start), late, the organiser's reason for a removal."""
        self.random_position = 0
        self.chain_head = chain.GENESIS
        self.rounds: list[dict[str, Any]] = []
        """Each round: its number, tables ({table, game, seats, result}), byes."""
        self.penalties: list[dict[str, Any]] = []
        self.acts: list[dict[str, Any]] = []
        """The arbiter's acts, in order (domain/tournament/play_events.py)."""
        self.ranking: list[str] = []
        """The final ranking, once finished."""

    def _trigger(self, event_class: type[TournamentEvent], **fields: Any) -> None:
        """Trigger an event as the next link of the chain (domain/tournament/chain.py)."""
        version = self.version + 1
        timestamp = event_class.create_timestamp()
        name = event_class.__name__
        data = chain.public_fields(name, fields)
        digest = chain.event_link(self.chain_head, (name, self.id, version, timestamp), data)
        self.trigger_event(
            event_class, timestamp=timestamp, prev_hash=self.chain_head, hash=digest, **fields
        )

    # Who is asking

    def is_organiser(self, token_sha256: str) -> bool:
        """Whether ``token_sha256`` is the organiser token's digest (in constant time)."""
        return hmac.compare_digest(token_sha256, self.organiser_sha256)

    def entrant_of(self, token_sha256: str) -> str | None:
        """The id of the entrant whose token has this digest, if any."""
        for key, entrant in self.entrants.items():
            if hmac.compare_digest(entrant["token_sha256"], token_sha256):
                return key
        return None

    # The commands

    def register(self, name: str, token_sha256: str, entrant_id: str | None = None) -> str:
        """Register an entrant (``entrant_id``, else a new UUID) and return its id; after
        the start, a late entry with the next free pairing number
        (:func:`domain.tournament.registration.check_register`)."""
        name = plain_text("name", name)
        key = entrant_id or str(uuid4())
        late = registration.check_register(self.phase, self.format, self.entrants, key, name)
        if late:
            number = 1 + max((e["number"] or 0 for e in self.entrants.values()), default=0)
            self._trigger(
                Tournament.EntrantEnteredLate,
                entrant=key,
                name=name,
                token_sha256=token_sha256,
                number=number,
            )
        else:
            self._trigger(
                Tournament.EntrantRegistered, entrant=key, name=name, token_sha256=token_sha256
            )
        return key

    def withdraw(self, entrant_id: str) -> None:
        """The entrant withdraws, in any phase before the end, once."""
        registration.check_not_finished(self.phase)
        registration.check_staying(self.entrants, entrant_id)
        self._trigger(Tournament.EntrantWithdrew, entrant=entrant_id)

    def remove(self, entrant_id: str, reason: str) -> None:
        """The organiser removes an entrant who has not left, for a plain-text reason."""
        reason = plain_text("reason", reason)
        registration.check_not_finished(self.phase)
        registration.check_staying(self.entrants, entrant_id)
        self._trigger(Tournament.EntrantRemoved, entrant=entrant_id, reason=reason)

    def open_check_in(self) -> None:
        """The organiser opens check-in (once, during registration)."""
        registration.check_open_check_in(self.phase)
        self._trigger(Tournament.CheckInOpened)

    def check_in(self, entrant_id: str) -> None:
        """The entrant checks in (once, while check-in is open)."""
        registration.check_check_in(self.phase, self.entrants, entrant_id)
        self._trigger(Tournament.EntrantCheckedIn, entrant=entrant_id)

    def start(self) -> None:
        """The organiser starts: the checked-in entrants are drawn their pairing numbers
        from the tournament's stream (``draw_numbers``, no seed values: every tie by lot);
        the others who had registered are absent."""
        ready = registration.check_start(self.phase, self.format, self.entrants)
        if rounds.too_few(self.format, len(ready)):
            raise TournamentPhase(
                "too-few-entrants",
                "Too few entrants have checked in to seat a table of this format's sizes.",
            )
        rng = self.random_stream()
        numbers = draw_numbers(ready, rng)
        absent = [k for k in registration.staying(self.entrants) if k not in numbers]
        self._trigger(
            Tournament.TournamentStarted,
            numbers=numbers,
            absent=absent,
            random_position=rng.position,
        )
        self.pair_next_round()

    # Rounds and results (docs/tournaments.md, "Rounds", "Results and standings")

    def active_count(self) -> int:
        """How many numbered entrants a round would still seat."""
        return sum(1 for e in pairing_inputs(self) if e.active)

    def pair_next_round(self) -> Round:
        """Pair the next round (``domain.tournament.rounds.check_next_round``) from the
        standings and the tournament's stream; each table gets its game's fixed id. A round
        with no table (every entrant still in has a bye) is over as soon as it is paired, so
        the tournament goes on from it at once (:meth:`go_on`)."""
        inputs = pairing_inputs(self)
        number = rounds.check_next_round(self, sum(1 for e in inputs if e.active))
        rng = self.random_stream()
        try:
            paired = pair_round(pairing_settings(self.format), inputs, number, rng)
        except PairingError as refused:
            if refused.code != "tournament-finished":
                raise
            # A bracket round without a match (withdrawals left every entrant still in facing
            # an empty slot) is a round of walkovers; the tournament is not over (checked
            # above), so a later round seats them.
            active = sorted((e for e in inputs if e.active), key=lambda e: e.number)
            paired = Round(number, (), tuple(e.id for e in active))
        tables = [
            {
                "table": index,
                "game": str(rounds.table_game_id(self.id, number, index)),
                "seats": list(seats),
            }
            for index, seats in enumerate(paired.tables, start=1)
        ]
        self._trigger(
            RoundPaired,
            round=number,
            tables=tables,
            byes=list(paired.byes),
            random_position=rng.position,
        )
        if not tables:  # a round that seats nobody is over at once: no result will end it
            self.go_on()
        return paired

    def record_result(
        self, game_id: str, ranks: list[int], scores: list[int], version: int, chain_head: str
    ) -> None:
        """Record the outcome of a table's game, once (``table-decided`` after that), then go
        on (:meth:`go_on`)."""
        number, table = rounds.find_table(self, game_id)
        rounds.check_undecided(table)
        players = len(table["seats"])
        self._trigger(
            ResultRecorded,
            round=number,
            table=table["table"],
            game=game_id,
            ranks=results.check_ranks(ranks, players),
            scores=results.check_scores(scores, players),
            version=version,
            chain_head=chain_head,
        )
        self.go_on()

    def go_on(self) -> None:
        """After a result: when the round is over, finish the tournament if no round is left,
        else (pairing ``auto``) pair the next round."""
        if self.phase != "running" or not rounds.round_over(self.rounds[-1]):
            return
        if rounds.is_over(self, self.active_count()):
            self.finish()
        elif self.format["pairing"] == "auto":
            self.pair_next_round()

    def finish(self) -> None:
        """Finish: reveal the seed and record the final ranking (``check_finish``)."""
        rounds.check_finish(self)
        self._trigger(TournamentFinished, seed=self.seed, ranking=standing_order(self))

    # The arbiter (docs/tournaments.md, "The arbiter"): the organiser's acts

    def forfeit(self, game_id: str, absent: list[str], reason: str) -> None:
        """Forfeit the no-shows of an undecided table (``results.forfeit_ranks``)."""
        reason = plain_text("reason", reason)
        number, table = rounds.find_table(self, game_id)
        rounds.check_undecided(table)
        self._trigger(
            TableForfeited,
            round=number,
            table=table["table"],
            game=game_id,
            absent=list(absent),
            ranks=results.forfeit_ranks(table["seats"], absent),
            reason=reason,
        )
        self.go_on()

    def adjudicate(
        self, game_id: str, ranks: list[int], scores: list[int] | None, reason: str
    ) -> None:
        """Decide the result of an undecided table's game that cannot be finished."""
        reason = plain_text("reason", reason)
        number, table = rounds.find_table(self, game_id)
        rounds.check_undecided(table)
        players = len(table["seats"])
        self._trigger(
            TableAdjudicated,
            round=number,
            table=table["table"],
            game=game_id,
            ranks=results.check_ranks(ranks, players),
            scores=results.check_scores(scores, players),
            reason=reason,
        )
        self.go_on()

    def correct_result(
        self, game_id: str, ranks: list[int], scores: list[int] | None, reason: str
    ) -> None:
        """Correct a decided table's result (rounds already paired stay as they were; in an
        elimination, who went on from a table is kept once the next round is paired:
        ``rounds.check_advancement_kept``)."""
        reason = plain_text("reason", reason)
        rounds.check_running(self)
        number, table = rounds.find_table(self, game_id)
        rounds.check_decided(table)
        players = len(table["seats"])
        ranks = results.check_ranks(ranks, players)
        rounds.check_advancement_kept(self, number, table, ranks)
        self._trigger(
            ResultCorrected,
            round=number,
            table=table["table"],
            game=game_id,
            ranks=ranks,
            scores=(
                results.check_scores(scores, players)
                if scores is not None
                else list(table["result"]["scores"])
            ),
            reason=reason,
        )

    def penalise(self, entrant_id: str, points: int | float, reason: str) -> None:
        """Deduct ``points`` (> 0) tournament points from a numbered entrant."""
        reason = plain_text("reason", reason)
        rounds.check_running(self)
        results.check_penalty(self.entrants, entrant_id, points)
        self._trigger(
            PenaltyAwarded,
            entrant=entrant_id,
            points=points,
            reason=reason,
            round=len(self.rounds),
        )

    def disqualify(self, entrant_id: str, reason: str) -> None:
        """Disqualify an entrant of a running tournament who has not left."""
        reason = plain_text("reason", reason)
        rounds.check_running(self)
        registration.check_staying(self.entrants, entrant_id)
        self._trigger(
            EntrantDisqualified, entrant=entrant_id, reason=reason, round=len(self.rounds)
        )

    def random_stream(self) -> RandomStream:
        """The tournament's stream where it stands (docs/tournaments.md, "Randomness")."""
        return RandomStream(self.seed, self.random_position)


def _entrant(name: str, token_sha256: str, status: str = "registered") -> dict[str, Any]:
    """A new entrant's record in the aggregate."""
    return {
        "name": name,
        "token_sha256": token_sha256,
        "status": status,
        "number": None,
        "late": False,
        "reason": "",
    }
