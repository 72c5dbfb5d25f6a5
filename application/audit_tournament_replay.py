"""The tournament decided again (issue 15, part 6; docs/tournaments.md, "Verifying a
tournament", 4): the record's events are not re-applied but **re-decided**, as a game's moves
are (docs/audit.md, "The rules"). Each event that starts a command is turned back into that
command — ``register``, ``withdraw``, ``start``, ``record_result``, ``forfeit``,
``pair_next_round``, … — and run on a :class:`Tournament` rebuilt by the aggregate's own code,
from the revealed seed. The events the command triggers must be the recorded ones, one by one,
type and public data exactly; what a command triggers after its first event (the first round
paired at the start; the next round, or the end, after a table's result) must be the events
that follow. So every draw of pairing numbers, every pairing (``pair_round`` on the standings
before the round and the stream where it stands), every forfeit's ranks
(``results.forfeit_ranks``) and the final ranking (``standing_order``) are computed again
from the record alone.

A second tournament, the *shadow*, follows the same events through the event classes'
``apply`` (``mutate``): the standings and the pairing inputs are read from it just before
each ``RoundPaired``, and the tables' games are checked as each event reaches them
(:mod:`application.audit_tournament_tables`).

Secret fields are not in a record: the replay gives the organiser's and the entrants' token
digests and the tables' secret placeholder values, which no decision reads."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any, cast
from uuid import UUID

from application.audit_format import Discrepancy, first_difference, show
from application.audit_tournament_tables import At, TableGames
from application.tournament_record_format import round_inputs
from domain.errors import GameError
from domain.tournament.aggregate import Tournament
from domain.tournament.event_base import TournamentEvent
from domain.tournament.invariants import check_invariants

SOURCE = "the tournament's rules give"
"""How a message names what the replay computed."""

WITHHELD = "(secret: not in the record)"
"""The value the replay gives a secret field (no decision reads one)."""


class Replay:
    """Follows a record's tournament events to the end, deciding each again."""

    def __init__(self, record: dict[str, Any], tables: TableGames) -> None:
        self.record = record
        self.tables = tables
        self.decider: Tournament | None = None
        self.shadow: Any = None
        self.expected: deque[TournamentEvent] = deque()
        self.inputs: list[dict[str, Any]] = []
        """The pairing inputs of every round, as the shadow gave them before it."""

    def run(self) -> Tournament:
        """Every event decided again, in order; the tournament at the end (the shadow)."""
        for item in self.record["events"]:
            at = At(item["version"], item["type"], item["timestamp"])
            produced = self.expected.popleft() if self.expected else self._decide(item, at)
            self._compare(item, produced, at)
            self._follow(produced, item, at)
        if self.expected:
            following = self.expected[0]
            raise Discrepancy(
                f"the record ends, but the tournament goes on: {SOURCE} "
                f"{type(following).__name__} next ({_describe(following)})"
            )
        shadow: Tournament = self.shadow
        if shadow.phase != "finished":
            raise Discrepancy(
                "the record ends before the tournament finished (no TournamentFinished)"
            )
        problems = check_invariants(shadow)
        if problems:
            raise Discrepancy(f"the tournament breaks its invariants: {'; '.join(problems)}")
        return shadow

    # Deciding

    def _decide(self, item: dict[str, Any], at: At) -> TournamentEvent:
        """Run the command the event ``item`` records; its first event (the others queued)."""
        data = item["data"]
        try:
            if item["type"] == "Created":
                produced = self._create(data)
            else:
                if self.decider is None:
                    raise at.found("a tournament's first event is Created")
                self._command(self.decider, item["type"], data, at)()
                produced = _collected(self.decider)
        except Discrepancy:
            raise
        except GameError as refused:
            raise at.found(f"the tournament refuses it: {refused.code}: {refused}") from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
            raise at.found(f"its data cannot be read as a {item['type']}: {error!r}") from None
        if not produced:
            raise at.found(f"{SOURCE} no event for it")
        first, *rest = produced
        self.expected.extend(rest)
        return first

    def _create(self, data: dict[str, Any]) -> list[TournamentEvent]:
        if self.decider is not None:
            raise Discrepancy("a tournament is created once")
        self.decider = Tournament.create(
            game=data["game"],
            options=data["options"],
            settings=data["settings"],
            format=data["format"],
            name=data["name"],
            seed=self.record["seed"],
            seed_sha256=data["seed_sha256"],
            organiser_sha256=WITHHELD,
            table_secret=WITHHELD,
            tournament_id=UUID(self.record["tournament"]["id"]),
        )
        return _collected(self.decider)

    def _command(self, t: Tournament, name: str, d: dict[str, Any], at: At) -> Callable[[], Any]:
        """The command a recorded event of type ``name`` (data ``d``) starts."""
        commands: dict[str, Callable[[], Any]] = {
            "EntrantRegistered": lambda: t.register(d["name"], _digest(d), d["entrant"]),
            "EntrantEnteredLate": lambda: t.register(d["name"], _digest(d), d["entrant"]),
            "EntrantWithdrew": lambda: t.withdraw(d["entrant"]),
            "EntrantRemoved": lambda: t.remove(d["entrant"], d["reason"]),
            "CheckInOpened": t.open_check_in,
            "EntrantCheckedIn": lambda: t.check_in(d["entrant"]),
            "TournamentStarted": t.start,
            "RoundPaired": t.pair_next_round,
            "ResultRecorded": lambda: t.record_result(
                d["game"], d["ranks"], d["scores"], d["version"], d["chain_head"]
            ),
            "TableForfeited": lambda: t.forfeit(d["game"], d["absent"], d["reason"]),
            "TableAdjudicated": lambda: t.adjudicate(
                d["game"], d["ranks"], d["scores"], d["reason"]
            ),
            "ResultCorrected": lambda: t.correct_result(
                d["game"], d["ranks"], d["scores"], d["reason"]
            ),
            "PenaltyAwarded": lambda: t.penalise(d["entrant"], d["points"], d["reason"]),
            "EntrantDisqualified": lambda: t.disqualify(d["entrant"], d["reason"]),
            "TournamentFinished": t.finish,
        }
        command = commands.get(name)
        if command is None:
            raise at.found("not an event of a tournament")
        return command

    # Comparing

    def _compare(self, item: dict[str, Any], produced: TournamentEvent, at: At) -> None:
        name = type(produced).__name__
        if item["type"] != name:
            raise at.found(f"{SOURCE} {name} here ({_describe(produced)}), not {item['type']}")
        expected = produced.public_data()
        recorded = item["data"]
        if name == "RoundPaired":
            found = self._pairing_difference(recorded, expected)
        elif name == "TournamentStarted":
            found = self._numbers_difference(recorded, expected)
        elif name == "TournamentFinished":
            found = self._ranking_difference(recorded, expected)
        else:
            found = None
        found = found or first_difference("data", recorded, expected, SOURCE)
        if found:
            raise at.found(found)

    def _name(self, entrant: Any) -> str:
        """An entrant by name and id, for a message."""
        known = self.shadow.entrants.get(entrant) if isinstance(entrant, str) else None
        return f"{known['name']} ({entrant})" if known else show(entrant)

    def _names(self, entrants: Any) -> str:
        if not isinstance(entrants, list):
            return show(entrants)
        return ", ".join(self._name(e) for e in entrants) or "nobody"

    def _pairing_difference(self, recorded: Any, expected: dict[str, Any]) -> str | None:
        """A ``RoundPaired`` against the pairing computed again: tables, seats, games, byes."""
        number = expected["round"]
        lead = (
            f"round {number} is not the pairing of the standings before it with the tournament seed"
        )
        if recorded.get("byes") != expected["byes"]:
            return (
                f"{lead}: byes recorded {self._names(recorded.get('byes'))}, the pairing gives "
                f"{self._names(expected['byes'])}"
            )
        tables = recorded.get("tables")
        if not isinstance(tables, list) or len(tables) != len(expected["tables"]):
            count = len(tables) if isinstance(tables, list) else show(tables)
            return f"{lead}: {count} tables recorded, the pairing gives {len(expected['tables'])}"
        for mine, theirs in zip(tables, expected["tables"], strict=True):
            where = f"{lead}: table {theirs['table']}"
            seats = mine.get("seats") if isinstance(mine, dict) else None
            if seats != theirs["seats"]:
                return (
                    f"{where} seats {self._names(seats)} recorded, the pairing gives "
                    f"{self._names(theirs['seats'])}"
                )
            if mine.get("game") != theirs["game"]:
                return (
                    f"{where}: game {show(mine.get('game'))} recorded, the table's game id is "
                    f"{theirs['game']} (fixed by the tournament, round and table)"
                )
        return None

    def _numbers_difference(self, recorded: Any, expected: dict[str, Any]) -> str | None:
        numbers = recorded.get("numbers")
        if not isinstance(numbers, dict):
            return None
        for entrant, number in expected["numbers"].items():
            if numbers.get(entrant) != number:
                return (
                    f"the pairing numbers are not the draw from the tournament seed: "
                    f"{self._name(entrant)} has number {show(numbers.get(entrant))}, the draw "
                    f"gives {number}"
                )
        return None

    def _ranking_difference(self, recorded: Any, expected: dict[str, Any]) -> str | None:
        if recorded.get("ranking") == expected["ranking"]:
            return None
        return (
            f"the final ranking recorded {self._names(recorded.get('ranking'))}; the standings "
            f"give {self._names(expected['ranking'])}"
        )

    # Following

    def _follow(self, produced: TournamentEvent, item: dict[str, Any], at: At) -> None:
        """The shadow takes the event (the standings before a round read first), and the
        tables' games are checked against it."""
        name = type(produced).__name__
        if name == "RoundPaired":
            self.inputs.append(round_inputs(self.shadow))
        self.shadow = produced.mutate(self.shadow)
        data = item["data"]
        if name == "Created":
            self.tables.tournament = {
                "id": str(self.shadow.id),
                "game": self.shadow.game,
                "options": self.shadow.options,
                "settings": self.shadow.settings,
            }
        if name == "RoundPaired":
            for table in data["tables"]:
                names = [self.shadow.entrants[e]["name"] for e in table["seats"]]
                where = f"round {data['round']}, table {table['table']}"
                self.tables.seated(where, table, names, at)
            return
        if name not in ("ResultRecorded", "TableForfeited", "TableAdjudicated"):
            return
        where = f"round {data['round']}, table {data['table']}"
        if name == "ResultRecorded":
            self.tables.played(where, data, at)
        elif name == "TableForfeited":
            seats = self.shadow.rounds[data["round"] - 1]["tables"][data["table"] - 1]["seats"]
            by_id = {key: e["name"] for key, e in self.shadow.entrants.items()}
            self.tables.forfeited(where, data, seats, by_id, at)
        else:
            self.tables.adjudicated(where, data, at)


def _collected(tournament: Tournament) -> list[TournamentEvent]:
    """The events a command triggered (all tournament events: the aggregate's own)."""
    return [cast(TournamentEvent, event) for event in tournament.collect_events()]


def _digest(data: dict[str, Any]) -> str:
    """An entrant's token digest, withheld (each entrant's its own: digests are distinct)."""
    return f"{WITHHELD} {data['entrant']}"


def _describe(event: TournamentEvent) -> str:
    """A few words on an event the rules give, for a message."""
    data = event.public_data()
    if "round" in data and "table" in data:
        return f"round {data['round']}, table {data['table']}"
    if "round" in data:
        return f"round {data['round']}"
    return "the end" if type(event).__name__ == "TournamentFinished" else "its data"
