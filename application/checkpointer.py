"""When checkpoints are logged (issue 14, part 2; docs/audit.md, "Signed checkpoints"):

* **at the end of a game** — the checkpointer follows the event log like a read model, and the
  event after which a game is over (its outcome reached, by the rules or by resignation;
  aborted; expired) gets an ``ended: true`` checkpoint, exactly once: the checkpoints, the
  follower's tracking position and the new signed tree head commit in one transaction
  (:mod:`application.tlog`). An event recorded after the end (``RematchCreated``) moves the
  finished game's chain head on, so it gets an ``ended: true`` checkpoint of its own: a
  finished record's last event is always checkpointed;
* **on a schedule for running games** — every other event of a game records its chain head
  as *pending*; every ``GAMELEDGER_CHECKPOINT_INTERVAL`` seconds :func:`checkpoint_running`
  logs an ``ended: false`` checkpoint of each pending head (a game whose head did not move
  since its last checkpoint has none pending) and clears them, in one transaction. The time of
  the last run is kept with the log, so several processes running the schedule still run it
  about once per interval.

Every game is logged; a private game under the SHA-256 of its id, not the id itself
(:func:`application.checkpoints.log_name`; docs/audit.md, "Signed checkpoints": the log is
public, and a private game's id is known only to whom it was given).

A tournament's hash chain is logged the same way under ``tournament:<id>``
(:func:`application.checkpoints.tournament_log_name`; docs/tournaments.md, "The tournament
record"): ``TournamentFinished`` gets an ``ended: true`` checkpoint at once, every other event
of a tournament makes its head pending for the schedule. The event carries its own hash, so
no tournament is loaded."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from eventsourcing.persistence import Tracking

from application.checkpoints import (
    SignedCheckpoint,
    Signer,
    log_name,
    sign_checkpoint,
    tournament_log_name,
)
from application.projections.following import CACHE_BYTES, FollowingProjection, GameSource
from application.tlog import LogStore, LogTransaction, Pending, append
from domain.game import Game
from domain.tournament.event_base import TournamentEvent
from domain.tournament.play_events import TournamentFinished

SCHEDULE_SLACK = 0.9
"""A scheduled run goes ahead when the last one (by any process) is at least this fraction
of the interval ago: processes whose timers drift apart still run it about once an interval."""


def is_over(game: Game) -> bool:
    """Whether the game is over: its outcome is reached, or it was called off."""
    return bool(game.closed) or game.finished


class CheckpointProjection(FollowingProjection):
    """Follows the event log into the transparency log: ``ended`` checkpoints at once,
    running games' and tournaments' heads as pending (the log store's tracking keeps its
    position)."""

    name = "checkpoints"
    view: LogStore

    def __init__(
        self, log: LogStore, signer: Signer, source: GameSource, cache_bytes: int = CACHE_BYTES
    ) -> None:
        super().__init__(source, cache_bytes)
        self.view = log
        self.signer = signer

    def process_batch(self, events: list[Any], tracking: Tracking) -> None:
        """The batch's ended checkpoints and pending heads, with the position, in one append."""
        keyring = self.signer.keyring()
        ended: list[SignedCheckpoint] = []
        pending: dict[str, Pending] = {}
        for _, game in self.follow(events):
            game_id = log_name(str(game.id), game.private)
            if is_over(game):
                pending.pop(game_id, None)
                ended.append(
                    sign_checkpoint(keyring, game_id, game.version, game.chain_head, ended=True)
                )
            else:
                pending[game_id] = Pending(game_id, game.version, game.chain_head)
        for stored in events:
            if not isinstance(stored, TournamentEvent):
                continue
            name = tournament_log_name(str(stored.originator_id))
            version = stored.originator_version
            if isinstance(stored, TournamentFinished):
                pending.pop(name, None)
                ended.append(sign_checkpoint(keyring, name, version, stored.hash, ended=True))
            else:
                pending[name] = Pending(name, version, stored.hash)
        with self.view.transaction() as tx:
            tx.track(tracking)
            append(tx, keyring, ended)
            tx.drop_pending({c.game for c in ended})
            tx.set_pending(unlogged(tx, list(pending.values())))


def checkpoint_running(
    log: LogStore,
    signer: Signer,
    interval: float,
    clock: Callable[[], float] = time.time,
) -> int:
    """The schedule's run: an ``ended: false`` checkpoint of every pending running game's
    head, unless a run (of any process) ran less than about ``interval`` seconds ago; the
    number logged."""
    with log.transaction() as tx:
        started = clock()
        if started - tx.last_scheduled() < interval * SCHEDULE_SLACK:
            return 0
        tx.mark_scheduled(started)
        rows = tx.pending()
        tx.drop_pending([row.game for row in rows])
        rows = unlogged(tx, rows)
        if not rows:
            return 0
        keyring = signer.keyring()
        checkpoints = [
            sign_checkpoint(keyring, row.game, row.version, row.chain_head, ended=False)
            for row in rows
        ]
        append(tx, keyring, checkpoints)
    return len(checkpoints)


def unlogged(tx: LogTransaction, rows: list[Pending]) -> list[Pending]:
    """The pending heads whose version has no checkpoint yet (a follower whose batch reached
    past another's applies some events again: their heads may be logged already)."""
    done = tx.logged([(row.game, row.version) for row in rows]) if rows else set()
    return [row for row in rows if (row.game, row.version) not in done]
