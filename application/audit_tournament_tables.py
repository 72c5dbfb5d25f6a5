"""The tables' games of a tournament record (issue 15, part 6; docs/tournaments.md,
"Verifying a tournament", 5): every game record the tournament record carries is verified
completely (:func:`application.verification.verify_record`) and must be the game of one of
the tournament's tables — created for this tournament, of its game kind, options and settings,
with the seed ``HMAC(tournament seed, "<game id>/seed")``
(:func:`application.tournament_tables.table_seed`) and the entrants' names in their seats —
and each result must be what the game says:

* **played** (``ResultRecorded``): the game's record is required; it has ended, at the
  recorded version and chain head, with the recorded ranks and scores;
* **forfeited** (``TableForfeited``): the record may be absent; present, no seat of a no-show
  made a move before the forfeit (the game may run on after it, and even end: it no longer
  decides the table) — the moves the service's bot makes for a seat after it resigned or
  was flagged are not its entrant's;
* **adjudicated** (``TableAdjudicated``): the record may be absent; present, the game had not
  ended before the adjudication (a game that ended has its result recorded from its outcome,
  which the arbiter then corrects with ``ResultCorrected`` if need be).

Both compare the act's timestamp with the game's: both are the service's word. A forger who
dates a forged act before the game's facts is not contradicted by them; the tournament's
signed checkpoint catches that (:mod:`application.audit_tournament_checkpoint`).

Each finding is a :class:`application.audit_format.Discrepancy` naming the round, the table
and the game."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from application.audit_format import Discrepancy, show
from application.signing import PublicKey
from application.tournament_tables import table_seed
from application.verification import VerificationReport, verify_record
from domain.randomness import commitment


class At(NamedTuple):
    """The tournament event a finding is at: its version, type and timestamp."""

    version: int
    type_name: str
    timestamp: str

    def found(self, message: str) -> Discrepancy:
        """The discrepancy ``message`` at this event."""
        return Discrepancy(message, self.version, self.type_name)


class TableGames:
    """The record's game records by id, checked as the tournament's events reach them."""

    def __init__(
        self,
        games: Sequence[dict[str, Any]],
        seed: str,
        pinned_keys: Iterable[PublicKey] | None,
    ) -> None:
        self.tournament: dict[str, Any] = {}
        """What the tournament's ``Created`` fixed (``id``, ``game``, ``options``,
        ``settings``), set once it has been decided again."""
        self.seed = seed
        self.pinned = list(pinned_keys) if pinned_keys is not None else None
        self.by_id: dict[str, dict[str, Any]] = {}
        self.reports: dict[str, VerificationReport] = {}
        for index, game in enumerate(games):
            found = game.get("game")
            game_id = found.get("id") if isinstance(found, dict) else None
            if not isinstance(game_id, str):
                raise Discrepancy(f"games[{index}] is not a game record (it has no game.id)")
            if game_id in self.by_id:
                raise Discrepancy(f"games[{index}] repeats the record of game {game_id}")
            self.by_id[game_id] = game
        self.tables: set[str] = set()
        self.unpinned: dict[str, str] = {}
        """Running games whose record verifies but not against the pinned keys or tree head
        (no checkpoint yet): fine for a table the arbiter decides, refused for one whose
        result is played (:meth:`played`)."""
        self.without_record = 0
        """Tables decided by the arbiter whose game's record the record does not carry."""

    def seated(
        self,
        where: str,
        table: Mapping[str, Any],
        names: Sequence[str],
        at: At,
    ) -> None:
        """A table just paired (``where``: "round r, table t"): its game's record, if the
        record carries it, verifies and is that table's game (module docstring)."""
        game_id = str(table["game"])
        self.tables.add(game_id)
        game = self.by_id.get(game_id)
        if game is None:
            return
        where = f"{where} (game {game_id})"
        report = verify_record(game, pinned_keys=self.pinned)
        if not report.ok and self.pinned is not None and game["outcome"] is None:
            # A running game may have no checkpoint yet: only a table the arbiter decides
            # may end so (docs/tournaments.md, "Verifying a tournament"); played() refuses it.
            unpinned = verify_record(game)
            if unpinned.ok:
                self.unpinned[game_id] = str(report.discrepancy)
                report = unpinned
        if not report.ok:
            raise at.found(f"{where}: its game record does not verify: {report.discrepancy}")
        self.reports[game_id] = report
        created = game["events"][0]["data"]
        if created.get("tournament") != self.tournament["id"]:
            raise at.found(
                f"{where}: its game's Created names tournament {show(created.get('tournament'))}"
                f", not this one ({self.tournament['id']})"
            )
        fixed = (
            ("kind", "game"),
            ("options", "options"),
            ("settings", "settings"),
        )
        for mine, theirs in fixed:
            if game["game"][mine] != self.tournament[theirs]:
                raise at.found(
                    f"{where}: its game's {mine} is {show(game['game'][mine])}, the "
                    f"tournament's {show(self.tournament[theirs])}"
                )
        expected = table_seed(self.seed, game_id)
        if game["seed_sha256"] != commitment(expected):
            raise at.found(
                f"{where}: its game committed to the seed {game['seed_sha256']}, but a table's "
                f'seed is HMAC-SHA256(tournament seed, "{game_id}/seed"), whose SHA-256 is '
                f"{commitment(expected)}"
            )
        seats = [seat["name"] for seat in game["seats"]]
        if seats != list(names):
            raise at.found(
                f"{where}: its game's seats are {_names(seats)}, the table seats {_names(names)}"
            )

    def played(self, where: str, data: Mapping[str, Any], at: At) -> None:
        """A ``ResultRecorded``: the game's record is here, ended at the recorded version and
        chain head, with the recorded ranks and scores."""
        game_id = str(data["game"])
        game = self.by_id.get(game_id)
        where = f"{where} (game {game_id})"
        if game is None:
            raise at.found(
                f"{where}: the result was played at the table, but the record does not carry "
                "the game's record, which shows it"
            )
        if game_id in self.unpinned:
            raise at.found(f"{where}: its game record does not verify: {self.unpinned[game_id]}")
        outcome = game["outcome"]
        if outcome is None:
            raise at.found(f"{where}: a result is recorded, but its game has not ended")
        last = len(game["events"])
        if data["version"] != last or data["chain_head"] != game["chain_head"]:
            raise at.found(
                f"{where}: the result names the game at version {show(data['version'])} with "
                f"chain head {show(data['chain_head'])}; its record ends at version {last} "
                f"with chain head {game['chain_head']}"
            )
        for field in ("ranks", "scores"):
            if list(data[field]) != list(outcome[field]):
                raise at.found(
                    f"{where}: {field} recorded {show(data[field])}, the game's outcome gives "
                    f"{show(outcome[field])}"
                )

    def forfeited(
        self,
        where: str,
        data: Mapping[str, Any],
        seats: Sequence[str],
        names: Mapping[str, str],
        at: At,
    ) -> None:
        """A ``TableForfeited``: no seat of a no-show made a move in the table's game before
        it (the game may run on after it: docs/tournaments.md, "The arbiter"); the bot's
        moves for a seat that resigned or was flagged do not count."""
        game = self._carried(data)
        if game is None:
            return
        when = datetime.fromisoformat(at.timestamp)
        out = _out_of_play(game)
        for entrant in data["absent"]:
            seat = seats.index(entrant)
            moves = [
                move
                for move in game["moves"]
                if move["seat"] == seat
                and datetime.fromisoformat(move["at"]) < when
                and move["version"] < out.get(seat, move["version"] + 1)
            ]
            if moves:
                raise at.found(
                    f"{where} (game {data['game']}): {names[entrant]} ({entrant}), named a "
                    f"no-show, made {len(moves)} move(s) at seat {seat} of the table's game "
                    f"before the forfeit (the first at event {moves[0]['version']}, "
                    f"{moves[0]['at']})"
                )

    def adjudicated(self, where: str, data: Mapping[str, Any], at: At) -> None:
        """A ``TableAdjudicated``: the table's game had not ended before it."""
        game = self._carried(data)
        if game is None or game["outcome"] is None:
            return
        end = game["events"][-1]
        if datetime.fromisoformat(end["timestamp"]) <= datetime.fromisoformat(at.timestamp):
            raise at.found(
                f"{where} (game {data['game']}): adjudicated, but the table's game had ended "
                f"before (event {end['version']}, {end['timestamp']}, ranks "
                f"{show(game['outcome']['ranks'])}): a game that ended has its result recorded "
                "from its outcome, which the arbiter then corrects (ResultCorrected) if need be"
            )

    def _carried(self, data: Mapping[str, Any]) -> dict[str, Any] | None:
        """The game's record of a table the arbiter decided (None: not carried, counted)."""
        game = self.by_id.get(str(data["game"]))
        if game is None:
            self.without_record += 1
        return game

    def check_all_seated(self) -> None:
        """Every game record the record carries is the game of one of its tables."""
        for index, game_id in enumerate(self.by_id):
            if game_id not in self.tables:
                raise Discrepancy(
                    f"games[{index}] is the record of game {game_id}, which is not a table of "
                    "this tournament"
                )

    def count(self) -> tuple[int, int]:
        """How many game records were verified, and how many moves their rules re-decided."""
        return len(self.reports), sum(r.moves_redecided for r in self.reports.values())


def _out_of_play(game: Mapping[str, Any]) -> dict[int, int]:
    """Each seat that resigned or was flagged, with the version of that event: from then on
    the service's bot plays the seat (docs/api.md, "Clocks"), so its moves are not the
    entrant's."""
    out: dict[int, int] = {}
    for item in game["events"]:
        if item["type"] in ("SeatResigned", "SeatFlagged"):
            out.setdefault(item["data"]["seat"], item["version"])
    return out


def _names(names: Sequence[str | None]) -> str:
    return ", ".join(str(name) for name in names)
