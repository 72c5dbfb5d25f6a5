"""Game records (issue 3, part 4; docs/audit.md, "Record format"): a game exported as one
self-contained JSON document that anyone can verify (:mod:`application.verification`), and
a verified record of a finished game imported into a store as the same game — same id,
versions, timestamps and hashes.

A record is built only from what the use cases show the viewer (the event log and the
view), so it never holds more than that viewer may see: the seed only once the game has
ended."""

from __future__ import annotations

from typing import Any, Protocol
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from application.audit_format import FORMAT, FORMAT_VERSION, moves_of
from application.audit_import import stored_events
from application.errors import BadRequest, Conflict, NotFound
from application.paging import MAX_PAGE
from application.service import Document, GameLedger, serialised
from application.shards import shard_of
from application.store import SNAPSHOT_INTERVAL, project_game
from application.verification import replay_record
from domain.game import Game
from domain.protocol import Viewer
from domain.registry import rules_for


def export_record(
    app: GameLedger, game_id: UUID, token: str | None = None, *, page_size: int = MAX_PAGE
) -> dict[str, Any]:
    """The record of a game as ``token``'s holder may see it (a spectator without one): its
    facts, seats, seed commitment (and the seed once it has ended), every move made
    (undone ones marked), every event as the event log presents it, the chain head and the
    outcome."""
    events = event_log(app, game_id, token, page_size)
    view = app.view(game_id, token, events[-1]["version"])
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": {
            "id": view["id"],
            "kind": view["game"],
            "rules_version": rules_for(view["game"]).rules_version,
            "players": view["players"],
            "options": view["options"],
            "settings": view["settings"],
            "analysis": view["analysis"],
            "created_at": view["created_at"],
        },
        "seats": [{"seat": seat["seat"], "name": seat["name"]} for seat in view["seats"]],
        "seed_sha256": view["seed_sha256"],
        "seed": view["seed"],
        "moves": moves_of(events),
        "events": events,
        "chain_head": view["chain_head"],
        "outcome": view["outcome"],
    }


def event_log(
    app: GameLedger, game_id: UUID, token: str | None = None, page_size: int = MAX_PAGE
) -> list[dict[str, Any]]:
    """Every event of a game as the event log presents it to the viewer, page by page."""
    events: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = app.event_log(game_id, token, after=after, limit=page_size)
        events += page["items"]
        after = page["next_after"]
    return events


def import_record(app: GameLedger, record: Any) -> UUID:
    """Recreate the game of a record in ``app``'s store and return its id. The record must
    verify, must reveal the seed (only finished games can be imported), and no game with
    its id may exist. The game is checked in memory before it is saved and read back after:
    its view must be the record's final state and its chain head the record's."""
    final = replay_record(record)  # verifies it first: BadRequest invalid-record
    if record["seed"] is None:
        raise BadRequest(
            "record-without-seed",
            "The record has no seed: the game had not ended when it was exported, and an "
            "unfinished game's seed stays secret (it would tell every draw to come). Only "
            "a finished game's record, which reveals the seed, can be imported.",
        )
    game_id = UUID(record["game"]["id"])
    if shard_of(game_id) >= len(app.stores):
        raise BadRequest(
            "record-shard-missing",
            f"The record's game id names part {shard_of(game_id)} of the event store, and this "
            f'store has {len(app.stores)} (GAMELEDGER_SHARDS; docs/operations.md, "Shards").',
        )
    if _exists(app, game_id):
        raise Conflict("game-exists", f"A game {game_id} already exists in this store.")
    events = stored_events(record)
    _check(record, final, project_game(None, events), "nothing was imported")
    store = app.games.store_of(game_id)
    try:
        store.save(*events)
    except IntegrityError:
        raise Conflict("game-exists", f"A game {game_id} already exists in this store.") from None
    game: Game | None = None
    for stored in events:  # snapshots as play takes them: every 50 events, after each undo
        game = stored.mutate(game)
        undone = isinstance(stored, Game.TurnsUndone)
        if game is not None and (undone or stored.originator_version % SNAPSHOT_INTERVAL == 0):
            store.take_game_snapshot(game)
    _check(record, final, app.game_at(game_id, len(events)), "read back from the store")
    return game_id


def _exists(app: GameLedger, game_id: UUID) -> bool:
    try:
        app.view(game_id)
    except NotFound:
        return False
    return True


def _check(record: dict[str, Any], final: dict[str, Any], game: Any, stage: str) -> None:
    """The imported game must be the record's game at its end."""
    rules = game.rules
    outcome = game.outcome
    same = (
        game.chain_head == record["chain_head"]
        and game.version == len(record["events"])
        and rules.view(game.state, Viewer(arbiter=True)) == final["state"]
        and (outcome.to_json() if outcome is not None else None) == record["outcome"]
    )
    if not same:
        raise BadRequest(
            "import-mismatch",
            f"The imported game does not come out as its record's final state ({stage}).",
        )


class RecordStore(Protocol):
    """Where the records of finished games are kept once built (infrastructure/)."""

    def get(self, game_id: UUID) -> tuple[int, bytes] | None:
        """The stored record of a game: the version it covers and its JSON."""
        ...

    def put(self, game_id: UUID, version: int, body: bytes) -> None:
        """Keep a game's record (a record already kept stays)."""
        ...


def record_document(
    app: GameLedger, store: RecordStore, game_id: UUID, token: str | None = None
) -> Document:
    """A game's record as JSON (:func:`export_record`), with the version it covers. A
    finished game's record is the same for every viewer (once a game has ended nothing is
    hidden) and never changes (a finished game is never undone): it is built once, kept in
    ``store`` and served from there (docs/audit.md, "Record format")."""
    finished, version = app.finished_at(game_id, token)
    if finished:
        kept = store.get(game_id)
        if kept is not None and kept[0] == version:
            return Document(version, kept[1])
    body = serialised(export_record(app, game_id, token))
    if finished:
        store.put(game_id, version, body)
    return Document(version, body)
