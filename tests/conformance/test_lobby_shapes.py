"""The lobby's ledger events follow their schemas for every game (issue 13, part 4): a game
with the lobby's ``Created`` fields is joined, left, joined again and aborted; another
expires; another is played with a resigned seat (the bot's moves included) to its end and
linked to its rematch. Every event, as the event log presents it to each viewer, follows its
schema (:func:`application.contract.ledger_event_schemas` and the game's own), and each
finished game's record verifies."""

from __future__ import annotations

import random
from typing import Any

import jsonschema_rs
import pytest

from application import lobby
from application.contract import game_contract, ledger_event_schemas
from application.presenters import present_event
from application.records import export_record
from application.service import GameLedger
from application.verification import verify_record
from domain.bots import choose_move
from domain.game import Game
from domain.protocol import Rules, Viewer
from domain.randomness import commitment
from domain.registry import games

LOBBY = {"SeatLeft", "SeatResigned", "GameAborted", "GameExpired", "RematchCreated"}


def _game(rules: Rules[Any, Any], players: int, **lobby_fields: Any) -> Game:
    seed = f"lobby-{rules.name}-{players}"
    return Game.create(
        game=rules.name,
        players=players,
        options=rules.normalise_options({}),
        settings={"undo": "free", "tournament": False},
        seed=seed,
        seed_sha256=commitment(seed),
        lobby_fields=lobby_fields,
    )


def _checked(game: Game, seen: set[str]) -> None:
    """Every event recorded since the last check, to every viewer, against its schema."""
    ledger = {k: jsonschema_rs.validator_for(v) for k, v in ledger_event_schemas().items()}
    own = game_contract(game.rules).events
    viewers = [Viewer(s) for s in range(game.players)] + [Viewer(), Viewer(arbiter=True)]
    for stored in game.collect_events():
        for viewer in viewers:
            shown = present_event(game.rules, game.finished, stored, viewer)
            kind = shown["type"]
            validator = ledger.get(kind) or jsonschema_rs.validator_for(own[kind])
            errors = [e.message for e in validator.iter_errors(shown["data"])]
            assert not errors, f"{kind} seen by {viewer}: {errors[:3]}"
            seen.add(kind)


@pytest.mark.parametrize("name", sorted(games()))
def test_the_lobby_events_follow_their_schemas(name: str) -> None:
    rules = games()[name]
    players = max(3, rules.min_players)
    seen: set[str] = set()
    called_off = _game(rules, players, private=True, rematch_of="0" * 32, creator_sha256="c")
    called_off.join(0, "ann", "digest-0")
    called_off.leave(0)
    called_off.join(0, "bob", "digest-1")
    called_off.abort()
    _checked(called_off, seen)
    waiting = _game(rules, players)
    waiting.expire(60)
    _checked(waiting, seen)
    played = _game(rules, players)
    for seat in range(players):
        played.join(seat, f"p{seat}", f"digest-{seat}")
    played.resign(0)
    bot = random.Random(5)
    for _ in range(20_000):
        acting = played.current_players
        if not acting:
            break
        seat = acting[0]
        played.play(seat, rules.move_to_json(choose_move(rules, played.state, seat, bot)))
        _checked(played, seen)
    assert played.finished
    played.link_rematch(played.id)
    _checked(played, seen)
    assert seen >= LOBBY


def test_every_lobby_record_verifies() -> None:
    """A game some seats resigned from verifies, for each game."""
    for name in sorted(games()):
        app = GameLedger()
        game_id = app.create_game(name, 3, seed=f"verify-{name}")
        tokens = [app.join(game_id, f"p{n}").token for n in range(3)]
        lobby.resign(app, game_id, tokens[2])
        lobby.resign(app, game_id, tokens[0])
        report = verify_record(export_record(app, game_id))
        assert report.ok, report.summary
        assert report.outcome is not None and report.outcome["winners"] == [1]
