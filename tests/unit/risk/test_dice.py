"""The dice engine (docs/risk.md, "A battle" and "Exact odds of one roll"; seed 003, Art. 11)."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import pytest

from domain.randomness import RandomStream
from domain.risk.dice import compare, engaged_attackers, engaged_defenders, roll

Dice = tuple[int, ...]
Rule = Callable[[Dice, Dice], tuple[int, int]]
Outcome = tuple[int, int]  # (attacker losses, defender losses)

MATCHUPS = [(1, 1), (2, 1), (3, 1), (1, 2), (2, 2), (3, 2)]

# The page's figures, keyed by (attacker losses, defender losses).
PAGE_ODDS: dict[tuple[int, int], dict[Outcome, Fraction]] = {
    (1, 1): {(0, 1): Fraction(15, 36), (1, 0): Fraction(21, 36)},
    (2, 1): {(0, 1): Fraction(125, 216), (1, 0): Fraction(91, 216)},
    (3, 1): {(0, 1): Fraction(855, 1296), (1, 0): Fraction(441, 1296)},
    (1, 2): {(0, 1): Fraction(55, 216), (1, 0): Fraction(161, 216)},
    (2, 2): {
        (0, 2): Fraction(295, 1296),
        (1, 1): Fraction(420, 1296),
        (2, 0): Fraction(581, 1296),
    },
    (3, 2): {
        (0, 2): Fraction(2890, 7776),
        (1, 1): Fraction(2611, 7776),
        (2, 0): Fraction(2275, 7776),
    },
}

ROLLS = 60_000
"""Rolls per matchup: the observed frequencies are within Z_BOUND standard errors (at most
0.0103 absolute) of the exact odds, while the wrong rules below are off by 0.05 or more
(ties to the attacker: 1 v 1 becomes 21/36; unsorted dice: 3 v 1 becomes 15/36)."""
Z_BOUND = 5.0


def exact_odds(rule: Rule, attackers: int, defenders: int) -> dict[Outcome, Fraction]:
    """Enumerate all 6**(a+d) equally likely dice and tally the outcomes of ``rule``."""
    tally: Counter[Outcome] = Counter()
    for faces in itertools.product(range(1, 7), repeat=attackers + defenders):
        tally[rule(faces[:attackers], faces[attackers:])] += 1
    total = 6 ** (attackers + defenders)
    return {outcome: Fraction(n, total) for outcome, n in tally.items()}


def test_comparison_rule_on_fixed_dice() -> None:
    assert compare((6,), (5,)) == (0, 1)
    assert compare((5,), (5,)) == (1, 0)  # a tie goes to the defender
    assert compare((3, 6, 1), (5, 4)) == (1, 1)  # 6>5 wins, 3<=4 loses; the 1 is not paired
    assert compare((2, 6), (6, 1)) == (1, 1)  # sorted: 6 v 6 tie, 2 v 1 win
    assert compare((6, 6, 6), (6, 6)) == (2, 0)
    assert compare((1,), (6, 6)) == (1, 0)  # one pair only
    assert compare((4, 4, 2), (3, 3)) == (0, 2)


def test_engaged_units() -> None:
    assert [engaged_attackers(n) for n in (2, 3, 4, 5, 30)] == [1, 2, 3, 3, 3]
    assert [engaged_defenders(n) for n in (1, 2, 3, 30)] == [1, 2, 2, 2]
    with pytest.raises(ValueError):
        engaged_attackers(1)
    with pytest.raises(ValueError):
        engaged_defenders(0)


def test_roll_draws_from_the_stream_and_is_json_ready() -> None:
    rng = RandomStream("risk-seed", 7)
    first = roll(rng, 3, 2)
    assert rng.position >= 12  # at least 5 numbers drawn
    replay = RandomStream("risk-seed", 7)
    expected = tuple(replay.below(6) + 1 for _ in range(5))
    assert first.attacker_dice + first.defender_dice == expected
    assert (first.attacker_losses, first.defender_losses) == compare(expected[:3], expected[3:])
    assert json.loads(json.dumps(first.to_json())) == first.to_json()
    with pytest.raises(ValueError):
        roll(rng, 4, 2)
    with pytest.raises(ValueError):
        roll(rng, 1, 3)


@pytest.mark.parametrize(("attackers", "defenders"), MATCHUPS)
def test_enumeration_gives_the_pages_odds_exactly(attackers: int, defenders: int) -> None:
    assert exact_odds(compare, attackers, defenders) == PAGE_ODDS[(attackers, defenders)]


def ties_to_attacker(attacker: Dice, defender: Dice) -> tuple[int, int]:
    """Wrong on purpose: a tie kills the defender."""
    a_loss = d_loss = 0
    for a, d in zip(sorted(attacker, reverse=True), sorted(defender, reverse=True), strict=False):
        if a >= d:
            d_loss += 1
        else:
            a_loss += 1
    return a_loss, d_loss


def unsorted_dice(attacker: Dice, defender: Dice) -> tuple[int, int]:
    """Wrong on purpose: pairs the dice in the order rolled."""
    a_loss = d_loss = 0
    for a, d in zip(attacker, defender, strict=False):
        if a > d:
            d_loss += 1
        else:
            a_loss += 1
    return a_loss, d_loss


@pytest.fixture(scope="module")
def rolled() -> dict[tuple[int, int], list[tuple[Dice, Dice]]]:
    """ROLLS seeded rolls per matchup through the engine, one stream for all of them."""
    rng = RandomStream("gameledger-risk-dice-statistics")
    out: dict[tuple[int, int], list[tuple[Dice, Dice]]] = {}
    for attackers, defenders in MATCHUPS:
        rolls = [roll(rng, attackers, defenders) for _ in range(ROLLS)]
        for r in rolls[:100]:
            assert (r.attacker_losses, r.defender_losses) == compare(
                r.attacker_dice, r.defender_dice
            )
        out[(attackers, defenders)] = [(r.attacker_dice, r.defender_dice) for r in rolls]
    return out


def worst_z(rule: Rule, dice: list[tuple[Dice, Dice]], exact: dict[Outcome, Fraction]) -> float:
    """The largest deviation, in standard errors, of an observed frequency from the exact odds."""
    observed = Counter(rule(a, d) for a, d in dice)
    n = len(dice)
    worst = 0.0
    for outcome in set(observed) | set(exact):
        p = float(exact.get(outcome, 0))
        sd = math.sqrt(max(p * (1 - p), 1e-12) / n)
        worst = max(worst, abs(observed[outcome] / n - p) / sd)
    return worst


def accepts(rule: Rule, rolled: dict[tuple[int, int], list[tuple[Dice, Dice]]]) -> bool:
    """The statistic: every matchup's every frequency within Z_BOUND of the page's odds."""
    return all(worst_z(rule, rolled[m], PAGE_ODDS[m]) <= Z_BOUND for m in MATCHUPS)


def test_seeded_rolls_match_the_exact_odds(
    rolled: dict[tuple[int, int], list[tuple[Dice, Dice]]],
) -> None:
    for m in MATCHUPS:
        assert worst_z(compare, rolled[m], PAGE_ODDS[m]) <= Z_BOUND, m


@pytest.mark.parametrize("wrong", [ties_to_attacker, unsorted_dice])
def test_the_statistic_rejects_a_wrong_comparison(
    wrong: Rule, rolled: dict[tuple[int, int], list[tuple[Dice, Dice]]]
) -> None:
    assert not accepts(wrong, rolled)
