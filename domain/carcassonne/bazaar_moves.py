"""The moves of a bazaar (expansion Bridges, Castles & Bazaars; docs/carcassonne.md,
"Bazaars"; seed 001, "Базары"): the auctioneer picks a revealed tile and opens with a bid
of 0 or more, the others raise or pass once each, the auctioneer buys or sells; in the
variant without auction each player picks a tile (docs/carcassonne.md, "Bazaars").

* :class:`Bid` — ``{"type": "bid", "tile": "K", "amount": 2}`` / ``bid K 2`` opens (the
  auctioneer names the tile); ``{"type": "bid", "tile": null, "amount": 3}`` / ``bid 3``
  raises.
* :class:`Pass` — ``{"type": "pass"}`` / ``pass``.
* :class:`Deal` — ``{"type": "deal", "buy": true}`` / ``buy``; ``"buy": false`` / ``sell``.
* :class:`Pick` — ``{"type": "pick", "tile": "K"}`` / ``pick K`` (variant ``no-auction``).
"""

from __future__ import annotations

import re
from typing import Any, Final, NamedTuple

from domain.carcassonne.tiles import TYPE_INDEX
from domain.protocol import InvalidMove

MAX_BID: Final = 30
"""The highest bid, a rule decision (docs/carcassonne.md, "Bazaars"): seed 001 sets no bound
(a bid may exceed the bidder's score), so the table plays with one. ``legal_moves`` lists
every bid from 0 (opening) or the highest bid + 1 (raising) up to it, and the JSON and
notation readers refuse any other amount, so the three always agree."""


class Bid(NamedTuple):
    """Open the round on revealed tile ``tile`` (the auctioneer) or raise (``tile`` None)
    to ``amount`` points."""

    tile: str | None
    amount: int


class Pass(NamedTuple):
    """Pass in the current round (rules: each other player raises or passes once)."""

    word: str = "pass"


class Deal(NamedTuple):
    """The auctioneer buys the tile (``buy``: pays the highest bid to the highest bidder)
    or sells it (the highest bidder pays the auctioneer and takes it)."""

    buy: bool


class Pick(NamedTuple):
    """Variant without auction: take revealed tile ``tile`` for free."""

    tile: str


BazaarMove = Bid | Pass | Deal | Pick
"""Any bazaar move."""
KINDS: Final = ("bid", "pass", "deal", "pick")


def _malformed(detail: str) -> InvalidMove:
    return InvalidMove("malformed-move", detail)


def _tile(value: Any) -> bool:
    return isinstance(value, str) and value in TYPE_INDEX


def well_formed(move: object) -> bool:
    """Whether ``move`` is a bazaar move whose fields are of the right kind."""
    if type(move) is Bid:
        amount = move.amount
        return (move.tile is None or _tile(move.tile)) and (
            type(amount) is int and 0 <= amount <= MAX_BID
        )
    if type(move) is Pass:
        return move.word == "pass"
    if type(move) is Deal:
        return type(move.buy) is bool
    return type(move) is Pick and _tile(move.tile)


def _checked(move: BazaarMove) -> BazaarMove:
    if not well_formed(move):
        raise _malformed(
            f"A bid names a tile type or null and an integer amount 0..{MAX_BID}; a pick a "
            "tile type."
        )
    return move


def parse_bazaar(data: dict[str, Any]) -> BazaarMove:
    """A bazaar move from JSON (module docstring); ``InvalidMove`` when malformed."""
    kind = data.get("type")
    if kind == "bid" and set(data) == {"type", "tile", "amount"}:
        return _checked(Bid(data["tile"], data["amount"]))
    if kind == "pass" and set(data) == {"type"}:
        return Pass()
    if kind == "deal" and set(data) == {"type", "buy"}:
        return _checked(Deal(data["buy"]))
    if kind == "pick" and set(data) == {"type", "tile"}:
        return _checked(Pick(data["tile"]))
    raise _malformed(
        'Bazaar moves: {"type": "bid", "tile": .. or null, "amount": ..}, {"type": "pass"}, '
        '{"type": "deal", "buy": true|false}, {"type": "pick", "tile": ..}.'
    )


def bazaar_to_json(move: BazaarMove) -> dict[str, Any]:
    """The JSON form of a bazaar move."""
    if type(move) is Bid:
        return {"type": "bid", "tile": move.tile, "amount": move.amount}
    if type(move) is Deal:
        return {"type": "deal", "buy": move.buy}
    if type(move) is Pick:
        return {"type": "pick", "tile": move.tile}
    return {"type": "pass"}


_WORDS: Final = re.compile(r"(BID|PICK)(?: +([A-Z]+[0-9]*))?(?: +([0-9]+))?")


def parse_bazaar_notation(word: str) -> BazaarMove | None:
    """A bazaar move from notation (``bid K 2``, ``bid 3``, ``pass``, ``buy``, ``sell``,
    ``pick K``; ``word`` upper case, stripped), or ``None`` when it is none."""
    if word in ("PASS", "BUY", "SELL"):
        return Pass() if word == "PASS" else Deal(word == "BUY")
    found = _WORDS.fullmatch(word)
    if not found:
        return None
    verb, tile, amount = found.groups()
    if verb == "PICK" and tile is not None and amount is None:
        return _checked(Pick(tile))
    if verb == "BID" and amount is not None:
        return _checked(Bid(tile, int(amount)))
    return None


def bazaar_notation(move: BazaarMove) -> str:
    """The notation of a bazaar move (read back by :func:`parse_bazaar_notation`)."""
    if type(move) is Bid:
        return f"bid {move.amount}" if move.tile is None else f"bid {move.tile} {move.amount}"
    if type(move) is Deal:
        return "buy" if move.buy else "sell"
    if type(move) is Pick:
        return f"pick {move.tile}"
    return "pass"
