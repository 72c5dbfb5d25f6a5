"""The game aggregate: one event-sourced aggregate per game, for every registered game
(docs/architecture.md, "Events are the record"; "Write side"; issue 3 for the chain and undo).

The events it stores:

* ``Created`` — the game's kind, seats, options, ledger settings (undo policy, tournament),
  the SHA-256 commitment to the secret seed (the seed itself and the arbiter's token digest
  are secret fields no reader is shown), and for an analysis game its source and prelude;
* ``SeatJoined`` — a seat taken (its token's SHA-256 is secret), with the player's public
  key when one was registered (:mod:`domain.move_signatures`);
* ``MoveMade`` — who moved and the move: what the player did, with the player's signature
  when the seat has a key. It starts a turn;
* the game's own events, one class per type in the game's words, topic ``domain.<game>:<Type>``;
* ``UndoRequested``, ``UndoAnswered``, ``TurnsUndone`` — decided by the undo policy,
  :mod:`domain.undo` (the record verifier decides them again with the same functions).
* ``SeatLeft``, ``SeatResigned``, ``GameAborted``, ``GameExpired``, ``RematchCreated`` — the
  lobby's verbs (docs/api.md, "Lobby"), each decided by :mod:`domain.lobby`, which also
  chooses the bot's moves for resigned seats.
* ``SeatFlagged`` — a seat's clock ran out (docs/api.md, "Clocks"), decided by
  :mod:`domain.clocks`; the seat is then out of play as if it had resigned. In a game with a
  clock, every event moves the clocks on (:func:`domain.clocks.after_event`) and a player's
  ``MoveMade`` records the time the move took (``elapsed_ms``).

The event classes stay nested here: each is stored under its topic
``domain.game:Game.<Type>`` (tests/integration/stored_shape.json), so moving one would change
what is stored. The commands delegate their decisions (:mod:`domain.undo`,
:mod:`domain.lobby`) and the hashing of each link (:mod:`domain.chain`).

Every event carries ``prev_hash`` and ``hash`` (:mod:`domain.chain`). A turn's events are
triggered together and saved by one ``Application.save``: a turn is all or nothing. Random
outcomes are drawn inside ``Rules.apply`` before any event is triggered; event bodies only
evolve the state.

The aggregate uses the library's public API: commands trigger explicit event classes with
``trigger_event`` (:meth:`Game._trigger`, which makes each event the next link of the
chain), each event evolves the game in its ``apply`` hook, snapshots extend the library's
``Snapshot.take``/``mutate``. The two things that API does not offer are in
:mod:`domain.aggregate_adapter`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar, cast
from uuid import UUID, uuid4

from eventsourcing.domain import Aggregate, event
from eventsourcing.domain import Snapshot as LibrarySnapshot
from eventsourcing.utils import register_topic

from domain import aggregate_adapter, chain, clocks, lobby, move_signatures, undo
from domain.chain import CHAIN_FIELDS, ENVELOPE_FIELDS, SECRET_FIELDS
from domain.errors import GameNotReady, SeatUnavailable
from domain.jsonvalue import copy_json
from domain.ledger_events import LEDGER_EVENTS
from domain.line import Line
from domain.protocol import Event as RulesEvent
from domain.protocol import Outcome, Rules
from domain.randomness import RandomStream
from domain.registry import rules_for
from domain.text import plain_text

STATE_DEFAULTS: dict[str, Any] = {**lobby.STATE_DEFAULTS, "flagged": [], "clock": None}
"""The attributes a game saved before them has (the lobby's, the clocks'): a snapshot leaves
them out when they have these values and a snapshot without them reads them as these."""


class Game(Aggregate):
    """One game of any registered kind, rebuilt from its events."""

    class_version = 1

    class Event(Aggregate.Event):
        """Base of every event of a game: each is a link of the game's hash chain."""

        class_version = 1
        prev_hash: str
        hash: str

        @property
        def type_name(self) -> str:
            """The event's name as the log shows it."""
            return type(self).__name__

        def public_data(self) -> dict[str, Any]:
            """The data the log shows and the chain hashes."""
            hidden = SECRET_FIELDS.get(self.type_name, frozenset()) | CHAIN_FIELDS | ENVELOPE_FIELDS
            return {k: v for k, v in vars(self).items() if k not in hidden}

        def apply(self, aggregate: Any) -> None:
            """Move the game's clocks on (a game with a clock: the seats that may act now run,
            from this event's timestamp; :func:`domain.clocks.after_event`) and its chain head
            on to this event (subclasses evolve the game first, then call this)."""
            game = cast(Game, aggregate)
            if game.clock is not None:
                game.clock = clocks.after_event(game.clock, game.clock_acting(), self.timestamp)
            game.chain_head = self.hash

    class Created(Event, Aggregate.Created):
        """The game was created."""

        game: str
        players: int
        options: dict[str, Any]
        settings: dict[str, Any]
        seed: str
        seed_sha256: str
        arbiter_sha256: str
        analysis: dict[str, Any] | None
        prelude: list[list[Any]]
        # The lobby's fields (issue 13, part 4): ``private``, ``rematch_of`` and (issue 15)
        # ``tournament`` (the tournament a table's game belongs to) are public
        # and shown only when set, so a game without them has the Created event it always
        # had; the creator's and the join secret's digests and a rematch's ``claims`` (its
        # seats' token digests in the game it replays) are secret.
        private: bool = False
        rematch_of: str = ""
        creator_sha256: str = ""
        join_sha256: str = ""
        claims: list[str] | None = None
        tournament: str = ""

        def __post_init__(self) -> None:
            """Keep only the lobby's fields that are set: a game without them stores, shows
            and hashes the very ``Created`` event it always did (tests/integration/
            test_stored_shape.py); an unset one reads as its class default."""
            super().__post_init__()
            state = vars(self)
            for name in lobby.CREATED_FIELDS:
                if name in state and not state[name]:
                    del state[name]

    class Snapshot(LibrarySnapshot):
        """The game at a version, its state written by the rules' ``state_to_json`` and its
        line of play trimmed (:meth:`domain.line.Line.trimmed`): the state and what is needed
        to go on, so a snapshot's size does not grow with the game's length. Views at a version
        of a long game start from the snapshot before it. (Snapshots taken before the line was
        trimmed hold the whole line as ``turns`` and ``effective``; they still load.)"""

        @classmethod
        def take(cls, aggregate: Any) -> Any:
            """The snapshot of ``aggregate`` as it is now: the library's, with the rules'
            state in its JSON form and the line of play trimmed to this version."""
            game = cast(Game, aggregate)
            taken = super().take(game)
            state = dict(taken.state)
            state["state"] = game.rules.state_to_json(game.state)
            state["line"] = game.line.trimmed(game.version).to_json()
            if game.clock is not None:
                state["clock"] = clocks.trimmed(game.clock)
            for name, default in STATE_DEFAULTS.items():  # as before the lobby, when unset
                if state.get(name) == default:
                    del state[name]
            return cls(
                originator_id=taken.originator_id,
                originator_version=taken.originator_version,
                timestamp=taken.timestamp,
                topic=taken.topic,
                state=copy_json(state),
            )

        def mutate(self, _: None) -> Any:
            """The game the snapshot was taken of."""
            game = cast(Game, super().mutate(None))
            game.state = game.rules.state_from_json(game.state)
            kept = vars(game)
            for name, default in STATE_DEFAULTS.items():  # a snapshot from before the lobby
                kept.setdefault(name, copy_json(default))
            if "line" in kept:
                game.line = Line.from_json(kept["line"])
            else:  # a snapshot with the whole line of play
                game.line = Line.from_whole(kept.pop("turns"), kept.pop("effective"))
                game.has_prelude = any(item[0] == 1 for item in game.line.effective)
            return game

    class Played(Event):
        """Base of the game's own events: ``data`` is the protocol event's data."""

        data: dict[str, Any]
        sealed: str
        game_event_type: ClassVar[str] = ""

        @property
        def type_name(self) -> str:
            """The game's own name for the event (``TilesTaken``)."""
            return self.game_event_type

        def public_data(self) -> dict[str, Any]:
            """The rules' data, as recorded."""
            return self.data

        def apply(self, aggregate: Any) -> None:
            """Evolve the state by this event (the rules' ``evolve``, nothing else)."""
            game = cast(Game, aggregate)
            game.line.played(self.originator_version, self.game_event_type, self.data)
            domain_event = RulesEvent(self.game_event_type, copy_json(self.data))
            game.state = game.rules.evolve(game.state, domain_event)
            super().apply(game)

    class SeatJoined(Event):
        """A seat was taken (its token's SHA-256 is secret); ``public_key``, public, only when
        the player registered one (issue 14, part 5: the seat then signs its moves)."""

        seat: int
        name: str
        token_sha256: str
        public_key: str = ""

        def __post_init__(self) -> None:
            """A seat taken without a key stores, shows and hashes the very ``SeatJoined``
            it always did (:func:`_drop_unset`)."""
            super().__post_init__()
            _drop_unset(self, "public_key")

        def apply(self, aggregate: Any) -> None:
            """The seat is the player's (with its public key, when it registered one)."""
            game = cast(Game, aggregate)
            seat = {"name": self.name, "token_sha256": self.token_sha256}
            if self.public_key:
                seat["public_key"] = self.public_key
            game.seats[self.seat] = seat
            super().apply(game)

    class MoveMade(Event):
        """A seat made a move: it starts a turn of the line of play. ``signature``: the
        player's, only when the seat registered a key (:mod:`domain.move_signatures`);
        ``elapsed_ms``: the time the move took, only in a game with a clock and for a move the
        player sent (:mod:`domain.clocks`)."""

        seat: int
        move: dict[str, Any]
        notation: str
        sealed: str
        signature: str = ""
        elapsed_ms: int | None = None

        def __post_init__(self) -> None:
            """An unsigned, untimed move stores, shows and hashes the very ``MoveMade`` it
            always did (:func:`_drop_unset`)."""
            super().__post_init__()
            _drop_unset(self, "signature")
            if vars(self).get("elapsed_ms", 0) is None:
                del vars(self)["elapsed_ms"]

        def apply(self, aggregate: Any) -> None:
            """A turn starts at this event's version; a timed move charges the seat's clock
            (:func:`domain.clocks.charge`)."""
            game = cast(Game, aggregate)
            game.line.move(self.originator_version, self.seat)
            if game.clock is not None and self.elapsed_ms is not None:
                game.clock = clocks.charge(
                    game.clock,
                    game.settings["clock"],
                    self.seat,
                    self.elapsed_ms,
                    self.originator_version,
                )
            super().apply(game)

    class UndoRequested(Event):
        """A player asked to take back turns; the seats in ``waiting`` must answer."""

        seat: int
        to_version: int
        turns: int
        waiting: list[int]

        def apply(self, aggregate: Any) -> None:
            """The request waits for answers."""
            game = cast(Game, aggregate)
            game.undo_request = {
                "seat": self.seat,
                "to_version": self.to_version,
                "turns": self.turns,
                "waiting": list(self.waiting),
            }
            super().apply(game)

    class UndoAnswered(Event):
        """A seat asked accepted or refused the pending request."""

        seat: int
        accepted: bool

        def apply(self, aggregate: Any) -> None:
            """The request after the answer (:func:`domain.undo.after_answer`)."""
            game = cast(Game, aggregate)
            assert game.undo_request is not None
            game.undo_request = undo.after_answer(game.undo_request, self.seat, self.accepted)
            super().apply(game)

    class TurnsUndone(Event):
        """The game went back to ``to_version`` (by a player, by consent, or the arbiter)."""

        to_version: int
        turns: int
        by: str
        seat: int
        reason: str

        def apply(self, aggregate: Any) -> None:
            """The line of play is cut back to ``to_version`` and the state replayed (this
            needs the whole line: :class:`~domain.line.LineNeeded` otherwise, before anything
            changes)."""
            game = cast(Game, aggregate)
            game.line.cut(self.to_version)
            game.undo_request = None
            game.state = game._replay_effective()
            if game.clock is not None:  # the clocks rewind with the line (domain/clocks.py)
                game.clock = clocks.rewind(game.clock, self.to_version)
            super().apply(game)

    class SeatLeft(Event):
        """A seat's holder left before the game started: the seat is free again and its
        token holds nothing any more."""

        seat: int

        def apply(self, aggregate: Any) -> None:
            """The seat is free."""
            game = cast(Game, aggregate)
            game.seats[self.seat] = None
            super().apply(game)

    class SeatResigned(Event):
        """A seat resigned from a running game (:mod:`domain.lobby`)."""

        seat: int

        def apply(self, aggregate: Any) -> None:
            """The seat is among the resigned, in the order they resigned."""
            game = cast(Game, aggregate)
            game.resigned = [*game.resigned, self.seat]
            super().apply(game)

    class SeatFlagged(Event):
        """A seat's time ran out (:mod:`domain.clocks`; docs/api.md, "Clocks"): flagged ``by``
        the scheduler, a player's ``claim`` or the seat's own late ``move``, ``claimant``
        the claiming seat (-1: the scheduler)."""

        seat: int
        by: str
        claimant: int

        def apply(self, aggregate: Any) -> None:
            """The seat is out of play as a resigned seat is (among ``resigned``, in order,
            and in ``flagged``), its clock stopped at nothing left; an undo request that
            waited ends (after a flag players take no turns back)."""
            game = cast(Game, aggregate)
            game.undo_request = None
            game.resigned = [*game.resigned, self.seat]
            game.flagged = [*game.flagged, self.seat]
            if game.clock is not None:
                game.clock = clocks.flagged(game.clock, self.seat)
            super().apply(game)

    class GameAborted(Event):
        """The creator called off a game that had not started."""

        by: str

        def apply(self, aggregate: Any) -> None:
            """The game is closed: no seat can be taken or left any more."""
            game = cast(Game, aggregate)
            game.closed = "aborted"
            super().apply(game)

    class GameExpired(Event):
        """A waiting game expired ``after_seconds`` after its creation."""

        after_seconds: int

        def apply(self, aggregate: Any) -> None:
            """The game is closed: no seat can be taken or left any more."""
            game = cast(Game, aggregate)
            game.closed = "expired"
            super().apply(game)

    class RematchCreated(Event):
        """A finished game's rematch was created: the game ``rematch``."""

        rematch: str

        def apply(self, aggregate: Any) -> None:
            """The game links to its rematch."""
            game = cast(Game, aggregate)
            game.rematch = self.rematch
            super().apply(game)

    @classmethod
    def create(
        cls,
        *,
        game: str,
        players: int,
        options: dict[str, Any],
        settings: dict[str, Any],
        seed: str,
        seed_sha256: str,
        arbiter_sha256: str = "",
        analysis: dict[str, Any] | None = None,
        prelude: list[list[Any]] | None = None,
        game_id: UUID | None = None,
        lobby_fields: dict[str, Any] | None = None,
    ) -> Game:
        """A new game (with ``game_id``, else a random id); its creation event is the first
        link of its chain. ``lobby_fields`` are the lobby's (docs/api.md, "Lobby"):
        ``private``, ``rematch_of``, ``tournament`` (public), ``creator_sha256``,
        ``join_sha256``, ``claims`` (secret); only those given are in the event, so a game
        without them has the ``Created`` event it always had."""
        game_id = game_id or uuid4()
        fields: dict[str, Any] = {
            "game": game,
            "players": players,
            "options": options,
            "settings": settings,
            "seed": seed,
            "seed_sha256": seed_sha256,
            "arbiter_sha256": arbiter_sha256,
            "analysis": analysis,
            "prelude": prelude or [],
            **{k: v for k, v in (lobby_fields or {}).items() if v},
        }
        timestamp = cls.Created.create_timestamp()
        public = {k: v for k, v in fields.items() if k not in SECRET_FIELDS["Created"]}
        digest = chain.event_link(chain.GENESIS, ("Created", game_id, 1, timestamp), public)
        return aggregate_adapter.create(
            cls,
            cls.Created,
            id=game_id,
            timestamp=timestamp,
            prev_hash=chain.GENESIS,
            hash=digest,
            **fields,
        )

    @event(Created)
    def __init__(
        self,
        *,
        game: str,
        players: int,
        options: dict[str, Any],
        settings: dict[str, Any],
        seed: str,
        seed_sha256: str,
        arbiter_sha256: str,
        analysis: dict[str, Any] | None,
        prelude: list[list[Any]],
        private: bool = False,
        rematch_of: str = "",
        creator_sha256: str = "",
        join_sha256: str = "",
        claims: list[str] | None = None,
        tournament: str = "",
    ) -> None:
        self.game = game
        self.players = players
        self.options = copy_json(options)
        self.settings = copy_json(settings)
        self.seed = seed
        self.seed_sha256 = seed_sha256
        self.arbiter_sha256 = arbiter_sha256
        self.analysis = copy_json(analysis)
        self.seats: list[dict[str, str] | None] = [None] * players
        self.line = Line.begin(prelude)
        self.has_prelude = bool(prelude)
        """An analysis game continues its prelude; any other game begins when its last seat is
        taken."""
        self.undo_request: dict[str, Any] | None = None
        self.chain_head = chain.GENESIS
        self.private = private
        self.rematch_of = rematch_of
        self.tournament = tournament
        """The tournament whose table this game is (docs/tournaments.md), or empty."""
        self.creator_sha256 = creator_sha256
        self.join_sha256 = join_sha256
        self.claims = list(claims or [])
        self.resigned: list[int] = []
        """The seats out of play by the ledger — resigned, or flagged by their clocks — in
        order (:mod:`domain.lobby`)."""
        self.flagged: list[int] = []
        """The seats among ``resigned`` that were flagged (:mod:`domain.clocks`)."""
        control = self.settings.get("clock")
        self.clock: clocks.ClockState | None = (
            None if control is None else clocks.start(control, players)
        )
        """The clocks of a game with a clock control (docs/api.md, "Clocks")."""
        self.closed = ""
        """``aborted`` or ``expired`` once the game is called off, else empty."""
        self.rematch = ""
        """The id of this game's rematch, once made."""
        self.state: Any = self._replay_effective()

    def _trigger(self, event_class: type[Game.Event], **fields: Any) -> None:
        """Trigger an event (the library's ``trigger_event``) as the next link of the chain:
        its hash covers its type, the game's id, its version, its time and its public data
        (docs/audit.md, "Hash chain"); a move or game event that hides something is sealed
        first (:meth:`_sealed`)."""
        version = self.version + 1
        timestamp = event_class.create_timestamp()
        if issubclass(event_class, Game.Played):
            name, data = event_class.game_event_type, fields["data"]
        else:
            name = event_class.__name__
            data = chain.hashed_fields(name, fields)
        if name == "MoveMade" or issubclass(event_class, Game.Played):
            data, fields["sealed"] = self._sealed(name, version, data)
        digest = chain.event_link(self.chain_head, (name, self.id, version, timestamp), data)
        self.trigger_event(
            event_class, timestamp=timestamp, prev_hash=self.chain_head, hash=digest, **fields
        )

    @property
    def rules(self) -> Rules[Any, Any]:
        """The rules of this game's kind."""
        return rules_for(self.game)

    @property
    def started(self) -> bool:
        """Play starts when every seat is taken."""
        return all(seat is not None for seat in self.seats)

    @property
    def outcome(self) -> Outcome | None:
        """The result once the game is over: the rules' outcome with resigned seats ranked
        last, or the end by resignation (:mod:`domain.lobby`); ``None`` while it runs."""
        rules = self.rules
        found = rules.outcome(self.state)
        if found is not None:
            return lobby.ranked(found, self.players, self.resigned, self.flagged)
        out = rules.out_of_play(self.state)
        if lobby.ends_game(self.players, self.resigned, out):
            scores = rules.summary(self.state).get("scores", [])
            return lobby.resigned_outcome(scores, self.players, self.resigned, out, self.flagged)
        return None

    @property
    def finished(self) -> bool:
        """The rules say the game is over, or every seat but one resigned."""
        return self.outcome is not None

    @property
    def current_players(self) -> list[int]:
        """The seats that may act now: none before the game starts or after it ends."""
        if not self.started or self.finished:
            return []
        return self.rules.current_players(self.state)

    def clock_acting(self) -> list[int]:
        """The seats whose clocks run now: those that may act, less the resigned and flagged
        (whose moves are the bot's; docs/api.md, "Clocks")."""
        return [seat for seat in self.current_players if seat not in self.resigned]

    @property
    def moves(self) -> int:
        """Turns played on the current line of play (undone turns do not count)."""
        return self.line.moves

    def version_after_turn(self, turn: int) -> int:
        """The version just after turn ``turn`` of the line of play (0: before the first
        move); a turn before the kept line raises :class:`~domain.line.LineNeeded`."""
        return self.line.version_after_turn(turn, self.version)

    def trim_line(self) -> None:
        """Forget the past of the line of play (:meth:`domain.line.Line.trimmed`): what a game
        kept in memory holds, like a snapshot."""
        self.line = self.line.trimmed(self.version)
        if self.clock is not None:
            self.clock = clocks.trimmed(self.clock)

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        """A copy for one command or query: the rules copy the state (far cheaper than a
        generic deep copy); the lists of the line of play are copied shallowly (their items
        are never changed, only appended or cut); the library's attributes as
        :func:`domain.aggregate_adapter.clone` copies them."""
        clone = aggregate_adapter.clone(self)
        clone.seats = [None if seat is None else dict(seat) for seat in self.seats]
        clone.line = self.line.copy()
        clone.undo_request = copy_json(self.undo_request)
        clone.resigned = list(self.resigned)
        clone.flagged = list(self.flagged)
        clone.clock = None if self.clock is None else clocks.copy(self.clock)
        clone.state = self.rules.copy_state(self.state)
        return clone

    def seat_of(self, token_sha256: str) -> int | None:
        """The seat whose token has this SHA-256, if any."""
        for index, seat in enumerate(self.seats):
            if seat is not None and seat["token_sha256"] == token_sha256:
                return index
        return None

    # Seats and moves

    def join(self, seat: int, name: str, token_sha256: str, public_key: str | None = None) -> None:
        """Take a free seat; when the last seat is taken, the game begins (its opening
        random outcomes are drawn and recorded; an analysis game continues its prelude). The
        name is plain text (:func:`domain.text.plain_text`). ``public_key``: the player's
        Ed25519 key, after which every move of the seat must be signed
        (:func:`domain.move_signatures.public_key_of` refuses a bad one)."""
        name = plain_text("name", name)
        keyed = {}
        if public_key is not None:
            move_signatures.public_key_of(public_key)
            keyed["public_key"] = public_key
        self._check_open()
        if not 0 <= seat < self.players:
            raise SeatUnavailable("no-such-seat", f"Seat {seat} does not exist in this game.")
        if self.seats[seat] is not None:
            raise SeatUnavailable("seat-taken", f"Seat {seat} is already taken.")
        self._trigger(Game.SeatJoined, seat=seat, name=name, token_sha256=token_sha256, **keyed)
        if self.started and not self.has_prelude:
            self._record(self.rules.begin(self.state, self._random_stream()))

    # The lobby: every decision is the lobby's (domain/lobby.py; issue 13, part 4; docs/api.md,
    # "Lobby")

    def _check_open(self) -> None:
        """Refuse a seat change in a game called off (:func:`domain.lobby.check_open`)."""
        lobby.check_open(self.closed)

    def leave(self, seat: int) -> None:
        """The seat's holder leaves before the game starts: the seat is free again, the
        token dead (:func:`domain.lobby.check_leave`)."""
        lobby.check_leave(self.closed, self.started)
        self._trigger(Game.SeatLeft, seat=seat)

    def resign(self, seat: int, now: datetime | None = None) -> None:
        """The seat resigns from a running game (:func:`domain.lobby.check_resign`): the game
        ends when one seat is left playing, else the bot plays the seat out. ``now``: when the
        command arrived, in a game with a clock (:meth:`check_none_due`)."""
        self.check_none_due(now)
        clocks.check_not_flagged(seat, self.flagged)
        lobby.check_resign(
            seat,
            started=self.started,
            finished=self.finished,
            resigned=self.resigned,
            undo_pending=self.undo_request is not None,
            out=self.rules.out_of_play(self.state),
        )
        self._trigger(Game.SeatResigned, seat=seat)
        self.play_resigned()

    def play_resigned(self) -> None:
        """While the game runs and a resigned seat may act, the bot moves for it
        (:func:`domain.lobby.bot_move`, its choice drawn from the seed and the version)."""
        if not self.resigned:
            return
        for _ in range(lobby.BOT_MOVES_PER_COMMAND):
            if self.finished or self.undo_request is not None:
                return
            found = lobby.bot_move(
                self.rules,
                self.state,
                current_players=self.current_players,
                resigned=self.resigned,
                seed=self.seed,
                version=self.version + 1,
            )
            if found is None:
                return
            self._move(*found)

    def abort(self) -> None:
        """The creator calls off a game that has not started (:func:`domain.lobby.check_abort`)."""
        lobby.check_abort(self.closed, self.started)
        self._trigger(Game.GameAborted, by="creator")

    def expire(self, after_seconds: int) -> None:
        """A waiting game expires (the caller checked its age, :func:`domain.lobby.expired`;
        :func:`domain.lobby.check_expire`)."""
        lobby.check_expire(self.closed, self.started)
        self._trigger(Game.GameExpired, after_seconds=after_seconds)

    def link_rematch(self, rematch: UUID) -> None:
        """Record the finished game's rematch (:func:`domain.lobby.check_rematch`)."""
        lobby.check_rematch(self.finished, self.rematch)
        self._trigger(Game.RematchCreated, rematch=str(rematch))

    def play(
        self,
        seat: int,
        move_json: Any,
        *,
        notation: str | None = None,
        signature: str | None = None,
        now: datetime | None = None,
    ) -> None:
        """A seat makes a move, given in its JSON form or (``notation``) in the game's
        notation: the rules decide every consequence, recorded as the move followed by the
        game's own events. A seat that registered a public key sends its ``signature`` of
        the move, decided on the game's version now (the caller has checked that this is
        the version the client saw; :func:`domain.move_signatures.check_move_signature`).
        In a game with a clock, ``now`` is when the move arrived (the caller's clock: the
        domain reads none): the move is refused (``out-of-time``) once the seat's time has
        run out, and while any other seat's has (:meth:`check_none_due`), else its
        ``elapsed_ms`` is recorded (docs/api.md, "Clocks").
        Raises ``GameError``; on error nothing is recorded."""
        if not self.started:
            raise GameNotReady("game-not-started", "Not every seat has been taken yet.")
        self.check_none_due(now)
        if self.undo_request is not None:
            raise GameNotReady("undo-pending", "An undo request is waiting for answers.")
        clocks.check_not_flagged(seat, self.flagged)
        lobby.check_move(seat, self.players, self.resigned, self.rules.out_of_play(self.state))
        elapsed = self._elapsed(seat, now)
        self._move(seat, move_json, notation, by_player=True, signature=signature, elapsed=elapsed)
        self.play_resigned()

    def _elapsed(self, seat: int, now: datetime | None) -> int | None:
        """The time a player's move took, in a game with a clock (``None`` without one); the
        move is refused once the seat's time has run out (:mod:`domain.clocks`)."""
        if self.clock is None:
            return None
        if now is None:
            raise ValueError("a move in a game with a clock needs the time it arrived")
        since = self.clock["since"][seat]
        if since is None:  # a seat that may not act: the rules refuse the move
            return 0
        elapsed = clocks.elapsed_ms(since, now)
        clocks.check_in_time(self.clock, seat, elapsed)
        return elapsed

    def check_none_due(self, now: datetime | None) -> None:
        """Refuse a player's command (``out-of-time``) while a flag is due at its arrival
        ``now`` (:func:`domain.clocks.check_none_due`; the caller records the flags first,
        :meth:`flag_due`). A game with a clock needs ``now``."""
        if self.clock is None:
            return
        if now is None:
            raise ValueError("a command in a game with a clock needs the time it arrived")
        clocks.check_none_due(self.clock, now)

    def flag_due(self, now: datetime, seat: int) -> list[int]:
        """Before a command of ``seat`` that arrived at ``now`` is decided, flag every seat
        whose time has run out by then (:func:`domain.clocks.due`, the first to run out
        first, again after each flag and the bot's moves it causes): the seat itself ``by``
        its own late ``move`` (any late command of it), another ``by`` the commanding seat's
        implicit ``claim`` (docs/api.md, "Clocks"). The seats flagged; when any is, the caller
        refuses the command (``out-of-time``) and saves the flags."""
        flagged: list[int] = []
        while self.clock is not None and not self.finished:
            found = clocks.due(self.clock, now)
            if not found:
                break
            target = found[0]
            by = "move" if target == seat else "claim"
            self.flag(target, now, by=by, claimant=seat)
            flagged.append(target)
        return flagged

    def flag(self, seat: int, now: datetime, *, by: str, claimant: int = -1) -> None:
        """Flag a seat whose time has run out by ``now`` (:func:`domain.clocks.check_flag`
        refuses anything else): ``by`` the ``scheduler`` (``claimant`` -1), a seat's
        ``claim`` or its own late ``move``. It is then out of play as a resigned seat is: the
        game ends with one seat left playing, else the bot plays it out; an undo request that
        waited ends (docs/api.md, "Clocks")."""
        clocks.check_flag(
            self.clock,
            seat,
            now,
            players=self.players,
            started=self.started,
            finished=self.finished,
            gone=self.resigned,
        )
        self._trigger(Game.SeatFlagged, seat=seat, by=by, claimant=claimant)
        self.play_resigned()

    def _move(
        self,
        seat: int,
        move_json: Any,
        notation: str | None = None,
        *,
        by_player: bool = False,
        signature: str | None = None,
        elapsed: int | None = None,
    ) -> None:
        """One move of a seat, recorded with its consequences. ``by_player``: a move the
        player sent, whose signature is checked; the bot's moves for a resigned seat are the
        service's, never signed (docs/audit.md, "Player signatures"), never timed.
        ``elapsed``: the time a player's move took (a game with a clock)."""
        rules = self.rules
        move = (
            rules.parse_notation(notation) if notation is not None else rules.parse_move(move_json)
        )
        written = rules.move_to_json(move)
        fields: dict[str, Any] = {"seat": seat, "move": written, "notation": rules.notation(move)}
        if by_player:
            seat_held = self.seats[seat] or {}
            move_signatures.check_move_signature(
                seat_held.get("public_key"),
                signature,
                game_id=str(self.id),
                version=self.version,
                move=written,
            )
            if signature is not None:
                fields["signature"] = signature
        if elapsed is not None:
            fields["elapsed_ms"] = elapsed
        events = rules.apply(self.state, seat, move, self._random_stream())
        self._trigger(Game.MoveMade, **fields)
        self._record(events)

    # Undo: every decision is the undo policy's (domain/undo.py)

    def request_undo(self, seat: int, turns: int = 1, now: datetime | None = None) -> None:
        """A player asks to take back the last ``turns`` turns of the line of play, the
        first of them their own: :func:`domain.undo.request_undo` decides whether it is a
        request to other seats or takes effect at once (docs/audit.md, "Undo"). Once a seat
        has resigned, players undo nothing (its bot cannot consent; docs/api.md, "Lobby").
        Refused while a flag is due (:meth:`check_none_due`: the rewind would give the time
        back)."""
        self.check_none_due(now)
        if self.resigned:
            raise undo.UndoRefused(
                "undo-not-allowed",
                "A seat has resigned or run out of time: turns are no longer taken back.",
            )
        decided = undo.request_undo(self._undo_table(), seat, turns)
        if isinstance(decided, undo.Request):
            self._trigger(Game.UndoRequested, **decided.data())
        else:
            self._trigger(Game.TurnsUndone, **decided.data())
            self.play_resigned()

    def answer_undo(self, seat: int, accept: bool, now: datetime | None = None) -> None:
        """Another player accepts or refuses the pending request; the last acceptance
        takes the game back, one refusal ends the request (:func:`domain.undo.answer_undo`).
        Refused while a flag is due (:meth:`check_none_due`)."""
        self.check_none_due(now)
        consented = undo.answer_undo(self.undo_request, seat, accept)
        self._trigger(Game.UndoAnswered, seat=seat, accepted=accept)
        if consented is not None:
            self._trigger(Game.TurnsUndone, **consented.data())
            self.play_resigned()

    def arbiter_undo(self, keep_turns: int, reason: str) -> None:
        """The arbiter takes the game back to the end of turn ``keep_turns``
        (:func:`domain.undo.arbiter_undo`, which refuses a blank reason); the reason is plain
        text (:func:`domain.text.plain_text`). An explicit correction: decided even while a
        flag is due, so it may give a seat's time back (docs/api.md, "Clocks")."""
        if reason.strip():
            reason = plain_text("reason", reason)
        decided = undo.arbiter_undo(self._undo_table(), keep_turns, reason)
        self._trigger(Game.TurnsUndone, **decided.data())
        self.play_resigned()

    def _undo_table(self) -> undo.Table:
        """What the undo policy needs to know of this game now."""
        return undo.Table(
            settings=self.settings,
            players=self.players,
            turns=self.line.whole().turns,
            finished=self.finished,
            request=self.undo_request,
        )

    # Helpers

    def _replay_effective(self) -> Any:
        """The state on the current line of play, from the rules' events alone."""
        rules = rules_for(self.game)
        state = rules.setup(self.players, self.options)
        for _version, type_name, data in self.line.whole().effective:
            state = rules.evolve(state, RulesEvent(type_name, copy_json(data)))
        return state

    def _sealed(self, name: str, version: int, data: dict[str, Any]) -> tuple[dict[str, Any], str]:
        """What the chain hashes of a move or game event, and its seal
        (:func:`domain.chain.sealed_for_spectators`)."""
        return chain.sealed_for_spectators(self.rules, self.seed, name, version, data)

    def _random_stream(self) -> RandomStream:
        return RandomStream(self.seed, self.state.random_position)

    def _record(self, events: list[RulesEvent]) -> None:
        for domain_event in events:
            event_class = played_event_class(self.game, domain_event.type)
            self._trigger(event_class, data=domain_event.data)


def _drop_unset(event: Game.Event, name: str) -> None:
    """Leave an optional field out of an event when it is unset (empty): the event then
    stores, shows and hashes exactly what it did before the field existed, and reads it as
    its class default (tests/integration/test_stored_shape.py)."""
    state = vars(event)
    if name in state and not state[name]:
        del state[name]


_played_classes: dict[tuple[str, str], type[Game.Played]] = {}


def played_event_class(game: str, type_name: str) -> type[Game.Played]:
    """The stored event class for a game's event type, topic ``domain.<game>:<type>``."""
    key = (game, type_name)
    found = _played_classes.get(key)
    if found is None:
        module = f"domain.{game}"
        found = cast(
            type[Game.Played],
            type(
                type_name,
                (Game.Played,),
                {"__module__": module, "__qualname__": type_name, "game_event_type": type_name},
            ),
        )
        register_topic(f"{module}:{type_name}", found)
        _played_classes[key] = found
    return found


LEDGER_EVENT_NAMES = frozenset(event.__name__ for event in LEDGER_EVENTS)
"""The ledger's own event types (``Created``, ``SeatJoined``, ``MoveMade``, ...)."""


def event_topic(game: str, type_name: str) -> str:
    """The topic under which events of ``type_name`` of a game of kind ``game`` are stored:
    ``domain.game:Game.<Type>`` for the ledger's own, ``domain.<game>:<Type>`` for the
    game's."""
    if type_name in LEDGER_EVENT_NAMES:
        return f"domain.game:Game.{type_name}"
    return f"domain.{game}:{type_name}"


def register_game_events(rules: Rules[Any, Any]) -> None:
    """Make every event type of a game resolvable before its stored events are read."""
    for type_name in rules.event_types:
        played_event_class(rules.name, type_name)
