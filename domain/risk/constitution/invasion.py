"""The invasion phase of a player's turn (docs/risk.md, "Invasion phase"; seed 003,
Articles 10-11): invasions launched at most once from each own territory, none from a
territory captured this turn; battles rolled with the engaged units (:mod:`domain.risk.dice`)
until one side's engaged units are gone; a captured territory receives exactly 1 unit and
earns a trophy card; a player left without territory is out (their cards go to the
conqueror); holding every territory ends the game. ``EndInvasions`` goes on to the
reinforcement phase (:mod:`domain.risk.constitution.reinforcement`).

The open invasion is ``state.invasion``: ``from``, ``to``, the engaged units still alive in
the current battle (``attackers``, ``defenders``; both 0 between battles) and ``lost``, the
``[attacker, defender]`` losses of the current battle so far.

Events: ``InvasionStarted``, ``DiceRolled``, ``BattleResolved``, ``TerritoryCaptured``,
``InvasionStopped``; shared with classic Risk: ``DeckReshuffled``, ``CardDrawn``
(:mod:`domain.risk.cards`), ``PlayerEliminated`` (:mod:`domain.risk.rounds`).
"""

from __future__ import annotations

from typing import Final

from domain.protocol import IllegalMove
from domain.randomness import RandomStream
from domain.risk import cards, dice, rounds
from domain.risk.constitution.events import (
    BATTLE_RESOLVED,
    DICE_ROLLED,
    INVASION_STARTED,
    INVASION_STOPPED,
    TERRITORY_CAPTURED,
)
from domain.risk.constitution.moves import ConstitutionMove, EndInvasions, Fight, Invade, Roll, Stop
from domain.risk.constitution.reinforcement import start_reinforcement
from domain.risk.state import INVASION, OpenInvasion, RiskState
from domain.risk.worldmap import WORLD_MAP
from domain.turn import Turn


def refusal(state: RiskState, seat: int, source: str, target: str) -> IllegalMove | None:
    """Why ``seat`` may not invade ``target`` from ``source`` now, or ``None`` (rules,
    "Invasion phase": one invasion per territory per turn, none from a territory captured
    this turn, one unit always stays home, only across a border onto another's territory).
    The checks, in this order: no open invasion, both territories known, then those of the
    source (:func:`_source_fault`), then those of the target (:func:`_target_fault`)."""
    if state.invasion is not None:
        return IllegalMove("invasion-open", "Finish or stop the open invasion first.")
    for name in (source, target):
        if name not in state.owner:
            return IllegalMove("unknown-territory", f"There is no territory {name}.")
    fault = _source_fault(state, seat, source) or _target_fault(state, seat, source, target)
    if fault is None:
        return None
    return IllegalMove(fault, _FAULTS[fault].format(source=source, target=target))


_FAULTS: Final = {
    "not-your-territory": "{source} is not yours.",
    "already-invaded": "{source} has already launched an invasion.",
    "captured-this-turn": "{source} was captured this turn.",
    "too-few-units": "{source} needs at least 2 units to attack.",
    "not-adjacent": "{source} does not border {target}.",
    "own-territory": "{target} is your own territory.",
}
"""The message of each code :func:`_source_fault` and :func:`_target_fault` give."""


def _source_fault(state: RiskState, seat: int, source: str) -> str | None:
    """Why ``source`` (a known territory) may not launch an invasion of ``seat``'s now, as
    its code, or ``None``: it is not ``seat``'s, it launched one this turn, it was captured
    this turn, or it has fewer than 2 units."""
    if state.owner[source] != seat:
        return "not-your-territory"
    if source in state.launched:
        return "already-invaded"
    if source in state.captured:
        return "captured-this-turn"
    if state.units[source] < 2:
        return "too-few-units"
    return None


def _target_fault(state: RiskState, seat: int, source: str, target: str) -> str | None:
    """Why ``target`` (a known territory) may not be invaded from ``source`` by ``seat``, as
    its code, or ``None``: no border between them, or it is ``seat``'s own."""
    if not WORLD_MAP.adjacent(source, target):
        return "not-adjacent"
    if state.owner[target] == seat:
        return "own-territory"
    return None


def legal_moves(state: RiskState, seat: int) -> list[ConstitutionMove]:
    """Without an open invasion every allowed ``Invade`` (sources in map order, targets in
    the map's border order) and ``EndInvasions``; with one ``Roll``, ``Fight`` and ``Stop``
    (docs/risk.md, "Invasion phase"). Allowed: what :func:`refusal` lets through, its checks
    of a source made once for all its borders (every territory here is known)."""
    if state.phase != INVASION or state.seat != seat:
        return []
    if state.invasion is not None:
        return [Roll(), Fight(), Stop()]
    moves: list[ConstitutionMove] = [
        Invade(source, target)
        for source in state.territories_of(seat)
        if _source_fault(state, seat, source) is None
        for target in WORLD_MAP.territory(source).neighbours
        if _target_fault(state, seat, source, target) is None
    ]
    return [*moves, EndInvasions()]


def decide(turn: Turn[RiskState], seat: int, move: object, rng: RandomStream) -> None:
    """The events of ``seat``'s invasion-phase move (docs/risk.md, "Invasion phase");
    ``IllegalMove`` when it is not allowed now."""
    state = turn.state
    if state.phase != INVASION or state.seat != seat:
        raise IllegalMove("not-your-turn", "It is not your turn to invade.")
    if isinstance(move, Invade):
        _invade(turn, seat, move)
    elif isinstance(move, Roll | Fight):
        _battle(turn, seat, rng, until_resolved=isinstance(move, Fight))
    elif isinstance(move, Stop):
        invasion = _open(turn.state)
        _stopped(turn, seat, invasion, "stopped")
    elif isinstance(move, EndInvasions):
        end_invasions(turn)
    else:
        raise IllegalMove("wrong-phase", "That move is not allowed in the invasion phase.")


def _open(state: RiskState) -> OpenInvasion:
    if state.invasion is None:
        raise IllegalMove("no-open-invasion", "There is no open invasion.")
    return state.invasion


def _invade(turn: Turn[RiskState], seat: int, move: Invade) -> None:
    """An invasion starts (seed 003 Art. 10): the source may not launch another this turn."""
    problem = refusal(turn.state, seat, move.source, move.target)
    if problem is not None:
        raise problem
    defender = turn.state.owner[move.target]
    turn.emit(
        INVASION_STARTED(
            {"seat": seat, "from": move.source, "to": move.target, "defender": defender}
        )
    )


def _battle(turn: Turn[RiskState], seat: int, rng: RandomStream, until_resolved: bool) -> None:
    """One roll (``Roll``) or every roll until the battle is resolved (``Fight``); a battle
    starts with 3/2/1 attackers for 4+/3/2 units on the source and 2/1 defenders, and each
    roll uses the engaged units still alive (seed 003 Art. 11). After a resolved battle:
    capture, or the invasion stops when the source cannot attack any more."""
    while True:
        invasion = _open(turn.state)
        source, target = invasion["from"], invasion["to"]
        attackers, defenders = invasion["attackers"], invasion["defenders"]
        if attackers == 0 and defenders == 0:
            attackers = dice.engaged_attackers(turn.state.units[source])
            defenders = dice.engaged_defenders(turn.state.units[target])
        outcome = dice.roll(rng, attackers, defenders)
        turn.emit(
            DICE_ROLLED(
                {
                    "seat": seat,
                    "from": source,
                    "to": target,
                    "attackers": attackers,
                    "defenders": defenders,
                    "attacker_dice": list(outcome.attacker_dice),
                    "defender_dice": list(outcome.defender_dice),
                    "attacker_losses": outcome.attacker_losses,
                    "defender_losses": outcome.defender_losses,
                    "random_position": rng.position,
                }
            )
        )
        invasion = _open(turn.state)
        if invasion["attackers"] and invasion["defenders"]:
            if until_resolved:
                continue
            return
        lost = invasion["lost"]
        turn.emit(
            BATTLE_RESOLVED(
                {
                    "from": source,
                    "to": target,
                    "attacker_losses": lost[0],
                    "defender_losses": lost[1],
                }
            )
        )
        _after_battle(turn, seat, rng, invasion)
        return


def _after_battle(
    turn: Turn[RiskState], seat: int, rng: RandomStream, invasion: OpenInvasion
) -> None:
    """A territory left without units is captured (seed 003 Art. 10); a source left with
    one unit cannot fight on, so the invasion ends; otherwise it stays open."""
    if turn.state.units[invasion["to"]] == 0:
        _capture(turn, seat, rng, invasion)
    elif turn.state.units[invasion["from"]] < 2:
        _stopped(turn, seat, invasion, "exhausted")


def _stopped(turn: Turn[RiskState], seat: int, invasion: OpenInvasion, reason: str) -> None:
    """The invasion ends without capture; it may not be resumed (seed 003 Art. 10)."""
    turn.emit(
        INVASION_STOPPED(
            {"seat": seat, "from": invasion["from"], "to": invasion["to"], "reason": reason}
        )
    )


def _capture(turn: Turn[RiskState], seat: int, rng: RandomStream, invasion: OpenInvasion) -> None:
    """Capture (docs/risk.md, "Invasion phase"): exactly 1 unit moves in, a trophy card is drawn; a
    player left without territory is out and their cards go to the conqueror (**decision**);
    a player holding every territory wins the fund (docs/risk.md, "End of the game")."""
    target = invasion["to"]
    previous = turn.state.owner[target]
    turn.emit(
        TERRITORY_CAPTURED(
            {"seat": seat, "from": invasion["from"], "to": target, "previous_owner": previous}
        )
    )
    cards.draw_trophy(turn, seat, rng)
    if not turn.state.territories_of(previous):
        rounds.eliminate(turn, previous, seat)
    if all(owner == seat for owner in turn.state.owner.values()):
        rounds.end_game(turn, "conquest", {seat: turn.state.fund})


def end_invasions(turn: Turn[RiskState]) -> None:
    """The player has finished invading and goes on to the reinforcement phase (seed 003
    Art. 10: "when all invasions are over the player passes to the reinforcement phase")."""
    if turn.state.invasion is not None:
        raise IllegalMove("invasion-open", "Finish or stop the open invasion first.")
    start_reinforcement(turn)
