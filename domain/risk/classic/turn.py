"""A classic turn's frame (docs/risk.md, "Classic Risk"): reinforcements at the
start, placing them, the one fortify move and the end of the turn.

* A turn starts with reinforcements: the territories held / 3 rounded down, at least 3, plus
  the bonus of each whole continent held (phase ``reinforcement``). Sets of cards add more
  (:mod:`domain.risk.classic.cards`).
* The reserve is placed on own territories; once it is all placed the attack phase begins
  by itself (phase ``invasion``, :mod:`domain.risk.classic.battle`). Units received from a
  forced trade in the attack phase are placed there before attacking on.
* After the attacks, one fortify move: units from one own territory to another connected
  to it through own territories, leaving at least 1 (**decision**); the fortify move ends the
  turn, or the player ends it without one (``EndTurn``).
* At the end of a turn with a conquest the player draws one card; the next player still in
  the game takes a turn, and after the last one in turn order the next round begins (no
  exchange session, no money, no golden horse in the classic ruleset).

Events: ``ClassicReinforcements``, ``AttackPhaseStarted``, ``Fortified``; shared:
``UnitsPlaced``, ``TurnStarted``, ``RoundStarted`` and ``TurnEnded`` (a record only;
:mod:`domain.risk.rounds`).
"""

from __future__ import annotations

from collections import deque
from typing import Final

from domain.protocol import IllegalMove
from domain.randomness import RandomStream
from domain.risk import rounds
from domain.risk.cards import draw_trophy
from domain.risk.classic.cards import must_trade
from domain.risk.classic.events import (
    ATTACK_PHASE_STARTED,
    CLASSIC_REINFORCEMENTS,
    FORTIFIED,
)
from domain.risk.classic.moves import ClassicMove, Fortify
from domain.risk.common_moves import Place
from domain.risk.events import TURN_STARTED
from domain.risk.state import REINFORCEMENT, RiskState
from domain.risk.worldmap import WORLD_MAP
from domain.turn import Turn

MINIMUM_REINFORCEMENTS: Final = 3
"""docs/risk.md, "Classic Risk": territories / 3, but never fewer than 3."""


def start_turn(turn: Turn[RiskState]) -> None:
    """docs/risk.md, "Classic Risk" (reinforce): the seat whose ``TurnStarted`` was just emitted
    receives max(3, territories // 3) plus each whole continent's bonus and begins its
    reinforcement phase. Does nothing unless the last event emitted is ``TurnStarted``, so
    calling it twice is harmless."""
    if not turn.events or turn.events[-1].type != TURN_STARTED.name:
        return
    state = turn.state
    seat = state.seat
    held = set(state.territories_of(seat))
    continents = {c.code: c.bonus for c in WORLD_MAP.continents if held.issuperset(c.territories)}
    territories = max(MINIMUM_REINFORCEMENTS, len(held) // 3)
    turn.emit(
        CLASSIC_REINFORCEMENTS(
            {
                "seat": seat,
                "territories": territories,
                "continents": continents,
                "total": territories + sum(continents.values()),
            }
        )
    )


def place_moves(state: RiskState, seat: int) -> list[ClassicMove]:
    """Placing 1 or the whole reserve on each own territory in map order, unless a trade must
    come first (splitting the reserve otherwise is legal too, but not listed)."""
    reserve = state.reserve[seat]
    if not reserve or must_trade(state, seat):
        return []
    return [
        Place(((territory, n),))
        for territory in state.territories_of(seat)
        for n in sorted({1, reserve})
    ]


def place(turn: Turn[RiskState], seat: int, units: dict[str, int]) -> None:
    """docs/risk.md, "Classic Risk": the reserve goes onto own territories, after any trade the
    player must make (**decision**); once the reinforcement phase's reserve is all placed the
    attack phase begins."""
    state = turn.state
    if must_trade(state, seat):
        raise IllegalMove("must-trade", "Trade a set first: you hold too many cards.")
    rounds.place_reserve(turn, seat, units)
    after = turn.state
    if after.phase == REINFORCEMENT and after.reserve[seat] == 0:
        turn.emit(ATTACK_PHASE_STARTED({"seat": seat}))


def connected(state: RiskState, seat: int, source: str) -> list[str]:
    """The own territories reachable from ``source`` through own territories, in map order
    (``source`` itself left out)."""
    seen = {source}
    queue = deque([source])
    while queue:
        here = queue.popleft()
        for there in WORLD_MAP.territory(here).neighbours:
            if there not in seen and state.owner.get(there) == seat:
                seen.add(there)
                queue.append(there)
    return [t for t in state.owner if t in seen and t != source]


def fortify_moves(state: RiskState, seat: int) -> list[ClassicMove]:
    """Fortifying 1 or every movable unit between each connected pair of own territories
    (other amounts are legal too, but not listed)."""
    out: list[ClassicMove] = []
    for source in state.territories_of(seat):
        free = state.units[source] - 1
        if free < 1:
            continue
        for target in connected(state, seat, source):
            out.extend(Fortify(source, target, n) for n in sorted({1, free}))
    return out


def fortify(turn: Turn[RiskState], seat: int, move: Fortify, rng: RandomStream) -> None:
    """docs/risk.md, "Classic Risk": one fortify move, from one own territory to another
    connected through own territories, leaving at least 1 (**decision**); it ends the turn."""
    state = turn.state
    for territory in (move.source, move.target):
        if state.owner.get(territory) != seat:
            raise IllegalMove("not-your-territory", f"You do not hold {territory}.")
    if move.source == move.target:
        raise IllegalMove("same-territory", "Units move from one territory to another.")
    if move.units > state.units[move.source] - 1:
        raise IllegalMove("must-leave-one", f"{move.source} must keep at least 1 unit.")
    if move.target not in connected(state, seat, move.source):
        raise IllegalMove(
            "not-connected", f"{move.target} is not connected to {move.source} by your lands."
        )
    turn.emit(
        FORTIFIED({"seat": seat, "from": move.source, "to": move.target, "units": move.units})
    )
    end_turn(turn, seat, rng)


def end_turn(turn: Turn[RiskState], seat: int, rng: RandomStream) -> None:
    """docs/risk.md, "Classic Risk": a card for a turn with a conquest; then the next player
    still in the game in turn order, and after the last one the next round (no exchange
    session in the classic ruleset)."""
    state = turn.state
    if state.captured:
        draw_trophy(turn, seat, rng)
    rounds.end_turn(turn, seat)
    after = turn.state
    later = [s for s in after.order[after.order.index(seat) + 1 :] if s not in after.eliminated]
    if later:
        rounds.start_turn(turn, later[0])
    else:
        rounds.start_round(turn, after.round + 1)
    start_turn(turn)
