"""The attack phase of the classic ruleset (docs/risk.md, "Classic Risk"; state
phase ``invasion``).

* An attack is one roll: the attacker chooses 1-3 dice, at most the units on the attacking
  territory less 1; the defender rolls 2 dice with 2+ units, else 1 (**decision:** the
  defender always rolls the most it may). Dice are compared as in every battle
  (:func:`domain.risk.dice.roll`).
* Any own territory with 2+ units may attack any number of times (no once-per-turn limit,
  and a territory conquered this turn may attack once it is occupied).
* A territory left without units is conquered; the attacker must then move in at least as
  many units as dice rolled in that roll, up to all but 1 (``Occupy``) before anything else.
* A player left without territory is out; their cards go to the conqueror (who may then
  have to trade, :mod:`domain.risk.classic.cards`). The neutral army (owner -1, two-player
  games) never acts and defends normally; it is never "eliminated".
* **decision:** the game ends when the conqueror is the only player left in the game (the
  neutral army aside); the winner takes the prize fund (``rounds.end_game``, "conquest").

While an occupation is due, ``state.invasion`` is ``{"from", "to", "attackers": 0,
"defenders": 0, "dice"}`` (the conquered territory holds 0 units until then).

Events: ``AttackRolled``, ``TerritoryConquered``, ``TerritoryOccupied``, ``AttackPhaseEnded``;
``PlayerEliminated`` is shared (:func:`domain.risk.rounds.eliminate`; hidden by the view).
"""

from __future__ import annotations

from typing import Final

from domain.protocol import IllegalMove
from domain.randomness import RandomStream
from domain.risk import dice, rounds
from domain.risk.classic.cards import must_trade
from domain.risk.classic.events import (
    ATTACK_PHASE_ENDED,
    ATTACK_ROLLED,
    TERRITORY_CONQUERED,
    TERRITORY_OCCUPIED,
)
from domain.risk.classic.moves import Attack, ClassicMove, Occupy
from domain.risk.state import OpenInvasion, RiskState
from domain.risk.worldmap import WORLD_MAP
from domain.turn import Turn

NEUTRAL: Final = -1
"""The owner of the neutral army's territories in a two-player classic game."""


def occupation_due(state: RiskState) -> OpenInvasion | None:
    """The conquest that still awaits its ``Occupy`` move, if any."""
    return state.invasion


def blocked(state: RiskState, seat: int) -> IllegalMove | None:
    """Why ``seat`` may neither attack nor end the attack phase now, or ``None``: an
    occupation is due, a trade is forced, or traded units are still to be placed (rules,
    "Classic Risk")."""
    if occupation_due(state) is not None:
        return IllegalMove("occupy-first", "Move units into the conquered territory first.")
    if must_trade(state, seat):
        return IllegalMove("must-trade", "Trade sets until you hold 4 cards or fewer.")
    if state.reserve[seat] > 0:
        return IllegalMove(
            "reserve-not-placed", f"Place your {state.reserve[seat]} reserve units first."
        )
    return None


def refusal(state: RiskState, seat: int, move: Attack) -> IllegalMove | None:
    """Why ``seat`` may not make the attack ``move`` now, or ``None`` (docs/risk.md, "Classic
    variant": 1-3 dice, at most the units less 1, across a border onto another's
    territory)."""
    problem = blocked(state, seat)
    if problem is not None:
        return problem
    for name in (move.source, move.target):
        if name not in state.owner:
            return IllegalMove("unknown-territory", f"There is no territory {name}.")
    if state.owner[move.source] != seat:
        return IllegalMove("not-your-territory", f"{move.source} is not yours.")
    if state.units[move.source] < 2:
        return IllegalMove("too-few-units", f"{move.source} needs at least 2 units to attack.")
    if not WORLD_MAP.adjacent(move.source, move.target):
        return IllegalMove("not-adjacent", f"{move.source} does not border {move.target}.")
    if state.owner[move.target] == seat:
        return IllegalMove("own-territory", f"{move.target} is your own territory.")
    most = max_dice(state, move.source)
    if not 1 <= move.dice <= most:
        return IllegalMove("wrong-dice", f"Attack from {move.source} with 1 to {most} dice.")
    return None


def max_dice(state: RiskState, source: str) -> int:
    """The most dice an attack from ``source`` may roll: 3, and at most its units less 1."""
    return min(dice.MAX_ATTACK_DICE, state.units[source] - 1)


def attack_moves(state: RiskState, seat: int) -> list[ClassicMove]:
    """Every allowed attack: sources in map order, targets in the map's border order, each
    number of dice from 1 up (docs/risk.md, "Classic Risk")."""
    if blocked(state, seat) is not None:
        return []
    return [
        Attack(source, target, n)
        for source in state.territories_of(seat)
        if state.units[source] >= 2
        for target in WORLD_MAP.territory(source).neighbours
        if state.owner[target] != seat
        for n in range(1, max_dice(state, source) + 1)
    ]


def occupy_moves(state: RiskState) -> list[ClassicMove]:
    """The least and the most units that may move in (any number between is legal too)."""
    due = occupation_due(state)
    if due is None:
        return []
    most = state.units[due["from"]] - 1
    return [Occupy(n) for n in sorted({due["dice"], most})]


def attack(turn: Turn[RiskState], seat: int, move: Attack, rng: RandomStream) -> None:
    """docs/risk.md, "Classic Risk": one roll of the chosen dice against as many defending dice
    as the defender may roll (**decision**); an emptied territory is conquered, and a player
    left without territory is out, their cards going to the conqueror."""
    state = turn.state
    problem = refusal(state, seat, move)
    if problem is not None:
        raise problem
    defender = state.owner[move.target]
    defending = dice.engaged_defenders(state.units[move.target])
    outcome = dice.roll(rng, move.dice, defending)
    turn.emit(
        ATTACK_ROLLED(
            {
                "seat": seat,
                "from": move.source,
                "to": move.target,
                "defender": defender,
                "attackers": move.dice,
                "defenders": defending,
                "attacker_dice": list(outcome.attacker_dice),
                "defender_dice": list(outcome.defender_dice),
                "attacker_losses": outcome.attacker_losses,
                "defender_losses": outcome.defender_losses,
                "random_position": rng.position,
            }
        )
    )
    if turn.state.units[move.target] > 0:
        return
    turn.emit(
        TERRITORY_CONQUERED(
            {
                "seat": seat,
                "from": move.source,
                "to": move.target,
                "previous_owner": defender,
                "dice": move.dice,
            }
        )
    )
    if defender != NEUTRAL and not turn.state.territories_of(defender):
        rounds.eliminate(turn, defender, seat)


def occupy(turn: Turn[RiskState], seat: int, units: int) -> None:
    """docs/risk.md, "Classic Risk": after a conquest at least as many units as dice rolled move
    in, up to all but 1; then, if the conqueror is the only player left (the neutral army
    aside), the game ends and the conqueror takes the prize fund (**decision**)."""
    state = turn.state
    due = occupation_due(state)
    if due is None:
        raise IllegalMove("no-conquest", "There is no conquered territory to occupy.")
    most = state.units[due["from"]] - 1
    if not due["dice"] <= units <= most:
        raise IllegalMove(
            "wrong-occupation", f"Move {due['dice']} to {most} units into {due['to']}."
        )
    turn.emit(
        TERRITORY_OCCUPIED({"seat": seat, "from": due["from"], "to": due["to"], "units": units})
    )
    if turn.state.active() == [seat]:
        rounds.end_game(turn, "conquest", {seat: turn.state.fund})


def end_attacks(turn: Turn[RiskState], seat: int) -> None:
    """docs/risk.md, "Classic Risk": the player stops attacking and goes on to the fortify move."""
    problem = blocked(turn.state, seat)
    if problem is not None:
        raise problem
    turn.emit(ATTACK_PHASE_ENDED({"seat": seat}))
