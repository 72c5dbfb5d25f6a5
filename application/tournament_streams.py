"""Tournaments in the live updates (docs/api.md, "Live updates"; issue 15, part 7).

* **A table's game stream** carries, besides the game's events, ``tournament`` messages: what
  its tournament says of that table (:func:`table_news`) — its result as the tournament
  recorded it, whether its round is over, the next round once it is paired and where each of
  the table's entrants sits in it, the tournament's end. One is sent when the stream has sent
  the game's events, then one each time that changes. Each message is whole (the table's
  state, not a change), so a client that missed one loses nothing: the next, or the first
  after a reconnect, says everything. A table's stream does not end with its game: it ends
  once the game has ended *and* its tournament has gone past the table (a later round paired,
  or the tournament finished), so that an entrant learns where to play next from the stream
  it already has open.
* **The lobby stream** carries ``tournament`` messages too: the summary of each tournament
  created or changed, as the list of tournaments shows it (application/streams.py,
  ``follow_list``).

The tournament is read from the event store when the stream is woken by one of its events
(infrastructure/game_wakeups.py), once per change and process however many streams follow it
(:class:`SharedTournaments`), and only public data is sent.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol
from uuid import UUID

from application.tournaments import Tournaments
from domain.jsonvalue import copy_json
from domain.tournament.aggregate import Tournament
from domain.tournament.rounds import round_over


@dataclass(frozen=True)
class TournamentNews:
    """A ``tournament`` message of a stream: its JSON data."""

    data: dict[str, Any]


class Changes(Protocol):
    """Something whose generation grows whenever the followed tournament changes."""

    @property
    def generation(self) -> int:
        """A number that grows with every change seen."""
        ...


def table_news(tournament: Tournament, game_id: str) -> dict[str, Any] | None:
    """What the tournament says of the table whose game is ``game_id`` (module docstring);
    None if that game is none of its tables."""
    for rnd in tournament.rounds:
        for table in rnd["tables"]:
            if table["game"] == game_id:
                return _news(tournament, rnd, table)
    return None


def _news(tournament: Tournament, rnd: dict[str, Any], table: dict[str, Any]) -> dict[str, Any]:
    latest = tournament.rounds[-1]
    following = None
    if latest["number"] > rnd["number"]:
        following = {
            "number": latest["number"],
            "seats": [_seated(tournament, latest, entrant) for entrant in table["seats"]],
        }
    return {
        "tournament_id": str(tournament.id),
        "version": tournament.version,
        "phase": tournament.phase,
        "round": rnd["number"],
        "table": table["table"],
        "game": table["game"],
        "result": copy_json(table["result"]),
        "round_over": round_over(rnd),
        "latest_round": latest["number"],
        "next_round": following,
    }


def _seated(tournament: Tournament, rnd: dict[str, Any], entrant: str) -> dict[str, Any]:
    """Where ``entrant`` sits in round ``rnd``: a table's game and seat, else none (a bye, or
    no longer seated)."""
    place: dict[str, Any] = {"game": None, "seat": None}
    for table in rnd["tables"]:
        if entrant in table["seats"]:
            place = {"game": table["game"], "seat": table["seats"].index(entrant)}
    return {
        "entrant": entrant,
        "name": tournament.entrants[entrant]["name"],
        **place,
        "bye": entrant in rnd["byes"],
    }


def settled(news: dict[str, Any]) -> bool:
    """Whether the tournament has gone past the table: a later round is paired, or it has
    finished (a table's stream may then end with its game)."""
    return bool(news["phase"] == "finished" or news["latest_round"] > news["round"])


@dataclass
class _Load:
    done: threading.Event = field(default_factory=threading.Event)
    tournament: Tournament | None = None


class SharedTournaments:
    """Tournaments read once per change for every stream of a process that follows them: the
    first stream woken by a change loads the tournament, the others take it (a result of a
    tournament of a thousand entrants wakes the streams of every table). ``key`` names the
    change (the tournament's waker and its generation); the last ``keep`` loads are kept."""

    def __init__(self, tournaments: Tournaments, keep: int = 64) -> None:
        self.tournaments = tournaments
        self.keep = keep
        self._loads: OrderedDict[Hashable, _Load] = OrderedDict()
        self._lock = threading.Lock()

    def latest(self, tournament_id: UUID, key: Hashable) -> Tournament:
        """The tournament as the store has it, at least as of the change ``key``."""
        with self._lock:
            load = self._loads.get(key)
            mine = load is None
            if load is None:
                load = self._loads[key] = _Load()
                while len(self._loads) > self.keep:
                    self._loads.popitem(last=False)
        if not mine:
            load.done.wait()
            return load.tournament or self.tournaments.load(tournament_id)
        try:
            load.tournament = self.tournaments.load(tournament_id)
        except BaseException:
            with self._lock:
                self._loads.pop(key, None)
            raise
        finally:
            load.done.set()
        return load.tournament


class TableFollower:
    """The tournament side of a table's game stream (application/streams.py,
    ``follow_game``): the ``tournament`` messages to send, and whether the stream may end."""

    def __init__(
        self,
        shared: SharedTournaments,
        tournament_id: UUID,
        game_id: UUID,
        changes: Changes,
    ) -> None:
        self.shared = shared
        self.tournament_id = tournament_id
        self.game_id = str(game_id)
        self.changes = changes
        self._seen: int | None = None
        self._news: dict[str, Any] | None = None

    def news(self) -> list[TournamentNews]:
        """The table's state if it changed since the last message (the first call: as it
        is); nothing while the tournament has not changed."""
        generation = self.changes.generation  # before loading: a change after it loads again
        if self._seen == generation:
            return []
        self._seen = generation
        tournament = self.shared.latest(self.tournament_id, (self.changes, generation))
        news = table_news(tournament, self.game_id)
        if news is None:
            return []
        before, self._news = self._news, news
        if before is not None and _same(before, news):
            return []
        return [TournamentNews(news)]

    def settled(self) -> bool:
        """Whether the tournament had gone past the table at the last look."""
        return self._news is not None and settled(self._news)


def _same(before: dict[str, Any], now: dict[str, Any]) -> bool:
    """The same news but for the tournament's version (a change elsewhere in it)."""
    return {**before, "version": 0} == {**now, "version": 0}


def table_settled(tournaments: Tournaments, tournament_id: UUID, game_id: UUID) -> bool:
    """Whether the tournament has gone past the table of ``game_id`` now (a finished table's
    stream that a client opens again: 204 only then)."""
    news = table_news(tournaments.load(tournament_id), str(game_id))
    return news is None or settled(news)


LOBBY_HEAD = 50
"""The tournaments changed last that a lobby stream watches."""


class LobbyTournaments:
    """The lobby stream's tournaments (module docstring): from the ``head`` tournaments
    changed last (the read model, ``recent``), at the start those changed after ``since`` (a
    resume's time; None: all of them), then each whose version is not the one given last,
    oldest change first."""

    def __init__(
        self,
        recent: Callable[[int], list[dict[str, Any]]],
        since: str | None,
        head: int = LOBBY_HEAD,
    ) -> None:
        self.recent = recent
        self.since = _time(since) if since is not None else None
        """None: every tournament of the head (no resume, or a cursor whose time is none)."""
        self.head = head
        self._given: dict[str, int] | None = None

    def changes(self) -> list[TournamentNews]:
        """The summaries to send now."""
        rows = self.recent(self.head)
        given = self._given
        if given is None:
            fresh = [r for r in rows if _after(r["updated_at"], self.since)]
        else:
            fresh = [r for r in rows if given.get(r["tournament_id"]) != r["version"]]
        self._given = {r["tournament_id"]: r["version"] for r in rows}
        return [TournamentNews(row) for row in reversed(fresh)]


def _time(text: str) -> datetime | None:
    """An ISO 8601 time (one without a zone is UTC's); None if ``text`` is none."""
    try:
        found = datetime.fromisoformat(text)
    except ValueError:
        return None
    return found if found.tzinfo is not None else found.replace(tzinfo=UTC)


def _after(text: str, since: datetime | None) -> bool:
    """Whether the time ``text`` is after ``since`` (always, without one)."""
    when = _time(text)
    return since is None or when is None or when > since
