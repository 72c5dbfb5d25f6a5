"""The state of a game of Risk by the Constitution (docs/risk.md, "The
rules"). One mutable value, changed only by the handlers of :data:`domain.risk.evolve.EVENTS`;
the phase modules read it to decide moves.

Phases, in the order a game passes through them: ``colours`` (choose colours in turn
order), ``placement`` (starting units, a step at a time), then rounds of ``invasion`` and
``reinforcement`` for each player in turn order followed by one ``exchange`` session, until
``over``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal, NotRequired

from typing_extensions import TypedDict

from domain.jsonvalue import copy_json
from domain.risk.move_json import TransferRecord

COLOURS = "colours"
PLACEMENT = "placement"
INVASION = "invasion"
REINFORCEMENT = "reinforcement"
EXCHANGE = "exchange"
OVER = "over"
FORTIFY = "fortify"  # the classic ruleset's one fortify move (docs/risk.md, "Classic Risk")
PHASES = (COLOURS, PLACEMENT, INVASION, REINFORCEMENT, EXCHANGE, OVER, FORTIFY)


OpenInvasion = TypedDict(
    "OpenInvasion",
    {
        "from": str,
        "to": str,
        "attackers": int,
        "defenders": int,
        "lost": NotRequired[list[int]],
        "dice": NotRequired[int],
    },
)
"""The open invasion (the Constitution, docs/risk.md "Invasion phase": the engaged units still
alive in its current battle, both 0 between battles, and the battle's losses so far,
``lost``) or the conquest awaiting its occupation (docs/risk.md, "Classic Risk": ``attackers``
and ``defenders`` 0, the ``dice`` rolled). The view shows it as it is."""


class Proposal(TypedDict):
    """An open proposal of the exchange session (docs/risk.md, "Exchange session"): a deal's
    ``transfers`` or a settlement's ``shares`` (kopecks by seat); the view hides a deal's cards
    from non-parties (docs/risk.md, "Hidden information")."""

    id: int
    by: int
    kind: Literal["deal", "settlement"]
    to: list[int]
    accepted: list[int]
    transfers: NotRequired[list[TransferRecord]]
    shares: NotRequired[dict[str, int]]


class Result(TypedDict):
    """How the game ended and each seat's share of the fund (docs/risk.md, "End of the
    game")."""

    reason: Literal["conquest", "settlement"]
    shares: dict[str, int]


@dataclass
class RiskState:
    """Everything the rules need to decide a move; every field is JSON-safe.

    Money is counted in kopecks. Seats are ``0 .. players-1``; lists indexed by seat have
    ``players`` items. ``invasion`` is the open invasion (:data:`OpenInvasion`) or ``None``;
    ``proposals`` are the open proposals of the exchange session (:class:`Proposal`);
    ``result`` is set at the end (:class:`Result`).
    ``passage[ally]`` lists the seats ``ally`` lets move through its territories.
    """

    players: int
    options: dict[str, Any]
    random_position: int = 0
    phase: str = COLOURS
    order: list[int] = field(default_factory=list)
    colours: list[str | None] = field(default_factory=list)
    owner: dict[str, int] = field(default_factory=dict)
    units: dict[str, int] = field(default_factory=dict)
    reserve: list[int] = field(default_factory=list)
    purse: list[int] = field(default_factory=list)
    fund: int = 0
    hands: list[list[str]] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    horse: int = 0
    round: int = 0
    turn: int = 0
    launched: list[str] = field(default_factory=list)
    captured: list[str] = field(default_factory=list)
    invasion: OpenInvasion | None = None
    moved: dict[str, int] = field(default_factory=dict)
    incoming: list[int] = field(default_factory=list)
    eliminated: list[int] = field(default_factory=list)
    done: list[int] = field(default_factory=list)
    proposals: list[Proposal] = field(default_factory=list)
    next_proposal: int = 1
    passage: list[list[int]] = field(default_factory=list)
    result: Result | None = None
    units_in: int = 0
    units_lost: int = 0

    @property
    def seat(self) -> int:
        """The seat whose turn it is (placement, invasion, reinforcement)."""
        return self.order[self.turn] if self.order else 0

    def active(self) -> list[int]:
        """Seats still in the game, in turn order."""
        return [s for s in self.order if s not in self.eliminated]

    def territories_of(self, seat: int) -> list[str]:
        """The territories ``seat`` holds, in map order."""
        return [t for t, s in self.owner.items() if s == seat]


def new_state(players: int, options: dict[str, Any]) -> RiskState:
    """The state before anything random has happened: per-seat lists sized, empty hands."""
    return RiskState(
        players=players,
        options=dict(options),
        colours=[None] * players,
        reserve=[0] * players,
        purse=[0] * players,
        hands=[[] for _ in range(players)],
        incoming=[0] * players,
        passage=[[] for _ in range(players)],
    )


_FIELDS = tuple(f.name for f in fields(RiskState))


def state_to_json(state: RiskState) -> dict[str, Any]:
    """The whole state as JSON-safe primitives (snapshots store it)."""
    return {name: copy_json(getattr(state, name)) for name in _FIELDS}


def state_from_json(data: dict[str, Any]) -> RiskState:
    """The state that :func:`state_to_json` gave ``data`` for. A snapshot taken under rules
    ``risk-2`` holds a ``bank`` (the price of bought units); since ``risk-3`` that money is in
    the prize fund (docs/risk.md, "Money"), which replaying the same events now gives too."""
    fields_ = copy_json(data)
    fields_["fund"] = fields_.get("fund", 0) + fields_.pop("bank", 0)
    return RiskState(**fields_)


def copy_state(state: RiskState) -> RiskState:
    """An independent copy of ``state`` (a move that looks ahead decides on one;
    docs/risk.md, "Rooms"): every list and dict copied field by field, one level deeper
    where they nest (hands, passage, the open invasion's losses, the options' lists, each
    proposal and its parts, the result's shares); nothing goes through JSON, and the copy
    shares no list or dict with ``state`` (tests/unit/risk/test_copy_state.py)."""
    invasion = state.invasion
    if invasion is not None:
        invasion = invasion.copy()
        if "lost" in invasion:
            invasion["lost"] = list(invasion["lost"])
    result = state.result
    if result is not None:
        result = result.copy()
        result["shares"] = dict(result["shares"])
    return RiskState(
        players=state.players,
        options={k: list(v) if type(v) is list else v for k, v in state.options.items()},
        random_position=state.random_position,
        phase=state.phase,
        order=list(state.order),
        colours=list(state.colours),
        owner=dict(state.owner),
        units=dict(state.units),
        reserve=list(state.reserve),
        purse=list(state.purse),
        fund=state.fund,
        hands=[list(hand) for hand in state.hands],
        discard=list(state.discard),
        horse=state.horse,
        round=state.round,
        turn=state.turn,
        launched=list(state.launched),
        captured=list(state.captured),
        invasion=invasion,
        moved=dict(state.moved),
        incoming=list(state.incoming),
        eliminated=list(state.eliminated),
        done=list(state.done),
        proposals=[copy_proposal(p) for p in state.proposals],
        next_proposal=state.next_proposal,
        passage=[list(seats) for seats in state.passage],
        result=result,
        units_in=state.units_in,
        units_lost=state.units_lost,
    )


def copy_proposal(proposal: Proposal) -> Proposal:
    """An independent copy of an open proposal (:class:`Proposal`): its seats, and a deal's
    transfers or a settlement's shares."""
    copy = proposal.copy()
    copy["to"] = list(proposal["to"])
    copy["accepted"] = list(proposal["accepted"])
    if "transfers" in proposal:
        copy["transfers"] = [copy_transfer(t) for t in proposal["transfers"]]
    if "shares" in proposal:
        copy["shares"] = dict(proposal["shares"])
    return copy


def copy_transfer(transfer: TransferRecord) -> TransferRecord:
    """An independent copy of one transfer of a deal (:class:`TransferRecord`)."""
    copy = transfer.copy()
    if "territories" in transfer:
        copy["territories"] = list(transfer["territories"])
    if "cards" in transfer:
        copy["cards"] = list(transfer["cards"])
    if "units" in transfer:
        copy["units"] = dict(transfer["units"])
    return copy
