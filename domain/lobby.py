"""The lobby's pure decisions (issue 13, part 4; docs/api.md, "Lobby"): what resigning
means for a game's outcome, the deterministic bot that plays a resigned seat out, and when a
waiting game has expired, and when each lobby verb (leave, resign, abort, expire, rematch) is
allowed. No I/O: the game aggregate (:mod:`domain.game`) delegates every lobby decision here,
as it delegates undo to :mod:`domain.undo`, and the record verifier
(:mod:`application.audit_lobby`) decides with these same functions.

Resigning, one rule for every game (each game's doc says why it fits: docs/azul.md,
docs/carcassonne.md, docs/risk.md, "Resigning"):

* when a single seat is left that has not resigned, the game ends at once: that seat wins,
  the resigned seats are ranked below it, the one who resigned last highest among them;
* otherwise the game goes on, the resigned seat played out by the game's bot
  (:func:`domain.bots.choose_move`) whose every choice is drawn from the game's secret seed
  and the version it moves at (:func:`bot_random`), and recorded as a ``MoveMade`` like any
  move; when the game ends by its rules, the resigned seats are ranked last whatever their
  score (:func:`ranked`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, Literal, NotRequired

from typing_extensions import TypedDict

from domain.bots import choose_move
from domain.errors import GameNotReady, IllegalMove
from domain.protocol import Outcome, Rules

CREATED_FIELDS = (
    "private",
    "rematch_of",
    "creator_sha256",
    "join_sha256",
    "claims",
    "tournament",
)
"""The lobby's fields of the game's ``Created`` event, kept only when set (a game without
them stores, shows and hashes the ``Created`` event it always did)."""

STATE_DEFAULTS: dict[str, Any] = {
    "resigned": [],
    "closed": "",
    "rematch": "",
    "private": False,
    "rematch_of": "",
    "creator_sha256": "",
    "join_sha256": "",
    "claims": [],
    "tournament": "",
}
"""The lobby's attributes of a game (issue 13, part 4) as a game saved before them has them:
a snapshot leaves them out when they have these values and a snapshot without them reads them
as these."""

BOT_MOVES_PER_COMMAND = 10_000
"""A bound on the moves the bot makes for resigned seats after one command (a game's bot
always ends the game far sooner; the bound only keeps a faulty policy from looping)."""


def bot_random(seed: str, version: int) -> random.Random:
    """The random generator of the bot playing a resigned seat's move at ``version`` (the
    version its ``MoveMade`` gets): derived from the game's secret seed, so the move cannot
    be foreseen while the game runs and can be checked once the record reveals the seed."""
    return random.Random(f"{seed}:resigned-seat-bot:{version}")


def bot_move(
    rules: Rules[Any, Any],
    state: Any,
    *,
    current_players: Sequence[int],
    resigned: Sequence[int],
    seed: str,
    version: int,
) -> tuple[int, Any] | None:
    """The bot's next move for a resigned seat, as ``(seat, move JSON)``: the first of the
    seats that may act now that has resigned, its move chosen by the game's bot
    (:func:`domain.bots.choose_move`) with :func:`bot_random` at ``version``; ``None`` when no
    resigned seat may act."""
    acting = [seat for seat in current_players if seat in resigned]
    if not acting:
        return None
    seat = acting[0]
    move = choose_move(rules, state, seat, bot_random(seed, version))
    return seat, rules.move_to_json(move)


def remaining(players: int, resigned: Sequence[int], out: Sequence[int] = ()) -> list[int]:
    """The seats still playing: neither resigned nor put ``out`` of the game by its rules
    (Risk's eliminated players; :meth:`domain.protocol.Rules.out_of_play`)."""
    return [seat for seat in range(players) if seat not in resigned and seat not in out]


def ends_game(players: int, resigned: Sequence[int], out: Sequence[int] = ()) -> bool:
    """A resignation ends the game when one seat (or none) is left playing."""
    return bool(resigned) and len(remaining(players, resigned, out)) <= 1


class ResignationDetails(TypedDict):
    """An outcome's details when the game ended by resignation (docs/api.md, "Lobby"): every
    seat but one resigned (or was put out), in the order they resigned. A game the rules
    ended after some seats resigned keeps the rules' details, with ``resigned`` added.

    A seat flagged by its clock (docs/api.md, "Clocks") goes out of play exactly as if it had
    resigned: it is listed in ``flagged`` (only when a seat was), not in ``resigned``, and a
    game ended by the flag of the last seat but one has ``ended_by: "flag"``."""

    ended_by: Literal["resignation", "flag"]
    resigned: list[int]
    flagged: NotRequired[list[int]]


def resigned_outcome(
    scores: Sequence[int],
    players: int,
    resigned: Sequence[int],
    out: Sequence[int] = (),
    flagged: Sequence[int] = (),
) -> Outcome:
    """The outcome of a game ended by resignation: the seat left wins (rank 1); the resigned
    seats follow, the one who resigned last ranked highest among them; then the seats the
    rules had put out, the last out highest (docs/api.md, "Lobby"). ``scores`` are the
    game's scores as they stood (zeros when the game keeps none). ``resigned`` holds the
    seats flagged by their clocks too, in order; ``flagged`` names them
    (:func:`gone_details`)."""
    left = remaining(players, resigned, out)
    ranks = [0] * players
    for seat in left:
        ranks[seat] = 1
    gone = [*reversed(resigned), *(s for s in reversed(out) if s not in resigned)]
    for place, seat in enumerate(gone):
        ranks[seat] = len(left) + 1 + place
    return Outcome(
        scores=_scores(scores, players),
        ranks=ranks,
        winners=left,
        details=gone_details(
            dict(ResignationDetails(ended_by="resignation", resigned=[])), resigned, flagged
        ),
    )


def gone_details(
    details: dict[str, Any], gone: Sequence[int], flagged: Sequence[int]
) -> dict[str, Any]:
    """An outcome's ``details`` naming the seats that left play by the ledger: ``resigned``
    (in order), and ``flagged`` only when a seat's clock ran out (docs/api.md, "Clocks"); a
    game ended by resignation says whether the last seat to go was flagged (``ended_by``)."""
    found = dict(details)
    found["resigned"] = [seat for seat in gone if seat not in flagged]
    if flagged:
        found["flagged"] = list(flagged)
    if found.get("ended_by") == "resignation" and gone and gone[-1] in flagged:
        found["ended_by"] = "flag"
    return found


def ranked(
    outcome: Outcome, players: int, resigned: Sequence[int], flagged: Sequence[int] = ()
) -> Outcome:
    """The rules' outcome of a game some seats resigned from: the seats still playing keep
    their order (their ranks renumbered), every resigned seat is ranked below them (the last
    to resign highest); the winners are the seats ranked first. A seat flagged by its clock
    is among ``resigned``, in order, and named in ``flagged`` (:func:`gone_details`)."""
    if not resigned:
        return outcome
    left = remaining(players, resigned)
    ranks = [0] * players
    for seat in left:
        ranks[seat] = 1 + sum(1 for other in left if outcome.ranks[other] < outcome.ranks[seat])
    for place, seat in enumerate(reversed(resigned)):
        ranks[seat] = len(left) + 1 + place
    details = gone_details(dict(outcome.details), resigned, flagged)
    return Outcome(
        scores=list(outcome.scores),
        ranks=ranks,
        winners=[seat for seat in left if ranks[seat] == 1],
        details=details,
    )


def _scores(scores: Sequence[int], players: int) -> list[int]:
    found = [int(score) for score in scores]
    return found if len(found) == players else [0] * players


def expired(created: datetime, now: datetime, after_seconds: int) -> bool:
    """A waiting game expires ``after_seconds`` after its creation (0: never)."""
    return after_seconds > 0 and now - created >= timedelta(seconds=after_seconds)


# When each lobby verb is allowed (docs/api.md, "Lobby"). Each raises the ``GameError`` the API
# answers with (its ``code``), and nothing is recorded.


def check_open(closed: str) -> None:
    """A seat is taken or left only in a game not called off (``closed``: ``aborted``,
    ``expired`` or empty)."""
    if closed == "aborted":
        raise GameNotReady("game-aborted", "This game was called off by its creator.")
    if closed:
        raise GameNotReady("game-expired", "This game expired waiting for players.")


def _check_waiting(closed: str, started: bool, detail: str) -> None:
    """The game is open and play has not begun (``detail``: why not, once it has)."""
    check_open(closed)
    if started:
        raise GameNotReady("game-started", detail)


def check_leave(closed: str, started: bool) -> None:
    """A seat is left only before play begins: once it has, the holder resigns."""
    _check_waiting(closed, started, "The game has started: resign instead.")


def check_abort(closed: str, started: bool) -> None:
    """The creator calls off only a game that has not started."""
    _check_waiting(closed, started, "The game has started: it cannot be aborted.")


def check_expire(closed: str, started: bool) -> None:
    """Only a game still waiting for players expires (its age is checked by the caller with
    :func:`expired`)."""
    _check_waiting(closed, started, "The game has started: it does not expire.")


def check_resign(
    seat: int,
    *,
    started: bool,
    finished: bool,
    resigned: Sequence[int],
    undo_pending: bool,
    out: Sequence[int] = (),
) -> None:
    """A seat resigns only from a running game, once, while it still plays (not once the
    rules have put it out), and not while an undo request waits for answers."""
    if not started:
        raise GameNotReady("game-not-started", "Leave the seat instead: play has not begun.")
    if finished:
        raise IllegalMove("game-over", "The game is over.")
    if seat in resigned:
        raise GameNotReady("seat-resigned", "This seat has resigned already.")
    if seat in out:
        raise GameNotReady("seat-out-of-play", "This seat is out of the game already.")
    if undo_pending:
        raise GameNotReady("undo-pending", "An undo request is waiting for answers.")


def check_move(seat: int, players: int, resigned: Sequence[int], out: Sequence[int] = ()) -> None:
    """A resigned seat no longer moves (the bot plays it), and nobody moves in a game ended
    by resignation."""
    if seat in resigned:
        raise GameNotReady("seat-resigned", "This seat has resigned: the bot plays it.")
    if ends_game(players, resigned, out):
        raise IllegalMove("game-over", "The game ended by resignation.")


def check_rematch(finished: bool, rematch: str) -> None:
    """Only a finished game has a rematch, and only one."""
    if not finished:
        raise GameNotReady("game-not-finished", "Only a finished game has a rematch.")
    if rematch:
        raise GameNotReady("rematch-exists", f"This game's rematch is {rematch}.")
