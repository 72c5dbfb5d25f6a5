"""The reinforcement phase of a player's turn (docs/risk.md, "Reinforcement phase";
seed 003, Art. 12): reinforcements are received (territories / 3, whole continents, units
transferred in the exchange session), trophy cards are traded for the golden horse's bonus,
units are bought (the price paid into the prize fund: "Money"), the reserve is placed on own
territories and units are moved along routes of own and consenting allies' territories
("Moving units"); the turn then passes on, and after the last
player's turn the exchange session opens (seed 003, Art. 13).

Events: ``ReinforcementsReceived``, ``CardsTraded``, ``UnitsBought``, ``UnitsMoved``; shared
with classic Risk: ``UnitsPlaced`` and ``TurnEnded`` (:mod:`domain.risk.rounds`).
"""

from __future__ import annotations

from typing import Final

from domain.protocol import IllegalMove
from domain.randomness import RandomStream
from domain.risk import rounds
from domain.risk.common_moves import EndTurn, Place, Trade
from domain.risk.constitution import exchange, golden_horse
from domain.risk.constitution.corridor import reachable, route
from domain.risk.constitution.events import (
    CARDS_TRADED,
    REINFORCEMENTS_RECEIVED,
    UNITS_BOUGHT,
    UNITS_MOVED,
)
from domain.risk.constitution.moves import Buy, ConstitutionMove, Move
from domain.risk.state import RiskState
from domain.risk.worldmap import WORLD_MAP
from domain.turn import Turn


def start_reinforcement(turn: Turn[RiskState]) -> None:
    """The current player receives reinforcements (docs/risk.md, "Reinforcement phase" items 1, 3
    and 5): territories held / 3 rounded down (no minimum of 3), each whole continent's
    bonus, and the units transferred in the last exchange session."""
    state = turn.state
    seat = state.seat
    held = set(state.territories_of(seat))
    continents = {c.code: c.bonus for c in WORLD_MAP.continents if held.issuperset(c.territories)}
    territories = len(held) // 3
    deals = state.incoming[seat]
    turn.emit(
        REINFORCEMENTS_RECEIVED(
            {
                "seat": seat,
                "territories": territories,
                "continents": continents,
                "deals": deals,
                "total": territories + sum(continents.values()) + deals,
            }
        )
    )


def movable(state: RiskState, territory: str) -> int:
    """Units that may still leave ``territory`` this turn: one always stays, and a unit
    moves at most once per turn (docs/risk.md, "Moving units", **decision**)."""
    return state.units[territory] - 1 - state.moved.get(territory, 0)


def may_end_turn(state: RiskState, seat: int) -> bool:
    """Whether ``seat`` may end its turn: every reinforcement is placed (docs/risk.md, "A
    player's turn")."""
    return state.reserve[seat] == 0


READY: Final[dict[object, ConstitutionMove]] = {}
"""Ready-made moves of the listing (moves are immutable values), by their fields: a server
lists the same few hundred moves over and over (as Carcassonne keeps its placements)."""
READY_LIMIT: Final = 100_000


def _ready(key: tuple[str, str, int] | tuple[str, int] | int) -> ConstitutionMove:
    """The move with these fields: ``(source, target, units)`` a :class:`Move`,
    ``(territory, units)`` a :class:`Place`, ``units`` a :class:`Buy`; made once."""
    if len(READY) >= READY_LIMIT:
        READY.clear()
    if isinstance(key, int):
        move: ConstitutionMove = Buy(key)
    elif len(key) == 3:
        move = Move(*key)
    else:
        move = Place((key,))
    READY[key] = move
    return move


def legal_moves(state: RiskState, seat: int) -> list[ConstitutionMove]:
    """Every trade of a set, every affordable purchase (from the buying round on), placing 1
    or the whole reserve on each own territory, moving 1 or every movable unit along each
    route, and ending the turn once the reserve is placed (docs/risk.md, "Reinforcement phase").
    Splitting a placement or moving other amounts is legal too, but not listed."""
    out: list[ConstitutionMove] = [Trade(s) for s in golden_horse.sets_in(state.hands[seat])]
    ready = READY
    if state.round >= state.options["buy_from_round"]:
        affordable = state.purse[seat] // state.options["unit_price"]
        out += [ready.get(n) or _ready(n) for n in range(1, affordable + 1)]
    own = state.territories_of(seat)
    targets = reachable(state, seat)
    reserve = state.reserve[seat]
    amounts = (1,) if reserve == 1 else (1, reserve)
    for territory in own if reserve else []:
        out += [ready.get((territory, n)) or _ready((territory, n)) for n in amounts]
    for source in own:
        free = movable(state, source)
        if free < 1:
            continue
        counts = (1,) if free == 1 else (1, free)
        for target in targets[source]:
            out += [ready.get((source, target, n)) or _ready((source, target, n)) for n in counts]
    if may_end_turn(state, seat):
        out.append(EndTurn())
    return out


def decide(turn: Turn[RiskState], seat: int, move: object, rng: RandomStream) -> None:
    """The events of ``move`` by the current player in the reinforcement phase (docs/risk.md,
    "Reinforcement phase"); ``IllegalMove`` if the rules do not allow it now."""
    del rng  # nothing in this phase is random
    match move:
        case Trade(traded):
            _trade(turn, seat, traded)
        case Buy(units):
            _buy(turn, seat, units)
        case Place(units):
            rounds.place_reserve(turn, seat, dict(units))
        case Move(source, target, units):
            _move(turn, seat, source, target, units)
        case EndTurn():
            _end_turn(turn, seat)
        case _:
            raise IllegalMove("wrong-phase", "That move is not one of the reinforcement phase.")


def _trade(turn: Turn[RiskState], seat: int, traded: tuple[str, str, str]) -> None:
    """docs/risk.md, "Reinforcement phase" item 2: three own cards with one unit symbol or one
    colour (a wild card stands for any) give the horse's bonus; the horse moves on and from
    the last position returns to the first (15 -> 4)."""
    state = turn.state
    for card in traded:
        if card not in state.hands[seat]:
            raise IllegalMove("not-your-card", f"You do not hold the card {card}.")
    if not golden_horse.is_set(traded):
        raise IllegalMove(
            "not-a-set", "Three cards must share a unit symbol or a colour (wild cards count)."
        )
    track: list[int] = state.options["golden_horse"]
    turn.emit(
        CARDS_TRADED(
            {
                "seat": seat,
                "cards": list(traded),
                "bonus": golden_horse.horse_bonus(state),
                "horse": (state.horse + 1) % len(track),
            }
        )
    )


def _buy(turn: Turn[RiskState], seat: int, units: int) -> None:
    """docs/risk.md, "Reinforcement phase" item 4 and "Money": units cost ``unit_price``
    kopecks each from the player's purse, paid into the prize fund, from round
    ``buy_from_round`` on ("after 2 rounds")."""
    state = turn.state
    first = state.options["buy_from_round"]
    if state.round < first:
        raise IllegalMove("buying-not-yet", f"Units may be bought from round {first} on.")
    cost = units * state.options["unit_price"]
    if cost > state.purse[seat]:
        raise IllegalMove(
            "not-enough-money", f"{units} units cost {cost} kopecks; you have {state.purse[seat]}."
        )
    turn.emit(UNITS_BOUGHT({"seat": seat, "units": units, "cost": cost}))


def _move(turn: Turn[RiskState], seat: int, source: str, target: str, units: int) -> None:
    """docs/risk.md, "Moving units": units move between own territories along a route of own
    and consenting allies' territories; **decision:** a territory keeps 1 unit and a unit
    moves at most once per turn."""
    state = turn.state
    for territory in (source, target):
        if state.owner.get(territory) != seat:
            raise IllegalMove("not-your-territory", f"You do not hold {territory}.")
    if source == target:
        raise IllegalMove("same-territory", "Units move from one territory to another.")
    if units > state.units[source] - 1:
        raise IllegalMove("must-leave-one", f"{source} must keep at least 1 unit.")
    if units > movable(state, source):
        raise IllegalMove(
            "unit-moves-once",
            f"Only {movable(state, source)} units of {source} have not moved this turn.",
        )
    path = route(state, seat, source, target)
    if path is None:
        raise IllegalMove(
            "no-route",
            f"No chain of your own or consenting allies' territories joins {source} to {target}.",
        )
    turn.emit(
        UNITS_MOVED({"seat": seat, "from": source, "to": target, "units": units, "path": path})
    )


def _end_turn(turn: Turn[RiskState], seat: int) -> None:
    """docs/risk.md, "A player's turn": the turn ends once every reinforcement is placed; the next
    player still in the game takes a turn, and after the last one in turn order the
    exchange session opens (seed 003, Art. 4 "round", Art. 13)."""
    state = turn.state
    if not may_end_turn(state, seat):
        raise IllegalMove(
            "reserve-not-placed", f"Place your {state.reserve[seat]} reserve units first."
        )
    rounds.end_turn(turn, seat)
    after = turn.state
    later = after.order[after.order.index(seat) + 1 :]
    following = [s for s in later if s not in after.eliminated]
    if following:
        rounds.start_turn(turn, following[0])
    else:
        exchange.open_session(turn)
