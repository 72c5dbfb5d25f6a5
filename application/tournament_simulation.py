"""A whole tournament played by bots through the use cases (``gameledger tournament
simulate``; docs/tournaments.md, "Simulating a tournament"): entrants register, check in and
are started by the organiser like clients of the API; each table's game is played out by
random bots (:func:`application.simulation.play_out`) with the seat tokens each entrant
reaches through :meth:`Tournaments.my_tables`; each result is recorded as the results manager
records it (:meth:`Tournaments.record_game`); where the format leaves pairing to the
organiser, the organiser pairs each next round.

With a ``seed`` the tournament seed is ``SHA-256("gameledger-tournament-simulate:<seed>")``
(so the pairing numbers and the first round are the same every run) and the bots draw from
``random.Random(seed)``; the entrants' ids are fixed by it too (:func:`entrant_id`), so the
pairing numbers and round 1 repeat. The tournament's id is new each run, and each table's
game id (and so its seed) derives from it, so the games differ from run to run."""

from __future__ import annotations

import hashlib
import random
import time
import uuid
from typing import Any
from uuid import UUID

from tqdm import tqdm

from application.service import GameLedger
from application.simulation import play_out
from application.tournaments import Tournaments
from domain.tournament.aggregate import Tournament

MAX_ROUNDS = 1000
"""A tournament still running after this many rounds is a bug to report, not a loop."""


def entrant_id(seed: int, n: int) -> str:
    """The id of entrant ``bot-<n>`` of a run with ``seed``: fixed, so the draw of pairing
    numbers (which orders the ids first) and round 1 repeat from run to run."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"gameledger-tournament-simulate:{seed}:{n}"))


def tournament_seed(seed: int) -> str:
    """The tournament seed of a run with ``seed`` (module docstring)."""
    return hashlib.sha256(f"gameledger-tournament-simulate:{seed}".encode()).hexdigest()


def simulate_tournament(
    app: GameLedger,
    game: str,
    *,
    entrants: int,
    format: dict[str, Any],
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Create a tournament of ``entrants`` bots in ``format``, play it to its end and report:
    its id, format, entrants, rounds, tables, games played out, winner, whether it finished,
    seconds."""
    started = time.perf_counter()
    bot = random.Random(seed)
    desk = Tournaments(app.games)
    created = desk.create(
        game,
        options,
        None,
        format,
        f"Simulated {format.get('kind', 'tournament')}",
        seed=tournament_seed(seed) if seed is not None else None,
    )
    tid = created.tournament_id
    tokens = {}
    for n in range(1, entrants + 1):
        registered = desk.register(
            tid, f"bot-{n}", entrant_id=entrant_id(seed, n) if seed is not None else None
        )
        tokens[registered.entrant] = registered.token
    desk.organiser(tid, created.organiser_token, lambda t: t.open_check_in())
    for token in tokens.values():
        desk.check_in(tid, token)
    desk.organiser(tid, created.organiser_token, lambda t: t.start())
    played = 0
    with tqdm(desc=f"{game} tournament", unit="game", disable=not progress) as bar:
        for _ in range(MAX_ROUNDS):
            tournament = desk.load(tid)
            if tournament.phase == "finished":
                break
            if _round_over(tournament):  # the organiser pairs (pairing: organiser)
                desk.organiser(tid, created.organiser_token, lambda t: t.pair_next_round())
                continue
            for table in _undecided(tournament):
                played += _play_table(app, desk, tid, table, tokens=tokens, bot=bot)
                bar.update(1)
    tournament = desk.load(tid)
    winner = tournament.ranking[0] if tournament.ranking else None
    return {
        "tournament_id": str(tid),
        "game": game,
        "format": tournament.format["kind"],
        "entrants": entrants,
        "rounds": len(tournament.rounds),
        "tables": sum(len(rnd["tables"]) for rnd in tournament.rounds),
        "games": played,
        "winner": tournament.entrants[winner]["name"] if winner else None,
        "finished": tournament.phase == "finished",
        "seconds": round(time.perf_counter() - started, 3),
    }


def _round_over(tournament: Tournament) -> bool:
    return all(table["result"] is not None for table in tournament.rounds[-1]["tables"])


def _undecided(tournament: Tournament) -> list[dict[str, Any]]:
    return [table for table in tournament.rounds[-1]["tables"] if table["result"] is None]


def _play_table(
    app: GameLedger,
    desk: Tournaments,
    tid: UUID,
    table: dict[str, Any],
    *,
    tokens: dict[str, str],
    bot: random.Random,
) -> int:
    """Play one table's game out with its entrants' own seat tokens and record its result;
    1 when the game ended."""
    seats = [""] * len(table["seats"])
    for entrant in table["seats"]:
        for mine in desk.my_tables(tid, tokens[entrant]):
            if mine["game"] == table["game"]:
                seats[mine["seat"]] = mine["token"]
    game_id = UUID(table["game"])
    if not play_out(app, game_id, seats, bot):
        raise RuntimeError(f"the game {game_id} did not end: a bug to report")
    with app.games.reading(game_id) as game:
        desk.record_game(game)
    return 1
