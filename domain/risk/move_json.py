"""The JSON form of Risk moves (docs/risk.md, "Moves"): ``{"type": <move>, ...}``, read by
:func:`parse_move` (``InvalidMove`` ``malformed-move`` for anything else) and written by
:func:`move_to_json`; the forms are listed in :mod:`domain.risk.moves`."""

from __future__ import annotations

from typing import Any

from domain.risk.moves import (
    Accept,
    Attack,
    Buy,
    Colour,
    Decline,
    Done,
    EndAttacks,
    EndInvasions,
    EndTurn,
    Fight,
    Fortify,
    GrantPassage,
    Invade,
    Move,
    Occupy,
    Place,
    Propose,
    RevokePassage,
    RiskMove,
    Roll,
    Settle,
    Stop,
    Trade,
    Transfer,
    Withdraw,
    malformed,
    read_counts,
    read_int,
    read_name,
    read_names,
    read_seat,
)

BARE: dict[str, RiskMove] = {  # moves without fields, by type
    "roll": Roll(),
    "fight": Fight(),
    "stop": Stop(),
    "end-invasions": EndInvasions(),
    "end-turn": EndTurn(),
    "done": Done(),
    "end-attacks": EndAttacks(),
}
PROPOSAL_MOVES: dict[str, type[Accept | Decline | Withdraw]] = {
    "accept": Accept,
    "decline": Decline,
    "withdraw": Withdraw,
}
PASSAGE_MOVES: dict[str, type[GrantPassage | RevokePassage]] = {
    "grant-passage": GrantPassage,
    "revoke-passage": RevokePassage,
}


def _fields(data: dict[str, Any], *names: str) -> None:
    unknown = set(data) - {"type", *names}
    if unknown:
        raise malformed(f"a {data['type']} move has no field {sorted(unknown)[0]!r}")


def parse_move(data: Any) -> RiskMove:
    """A move from its JSON form; ``InvalidMove`` when it is not a Risk move."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise malformed('a move is an object with a "type"')
    kind = data["type"]
    if kind in BARE:
        _fields(data)
        return BARE[kind]
    if kind in PROPOSAL_MOVES:
        _fields(data, "proposal")
        return PROPOSAL_MOVES[kind](read_int(data.get("proposal"), "proposal"))
    if kind in PASSAGE_MOVES:
        _fields(data, "to")
        return PASSAGE_MOVES[kind](read_seat(data.get("to"), "to"))
    parser = _PARSERS.get(kind)
    if parser is None:
        raise malformed(f"no move type {kind!r}")
    return parser(data)


def _colour(data: dict[str, Any]) -> RiskMove:
    _fields(data, "colour")
    return Colour(read_name(data.get("colour"), "colour"))


def _place(data: dict[str, Any]) -> RiskMove:
    _fields(data, "units")
    return Place(read_counts(data.get("units"), "units"))


def _invade(data: dict[str, Any]) -> RiskMove:
    _fields(data, "from", "to")
    return Invade(read_name(data.get("from"), "from"), read_name(data.get("to"), "to"))


def _trade(data: dict[str, Any]) -> RiskMove:
    _fields(data, "cards")
    cards = read_names(data.get("cards"), "cards")
    if len(cards) != 3:
        raise malformed("a trade is exactly three cards")
    return Trade((cards[0], cards[1], cards[2]))


def _buy(data: dict[str, Any]) -> RiskMove:
    _fields(data, "units")
    return Buy(read_int(data.get("units"), "units", 1))


def _route(data: dict[str, Any], amount: str) -> tuple[str, str, int]:
    """``from``, ``to`` and a positive ``amount`` of a move, an attack or a fortify move."""
    _fields(data, "from", "to", amount)
    return (
        read_name(data.get("from"), "from"),
        read_name(data.get("to"), "to"),
        read_int(data.get(amount), amount, 1),
    )


def _move(data: dict[str, Any]) -> RiskMove:
    return Move(*_route(data, "units"))


def _propose(data: dict[str, Any]) -> RiskMove:
    _fields(data, "to", "transfers")
    to = data.get("to")
    if not isinstance(to, list) or not to:
        raise malformed("to must be a non-empty list of seats")
    seats = tuple(sorted({read_seat(s, "to") for s in to}))
    transfers = data.get("transfers")
    if not isinstance(transfers, list) or not transfers:
        raise malformed("transfers must be a non-empty list")
    return Propose(seats, tuple(Transfer.from_json(t) for t in transfers))


def _settle(data: dict[str, Any]) -> RiskMove:
    _fields(data, "shares")
    shares = data.get("shares")
    if not isinstance(shares, dict) or not shares:
        raise malformed("shares must be an object of seat: kopecks")
    pairs: list[tuple[int, int]] = []
    for key, amount in shares.items():
        if not isinstance(key, str) or not key.isascii() or not key.isdigit() or len(key) > 2:
            raise malformed("a share's key is a seat number")
        pairs.append((int(key), read_int(amount, f"the share of seat {key}")))
    return Settle(tuple(sorted(pairs)))


def _attack(data: dict[str, Any]) -> RiskMove:
    return Attack(*_route(data, "dice"))


def _occupy(data: dict[str, Any]) -> RiskMove:
    _fields(data, "units")
    return Occupy(read_int(data.get("units"), "units", 1))


def _fortify(data: dict[str, Any]) -> RiskMove:
    return Fortify(*_route(data, "units"))


_PARSERS = {
    "colour": _colour,
    "place": _place,
    "invade": _invade,
    "trade": _trade,
    "buy": _buy,
    "move": _move,
    "propose": _propose,
    "settle": _settle,
    "attack": _attack,
    "occupy": _occupy,
    "fortify": _fortify,
}


def move_to_json(move: RiskMove) -> dict[str, Any]:
    """The JSON form of ``move`` (:func:`parse_move` reads it back)."""
    match move:
        case Colour(colour):
            return {"type": "colour", "colour": colour}
        case Place(units):
            return {"type": "place", "units": dict(units)}
        case Invade(source, target):
            return {"type": "invade", "from": source, "to": target}
        case Trade(cards):
            return {"type": "trade", "cards": list(cards)}
        case Buy(units):
            return {"type": "buy", "units": units}
        case Move(source, target, units):
            return {"type": "move", "from": source, "to": target, "units": units}
        case Propose(to, transfers):
            return {
                "type": "propose",
                "to": list(to),
                "transfers": [t.to_json() for t in transfers],
            }
        case Settle(shares):
            return {"type": "settle", "shares": {str(s): k for s, k in shares}}
        case Accept(p) | Decline(p) | Withdraw(p):
            return {"type": kind_of(move), "proposal": p}
        case GrantPassage(to) | RevokePassage(to):
            return {"type": kind_of(move), "to": to}
        case Attack(source, target, dice):
            return {"type": "attack", "from": source, "to": target, "dice": dice}
        case Occupy(units):
            return {"type": "occupy", "units": units}
        case Fortify(source, target, units):
            return {"type": "fortify", "from": source, "to": target, "units": units}
    return {"type": kind_of(move)}


def kind_of(move: RiskMove) -> str:
    """The ``type`` of a move without fields or with only a proposal number or a seat."""
    for kind, bare in BARE.items():
        if bare == move:
            return kind
    for table in (PROPOSAL_MOVES, PASSAGE_MOVES):
        for kind, cls in table.items():
            if cls is type(move):
                return kind
    raise TypeError(f"not a Risk move: {move!r}")
