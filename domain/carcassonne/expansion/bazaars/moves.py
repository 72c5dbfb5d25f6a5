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

>>> Bid.from_notation("bid k 2")
Bid(tile='K', amount=2)
>>> Bid("K", 2).notation(), Bid(None, 3).notation()
('bid K 2', 'bid 3')
>>> Bid.from_json(Bid(None, 3).to_json())
Bid(tile=None, amount=3)
>>> Pass.from_notation("pass").to_json(), Deal.from_notation("sell").notation()
({'type': 'pass'}, 'sell')
>>> Pick.from_json({"type": "pick", "tile": "BB6"}).notation()
'pick BB6'
"""

from __future__ import annotations

import re
from typing import Any, Final, Literal, NamedTuple, TypeVar

from typing_extensions import TypedDict

from domain.carcassonne.tiles import TYPE_INDEX
from domain.errors import InvalidMove

MAX_BID: Final = 30
"""The highest bid, a rule decision (docs/carcassonne.md, "Bazaars"): seed 001 sets no bound
(a bid may exceed the bidder's score), so the table plays with one. ``legal_moves`` lists
every bid from 0 (opening) or the highest bid + 1 (raising) up to it, and the JSON and
notation readers refuse any other amount, so the three always agree."""
KINDS: Final = ("bid", "pass", "deal", "pick")
"""The ``type`` of each bazaar move's JSON form."""
_WORDS: Final = re.compile(r"(BID|PICK)(?: +([A-Z]+[0-9]*))?(?: +([0-9]+))?")
_MESSAGE: Final = (
    'Bazaar moves: {"type": "bid", "tile": .. or null, "amount": ..}, {"type": "pass"}, '
    '{"type": "deal", "buy": true|false}, {"type": "pick", "tile": ..}.'
)


def _malformed(detail: str) -> InvalidMove:
    return InvalidMove("malformed-move", detail)


def _tile(value: Any) -> bool:
    return isinstance(value, str) and value in TYPE_INDEX


class BidJSON(TypedDict):
    """The JSON form of :class:`Bid` (``"tile": null`` for a raise)."""

    type: Literal["bid"]
    tile: str | None
    amount: int


class PassJSON(TypedDict):
    """The JSON form of :class:`Pass`."""

    type: Literal["pass"]


class DealJSON(TypedDict):
    """The JSON form of :class:`Deal`."""

    type: Literal["deal"]
    buy: bool


class PickJSON(TypedDict):
    """The JSON form of :class:`Pick`."""

    type: Literal["pick"]
    tile: str


class Bid(NamedTuple):
    """Open the round on revealed tile ``tile`` (the auctioneer) or raise (``tile`` None)
    to ``amount`` points. Notation ``bid K 2`` / ``bid 3``."""

    tile: str | None
    amount: int

    def notation(self) -> str:
        """``bid <tile> <amount>``, or ``bid <amount>`` for a raise."""
        return f"bid {self.amount}" if self.tile is None else f"bid {self.tile} {self.amount}"

    def to_json(self) -> BidJSON:
        """``{"type": "bid", "tile": .. or null, "amount": ..}``."""
        return {"type": "bid", "tile": self.tile, "amount": self.amount}

    @classmethod
    def from_notation(cls, text: str) -> Bid:
        """The bid written ``text`` (case and surrounding spaces ignored)."""
        move = parse_notation(text.strip().upper())
        if not isinstance(move, Bid):
            raise _malformed(f"{text!r} is not a bid (bid K 2, bid 3).")
        return move

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Bid:
        """The bid of a JSON object with exactly the fields of :class:`BidJSON`."""
        if data.get("type") != "bid" or set(data) != {"type", "tile", "amount"}:
            raise _malformed(_MESSAGE)
        return _checked(cls(data["tile"], data["amount"]))

    def well_formed(self) -> bool:
        """Whether the tile is a tile type or ``None`` and the amount 0..``MAX_BID``."""
        amount = self.amount
        return (self.tile is None or _tile(self.tile)) and (
            type(amount) is int and 0 <= amount <= MAX_BID
        )


class Pass(NamedTuple):
    """Pass in the current round (rules: each other player raises or passes once).
    Notation ``pass``."""

    word: str = "pass"

    def notation(self) -> str:
        """``pass``."""
        return "pass"

    def to_json(self) -> PassJSON:
        """``{"type": "pass"}``."""
        return {"type": "pass"}

    @classmethod
    def from_notation(cls, text: str) -> Pass:
        """``pass`` (case and surrounding spaces ignored)."""
        if text.strip().upper() != "PASS":
            raise _malformed(f"{text!r} is not a pass.")
        return cls()

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pass:
        """The pass of ``{"type": "pass"}``."""
        if data != {"type": "pass"}:
            raise _malformed(_MESSAGE)
        return cls()

    def well_formed(self) -> bool:
        """Whether it is the one pass."""
        return self.word == "pass"


class Deal(NamedTuple):
    """The auctioneer buys the tile (``buy``: pays the highest bid to the highest bidder)
    or sells it (the highest bidder pays the auctioneer and takes it). Notation ``buy`` /
    ``sell``."""

    buy: bool

    def notation(self) -> str:
        """``buy`` or ``sell``."""
        return "buy" if self.buy else "sell"

    def to_json(self) -> DealJSON:
        """``{"type": "deal", "buy": true|false}``."""
        return {"type": "deal", "buy": self.buy}

    @classmethod
    def from_notation(cls, text: str) -> Deal:
        """``buy`` or ``sell`` (case and surrounding spaces ignored)."""
        word = text.strip().upper()
        if word not in ("BUY", "SELL"):
            raise _malformed(f"{text!r} is not a deal (buy, sell).")
        return cls(word == "BUY")

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Deal:
        """The deal of ``{"type": "deal", "buy": true|false}``."""
        if data.get("type") != "deal" or set(data) != {"type", "buy"}:
            raise _malformed(_MESSAGE)
        return _checked(cls(data["buy"]))

    def well_formed(self) -> bool:
        """Whether ``buy`` is a boolean."""
        return type(self.buy) is bool


class Pick(NamedTuple):
    """Variant without auction: take revealed tile ``tile`` for free. Notation
    ``pick K``."""

    tile: str

    def notation(self) -> str:
        """``pick <tile>``."""
        return f"pick {self.tile}"

    def to_json(self) -> PickJSON:
        """``{"type": "pick", "tile": ..}``."""
        return {"type": "pick", "tile": self.tile}

    @classmethod
    def from_notation(cls, text: str) -> Pick:
        """The pick written ``text`` (case and surrounding spaces ignored)."""
        move = parse_notation(text.strip().upper())
        if not isinstance(move, Pick):
            raise _malformed(f"{text!r} is not a pick (pick K).")
        return move

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pick:
        """The pick of ``{"type": "pick", "tile": ..}``."""
        if data.get("type") != "pick" or set(data) != {"type", "tile"}:
            raise _malformed(_MESSAGE)
        return _checked(cls(data["tile"]))

    def well_formed(self) -> bool:
        """Whether the tile is a tile type."""
        return _tile(self.tile)


BazaarMove = Bid | Pass | Deal | Pick
"""Any bazaar move."""
BazaarJSON = BidJSON | PassJSON | DealJSON | PickJSON
"""The JSON form of any bazaar move."""
MOVE_TYPES: Final = (Bid, Pass, Deal, Pick)


def well_formed(move: object) -> bool:
    """Whether ``move`` is a bazaar move whose fields are of the right kind."""
    if type(move) not in MOVE_TYPES:
        return False
    assert isinstance(move, MOVE_TYPES)
    return move.well_formed()


Checked = TypeVar("Checked", "Bid", "Pass", "Deal", "Pick")


def _checked(move: Checked) -> Checked:
    if not move.well_formed():
        raise _malformed(
            f"A bid names a tile type or null and an integer amount 0..{MAX_BID}; a pick a "
            "tile type."
        )
    return move


def from_json(data: dict[str, Any]) -> BazaarMove:
    """A bazaar move from its JSON form (its ``type`` one of :data:`KINDS`); ``InvalidMove``
    when malformed."""
    kind = data.get("type")
    if kind == "bid":
        return Bid.from_json(data)
    if kind == "pass":
        return Pass.from_json(data)
    if kind == "deal":
        return Deal.from_json(data)
    if kind == "pick":
        return Pick.from_json(data)
    raise _malformed(_MESSAGE)


def parse_notation(word: str) -> BazaarMove | None:
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
