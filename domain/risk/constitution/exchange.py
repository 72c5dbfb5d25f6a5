"""The exchange session at the end of each round (docs/risk.md, "Exchange session"
and "End of the game"; seed 003, Art. 3, Art. 4 "кон обмена", Art. 13): every player still
in the game may propose deals (see :mod:`domain.risk.constitution.deals`) and a settlement
of the prize fund, accept, decline or withdraw proposals, grant or revoke passage through their
territories (the consent corridors of seed 003, Art. 12 need), and declare themselves done.
Nothing changes hands without every addressee's acceptance; the session ends when every
player is done and no proposal is open, and the next round begins. A settlement accepted
by every other player ends the game.

Events: ``ExchangeSessionOpened``, ``DealProposed``, ``SettlementProposed``,
``DealAccepted``, ``DealExecuted``, ``DealFailed``, ``DealDeclined``, ``DealWithdrawn``,
``PassageGranted``, ``PassageRevoked``, ``ExchangeDone``, ``ExchangeSessionClosed``.
"""

from __future__ import annotations

from domain.jsonvalue import copy_json
from domain.protocol import IllegalMove
from domain.randomness import RandomStream
from domain.risk import rounds
from domain.risk.constitution import corridor, deals
from domain.risk.constitution.deal_moves import Propose, Settle, Transfer
from domain.risk.constitution.events import (
    DEAL_ACCEPTED,
    DEAL_DECLINED,
    DEAL_EXECUTED,
    DEAL_FAILED,
    DEAL_PROPOSED,
    DEAL_WITHDRAWN,
    EXCHANGE_DONE,
    EXCHANGE_SESSION_CLOSED,
    EXCHANGE_SESSION_OPENED,
    SETTLEMENT_PROPOSED,
)
from domain.risk.constitution.moves import (
    Accept,
    ConstitutionMove,
    Decline,
    Done,
    GrantPassage,
    RevokePassage,
    Withdraw,
)
from domain.risk.state import EXCHANGE, Proposal, RiskState
from domain.turn import Turn

GIFT_MONEY = 50
"""Kopecks of the small canonical money gift listed among the legal moves (one unit's
price by default)."""


def open_session(turn: Turn[RiskState]) -> None:
    """After the last player's turn of a round the exchange session opens (seed 003,
    Art. 4: "the time after the last player's turn")."""
    turn.emit(EXCHANGE_SESSION_OPENED({"round": turn.state.round}))


def current(state: RiskState) -> list[int]:
    """The seats that may act in the session (docs/risk.md, "Exchange session"): players still in
    the game who are not done, and players who must answer a proposal addressed to them;
    ascending, empty when the session is over."""
    if state.phase != EXCHANGE:
        return []
    seats = {s for s in state.active() if s not in state.done}
    for proposal in state.proposals:
        seats.update(s for s in proposal["to"] if s not in proposal["accepted"])
    return sorted(seats)


def legal_moves(state: RiskState, seat: int) -> list[ConstitutionMove]:
    """Answers to the proposals addressed to ``seat``; unless done: withdrawing its own
    proposals, declaring done, settling with an equal split, granting or revoking passage
    to each other player and two small canonical deals with each (50 kopecks; 1 unit from
    its territory with the most units). Any other deal or settlement is legal too, but
    not listed."""
    out: list[ConstitutionMove] = []
    for proposal in state.proposals:
        if seat in proposal["to"] and seat not in proposal["accepted"]:
            out += [Accept(proposal["id"]), Decline(proposal["id"])]
    if seat in state.done:
        return out
    out += [Withdraw(p["id"]) for p in state.proposals if p["by"] == seat]
    out += [Done(), _equal_settlement(state)]
    others = [s for s in state.active() if s != seat]
    for other in others:
        granted = other in state.passage[seat]
        out.append(RevokePassage(other) if granted else GrantPassage(other))
    strongest = max(state.territories_of(seat), key=state.units.__getitem__, default=None)
    for other in others:
        if state.purse[seat] >= GIFT_MONEY:
            out.append(Propose((other,), (Transfer(seat, other, money=GIFT_MONEY),)))
        if strongest is not None and state.units[strongest] >= 2:
            out.append(Propose((other,), (Transfer(seat, other, units=((strongest, 1),)),)))
    return out


def _equal_settlement(state: RiskState) -> Settle:
    """The fund split equally among the players in the game, the remainder one kopeck each
    to the earliest in turn order."""
    active = state.active()
    base, left = divmod(state.fund, len(active))
    shares = {s: base + (1 if i < left else 0) for i, s in enumerate(active)}
    return Settle(tuple(sorted(shares.items())))


def decide(turn: Turn[RiskState], seat: int, move: object, rng: RandomStream) -> None:
    """The events of ``move`` by ``seat`` in the exchange session (docs/risk.md, "Exchange
    session"); ``IllegalMove`` if the rules do not allow it now. A seat that is done may
    only answer proposals addressed to it."""
    del rng  # nothing in the session is random
    match move:
        case Accept(number):
            _accept(turn, seat, number)
        case Decline(number):
            _proposal_to(turn.state, seat, number)
            turn.emit(DEAL_DECLINED({"id": number, "seat": seat}))
        case Withdraw() | Propose() | Settle() | GrantPassage() | RevokePassage() | Done():
            if seat in turn.state.done:
                raise IllegalMove("already-done", "You are done for this exchange session.")
            _act(turn, seat, move)
        case _:
            raise IllegalMove("wrong-phase", "That move is not one of the exchange session.")
    _close_if_over(turn)


def _act(turn: Turn[RiskState], seat: int, move: object) -> None:
    """A move of a player who is not done yet."""
    state = turn.state
    match move:
        case Withdraw(number):
            if find_proposal(state, number)["by"] != seat:
                raise IllegalMove("not-your-proposal", f"Proposal {number} is not yours.")
            turn.emit(DEAL_WITHDRAWN({"id": number}))
        case Propose(to, transfers):
            deals.check_parties(state, seat, to, transfers)
            deals.check_holdings(state, transfers, speaker=seat)
            turn.emit(
                DEAL_PROPOSED(
                    {
                        "id": state.next_proposal,
                        "by": seat,
                        "to": list(to),
                        "transfers": [deals.transfer_json(t) for t in transfers],
                    }
                )
            )
        case Settle(shares):
            _settle(turn, seat, dict(shares))
        case GrantPassage(to) | RevokePassage(to):
            corridor.consent(turn, seat, to, granting=isinstance(move, GrantPassage))
        case Done():
            turn.emit(EXCHANGE_DONE({"seat": seat}))


def find_proposal(state: RiskState, number: int) -> Proposal:
    """The open proposal ``number`` (docs/risk.md, "Exchange session"); raises
    ``IllegalMove`` when none is open."""
    for proposal in state.proposals:
        if proposal["id"] == number:
            return proposal
    raise IllegalMove("no-such-proposal", f"No proposal {number} is open.")


def _proposal_to(state: RiskState, seat: int, number: int) -> Proposal:
    proposal = find_proposal(state, number)
    if seat not in proposal["to"]:
        raise IllegalMove("not-addressed", f"Proposal {number} is not addressed to you.")
    return proposal


def _accept(turn: Turn[RiskState], seat: int, number: int) -> None:
    """docs/risk.md, "Exchange session" and "End of the game": when every addressee has accepted,
    a deal is checked again and executed (or fails, changing nothing); a settlement ends
    the game and pays out the fund."""
    proposal = _proposal_to(turn.state, seat, number)
    if seat in proposal["accepted"]:
        raise IllegalMove("already-accepted", f"You have accepted proposal {number} already.")
    turn.emit(DEAL_ACCEPTED({"id": number, "seat": seat}))
    proposal = find_proposal(turn.state, number)
    if set(proposal["accepted"]) != set(proposal["to"]):
        return
    if proposal["kind"] == "settlement":
        shares = {int(s): k for s, k in proposal["shares"].items()}
        rounds.end_game(turn, "settlement", shares)
        return
    transfers = tuple(deals.transfer_from_json(t) for t in proposal["transfers"])
    try:
        deals.check_parties(turn.state, proposal["by"], tuple(proposal["to"]), transfers)
        deals.check_holdings(turn.state, transfers, speaker=None)
    except IllegalMove as failure:
        turn.emit(DEAL_FAILED({"id": number, "reason": failure.message}))
        return
    turn.emit(DEAL_EXECUTED({"id": number, "transfers": copy_json(proposal["transfers"])}))


def _settle(turn: Turn[RiskState], seat: int, shares: dict[int, int]) -> None:
    """docs/risk.md, "End of the game": a settlement divides the whole prize fund among players
    still in the game; it is put to every other one of them."""
    state = turn.state
    active = state.active()
    for other in shares:
        if other not in active:
            raise IllegalMove("no-such-seat", f"Seat {other} is not in the game.")
    if sum(shares.values()) != state.fund:
        raise IllegalMove(
            "shares-do-not-add-up", f"The shares must add up to the fund, {state.fund} kopecks."
        )
    turn.emit(
        SETTLEMENT_PROPOSED(
            {
                "id": state.next_proposal,
                "by": seat,
                "to": sorted(s for s in active if s != seat),
                "shares": {str(s): k for s, k in sorted(shares.items())},
            }
        )
    )


def _close_if_over(turn: Turn[RiskState]) -> None:
    """docs/risk.md, "Exchange session": the session ends when every player in the game is done
    (and no proposal waits for an answer); the next round starts."""
    state = turn.state
    if state.phase != EXCHANGE or state.proposals:
        return
    if all(s in state.done for s in state.active()):
        turn.emit(EXCHANGE_SESSION_CLOSED({"round": state.round}))
        rounds.start_round(turn, state.round + 1)
