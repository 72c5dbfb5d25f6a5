"""Setting up a game of Risk, both rulesets (docs/risk.md, "Setup"; seed 003, Articles 5-9): the
turn order by dice (ties re-rolled among the tied), the territory cards dealt into one pile
per player (one unit on each territory), the starting units and the prize fund; then the
phase ``colours`` (colours chosen in turn order) and the phase ``placement`` (starting units
placed in turn order, ``placement_step`` at a time), after which round 1 begins.

Events: ``OrderRolled``, ``TurnOrderDecided``, ``TerritoriesDealt``, ``PrizeFundPaid``
(the opening, :func:`begin`), ``ColourChosen``, ``PlacementTurn``; the placement itself is
:mod:`domain.risk.rounds`' ``UnitsPlaced``.
"""

from __future__ import annotations

from domain.protocol import IllegalMove
from domain.randomness import RandomStream
from domain.risk import rounds
from domain.risk.common_moves import COLOURS, Colour, Place
from domain.risk.events import (
    COLOUR_CHOSEN,
    ORDER_ROLLED,
    PLACEMENT_TURN,
    PRIZE_FUND_PAID,
    TERRITORIES_DEALT,
    TURN_ORDER_DECIDED,
)
from domain.risk.state import COLOURS as COLOURS_PHASE
from domain.risk.state import PLACEMENT, RiskState
from domain.risk.worldmap import WORLD_MAP
from domain.turn import Turn

DIE_FACES = 6
NEUTRAL = -1
"""The neutral army's owner number in a two-player classic game."""


def begin(turn: Turn[RiskState], rng: RandomStream) -> None:
    """The opening (docs/risk.md, "Setup"): the turn order by dice (seed 003 Art. 6), the
    territories dealt (Art. 5), the starting units (Art. 7) and the prize fund paid (Art. 9).
    The phase stays ``colours``: the first in turn order chooses a colour first."""
    if turn.state.order:
        raise IllegalMove("already-begun", "The game has already begun.")
    order = _decide_order(turn, list(range(turn.state.players)), rng)
    turn.emit(TURN_ORDER_DECIDED({"order": order}))
    _deal(turn, rng)
    opts = turn.state.options
    turn.emit(PRIZE_FUND_PAID({"stake": opts["stake"], "purse": opts["purse"]}))


def _decide_order(turn: Turn[RiskState], seats: list[int], rng: RandomStream) -> list[int]:
    """The order of ``seats`` by one die each, highest first; the seats of each tie roll again
    among themselves (seed 003 Art. 6), highest tie first, until every place is decided."""
    rolls = [[seat, rng.below(DIE_FACES) + 1] for seat in seats]
    turn.emit(ORDER_ROLLED({"rolls": rolls, "random_position": rng.position}))
    order: list[int] = []
    for value in sorted({die for _, die in rolls}, reverse=True):
        tied = [seat for seat, die in rolls if die == value]
        order += tied if len(tied) == 1 else _decide_order(turn, tied, rng)
    return order


def deal_piles(state: RiskState) -> list[int]:
    """The owners of the deal's piles: the seats in turn order; with ``ruleset: classic``
    and two players a third pile for the neutral army, owner -1, which places nothing more
    (docs/risk.md, "Classic Risk")."""
    if state.options.get("ruleset") == "classic" and state.players == 2:
        return [*state.order, NEUTRAL]
    return list(state.order)


def _deal(turn: Turn[RiskState], rng: RandomStream) -> None:
    """The 42 territory cards shuffled (map order in) and dealt one at a time in turn order,
    so earlier players may get one more (docs/risk.md, "Setup"; seed 003 Art. 5)."""
    piles = deal_piles(turn.state)
    cards = rng.shuffle([t.name for t in WORLD_MAP.territories])
    dealt = {card: piles[i % len(piles)] for i, card in enumerate(cards)}
    owners = {t.name: dealt[t.name] for t in WORLD_MAP.territories}
    turn.emit(TERRITORIES_DEALT({"owners": owners, "random_position": rng.position}))


def current(state: RiskState) -> int | None:
    """The seat to act in a setup phase: in ``colours`` the next in turn order without a
    colour, in ``placement`` ``order[turn]``; ``None`` outside these phases."""
    if state.phase == COLOURS_PHASE:
        chosen = sum(1 for c in state.colours if c is not None)
        return state.order[chosen] if chosen < len(state.order) else None
    if state.phase == PLACEMENT:
        return state.seat
    return None


def placement_due(state: RiskState, seat: int) -> int:
    """Units ``seat`` must place now: the step, or what is left of the reserve (rules,
    "Setup": 3 at a time, the step a game option)."""
    step: int = state.options["placement_step"]
    return min(step, state.reserve[seat])


def legal_moves(state: RiskState, seat: int) -> list[Colour | Place]:
    """In ``colours`` every free colour (seed 003 Art. 6); in ``placement`` the whole step on
    each own territory, in map order (docs/risk.md, "Setup"). Splitting the step over several own
    territories is legal too but not listed, to keep the list short."""
    if current(state) != seat:
        return []
    if state.phase == COLOURS_PHASE:
        return [Colour(c) for c in COLOURS if c not in state.colours]
    due = placement_due(state, seat)
    if due == 0:
        return []
    return [Place(((t, due),)) for t in state.territories_of(seat)]


def decide(turn: Turn[RiskState], seat: int, move: object, rng: RandomStream) -> None:
    """The events of ``seat`` choosing a colour or placing starting units (docs/risk.md,
    "Setup"); ``IllegalMove`` when the move does not fit. No randomness."""
    del rng  # setup moves draw nothing
    state = turn.state
    if current(state) != seat:
        raise IllegalMove("not-your-turn", "It is not your turn to act.")
    if state.phase == COLOURS_PHASE and isinstance(move, Colour):
        _choose_colour(turn, seat, move)
    elif state.phase == PLACEMENT and isinstance(move, Place):
        _place(turn, seat, move)
    else:
        raise IllegalMove("wrong-phase", f"That move is not allowed in the {state.phase} phase.")


def _choose_colour(turn: Turn[RiskState], seat: int, move: Colour) -> None:
    """A colour chosen in turn order, each colour once (seed 003 Arts. 4, 6); after the last
    choice the placement begins (Art. 7), or round 1 if there is nothing to place."""
    if move.colour not in COLOURS:
        raise IllegalMove("unknown-colour", f"Choose one of {', '.join(COLOURS)}.")
    if move.colour in turn.state.colours:
        raise IllegalMove("colour-taken", f"The colour {move.colour} is already taken.")
    turn.emit(COLOUR_CHOSEN({"seat": seat, "colour": move.colour}))
    if turn.state.phase == PLACEMENT and not any(turn.state.reserve):
        rounds.start_round(turn, 1)


def _place(turn: Turn[RiskState], seat: int, move: Place) -> None:
    """Starting units placed on own territories, exactly the step (or the rest of the
    reserve) at a time, in turn order (docs/risk.md, "Setup"; seed 003 Art. 7); then the next seat
    in turn order with units left places, and when none is left round 1 begins (Art. 8)."""
    state = turn.state
    for territory, _ in move.units:
        if territory not in state.owner:
            raise IllegalMove("unknown-territory", f"There is no territory {territory}.")
        if state.owner[territory] != seat:
            raise IllegalMove("not-your-territory", f"{territory} is not yours.")
    due = placement_due(state, seat)
    total = sum(n for _, n in move.units)
    if total != due:
        raise IllegalMove("wrong-total", f"Place exactly {due} units now, not {total}.")
    units: dict[str, int] = {}
    for territory, n in move.units:
        units[territory] = units.get(territory, 0) + n
    rounds.place_units(turn, seat, units)
    after = turn.state
    position = after.order.index(seat)
    cycle = after.order[position + 1 :] + after.order[: position + 1]
    following = [s for s in cycle if after.reserve[s] > 0]
    if following:
        turn.emit(PLACEMENT_TURN({"seat": following[0]}))
    else:
        rounds.start_round(turn, 1)
