"""How the Constitution's own events change the state (docs/risk.md, "Invasion phase",
"Reinforcement phase", "Exchange session"; docs/risk.md, "Rooms"): one handler per event of
:mod:`domain.risk.constitution.events`; :data:`domain.risk.evolve.EVENTS` binds them. The
phase modules (invasion, reinforcement, exchange, corridor) only emit the events.
"""

from __future__ import annotations

from domain.jsonvalue import copy_json
from domain.risk import cards
from domain.risk.constitution import deals
from domain.risk.constitution.events import (
    BattleResolved,
    CardsTraded,
    DealAccepted,
    DealDeclined,
    DealExecuted,
    DealFailed,
    DealProposed,
    DealWithdrawn,
    DiceRolled,
    ExchangeDone,
    ExchangeSessionClosed,
    ExchangeSessionOpened,
    InvasionStarted,
    InvasionStopped,
    PassageGranted,
    PassageRevoked,
    ReinforcementsReceived,
    SettlementProposed,
    TerritoryCaptured,
    UnitsBought,
    UnitsMoved,
)
from domain.risk.constitution.exchange import find_proposal
from domain.risk.state import EXCHANGE, REINFORCEMENT, RiskState

# Passage (docs/risk.md, "Moving units", "Exchange session")


def passage_granted(state: RiskState, data: PassageGranted) -> None:
    """docs/risk.md, "Moving units": the ally lets seat ``to`` through, until revoked."""
    state.passage[data["seat"]] = sorted({*state.passage[data["seat"]], data["to"]})


def passage_revoked(state: RiskState, data: PassageRevoked) -> None:
    """docs/risk.md, "Moving units": the ally withdraws its consent."""
    state.passage[data["seat"]] = [s for s in state.passage[data["seat"]] if s != data["to"]]


# The exchange session (docs/risk.md, "Exchange session")


def exchange_session_opened(state: RiskState, data: ExchangeSessionOpened) -> None:
    """docs/risk.md, "Exchange session": the session opens with no proposal and nobody done."""
    del data
    state.phase = EXCHANGE
    state.done = []
    state.proposals = []


def deal_proposed(state: RiskState, data: DealProposed) -> None:
    """docs/risk.md, "Exchange session": the deal waits for its addressees' answers."""
    state.proposals.append(
        {
            "id": data["id"],
            "by": data["by"],
            "kind": "deal",
            "to": list(data["to"]),
            "accepted": [],
            "transfers": copy_json(data["transfers"]),
        }
    )
    state.next_proposal = data["id"] + 1


def settlement_proposed(state: RiskState, data: SettlementProposed) -> None:
    """docs/risk.md, "End of the game": the settlement waits for every other player's answer."""
    state.proposals.append(
        {
            "id": data["id"],
            "by": data["by"],
            "kind": "settlement",
            "to": list(data["to"]),
            "accepted": [],
            "shares": dict(data["shares"]),
        }
    )
    state.next_proposal = data["id"] + 1


def deal_accepted(state: RiskState, data: DealAccepted) -> None:
    """docs/risk.md, "Exchange session": one more addressee has accepted."""
    find_proposal(state, data["id"])["accepted"].append(data["seat"])


def _remove(state: RiskState, number: int) -> None:
    state.proposals = [p for p in state.proposals if p["id"] != number]


def deal_executed(state: RiskState, data: DealExecuted) -> None:
    """docs/risk.md, "Exchange session": the deal is carried out and closed."""
    deals.execute(state, data["transfers"])
    _remove(state, data["id"])


def deal_failed(state: RiskState, data: DealFailed) -> None:
    """docs/risk.md, "Exchange session": a deal that cannot be carried out closes unchanged."""
    _remove(state, data["id"])


def deal_declined(state: RiskState, data: DealDeclined) -> None:
    """docs/risk.md, "Exchange session": a declined proposal is closed."""
    _remove(state, data["id"])


def deal_withdrawn(state: RiskState, data: DealWithdrawn) -> None:
    """docs/risk.md, "Exchange session": a withdrawn proposal is closed."""
    _remove(state, data["id"])


def exchange_done(state: RiskState, data: ExchangeDone) -> None:
    """docs/risk.md, "Exchange session": the seat is done for this session."""
    state.done.append(data["seat"])


def exchange_session_closed(state: RiskState, data: ExchangeSessionClosed) -> None:
    """The session's record closes; the next ``RoundStarted`` resets it."""
    del state, data


# The reinforcement phase (docs/risk.md, "Reinforcement phase", "Moving units")


def reinforcements_received(state: RiskState, data: ReinforcementsReceived) -> None:
    """docs/risk.md, "Reinforcement phase": the reserve grows; units from deals were already
    in play (in ``incoming``)."""
    seat = data["seat"]
    state.phase = REINFORCEMENT
    state.reserve[seat] += data["total"]
    state.units_in += data["total"] - data["deals"]
    state.incoming[seat] = 0


def cards_traded(state: RiskState, data: CardsTraded) -> None:
    """docs/risk.md, "Reinforcement phase" item 2: the set turned in, the horse moved on."""
    cards.turn_in(state, data["seat"], data["cards"], data["bonus"])
    state.horse = data["horse"]


def units_bought(state: RiskState, data: UnitsBought) -> None:
    """docs/risk.md, "Money": the price goes from the purse into the prize fund."""
    seat = data["seat"]
    state.purse[seat] -= data["cost"]
    state.fund += data["cost"]
    state.reserve[seat] += data["units"]
    state.units_in += data["units"]


def units_moved(state: RiskState, data: UnitsMoved) -> None:
    """docs/risk.md, "Moving units": a moved unit moves at most once per turn."""
    n = data["units"]
    state.units[data["from"]] -= n
    state.units[data["to"]] += n
    state.moved[data["to"]] = state.moved.get(data["to"], 0) + n


# The invasion phase (docs/risk.md, "Invasion phase", "A battle")


def invasion_started(state: RiskState, data: InvasionStarted) -> None:
    """docs/risk.md, "Invasion phase": the source launches its one invasion of the turn."""
    state.launched.append(data["from"])
    state.invasion = {
        "from": data["from"],
        "to": data["to"],
        "attackers": 0,
        "defenders": 0,
        "lost": [0, 0],
    }


def dice_rolled(state: RiskState, data: DiceRolled) -> None:
    """docs/risk.md, "A battle": the losses of one roll; the engaged units still alive."""
    a_loss, d_loss = data["attacker_losses"], data["defender_losses"]
    state.units[data["from"]] -= a_loss
    state.units[data["to"]] -= d_loss
    state.units_lost += a_loss + d_loss
    if state.invasion is not None:
        state.invasion["attackers"] = data["attackers"] - a_loss
        state.invasion["defenders"] = data["defenders"] - d_loss
        lost = state.invasion.get("lost", [0, 0])
        state.invasion["lost"] = [lost[0] + a_loss, lost[1] + d_loss]


def battle_resolved(state: RiskState, data: BattleResolved) -> None:
    """docs/risk.md, "A battle": the next battle of the invasion engages units afresh."""
    del data
    if state.invasion is not None:
        state.invasion.update({"attackers": 0, "defenders": 0, "lost": [0, 0]})


def territory_captured(state: RiskState, data: TerritoryCaptured) -> None:
    """docs/risk.md, "Invasion phase": exactly one unit moves in; the invasion is over."""
    state.units[data["from"]] -= 1
    state.units[data["to"]] += 1
    state.owner[data["to"]] = data["seat"]
    state.captured.append(data["to"])
    state.invasion = None


def invasion_stopped(state: RiskState, data: InvasionStopped) -> None:
    """docs/risk.md, "Invasion phase": the invasion ends without capture."""
    del data
    state.invasion = None
