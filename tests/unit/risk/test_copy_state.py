"""The guard on :func:`domain.risk.state.copy_state` (docs/risk.md, "Rooms": the state and
its copy). The copy goes field by field, without a JSON round trip, so a nested list or dict
it forgets to copy would be shared with the original, and a field it forgets would fall back
to its default. Both would change a move decided on a copy (docs/architecture.md, "One way to
decide a move") without a test noticing; these tests notice.

States come from seeded bot games of both rulesets, sampled along the way (exchange sessions
with open deals, invasions, classic occupations, the end)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import fields, replace
from typing import Any

import pytest

from domain.bots import choose_move
from domain.randomness import RandomStream
from domain.risk import RISK
from domain.risk.move_json import TransferRecord
from domain.risk.state import (
    OpenInvasion,
    Proposal,
    Result,
    RiskState,
    copy_state,
    state_to_json,
)

MARKERS: dict[str, Any] = {
    "players": 5,
    "options": {"marker": [1, 2]},
    "random_position": 7919,
    "phase": "marker",
    "order": [4, 3],
    "colours": ["marker", None],
    "owner": {"Marker": 3},
    "units": {"Marker": 9},
    "reserve": [11, 12],
    "purse": [13],
    "fund": 14,
    "hands": [["Marker"], []],
    "discard": ["Marker"],
    "horse": 15,
    "round": 16,
    "turn": 17,
    "launched": ["Marker"],
    "captured": ["Marker"],
    "invasion": {
        "from": "A",
        "to": "B",
        "attackers": 1,
        "defenders": 2,
        "lost": [3, 4],
        "dice": 3,
    },
    "moved": {"Marker": 18},
    "incoming": [19],
    "eliminated": [20],
    "done": [21],
    "proposals": [
        {
            "id": 1,
            "by": 0,
            "kind": "deal",
            "to": [1],
            "accepted": [],
            "transfers": [
                {
                    "from": 0,
                    "to": 1,
                    "territories": ["Marker"],
                    "cards": ["Marker"],
                    "units": {"Marker": 2},
                    "money": 50,
                    "card_count": 1,
                }
            ],
        },
        {
            "id": 2,
            "by": 1,
            "kind": "settlement",
            "to": [0],
            "accepted": [0],
            "shares": {"0": 26, "1": 27},
        },
    ],
    "next_proposal": 22,
    "passage": [[1], []],
    "result": {"reason": "settlement", "shares": {"0": 23}},
    "units_in": 24,
    "units_lost": 25,
}
"""A value unlike the default for every field of :class:`RiskState`, and every key of its
nested parts. A new field fails :func:`test_every_field_is_copied`, and a new key of a nested
part :func:`test_every_nested_key_has_a_marker`, until it is given one here (and copied)."""
NESTED: dict[str, tuple[type, list[dict[str, Any]]]] = {
    "invasion": (OpenInvasion, [MARKERS["invasion"]]),
    "proposal": (Proposal, MARKERS["proposals"]),
    "transfer": (TransferRecord, MARKERS["proposals"][0]["transfers"]),
    "result": (Result, [MARKERS["result"]]),
}
"""Each nested part of the state (its ``TypedDict``) and the markers that hold it."""


def sampled_states(ruleset: str, players: int, seed: int, every: int = 5) -> Iterator[RiskState]:
    """Every ``every``-th state of one seeded bot game, and its last."""
    state = RISK.setup(players, {"ruleset": ruleset})
    secret = f"copy-{ruleset}-{seed}"
    for event in RISK.begin(state, RandomStream(secret, 0)):
        state = RISK.evolve(state, event)
    bot = random.Random(seed)
    moves = 0
    while acting := RISK.current_players(state):
        seat = bot.choice(acting)
        move = choose_move(RISK, state, seat, bot)
        for event in RISK.apply(state, seat, move, RandomStream(secret, state.random_position)):
            state = RISK.evolve(state, event)
        moves += 1
        if moves % every == 0:
            yield state
    yield state


def containers(value: object) -> Iterator[list[Any] | dict[str, Any]]:
    """Every list and dict inside ``value``, ``value`` included."""
    if isinstance(value, list):
        yield value
        for item in value:
            yield from containers(item)
    elif isinstance(value, dict):
        yield value
        for item in value.values():
            yield from containers(item)


def mutate(value: object) -> None:
    """Change every list and dict inside ``value`` (the deepest first)."""
    for part in reversed(list(containers(value))):
        if isinstance(part, list):
            part.append("mutated")
        else:
            part["mutated"] = "mutated"


def check_copy(state: RiskState) -> None:
    """The copy equals ``state``, shares none of its lists and dicts, and changing every part
    of it leaves ``state`` as it was."""
    before = state_to_json(state)
    copy = copy_state(state)
    assert copy == state
    assert state_to_json(copy) == before
    for f in fields(RiskState):
        original = {id(part) for part in containers(getattr(state, f.name))}
        copied = {id(part) for part in containers(getattr(copy, f.name))}
        assert not original & copied, f"copy_state shares a part of {f.name}"
        mutate(getattr(copy, f.name))
    assert state_to_json(state) == before


@pytest.mark.parametrize("ruleset", ["constitution", "classic"])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_copies_are_deep_and_equal(ruleset: str, players: int) -> None:
    checked = 0
    for seed in range(3):
        for state in sampled_states(ruleset, players, seed):
            check_copy(state)
            checked += 1
    assert checked > 10


def test_copies_cover_invasions_proposals_and_results() -> None:
    """The sampled games reach the nested parts the copy must go into."""
    seen: set[str] = set()
    for ruleset in ("constitution", "classic"):
        for seed in range(3):
            for state in sampled_states(ruleset, 3, seed, every=1):
                if state.invasion is not None:
                    seen.add(f"{ruleset}-invasion")
                if state.proposals:
                    seen.add("proposals")
                if state.result is not None:
                    seen.add(f"{ruleset}-result")
                if any(state.passage):
                    seen.add("passage")
    assert seen >= {
        "constitution-invasion",
        "classic-invasion",
        "proposals",
        "constitution-result",
        "classic-result",
    }, seen


def test_every_field_is_copied() -> None:
    """Every dataclass field of :class:`RiskState` has a marker, and the copy keeps it: a field
    ``copy_state`` leaves out would come back as its default."""
    assert set(MARKERS) == {f.name for f in fields(RiskState)}
    base = RISK.setup(3, {})
    for name, marker in MARKERS.items():
        state = replace(base, **{name: marker})
        check_copy(state)
        assert getattr(copy_state(state), name) == marker, f"copy_state drops {name}"


@pytest.mark.parametrize("part", sorted(NESTED))
def test_every_nested_key_has_a_marker(part: str) -> None:
    """Every key of each nested part (optional ones included) appears in the markers, so
    :func:`test_every_field_is_copied` copies and mutates it: a key ``copy_state`` copied
    one level too shallow would share its list or dict."""
    shape, markers = NESTED[part]
    keys = set(shape.__annotations__)  # a TypedDict's keys, inherited ones included
    assert keys <= {key for marker in markers for key in marker}, keys
