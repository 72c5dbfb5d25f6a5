"""What each viewer may see of a game of Risk (docs/risk.md, "Terms": trophy cards;
issue 6 part 7; docs/risk.md, "Hidden information").

A hand of cards is seen only by its owner; everyone sees how many cards each player holds.
No deck order exists (cards are drawn at random from what is left), so none can leak. The
traded-in cards, the map, money, the prize fund and the golden horse are public. Once the game
is over every hand is shown. An arbiter sees every hand (never the seed: the ledger keeps it).

:func:`event_view` applies the same rule to the event log: the card a player draws, the hand an
eliminated player hands over and the cards of a deal are shown to the players concerned only;
the others see how many cards changed hands.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from typing_extensions import TypedDict

from domain.ledger_events import MoveMade
from domain.protocol import Event, Outcome, Viewer
from domain.risk.cards import deck
from domain.risk.classic.cards import set_value
from domain.risk.constitution.events import DealExecuted, DealProposed
from domain.risk.constitution.golden_horse import horse_bonus
from domain.risk.events import CardDrawn, PlayerEliminated
from domain.risk.move_json import ProposeJson, TransferJson, TransferRecord
from domain.risk.state import (
    EXCHANGE,
    FORTIFY,
    INVASION,
    OVER,
    REINFORCEMENT,
    OpenInvasion,
    Proposal,
    Result,
    RiskState,
)


class TerritoryView(TypedDict):
    """Who holds a territory and how many units stand on it."""

    owner: int
    units: int


class PlayerView(TypedDict):
    """One seat as a viewer sees it: ``hand`` is ``None`` for anyone who may not see it."""

    seat: int
    colour: str | None
    territories: int
    units: int
    reserve: int
    incoming: int
    purse: int
    cards: int
    hand: list[str] | None
    eliminated: bool


class GoldenHorseView(TypedDict):
    """The golden horse (classic Risk: the count of sets traded and the next set's value)."""

    position: int
    bonus: int
    track: list[int]


InvasionView = OpenInvasion
"""The open invasion or the conquest awaiting its occupation, as the state holds it."""

ProposalView = Proposal
"""An open proposal as the state holds it; for a non-party a deal's transfers show
``card_count`` instead of ``cards`` (:func:`_proposal`)."""


class ExchangeView(TypedDict):
    """The exchange session: who is done, the open proposals."""

    done: list[int]
    proposals: list[ProposalView]


ResultView = Result
"""How the game ended and each seat's share of the fund, as the state holds it."""


class RiskView(TypedDict):
    """The table as one viewer sees it (docs/risk.md, "Hidden information")."""

    ruleset: Literal["constitution", "classic"]
    phase: str
    round: int
    turn: int | None
    order: list[int]
    territories: dict[str, TerritoryView]
    players: list[PlayerView]
    deck: int
    discard: list[str]
    golden_horse: GoldenHorseView
    fund: int
    invasion: InvasionView | None
    launched: list[str]
    captured: list[str]
    moved: dict[str, int]
    exchange: ExchangeView | None
    passage: dict[str, list[int]]
    result: ResultView | None


def sees_all(state: RiskState, viewer: Viewer) -> bool:
    """An arbiter sees every hand; so does everyone once the game is over."""
    return viewer.arbiter or state.phase == OVER


def view(state: RiskState, viewer: Viewer) -> RiskView:
    """The table as ``viewer`` may see it (module docstring; docs/risk.md, "Hidden
    information")."""
    everything = sees_all(state, viewer)
    return {
        "ruleset": state.options["ruleset"],
        "phase": state.phase,
        "round": state.round,
        "turn": state.seat if state.phase in (INVASION, REINFORCEMENT, FORTIFY) else None,
        "order": list(state.order),
        "territories": {t: {"owner": state.owner[t], "units": state.units[t]} for t in state.owner},
        "players": [_player(state, seat, viewer, everything) for seat in range(state.players)],
        "deck": len(deck(state)),
        "discard": list(state.discard),
        "golden_horse": {
            "position": state.horse,
            "bonus": set_value(state.horse)
            if state.options["ruleset"] == "classic"
            else horse_bonus(state),
            "track": list(state.options["golden_horse"]),
        },
        "fund": state.fund,
        "invasion": _invasion(state.invasion),
        "launched": list(state.launched),
        "captured": list(state.captured),
        "moved": dict(state.moved),
        "exchange": {
            "done": list(state.done),
            "proposals": [_proposal(p, viewer, everything) for p in state.proposals],
        }
        if state.phase == EXCHANGE
        else None,
        "passage": {str(ally): list(seats) for ally, seats in enumerate(state.passage)},
        "result": state.result,
    }


def _invasion(invasion: OpenInvasion | None) -> InvasionView | None:
    return None if invasion is None else invasion.copy()


def _player(state: RiskState, seat: int, viewer: Viewer, everything: bool) -> PlayerView:
    held = state.territories_of(seat)
    hand = state.hands[seat]
    return {
        "seat": seat,
        "colour": state.colours[seat],
        "territories": len(held),
        "units": sum(state.units[t] for t in held),
        "reserve": state.reserve[seat],
        "incoming": state.incoming[seat],
        "purse": state.purse[seat],
        "cards": len(hand),
        "hand": list(hand) if everything or viewer.seat == seat else None,
        "eliminated": seat in state.eliminated,
    }


def _proposal(proposal: Proposal, viewer: Viewer, everything: bool) -> ProposalView:
    parties = {proposal["by"], *proposal["to"]}
    if everything or viewer.seat in parties or "transfers" not in proposal:
        return proposal.copy()
    hidden = proposal.copy()
    hidden["transfers"] = [_hide_cards(t) for t in proposal["transfers"]]
    return hidden


def _hide_cards(transfer: TransferJson) -> TransferRecord:
    """A transfer without the names of its cards (their number stays)."""
    # A move's transfer is a record's without card_count, which is optional there.
    out = cast(TransferRecord, transfer.copy())
    if "cards" in transfer:
        del out["cards"]
        out["card_count"] = len(transfer["cards"])
    return out


def event_view(event: Event, viewer: Viewer) -> dict[str, Any]:
    """An event's data as ``viewer`` may see it (module docstring). Applied to data already
    hidden it changes nothing more, so anyone can derive the spectator's view from their
    own (the hash chain covers the spectator's view; docs/audit.md). Each event is read
    through its ``TypedDict`` (:mod:`domain.risk.events`, :mod:`domain.risk.constitution.events`,
    :mod:`domain.ledger_events`)."""
    data = event.data
    if viewer.arbiter:
        return dict(data)
    seat = viewer.seat
    shown: Mapping[str, object]  # a new dict: each helper copies the data it is given
    match event.type:
        case "CardDrawn":
            shown = _card_drawn(cast(CardDrawn, data), seat)
        case "PlayerEliminated":
            shown = _eliminated(cast(PlayerEliminated, data), seat)
        case "DealProposed":
            proposed = cast(DealProposed, data)
            shown = _deal(proposed, {proposed["by"], *proposed["to"]}, seat)
        case "DealExecuted":
            shown = _deal(cast(DealExecuted, data), set(), seat)
        case "MoveMade":
            shown = _move_view(cast(MoveMade, data), seat)
        case _:
            return dict(data)
    return cast(dict[str, Any], shown)


def _card_drawn(data: CardDrawn, seat: int | None) -> CardDrawn:
    """The card drawn is shown to the drawer only."""
    shown = data.copy()
    if seat != data["seat"]:
        shown.pop("card", None)
    return shown


def _eliminated(data: PlayerEliminated, seat: int | None) -> PlayerEliminated:
    """The eliminated player's hand is shown to that player and to the one it goes to."""
    shown = data.copy()
    if seat not in (data["seat"], data["by"]):
        shown.pop("cards", None)
    return shown


Deal = TypeVar("Deal", DealProposed, DealExecuted)


def _deal(data: Deal, parties: set[int], seat: int | None) -> Deal:
    """A deal's cards are shown to its parties only: ``parties`` (a proposal's proposer and
    addressees) and every seat that gives or receives in it (``givers``)."""
    givers = {party for t in data["transfers"] for party in (t["from"], t["to"])}
    shown = data.copy()
    if seat not in parties | givers:
        shown["transfers"] = [_hide_cards(t) for t in data["transfers"]]
    return shown


def _move_view(data: MoveMade, seat: int | None) -> MoveMade:
    """A recorded ``propose`` move: its cards are shown to the deal's parties only, and so is
    the player's signature of it (docs/risk.md, "Hidden information"): a signature verifies
    against the player's public key, so anyone holding it could try every guess of the cards
    until one verifies."""
    shown = data.copy()
    if data["move"].get("type") != "propose":
        return shown
    move = cast(ProposeJson, data["move"])
    parties = {data["seat"], *move.get("to", [])}
    if seat in parties or not any("cards" in t for t in move.get("transfers", [])):
        return shown
    shown["move"] = {**move, "transfers": [_hide_cards(t) for t in move["transfers"]]}
    shown["notation"] = "propose (cards hidden)"
    shown.pop("signature", None)
    return shown


class RiskOutcomeDetails(TypedDict):
    """An outcome's details (docs/risk.md, "End of the game"): how the game ended, the
    rounds played, the seats eliminated in order."""

    reason: Literal["conquest", "settlement"]
    rounds: int
    eliminated: list[int]


def outcome(state: RiskState) -> Outcome | None:
    """``None`` until ``GameEnded``; then each seat's score is its share of the prize fund
    in kopecks; ranks follow the shares; the winners are the seats that received a share
    (the conqueror alone after a world conquest) (docs/risk.md, "End of the game")."""
    result = state.result
    if state.phase != OVER or result is None:
        return None
    scores = [int(result["shares"].get(str(seat), 0)) for seat in range(state.players)]
    ranks = [1 + sum(1 for other in scores if other > score) for score in scores]
    winners = [seat for seat, score in enumerate(scores) if score > 0]
    details: RiskOutcomeDetails = {
        "reason": result["reason"],
        "rounds": state.round,
        "eliminated": list(state.eliminated),
    }
    return Outcome(
        scores=scores,
        ranks=ranks,
        winners=winners,
        details=dict(details),
    )


def summary(state: RiskState) -> dict[str, Any]:
    """A public summary for lists: the prize-fund shares as scores once the game is over
    (0 before), the round, the phase and how many territories each seat holds."""
    result = outcome(state)
    return {
        "scores": result.scores if result is not None else [0] * state.players,
        "round": state.round,
        "phase": state.phase,
        "territories": [len(state.territories_of(seat)) for seat in range(state.players)],
        "finished": state.phase == OVER,
    }
