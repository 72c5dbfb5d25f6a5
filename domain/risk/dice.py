"""One roll of a Risk battle (docs/risk.md, "Invasion phase", "A battle"; seed 003,
Article 11): how many dice each side rolls, how they are compared, and the losses.

The attacker always leaves 1 unit at home: with 4+ units on the attacking territory 3 dice,
with 3 -> 2, with 2 -> 1. The defender rolls 2 dice with 2+ units, else 1. Both sides' dice
are sorted from highest down and paired (as many pairs as the smaller side has dice); in each
pair a strictly higher attacker die kills one defending unit, otherwise (a tie included) one
attacking unit dies. Every die is ``rng.below(6) + 1`` from the game's
:class:`~domain.randomness.RandomStream`, attacker's dice first, then the defender's.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.randomness import RandomStream

MAX_ATTACK_DICE = 3
MAX_DEFENCE_DICE = 2


@dataclass(frozen=True, slots=True)
class Roll:
    """The outcome of one roll: the dice as rolled and the units each side lost."""

    attacker_dice: tuple[int, ...]
    defender_dice: tuple[int, ...]
    attacker_losses: int
    defender_losses: int

    def to_json(self) -> dict[str, list[int] | int]:
        """The roll as plain JSON values."""
        return {
            "attacker_dice": list(self.attacker_dice),
            "defender_dice": list(self.defender_dice),
            "attacker_losses": self.attacker_losses,
            "defender_losses": self.defender_losses,
        }


def engaged_attackers(units_on_territory: int) -> int:
    """Units that fight for the attacker when a battle starts with ``units_on_territory`` units
    there (rules: one unit stays home; 4+ -> 3, 3 -> 2, 2 -> 1). Fewer than 2: ``ValueError``."""
    if units_on_territory < 2:
        raise ValueError("an attack needs at least 2 units on the attacking territory")
    return min(MAX_ATTACK_DICE, units_on_territory - 1)


def engaged_defenders(units_on_territory: int) -> int:
    """Units that fight for the defender with ``units_on_territory`` units (rules: 2 with 2+,
    else 1)."""
    if units_on_territory < 1:
        raise ValueError("a defended territory holds at least 1 unit")
    return min(MAX_DEFENCE_DICE, units_on_territory)


def compare(attacker: tuple[int, ...], defender: tuple[int, ...]) -> tuple[int, int]:
    """Losses ``(attacker, defender)`` for the given dice (rules: highest against highest, then
    second against second; strictly higher attacker die wins the pair, a tie loses it)."""
    a_loss = d_loss = 0
    for a, d in zip(sorted(attacker, reverse=True), sorted(defender, reverse=True), strict=False):
        if a > d:
            d_loss += 1
        else:
            a_loss += 1
    return a_loss, d_loss


def roll(rng: RandomStream, attackers: int, defenders: int) -> Roll:
    """Roll once with ``attackers`` (1-3) and ``defenders`` (1-2) engaged units, one die per
    engaged unit (docs/risk.md, "A battle": later rolls of a battle use the surviving engaged
    units), drawing the attacker's dice then the defender's from ``rng``."""
    if not 1 <= attackers <= MAX_ATTACK_DICE or not 1 <= defenders <= MAX_DEFENCE_DICE:
        raise ValueError("a roll needs 1-3 engaged attackers and 1-2 engaged defenders")
    n_att, n_def = attackers, defenders
    att = tuple(rng.below(6) + 1 for _ in range(n_att))
    dfn = tuple(rng.below(6) + 1 for _ in range(n_def))
    a_loss, d_loss = compare(att, dfn)
    return Roll(att, dfn, a_loss, d_loss)
