"""Deals of the exchange session (docs/risk.md, "Exchange session"; seed 003,
Art. 13): the parties give, swap or sell territories (with every unit on them), trophy
cards, units (delivered as reinforcements at the receiver's next reinforcement phase, seed
003, Art. 12 item 5) and money. This module checks that a deal can be carried out now and
says how executing it changes the state; :mod:`domain.risk.constitution.exchange` runs the session.

A deal is checked when proposed and again when the last party accepts it; nothing changes
hands before that. Hidden information: whether another player holds a card is never told
to anyone -- a proposal is refused only for cards the *proposer* does not hold, and a deal
that fails at execution says only that a card offered is not held.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import cast

from domain.protocol import IllegalMove
from domain.risk import cards
from domain.risk.constitution.deal_moves import Transfer
from domain.risk.move_json import TransferRecord
from domain.risk.state import RiskState

HIDDEN_CARD = "A card offered in the deal is not held by its giver."
"""The only thing said when a card is missing from a hand the speaker may not see."""


def transfer_json(transfer: Transfer) -> TransferRecord:
    """A transfer as recorded in ``DealProposed``/``DealExecuted`` (docs/risk.md, "Hidden
    information"): its JSON form plus ``card_count`` when it gives cards (so a view can hide
    the names but show the count)."""
    out = cast(TransferRecord, transfer.to_json())
    if transfer.cards:
        out["card_count"] = len(transfer.cards)
    return out


def transfer_from_json(data: Mapping[str, object]) -> Transfer:
    """The transfer recorded by :func:`transfer_json`."""
    return Transfer.from_json({k: v for k, v in data.items() if k != "card_count"})


def check_parties(
    state: RiskState, by: int, to: tuple[int, ...], transfers: tuple[Transfer, ...]
) -> None:
    """docs/risk.md, "Exchange session": a deal is between the proposer and the seats it is
    addressed to -- other players still in the game -- and each of them takes part in
    some transfer; no transfer involves anyone else."""
    active = state.active()
    for seat in to:
        if seat == by or seat not in active:
            raise IllegalMove(
                "not-a-party", f"A deal is addressed to other players in the game, not {seat}."
            )
    parties = {by, *to}
    for transfer in transfers:
        if transfer.giver not in parties or transfer.receiver not in parties:
            raise IllegalMove(
                "not-a-party", "Every transfer must be between the proposer and the addressees."
            )
    involved = {t.giver for t in transfers} | {t.receiver for t in transfers}
    for seat in to:
        if seat not in involved:
            raise IllegalMove("not-a-party", f"Seat {seat} gives or receives nothing.")


def check_holdings(
    state: RiskState, transfers: tuple[Transfer, ...], speaker: int | None = None
) -> None:
    """docs/risk.md, "Exchange session": each giver holds now what it gives -- its territories,
    cards in its hand, units leaving at least 1 on each territory (**decision**, as in the
    reinforcement phase), money within its purse -- and no party is left without a
    territory. Cards are checked only for ``speaker`` (the proposer, who may be told about
    its own hand) or, with ``speaker=None``, for everyone with a message naming no card."""
    territories: Counter[str] = Counter()
    units: Counter[tuple[int, str]] = Counter()
    money: Counter[int] = Counter()
    given_cards: Counter[str] = Counter()
    for t in transfers:
        territories.update(t.territories)
        given_cards.update(t.cards)
        money[t.giver] += t.money
        for territory, n in t.units:
            units[t.giver, territory] += n
        for territory in (*t.territories, *(name for name, _ in t.units)):
            if state.owner.get(territory) != t.giver:
                raise IllegalMove(
                    "not-your-territory", f"Seat {t.giver} does not hold {territory}."
                )
        _check_cards(state, t, speaker)
    if any(n > 1 for n in territories.values()) or any(n > 1 for n in given_cards.values()):
        raise IllegalMove("given-twice", "A deal gives each territory and card only once.")
    for (giver, territory), n in sorted(units.items()):
        if n > state.units[territory] - 1:
            raise IllegalMove(
                "must-leave-one", f"Seat {giver} must keep at least 1 unit on {territory}."
            )
    for giver, amount in sorted(money.items()):
        if amount > state.purse[giver]:
            raise IllegalMove("not-enough-money", f"Seat {giver} has {state.purse[giver]} kopecks.")
    _check_territory_left(state, transfers)


def _check_cards(state: RiskState, transfer: Transfer, speaker: int | None) -> None:
    catalogue = set(cards.all_cards())
    for card in transfer.cards:
        if card not in catalogue:
            raise IllegalMove("no-such-card", f"There is no trophy card {card}.")
        if card in state.hands[transfer.giver]:
            continue
        if speaker is None:
            raise IllegalMove("not-your-card", HIDDEN_CARD)
        if transfer.giver == speaker:
            raise IllegalMove("not-your-card", f"You do not hold the card {card}.")


def _check_territory_left(state: RiskState, transfers: tuple[Transfer, ...]) -> None:
    counts = Counter(state.owner.values())
    for t in transfers:
        counts[t.giver] -= len(t.territories)
        counts[t.receiver] += len(t.territories)
    for t in transfers:
        for seat in (t.giver, t.receiver):
            if counts[seat] < 1:
                raise IllegalMove(
                    "deal-leaves-no-territory", f"The deal would leave seat {seat} no territory."
                )


def execute(state: RiskState, transfers: list[TransferRecord]) -> None:
    """Carry out a deal (docs/risk.md, "Exchange session"): territories change owner with every
    unit on them, cards go from hand to hand, units leave the giver's territories and wait
    in the receiver's ``incoming`` for its next reinforcement phase, money goes from purse
    to purse."""
    for data in transfers:
        t = transfer_from_json(data)
        for territory in t.territories:
            state.owner[territory] = t.receiver
        for card in t.cards:
            state.hands[t.giver].remove(card)
            state.hands[t.receiver].append(card)
        for territory, n in t.units:
            state.units[territory] -= n
            state.incoming[t.receiver] += n
        state.purse[t.giver] -= t.money
        state.purse[t.receiver] += t.money
