"""Test helpers for signed moves (docs/api.md, "Signed moves"): a player's Ed25519 key, and
a table whose seats registered keys and sign every move through the use cases."""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from application.service import GameLedger
from domain.move_signatures import signed_move_message
from tests.helpers import Table


def b64url(raw: bytes) -> str:
    """Unpadded base64url."""
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


@dataclass
class PlayerKey:
    """A player's key pair, as a client keeps it."""

    private: Ed25519PrivateKey = field(default_factory=Ed25519PrivateKey.generate)

    @property
    def public(self) -> str:
        """The public key as a join sends it."""
        return b64url(self.private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))

    def sign(self, game_id: UUID | str, version: int, move: dict[str, Any]) -> str:
        """The signature of ``move`` decided on ``version`` of the game."""
        return b64url(self.private.sign(signed_move_message(str(game_id), version, move)))


@dataclass
class SignedTable(Table):
    """A started game whose seats with a key (``keys[seat]`` not ``None``) sign their moves."""

    keys: list[PlayerKey | None] = field(default_factory=list)

    def step(self) -> bool:
        """One random legal move, signed when the seat has a key; False once it is over."""
        version, seats = self.app.whose_turn(self.game_id)
        if not seats:
            return False
        seat = self.bot.choice(seats)
        move = self.bot.choice(self.app.legal_moves(self.game_id, self.tokens[seat])["moves"])
        key = self.keys[seat]
        signature = key.sign(self.game_id, version, move["move"]) if key else None
        self.app.play(self.game_id, self.tokens[seat], move["move"], version, signature=signature)
        return True


def signed_game(
    app: GameLedger,
    players: int = 2,
    *,
    keyed: tuple[int, ...] | None = None,
    seed: str = "signed-seed",
    game: str = "azul",
) -> SignedTable:
    """A game whose seats in ``keyed`` (default: every seat) joined with a public key."""
    game_id = app.create_game(game, players, seed=seed)
    keys = [PlayerKey() if keyed is None or seat in keyed else None for seat in range(players)]
    tokens = [
        app.join(game_id, f"player {n}", n, public_key=key.public if key else None).token
        for n, key in enumerate(keys)
    ]
    return SignedTable(app, game_id, tokens, keys=keys)
