"""The lobby's pure decisions (issue 13, part 4; docs/api.md, "Lobby"): what resigning
means for a game's outcome, the deterministic bot that plays a resigned seat out, and when a
waiting game has expired. No I/O: the game aggregate (:mod:`domain.game`) and the record
verifier (:mod:`application.audit_lobby`) decide with these same functions.

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

from domain.protocol import Outcome

BOT_MOVES_PER_COMMAND = 10_000
"""A bound on the moves the bot makes for resigned seats after one command (a game's bot
always ends the game far sooner; the bound only keeps a faulty policy from looping)."""


def bot_random(seed: str, version: int) -> random.Random:
    """The random generator of the bot playing a resigned seat's move at ``version`` (the
    version its ``MoveMade`` gets): derived from the game's secret seed, so the move cannot
    be foreseen while the game runs and can be checked once the record reveals the seed."""
    return random.Random(f"{seed}:resigned-seat-bot:{version}")


def remaining(players: int, resigned: Sequence[int]) -> list[int]:
    """The seats that have not resigned."""
    return [seat for seat in range(players) if seat not in resigned]


def ends_game(players: int, resigned: Sequence[int]) -> bool:
    """A resignation ends the game when one seat (or none) is left playing."""
    return bool(resigned) and len(remaining(players, resigned)) <= 1


def resigned_outcome(scores: Sequence[int], players: int, resigned: Sequence[int]) -> Outcome:
    """The outcome of a game ended by resignation: the seat left wins (rank 1); the resigned
    seats follow, the one who resigned last ranked highest among them. ``scores`` are the
    game's scores as they stood (zeros when the game keeps none)."""
    left = remaining(players, resigned)
    ranks = [0] * players
    for seat in left:
        ranks[seat] = 1
    for place, seat in enumerate(reversed(resigned)):
        ranks[seat] = len(left) + 1 + place
    return Outcome(
        scores=_scores(scores, players),
        ranks=ranks,
        winners=left,
        details={"ended_by": "resignation", "resigned": list(resigned)},
    )


def ranked(outcome: Outcome, players: int, resigned: Sequence[int]) -> Outcome:
    """The rules' outcome of a game some seats resigned from: the seats still playing keep
    their order (their ranks renumbered), every resigned seat is ranked below them (the last
    to resign highest); the winners are the seats ranked first."""
    if not resigned:
        return outcome
    left = remaining(players, resigned)
    ranks = [0] * players
    for seat in left:
        ranks[seat] = 1 + sum(1 for other in left if outcome.ranks[other] < outcome.ranks[seat])
    for place, seat in enumerate(reversed(resigned)):
        ranks[seat] = len(left) + 1 + place
    details = dict(outcome.details)
    details["resigned"] = list(resigned)
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
