"""The JSON form of Risk moves (docs/risk.md, "Moves"): one ``TypedDict`` per form,
``{"type": <move>, ...}``, the union :data:`RiskMoveJson` that ``Rules.shapes`` names, and the
strict readers the moves' ``from_json`` use (``InvalidMove`` ``malformed-move`` for anything
that is not a Risk move). The forms are listed in :mod:`domain.risk.moves`.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired

from typing_extensions import TypedDict

from domain.protocol import InvalidMove


class ColourJson(TypedDict):
    """``{"type": "colour", "colour": "red"}``"""

    type: Literal["colour"]
    colour: str


class PlaceJson(TypedDict):
    """``{"type": "place", "units": {"Alaska": 2}}``"""

    type: Literal["place"]
    units: dict[str, int]


InvadeJson = TypedDict("InvadeJson", {"type": Literal["invade"], "from": str, "to": str})
"""``{"type": "invade", "from": "Alaska", "to": "Kamchatka"}``"""

BareKind = Literal["roll", "fight", "stop", "end-invasions", "end-turn", "done", "end-attacks"]
"""The moves without fields."""


class BareJson(TypedDict):
    """``{"type": "roll"}`` and every other move without fields."""

    type: BareKind


class TradeJson(TypedDict):
    """``{"type": "trade", "cards": ["Alaska", "Peru", "wild-1"]}``"""

    type: Literal["trade"]
    cards: list[str]


class BuyJson(TypedDict):
    """``{"type": "buy", "units": 4}``"""

    type: Literal["buy"]
    units: int


MoveJson = TypedDict("MoveJson", {"type": Literal["move"], "from": str, "to": str, "units": int})
"""``{"type": "move", "from": "Peru", "to": "Brazil", "units": 3}``"""

AttackJson = TypedDict(
    "AttackJson", {"type": Literal["attack"], "from": str, "to": str, "dice": int}
)
"""``{"type": "attack", "from": "Peru", "to": "Brazil", "dice": 3}``"""

FortifyJson = TypedDict(
    "FortifyJson", {"type": Literal["fortify"], "from": str, "to": str, "units": int}
)
"""``{"type": "fortify", "from": "Peru", "to": "Chile", "units": 2}``"""


class OccupyJson(TypedDict):
    """``{"type": "occupy", "units": 3}``"""

    type: Literal["occupy"]
    units: int


class AnswerJson(TypedDict):
    """``{"type": "accept", "proposal": 3}``, and ``decline``, ``withdraw``."""

    type: Literal["accept", "decline", "withdraw"]
    proposal: int


class PassageJson(TypedDict):
    """``{"type": "grant-passage", "to": 2}``, and ``revoke-passage``."""

    type: Literal["grant-passage", "revoke-passage"]
    to: int


TransferJson = TypedDict(
    "TransferJson",
    {
        "from": int,
        "to": int,
        "territories": NotRequired[list[str]],
        "cards": NotRequired[list[str]],
        "units": NotRequired[dict[str, int]],
        "money": NotRequired[int],
    },
)
"""What one party of a deal gives another (every key but ``from`` and ``to`` optional)."""


class TransferRecord(TransferJson):
    """One transfer of a deal as recorded (``DealProposed``, ``DealExecuted``, an open
    proposal): a move's transfer plus ``card_count`` when it gives cards (docs/risk.md,
    "Hidden information")."""

    card_count: NotRequired[int]


class ProposeJson(TypedDict):
    """``{"type": "propose", "to": [2], "transfers": [...]}``"""

    type: Literal["propose"]
    to: list[int]
    transfers: list[TransferJson]


class SettleJson(TypedDict):
    """``{"type": "settle", "shares": {"0": 3000, "2": 1000}}``"""

    type: Literal["settle"]
    shares: dict[str, int]


RiskMoveJson = (
    ColourJson
    | PlaceJson
    | InvadeJson
    | BareJson
    | TradeJson
    | BuyJson
    | MoveJson
    | ProposeJson
    | SettleJson
    | AnswerJson
    | PassageJson
    | AttackJson
    | OccupyJson
    | FortifyJson
)
"""The JSON form of any Risk move (``Rules.shapes.move``)."""


def malformed(detail: str) -> InvalidMove:
    """The refusal of a move that cannot be read."""
    return InvalidMove("malformed-move", f"Not a Risk move: {detail}.")


def fields(data: Any, kind: str, *names: str) -> dict[str, Any]:
    """``data`` as the JSON object of a ``kind`` move with no field but ``type`` and
    ``names``."""
    if not isinstance(data, dict) or data.get("type") != kind:
        raise malformed(f'a {kind} move is an object with "type": "{kind}"')
    unknown = set(data) - {"type", *names}
    if unknown:
        raise malformed(f"a {kind} move has no field {sorted(unknown)[0]!r}")
    return data


def read_int(value: Any, what: str, minimum: int = 0) -> int:
    """An integer of at least ``minimum`` (never a boolean)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise malformed(f"{what} must be an integer of at least {minimum}")
    return value


def read_name(value: Any, what: str) -> str:
    """A non-empty string."""
    if not isinstance(value, str) or not value.strip():
        raise malformed(f"{what} must be a non-empty string")
    return value


def read_counts(value: Any, what: str) -> tuple[tuple[str, int], ...]:
    """A ``{territory: n}`` object as sorted pairs, every ``n`` at least 1."""
    if not isinstance(value, dict) or not value:
        raise malformed(f"{what} must be a non-empty object of territory: units")
    return tuple(
        sorted(
            (read_name(k, "a territory"), read_int(v, f"units on {k}", 1)) for k, v in value.items()
        )
    )


def read_names(value: Any, what: str) -> tuple[str, ...]:
    """A list of distinct non-empty strings."""
    if not isinstance(value, list):
        raise malformed(f"{what} must be a list")
    names = tuple(read_name(v, what) for v in value)
    if len(set(names)) != len(names):
        raise malformed(f"{what} names an item twice")
    return names


def read_seat(value: Any, what: str) -> int:
    """A seat number."""
    return read_int(value, what)


def read_route(data: Any, kind: str, amount: str) -> tuple[str, str, int]:
    """``from``, ``to`` and a positive ``amount`` of a move, an attack or a fortify move."""
    fields(data, kind, "from", "to", amount)
    return (
        read_name(data.get("from"), "from"),
        read_name(data.get("to"), "to"),
        read_int(data.get(amount), amount, 1),
    )
