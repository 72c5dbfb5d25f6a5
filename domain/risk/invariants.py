"""The conservation laws of Risk, checked after every event by the conformance run
(docs/risk.md, "Invariants"): units, cards and money are never created or lost except by the
rules that create or destroy them. Money is only ever in the purses and the prize fund
(docs/risk.md, "Money"): their sum is what the players brought, stake plus purse each."""

from __future__ import annotations

from collections import Counter

from domain.risk.cards import all_cards
from domain.risk.state import COLOURS, OVER, RiskState


def check_invariants(state: RiskState) -> list[str]:
    """One sentence per violated law, empty when the state is sound."""
    if state.phase == COLOURS and not state.owner:
        return []
    return _units(state) + _cards(state) + _money(state) + _map(state)


def _units(state: RiskState) -> list[str]:
    problems: list[str] = []
    in_play = sum(state.units.values()) + sum(state.reserve) + sum(state.incoming)
    if in_play != state.units_in - state.units_lost:
        problems.append(
            f"units not conserved: {in_play} in play, {state.units_in} entered play and "
            f"{state.units_lost} were lost"
        )
    if any(n < 0 for n in [*state.reserve, *state.incoming]):
        problems.append("a reserve or incoming count is negative")
    return problems


def _cards(state: RiskState) -> list[str]:
    seen = Counter(c for hand in state.hands for c in hand) + Counter(state.discard)
    problems = [f"card {c} is held {n} times" for c, n in seen.items() if n > 1]
    unknown = set(seen) - set(all_cards())
    if unknown:
        problems.append(f"unknown cards {sorted(unknown)}")
    for seat in state.eliminated:
        if state.hands[seat]:
            problems.append(f"eliminated seat {seat} still holds cards")
    return problems


def _money(state: RiskState) -> list[str]:
    total = sum(state.purse) + state.fund
    if total == 0 and state.phase == COLOURS:
        return []  # the opening has not paid the money in yet
    expected = state.players * (state.options["stake"] + state.options["purse"])
    problems = [] if total == expected else [f"money not conserved: {total} != {expected}"]
    if any(amount < 0 for amount in [*state.purse, state.fund]):
        problems.append("a purse or the fund is negative")
    if state.phase == OVER and state.result is not None and state.result["reason"] and state.fund:
        problems.append("the game ended with money left in the prize fund")
    return problems


def _map(state: RiskState) -> list[str]:
    target = state.invasion["to"] if state.invasion is not None else None
    problems = [
        f"{t} holds {n} units"
        for t, n in state.units.items()
        if n < 0 or (n == 0 and t != target)  # a conquered territory is empty until entered
    ]
    for seat in state.eliminated:
        if state.territories_of(seat):
            problems.append(f"eliminated seat {seat} still holds territories")
    return problems
