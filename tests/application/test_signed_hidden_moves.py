"""A signed move that hides something (a Risk deal's cards; docs/risk.md, "Hidden
information"; docs/api.md, "Signed moves"): its signature is shown only to the viewers who
see its cards — whoever held it could try every guess of the cards against the player's
public key — the chain hashes it under the move's seal, and once the game is over the record
shows it and ``verify`` checks it with every other signature."""

from __future__ import annotations

import random
from typing import Any
from uuid import UUID

from application.records import export_record
from application.service import GameLedger
from application.verification import verify_record
from tests.signed import SignedTable, signed_game


def bot_step(table: SignedTable, bot: random.Random) -> None:
    """One move of the game's bot policy for a seat to act, signed with the seat's key."""
    version, acting = table.app.whose_turn(table.game_id)
    seat = bot.choice(acting)
    move = table.app.bot_move(table.game_id, table.tokens[seat], bot)
    key = table.keys[seat]
    assert key is not None
    table.app.play(
        table.game_id,
        table.tokens[seat],
        move,
        version,
        signature=key.sign(table.game_id, version, move),
    )


def signed_deal(table: SignedTable, bot: random.Random) -> tuple[int, int, int]:
    """Bot moves until an exchange session opens with a seat holding a card; that seat
    proposes to give it to the next seat, signed: the giver, the receiver and the version of
    the proposal's ``MoveMade``."""
    app, game_id = table.app, table.game_id
    for _ in range(5_000):
        view = app.view(game_id)["state"]
        if view["phase"] == "exchange" and not view["exchange"]["done"]:
            for giver, token in enumerate(table.tokens):
                hand = app.view(game_id, token)["state"]["players"][giver]["hand"]
                if hand:
                    receiver = (giver + 1) % len(table.tokens)
                    move: dict[str, Any] = {
                        "type": "propose",
                        "to": [receiver],
                        "transfers": [{"from": giver, "to": receiver, "cards": [hand[0]]}],
                    }
                    version = app.whose_turn(game_id)[0]
                    key = table.keys[giver]
                    assert key is not None
                    signature = key.sign(game_id, version, move)
                    app.play(game_id, token, move, version, signature=signature)
                    return giver, receiver, version + 1
        bot_step(table, bot)
    raise AssertionError("no exchange session with a card came")


def made_at(app: GameLedger, game_id: UUID, version: int, token: str | None) -> dict[str, Any]:
    """The event at ``version`` as the token's holder sees it in the event log."""
    page = app.event_log(game_id, token, after=version - 1, limit=1)
    item: dict[str, Any] = page["items"][0]
    assert item["version"] == version and item["type"] == "MoveMade"
    return item


def test_a_signed_deal_shows_its_signature_to_its_parties_only() -> None:
    app = GameLedger()
    table = signed_game(app, 3, game="risk", seed="signed-deal")
    bot = random.Random(3)
    giver, receiver, version = signed_deal(table, bot)
    outsider = 3 - giver - receiver
    for token in (table.tokens[outsider], None):
        seen = made_at(app, table.game_id, version, token)
        assert "signature" not in seen["data"] and "cards" not in str(seen["data"]["move"])
        assert seen["sealed"]
    for party in (giver, receiver):
        seen = made_at(app, table.game_id, version, table.tokens[party])
        assert len(seen["data"]["signature"]) == 86
    spectators = verify_record(export_record(app, table.game_id))
    assert spectators.ok, spectators.discrepancy  # checked up to the first sealed event

    for _ in range(20_000):
        if not app.whose_turn(table.game_id)[1]:
            break
        bot_step(table, bot)
    record = export_record(app, table.game_id)
    assert record["outcome"] is not None
    shown = next(e for e in record["events"] if e["version"] == version)
    assert shown["data"]["signature"] and shown["sealed"]
    report = verify_record(record)
    assert report.ok, report.discrepancy
    assert report.signatures_checked == report.moves
