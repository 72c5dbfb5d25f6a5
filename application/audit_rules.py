"""The third check of a game record (issue 3, part 5; docs/audit.md, "What each check
means"): the rules re-decide the game from its first event. Each begin and each move is
decided again from the state before it — the seat must be one the rules let act, the move
one of its legal moves — and the rules' events, drawn from the revealed seed, must equal the
recorded ones exactly; only then are they evolved. Undo events are decided again by the
game's own undo policy (:mod:`domain.undo`) in :mod:`application.audit_undo`; the players'
signatures of their moves are checked in :mod:`application.audit_signatures`, the clocks (the
moves' times and the flags) in :mod:`application.audit_clocks`. Without the
seed (an unfinished game) a begin or move that needs a draw is accepted as recorded once its
legality is checked, and counted."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from application import audit_clocks, audit_lobby, audit_signatures, audit_undo
from application.audit_format import (
    LEDGER_FIELDS,
    OPTIONAL_FIELDS,
    Discrepancy,
    first_difference,
    show,
)
from domain import clocks, lobby, undo
from domain.jsonvalue import copy_json
from domain.protocol import Event, GameError, Outcome, Rules
from domain.randomness import RandomStream
from domain.registry import rules_for


class DrawNeeded(Exception):
    """A random number was asked of a game whose seed is still secret."""


class SealedStream(RandomStream):
    """The random stream of a game whose seed is not revealed: any draw raises
    :class:`DrawNeeded`."""

    def __init__(self, position: int) -> None:
        super().__init__("", position)

    def number(self) -> int:
        """Refuse: the seed that would give this number is secret."""
        raise DrawNeeded


class Referee:
    """Follows a structurally sound record whose chain holds, deciding every step again.
    After :meth:`run`, ``turns`` and ``effective`` are the final line of play."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        self.seed: str | None = record["seed"]
        self.events: list[dict[str, Any]] = _decidable(record["events"], self.seed)
        self.hidden_from: int | None = (
            None if len(self.events) == len(record["events"]) else len(self.events) + 1
        )
        self.rules: Rules[Any, Any] = _rules_of(record)
        self.players = 0
        self.options: dict[str, Any] = {}
        self.settings: dict[str, Any] = {}
        self.prelude: list[tuple[int, str, dict[str, Any]]] = []
        self.state: Any = None
        self.seated: list[bool] = []
        self.turns: list[list[int]] = []
        self.effective: list[tuple[int, str, dict[str, Any]]] = []
        self.request: dict[str, Any] | None = None
        self.moves = 0
        self.undone = 0
        self.unchecked = 0
        self.resigned: list[int] = []
        self.flagged: list[int] = []
        self.clock: clocks.ClockState | None = None
        self.keys: list[str | None] = []
        self.signed = 0
        self.closed = ""
        self.rematch = ""

    def run(self) -> None:
        """Re-decide every event; raise :class:`Discrepancy` at the first that the rules or
        the undo policy do not give, then compare the outcome."""
        handlers: dict[str, Callable[[int], int]] = {
            "SeatJoined": self._seat_joined,
            "MoveMade": self._move_made,
            "UndoRequested": lambda i: audit_undo.undo_requested(self, i),
            "UndoAnswered": lambda i: audit_undo.undo_answered(self, i),
            "TurnsUndone": lambda i: audit_undo.turns_undone(self, i),
            "SeatLeft": lambda i: audit_lobby.seat_left(self, i),
            "SeatResigned": lambda i: audit_lobby.seat_resigned(self, i),
            "SeatFlagged": lambda i: audit_clocks.seat_flagged(self, i),
            "GameAborted": lambda i: audit_lobby.game_aborted(self, i),
            "GameExpired": lambda i: audit_lobby.game_expired(self, i),
            "RematchCreated": lambda i: audit_lobby.rematch_created(self, i),
        }
        index = self._created()
        while index < len(self.events):
            item = self.events[index]
            handler = handlers.get(item["type"])
            if handler is None:
                raise self.stray(item)
            audit_lobby.check_open(self, item)
            audit_clocks.command_in_time(self, item)
            if item["type"] == "UndoRequested" or (
                item["type"] == "TurnsUndone" and item["data"].get("by") == "player"
            ):
                audit_lobby.check_undo(self, item)
            index = handler(index)
            if item["type"] not in _CLOCKED_HANDLERS:
                # the last event the handler took: an acceptance's TurnsUndone starts the
                # clocks at its own timestamp, as in the game (docs/api.md, "Clocks")
                audit_clocks.after(self, self.events[index - 1])
        if self.hidden_from is not None:
            return
        outcome = self.outcome()
        expected = outcome.to_json() if outcome is not None else None
        difference = first_difference("outcome", self.record["outcome"], expected)
        if difference:
            raise Discrepancy(difference)
        if expected is not None and self.seed is None:
            raise Discrepancy("the game has ended, so its record must reveal the seed")

    def outcome(self) -> Outcome | None:
        """The outcome as the game gives it here: the rules', resigned seats ranked last, or
        the end by resignation (:attr:`domain.game.Game.outcome`, the same functions)."""
        found = self.rules.outcome(self.state)
        if found is not None:
            return lobby.ranked(found, self.players, self.resigned, self.flagged)
        out = self.rules.out_of_play(self.state)
        if lobby.ends_game(self.players, self.resigned, out):
            scores = self.rules.summary(self.state).get("scores", [])
            return lobby.resigned_outcome(scores, self.players, self.resigned, out, self.flagged)
        return None

    # Reading events

    def data(self, item: dict[str, Any]) -> dict[str, Any]:
        """A ledger event's data, once it has exactly the fields of its type."""
        data: dict[str, Any] = item["data"]
        wanted = LEDGER_FIELDS[item["type"]]
        optional = OPTIONAL_FIELDS.get(item["type"], frozenset())
        if not wanted <= set(data) <= wanted | optional:
            raise Discrepancy(
                f"data has the fields {sorted(data)}, a {item['type']} has {sorted(wanted)}",
                item["version"],
                item["type"],
            )
        return data

    def stray(self, item: dict[str, Any]) -> Discrepancy:
        """The discrepancy of an event that nothing before it caused."""
        if item["type"] in self.rules.event_types:
            why = "a game event that no begin or move before it produces"
        else:
            why = f"no such event type in the ledger or in {self.rules.name}"
        return Discrepancy(why, item["version"], item["type"])

    # The game's life

    def _created(self) -> int:
        item = self.events[0]
        data = self.data(item)
        where = (item["version"], item["type"])
        rules = self.rules
        players, options, settings = data["players"], data["options"], data["settings"]
        try:
            if data["game"] != rules.name:
                raise GameError("wrong-game", f"data.game recorded {show(data['game'])}")
            if not isinstance(options, dict) or not isinstance(settings, dict):
                raise GameError("not-objects", "options and settings are JSON objects")
            if options != rules.normalise_options(options) or settings != undo.normalise_settings(
                settings
            ):
                raise GameError("not-normal", "options or settings are not as fixed at creation")
            self.state = rules.setup(players, options)
        except GameError as error:
            raise Discrepancy(error.message, *where) from None
        self.players, self.options, self.settings = players, options, settings
        self.seated = [False] * players
        self.keys = [None] * players
        if data.get("private", True) is not True:
            raise Discrepancy("data.private is only ever true (absent otherwise)", *where)
        if not isinstance(data.get("rematch_of", ""), str):
            raise Discrepancy("data.rematch_of is a game id", *where)
        if not isinstance(data.get("tournament", ""), str):
            raise Discrepancy("data.tournament is a tournament id", *where)
        prelude = data["prelude"]
        if not isinstance(prelude, list) or (data["analysis"] is None and prelude):
            raise Discrepancy("only an analysis game has a prelude", *where)
        for entry in prelude:
            if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], dict)):
                raise Discrepancy(f"a prelude entry is [type, data], not {show(entry)}", *where)
            self.evolve({"version": 1, "type": entry[0], "data": entry[1]})
        self.prelude = list(self.effective)
        if "clock" in settings:
            self.clock = clocks.start(settings["clock"], players)
        return 1

    def _seat_joined(self, index: int) -> int:
        item = self.events[index]
        data = self.data(item)
        seat = data["seat"]
        if type(seat) is not int or not 0 <= seat < self.players or self.seated[seat]:
            raise Discrepancy(f"seat {show(seat)} is not free", item["version"], "SeatJoined")
        if not isinstance(data["name"], str):
            raise Discrepancy("a seat's name is a string", item["version"], "SeatJoined")
        audit_signatures.seat_joined(self, item, seat)
        self.seated[seat] = True
        audit_clocks.after(self, item)
        if all(self.seated) and not self.effective:
            expected = self.decide(item, lambda rng: self.rules.begin(self.state, rng))
            return self.follow(index + 1, expected)
        return index + 1

    def _move_made(self, index: int) -> int:
        item = self.events[index]
        data = self.data(item)
        version, rules, seat = item["version"], self.rules, data["seat"]
        if not all(self.seated):
            raise Discrepancy("a move before every seat was taken", version, "MoveMade")
        if self.request is not None:
            raise Discrepancy("a move while an undo request waits", version, "MoveMade")
        acting = rules.current_players(self.state)
        audit_lobby.check_move(self, item, seat, acting)
        if seat not in acting:
            why = f"seat(s) {acting} may act now" if acting else "nobody may move: the game is over"
            raise Discrepancy(f"seat {show(seat)} may not move now: {why}", version, "MoveMade")
        try:
            move = rules.parse_move(data["move"])
        except GameError as error:
            raise Discrepancy(
                f"data.move cannot be read: {error.message}", version, "MoveMade"
            ) from None
        difference = first_difference("data.move", data["move"], rules.move_to_json(move))
        difference = difference or first_difference(
            "data.notation", data["notation"], rules.notation(move)
        )
        if difference:
            raise Discrepancy(difference, version, "MoveMade")
        audit_signatures.move_made(self, item, seat)
        exhaustive = not rules.open_moves
        if exhaustive and move not in rules.legal_moves(self.state, seat):
            notation = rules.notation(move)
            raise Discrepancy(f"{notation} is not legal for seat {seat} now", version, "MoveMade")
        expected = self.decide(item, lambda rng: rules.apply(self.state, seat, move, rng))
        audit_clocks.move_made(self, item, seat)
        audit_clocks.after(self, item)
        self.turns.append([version, seat])
        self.moves += 1
        return self.follow(index + 1, expected)

    # Deciding and following

    def decide(
        self, item: dict[str, Any], make: Callable[[RandomStream], list[Event]]
    ) -> list[Event] | None:
        """The events the rules give for ``item``'s begin or move, drawn from the seed at the
        state's stream position; ``None`` when a draw is needed and the seed is secret."""
        position = self.state.random_position
        stream = SealedStream(position) if self.seed is None else RandomStream(self.seed, position)
        try:
            return make(stream)
        except DrawNeeded:
            self.unchecked += 1
            return None
        except GameError as error:
            raise Discrepancy(
                f"the rules refuse it: {error.message}", item["version"], item["type"]
            ) from None

    def follow(self, index: int, expected: list[Event] | None) -> int:
        """Check that the recorded events from ``index`` on are ``expected`` one by one
        (type and data exactly) and evolve them; with ``expected`` ``None`` (draws that
        cannot be checked yet) take the recorded game events as they are."""
        events = self.events
        if expected is None:
            while index < len(events) and events[index]["type"] not in LEDGER_FIELDS:
                if events[index]["type"] not in self.rules.event_types:
                    raise self.stray(events[index])
                self.evolve(events[index])
                audit_clocks.after(self, events[index])
                index += 1
            return index
        for event in expected:
            if index >= len(events):
                last = events[-1]
                raise Discrepancy(
                    f"the record ends here, but the rules give {event.type} next",
                    last["version"],
                    last["type"],
                )
            item = events[index]
            where = (item["version"], item["type"])
            if item["type"] != event.type:
                raise Discrepancy(f"the rules give {event.type} here, not {item['type']}", *where)
            difference = first_difference("data", item["data"], event.data)
            if difference:
                raise Discrepancy(difference, *where)
            self.evolve(item)
            audit_clocks.after(self, item)
            index += 1
        return index

    def evolve(self, item: dict[str, Any]) -> None:
        """The state after a recorded game event (the rules' ``evolve``), on the line."""
        name, data = item["type"], item["data"]
        try:
            self.state = self.rules.evolve(self.state, Event(name, copy_json(data)))
        except Exception as error:  # any failure of the rules on recorded data is reported
            raise Discrepancy(
                f"the rules cannot apply this event ({type(error).__name__}: {error})",
                item["version"],
                name,
            ) from None
        self.effective.append((item["version"], name, data))

    # The line of play

    def undo_table(self) -> undo.Table:
        """What the undo policy (:mod:`domain.undo`) needs to know of the game here."""
        return undo.Table(
            settings=self.settings,
            players=self.players,
            turns=self.turns,
            finished=self.outcome() is not None,
            request=self.request,
        )

    def take_back(self, to_version: int) -> None:
        """An undo: the line of play is cut after ``to_version`` and the state replayed, as
        the game's ``TurnsUndone`` does (:func:`domain.undo.kept`)."""
        self.undone += undo.taken_back(self.turns, to_version)
        self.turns = undo.kept(self.turns, to_version)
        self.effective = undo.kept(self.effective, to_version)
        self.request = None
        self.state = self.state_at(to_version)
        audit_clocks.rewind(self, to_version)

    def state_at(self, version: int) -> Any:
        """The rules' state on the line of play at ``version``: setup, then the effective
        game events up to it."""
        state = self.rules.setup(self.players, self.options)
        for at, name, data in self.effective:
            if at <= version:
                state = self.rules.evolve(state, Event(name, copy_json(data)))
        return state

    def version_after_turn(self, turn: int) -> int:
        """The version after ``turn`` of the line of play (0: before the first move)."""
        if turn == len(self.turns):
            return len(self.events)
        return self.turns[turn][0] - 1


_CLOCKED_HANDLERS = frozenset({"SeatJoined", "MoveMade"})
"""The events whose handlers move the clocks on themselves, before the game events that
follow them (:mod:`application.audit_clocks`)."""


def _decidable(events: list[dict[str, Any]], seed: str | None) -> list[dict[str, Any]]:
    """The events the rules can follow: all of them once the seed is revealed; else those
    before the ledger event (a move, the last seat taken) that led to the first sealed event."""
    if seed is None:
        for first, item in enumerate(events):
            if item.get("sealed"):
                cut = first
                while cut > 0 and events[cut]["type"] not in LEDGER_FIELDS:
                    cut -= 1
                return events[:cut]
    return events


def _rules_of(record: dict[str, Any]) -> Rules[Any, Any]:
    """The rules named by the record's Created event, of the version the record names."""
    created = record["events"][0]
    kind = created["data"].get("game")
    try:
        rules = rules_for(kind if isinstance(kind, str) else "")
    except GameError as error:
        raise Discrepancy(error.message, created["version"], created["type"]) from None
    made_under = record["game"]["rules_version"]
    if made_under != rules.rules_version:
        raise Discrepancy(
            f"the record was made under the rules {made_under!r}; these are "
            f"{rules.rules_version!r}, so its moves cannot be decided again here"
        )
    return rules
