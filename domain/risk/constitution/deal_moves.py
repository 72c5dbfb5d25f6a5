"""The moves of the exchange session that carry a deal or a settlement (docs/risk.md,
"Moves" and "Exchange session"), with their JSON form and notation both ways. A deal's
notation is ``propose`` followed by its JSON without ``type`` (compact, keys sorted), read
strictly (:func:`domain.jsonvalue.strict_loads`):

>>> deal = Propose.from_notation(
...     'propose {"to":[2],"transfers":[{"from":0,"money":100,"to":2,"territories":["Peru"]}]}'
... )
>>> deal
Propose(to=(2,), transfers=(Transfer(giver=0, receiver=2, territories=('Peru',), cards=(), units=(), money=100),))
>>> deal.notation()
'propose {"to":[2],"transfers":[{"from":0,"money":100,"territories":["Peru"],"to":2}]}'
>>> Propose.from_json(deal.to_json()) == deal
True
>>> Settle.from_notation("settle 0=3000,2=1000").to_json()
{'type': 'settle', 'shares': {'0': 3000, '2': 1000}}
>>> Settle.from_json({"type": "settle", "shares": {"2": 1000, "0": 3000}}).notation()
'settle 0=3000,2=1000'
"""  # noqa: E501

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from domain.risk.move_json import (
    ProposeJson,
    SettleJson,
    TransferJson,
    fields,
    malformed,
    read_counts,
    read_int,
    read_names,
    read_seat,
)
from domain.risk.move_notation import deal, number, pairs, split


@dataclass(frozen=True, slots=True)
class Transfer:
    """What one party of a deal gives another."""

    giver: int
    receiver: int
    territories: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    units: tuple[tuple[str, int], ...] = ()
    money: int = 0

    def to_json(self) -> TransferJson:
        """The transfer's JSON form (empty parts left out)."""
        out: TransferJson = {"from": self.giver, "to": self.receiver}
        if self.territories:
            out["territories"] = list(self.territories)
        if self.cards:
            out["cards"] = list(self.cards)
        if self.units:
            out["units"] = dict(self.units)
        if self.money:
            out["money"] = self.money
        return out

    @classmethod
    def from_json(cls, data: Any) -> Transfer:
        """A transfer from its JSON form; ``InvalidMove`` if malformed."""
        if not isinstance(data, dict):
            raise malformed("a transfer must be an object")
        unknown = set(data) - {"from", "to", "territories", "cards", "units", "money"}
        if unknown:
            raise malformed(f"a transfer has no field {sorted(unknown)[0]!r}")
        units = data.get("units", {})
        transfer = cls(
            giver=read_seat(data.get("from"), "a transfer's from"),
            receiver=read_seat(data.get("to"), "a transfer's to"),
            territories=read_names(data.get("territories", []), "territories"),
            cards=read_names(data.get("cards", []), "cards"),
            units=read_counts(units, "units") if units != {} else (),
            money=read_int(data.get("money", 0), "money"),
        )
        if transfer.giver == transfer.receiver:
            raise malformed("a transfer goes from one seat to another")
        if not (transfer.territories or transfer.cards or transfer.units or transfer.money):
            raise malformed("a transfer must give something")
        return transfer


@dataclass(frozen=True, slots=True)
class Propose:
    """Propose a deal to the seats ``to``; ``transfers`` say who gives whom what."""

    to: tuple[int, ...]
    transfers: tuple[Transfer, ...] = field(default=())

    def to_json(self) -> ProposeJson:
        """``{"type": "propose", "to": [...], "transfers": [...]}``"""
        return {
            "type": "propose",
            "to": list(self.to),
            "transfers": [t.to_json() for t in self.transfers],
        }

    @classmethod
    def from_json(cls, data: Any) -> Propose:
        """A deal from its JSON form (the addressees sorted, each once)."""
        fields(data, "propose", "to", "transfers")
        to = data.get("to")
        if not isinstance(to, list) or not to:
            raise malformed("to must be a non-empty list of seats")
        seats = tuple(sorted({read_seat(s, "to") for s in to}))
        transfers = data.get("transfers")
        if not isinstance(transfers, list) or not transfers:
            raise malformed("transfers must be a non-empty list")
        return cls(seats, tuple(Transfer.from_json(t) for t in transfers))

    def notation(self) -> str:
        """``propose`` and the deal's compact JSON without ``type``, keys sorted."""
        body: dict[str, Any] = {"to": list(self.to), "transfers": self.to_json()["transfers"]}
        return "propose " + json.dumps(body, separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_notation(cls, text: str) -> Propose:
        """A deal from ``propose {...}``."""
        return cls.from_json({"type": "propose", **deal(split(text, "propose"))})


@dataclass(frozen=True, slots=True)
class Settle:
    """Propose how the prize fund is divided: ``shares`` is sorted ``(seat, kopecks)``."""

    shares: tuple[tuple[int, int], ...]

    def to_json(self) -> SettleJson:
        """``{"type": "settle", "shares": {"0": 3000, ...}}``"""
        return {"type": "settle", "shares": {str(s): k for s, k in self.shares}}

    @classmethod
    def from_json(cls, data: Any) -> Settle:
        """A settlement from its JSON form: seat numbers as keys, kopecks as values."""
        fields(data, "settle", "shares")
        shares = data.get("shares")
        if not isinstance(shares, dict) or not shares:
            raise malformed("shares must be an object of seat: kopecks")
        found: list[tuple[int, int]] = []
        for key, amount in shares.items():
            if not isinstance(key, str) or not key.isascii() or not key.isdigit() or len(key) > 2:
                raise malformed("a share's key is a seat number")
            found.append((int(key), read_int(amount, f"the share of seat {key}")))
        return cls(tuple(sorted(found)))

    def notation(self) -> str:
        """``settle 0=3000,2=1000``"""
        return "settle " + ",".join(f"{s}={k}" for s, k in self.shares)

    @classmethod
    def from_notation(cls, text: str) -> Settle:
        """A settlement from ``settle seat=kopecks,...``."""
        shares = {k: number(v) for k, v in pairs(split(text, "settle")).items()}
        return cls.from_json({"type": "settle", "shares": shares})
