"""A fixed script of games whose stored events and snapshots are compared byte for byte
with the ones recorded before (tests/integration/test_stored_shape.py): ids, times, tokens and
seeds are pinned.

The expected digests of the events (stored_shape.json) were recorded by this script run
against the code before issue 11 (commit da2bfe8; its modules on ``PYTHONPATH``): three Azul
games, then a Carcassonne game with Bridges, Castles & Bazaars played to its end by seeded
random moves (bridges laid, castles offered and built, bazaar auctions; docs/carcassonne.md).
The snapshots' were recorded again when snapshots stopped carrying the whole line of play
(issue 12, part 7), after checking that every event's digest was unchanged; the earlier
shape of the first snapshot is kept as ``legacy_snapshot``. Snapshots took their time from
the events' pinned clock until a snapshot was also taken after every undo (issue 12, part 7):
from then on they have a time of their own, so that when snapshots are taken never moves an
event's time. The events' digests were recorded again then, after checking, event by event,
that the earlier pinning reproduced the earlier digests and that each event's stored state
is the same but for its time and the hashes covering it."""

from __future__ import annotations

import hashlib
import itertools
import random
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any
from unittest import mock
from uuid import UUID

import eventsourcing.domain

import application.games
import application.service
from application.service import GameLedger
from domain.game import Game
from tests.helpers import Table

GOLDEN = "stored_shape.json"
ARBITER = "arbiter-token"
CARCASSONNE_EXPANSION = "bridges-castles-bazaars"
CARCASSONNE_SEED = "seed-carcassonne"
CARCASSONNE_BOT = 22
"""The seed of the random moves: a game that lays bridges, builds castles and holds
bazaar auctions."""


SNAPSHOT_TIME = datetime(2025, 12, 31, tzinfo=UTC)


@contextmanager
def pinned() -> Iterator[None]:
    """Game ids, event times and seat tokens made from counters, not chance or the clock;
    snapshots all at one time, so that when and how often snapshots are taken never moves an
    event's time."""
    ids = (UUID(int=n) for n in itertools.count(1))
    start = datetime(2026, 1, 1, tzinfo=UTC)
    times = (start + timedelta(seconds=n) for n in itertools.count())
    tokens = (f"token-{n}" for n in itertools.count())
    with (
        mock.patch.object(application.games, "new_game_id", lambda _shard: next(ids)),
        mock.patch.object(eventsourcing.domain, "datetime_now_with_tzinfo", lambda: next(times)),
        mock.patch.object(Game.Snapshot, "create_timestamp", lambda: SNAPSHOT_TIME),
        mock.patch.object(application.service, "new_token", lambda: next(tokens)),
    ):
        yield


def table(app: GameLedger, settings: dict[str, Any], seed: str) -> Table:
    """A two-seat Azul game with these ledger settings, every seat taken."""
    arbiter = ARBITER if settings.get("tournament") else None
    game_id = app.create_game("azul", 2, settings=settings, arbiter_token=arbiter, seed=seed)
    tokens = [app.join(game_id, f"player {n}", n).token for n in range(2)]
    return Table(app, game_id, tokens)


def carcassonne(app: GameLedger) -> UUID:
    """A three-seat Carcassonne game with Bridges, Castles & Bazaars, played to its end by
    seeded random legal moves (its events typed since issue 11; docs/carcassonne.md)."""
    options = {"expansions": [CARCASSONNE_EXPANSION]}
    game_id = app.create_game("carcassonne", 3, options, seed=CARCASSONNE_SEED)
    tokens = [app.join(game_id, f"player {n}", n).token for n in range(3)]
    Table(app, game_id, tokens, random.Random(CARCASSONNE_BOT)).play_out()
    return game_id


def script(app: GameLedger) -> list[UUID]:
    """Consent (accepted and refused), free (at once and asked), an arbiter's undo, and a
    game played to its end (past a snapshot); then a Carcassonne expansion game."""
    consent = table(app, {"undo": "consent"}, "seed-consent")
    for _ in range(5):
        consent.step()
    mover = app.games.at(
        consent.game_id, app.whose_turn(consent.game_id)[0], whole_line=True
    ).line.turns[-1][1]
    app.request_undo(consent.game_id, consent.tokens[mover])
    app.answer_undo(consent.game_id, consent.tokens[1 - mover], True)
    consent.step()
    mover = app.games.at(
        consent.game_id, app.whose_turn(consent.game_id)[0], whole_line=True
    ).line.turns[-1][1]
    app.request_undo(consent.game_id, consent.tokens[mover])
    app.answer_undo(consent.game_id, consent.tokens[1 - mover], False)
    consent.play_out()

    free = table(app, {"undo": "free"}, "seed-free")
    for _ in range(4):
        free.step()
    turns = app.games.at(free.game_id, app.whose_turn(free.game_id)[0], whole_line=True).line.turns
    app.request_undo(free.game_id, free.tokens[turns[-1][1]])
    free.step()
    turns = app.games.at(free.game_id, app.whose_turn(free.game_id)[0], whole_line=True).line.turns
    app.request_undo(free.game_id, free.tokens[turns[-2][1]], turns=2)
    app.answer_undo(free.game_id, free.tokens[turns[-1][1]], True)

    tournament = table(app, {"tournament": True}, "seed-tournament")
    for _ in range(6):
        tournament.step()
    app.arbiter_undo(tournament.game_id, ARBITER, 2, "a tile fell")
    tournament.step()
    return [consent.game_id, free.game_id, tournament.game_id, carcassonne(app)]


def stored(app: GameLedger, game_ids: list[UUID]) -> dict[str, Any]:
    """Every stored event and snapshot of the games: id, version, topic and the SHA-256 of
    the stored state; and the stored state itself of the first of each topic (to show what
    differs when a digest does)."""
    [store] = app.stores
    assert store.snapshots is not None
    items = [
        (kind, item)
        for game_id in game_ids
        for kind, recorder in (("event", store.recorder), ("snapshot", store.snapshots.recorder))
        for item in recorder.select_events(game_id)
    ]
    examples: dict[str, str] = {}
    for _, item in items:
        examples.setdefault(item.topic, item.state.decode())
    return {
        "stored": [
            [kind, str(item.originator_id), item.originator_version, item.topic, digest(item.state)]
            for kind, item in items
        ],
        "examples": examples,
    }


def digest(state: bytes) -> str:
    """The SHA-256 of a stored state, in hex."""
    return hashlib.sha256(state).hexdigest()


def run() -> dict[str, Any]:
    """The script on a fresh in-memory store, pinned."""
    with pinned():
        app = GameLedger()
        return stored(app, script(app))
