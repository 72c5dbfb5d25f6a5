"""The clocks' use cases and reads (issue 15, part 5; docs/api.md, "Clocks"): a player's claim
that a seat's time has run out, the scheduler's flag of a game whose clock it follows, and the
clocks as a view shows them. Every decision is the game's (:meth:`domain.game.Game.flag`,
:mod:`domain.clocks`); the time of a command is read here, never in the domain.

Restart-safe and safe to repeat: the scheduler flags a game only at the version its read
model saw (:mod:`application.projections.clocks`), so a flag decided twice — by two processes,
or again after a restart — is refused by the aggregate's version (``stale-version``) or, on
the new version, by the game itself (the seat is flagged already)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from uuid import UUID

from application.errors import Conflict, NotFound
from application.seats import seat_of
from application.service import GameLedger, Played
from domain import clocks
from domain.errors import GameError
from domain.game import Game


@dataclass(frozen=True)
class Due:
    """A game whose clock runs out: at ``version`` its seat ``seat`` runs out at ``flag_at``
    (a row of the clocks read model)."""

    game_id: UUID
    version: int
    seat: int
    flag_at: datetime


def due_of(game: Game) -> Due | None:
    """When a game's next flag falls due, as its events leave it (``None``: no clock runs).
    A game whose undo request waits for answers has its row too: its clocks run on and its
    flag, which ends the request, is recorded as any other (docs/api.md, "Clocks")."""
    if game.clock is None:
        return None
    found = clocks.first_flag(game.clock)
    if found is None:
        return None
    seat, at = found
    return Due(game.id, game.version, seat, at)


def out_of_time(game: Game, now: datetime) -> list[int]:
    """The seats of a game whose time has run out by ``now``, first to run out first
    (:func:`domain.clocks.due`)."""
    return [] if game.clock is None else clocks.due(game.clock, now)


def claim_flag(
    ledger: GameLedger,
    game_id: UUID,
    token: str,
    seat: int | None = None,
    expected_version: int | None = None,
) -> Played:
    """A player (any seat's token) claims that ``seat``'s time has run out — without a seat,
    the first seat whose time has; the game refuses a seat that still has time
    (``time-remaining``) and everything :func:`domain.clocks.check_flag` refuses."""

    def claim(game: Game) -> None:
        now = datetime.now(UTC)
        claimant = seat_of(game, token)
        target = seat
        if target is None:
            found = out_of_time(game, now)
            target = found[0] if found else _first_running(game)
        game.flag(target, now, by="claim", claimant=claimant)

    return ledger.games.command(game_id, expected_version, claim)[0]


def _first_running(game: Game) -> int:
    """The seat whose clock runs out first (a claim without a seat, before any has run out:
    the game then says how long it has left), else the first seat."""
    found = None if game.clock is None else clocks.first_flag(game.clock)
    return found[0] if found else 0


def flag_due(ledger: GameLedger, due: Due, now: datetime | None = None) -> bool:
    """The scheduler's flag of a game whose clock it saw run out: at the version it saw, the
    first seat out of time by ``now`` is flagged (``by: scheduler``). Whether a seat was
    flagged; a game that moved on meanwhile (a move, a claim, another scheduler) or whose
    seat still has time is left alone — the read model brings its next due time."""
    at = now or datetime.now(UTC)

    def flag(game: Game) -> bool:
        found = out_of_time(game, at)
        if not found:
            return False
        try:
            game.flag(found[0], at, by="scheduler")
        except GameError:
            return False  # the game is over: nothing to do
        return True

    try:
        return ledger.games.command(due.game_id, due.version, flag)[1]
    except (Conflict, NotFound):
        return False


def flag_all_due(ledger: GameLedger, due: Iterable[Due], now: datetime | None = None) -> int:
    """Flag every game of ``due`` whose time has run out (:func:`flag_due`); how many."""
    return sum(flag_due(ledger, item, now) for item in due)
