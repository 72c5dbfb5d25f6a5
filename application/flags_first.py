"""No command is decided while a flag is due (issue 15, part 5; docs/api.md, "Clocks"): a
player's command in a game with a clock is measured when it arrives, under the game's lock;
when some running seat's time has run out by then, the game records the flags instead
(:meth:`domain.game.Game.flag_due`), they are saved, and the command is answered 409
``out-of-time`` without being decided — a move, an undo request or answer, a resignation
alike, whoever sends it. The decision is the game's (the verifier decides it again with the
same functions, docs/audit.md, "Clocks"); only the time of arrival is read here."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from application.games import Saved
from domain.errors import GameNotReady
from domain.game import Game


@dataclass(frozen=True)
class Late:
    """A command that came after a flag fell due: the commanding ``seat`` and the seats its
    arrival flagged (the first to run out first)."""

    seat: int
    flagged: tuple[int, ...]


def arrival() -> datetime:
    """When a command arrived: the service's clock, read once per command (the domain reads
    none)."""
    return datetime.now(UTC)


def flags_first(game: Game, seat: int, now: datetime) -> Late | None:
    """Flag every seat whose time has run out by ``now`` before ``seat``'s command is decided
    (:meth:`domain.game.Game.flag_due`); the :class:`Late` command, or ``None`` when no flag
    was due and the command may be decided."""
    flagged = game.flag_due(now, seat)
    return Late(seat, tuple(flagged)) if flagged else None


def refuse_late(saved: Saved, late: Late | None) -> Saved:
    """The save of a command decided (``late`` None), or the 409 ``out-of-time`` of a command
    that recorded flags instead: the flags are saved (version ``saved.version``), the command
    itself is not decided — the client looks at the game and sends it again if it still
    applies."""
    if late is None:
        return saved
    if late.seat in late.flagged:
        raise GameNotReady(
            "out-of-time",
            "Your time ran out before this command arrived: your seat is flagged "
            f"(version {saved.version}; docs/api.md, 'Clocks').",
        )
    seats = ", ".join(str(seat) for seat in late.flagged)
    raise GameNotReady(
        "out-of-time",
        f"Seat(s) {seats} ran out of time before this command arrived: flagged first "
        f"(version {saved.version}), and the command was not decided (docs/api.md, 'Clocks').",
    )
