"""The guard on :meth:`domain.carcassonne.state.CarcassonneState.clone`, the game's
``copy_state`` (docs/carcassonne.md, "Performance": copy on write). The clone copies every
list and dict of the state but shares the features until one is changed: both states get a
new key, so neither owns a shared feature, and a handler changes a feature only through
:func:`~domain.carcassonne.state.writable`, which first replaces a feature the state does not
own by a clone of it. A handler that changed a feature in place, or a container the clone
forgot to copy, would change a move decided on a copy (docs/architecture.md, "One way to
decide a move") without another test noticing; these tests notice.

States come from seeded games of the base game and the expansion (castle decisions pending,
bazaars under way, bridges), sampled along the way."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import fields, replace
from typing import Any

import pytest

from domain.carcassonne import CARCASSONNE
from domain.carcassonne.state import (
    CarcassonneState,
    Castle,
    Feature,
    state_to_json,
    writable,
    writable_feat,
)
from domain.protocol import Event
from domain.randomness import RandomStream

BCB = {"expansions": ["bridges-castles-bazaars"]}
CACHES = {"memo", "slot_cache", "bridge_memo", "feat_shared", "key"}
"""The fields that are not part of the state (``compare=False``): caches, the flag of a
shared ``feat`` and the key."""

MARKERS: dict[str, Any] = {
    "players": 5,
    "farmers": "marker",
    "small_city": 7,
    "phase": 9,
    "turn": 11,
    "current": 3,
    "in_hand": 13,
    "stack": [1, 2],
    "discarded": [3],
    "board": {17: 0},
    "tiles": [(17, 1, 2, 3)],
    "deployed": [4],
    "frontier": {18: 5},
    "feat": [6, 7],
    "features": {6: Feature(1, [6], {17}, 2, 1, [17], [8], False, 19)},
    "monasteries": {19: 6},
    "followers": {17: (3, 0)},
    "supply": [2, 1],
    "scores": [23, 29],
    "random_position": 31,
    "clock": 37,
    "result": {"ranks": [1], "winners": [0], "breakdown": {"play": [2], "features": [3]}},
    "script": [4, 5],
    "total": 41,
    "expansion": True,
    "bridges": [2],
    "castles": [1],
    "bridge_log": [(1, 17, 0)],
    "sites": [Castle(1, 6, 96, (17, 18), (16, 17, 18), 3, 17, 4, 5)],
    "pending": {
        "kind": "fief",
        "player": 1,
        "at": {"x": 1, "y": 2, "segment": "c0"},
        "options": [{"feature": "road", "at": {"x": 0, "y": 1, "segment": "r0"}, "points": 3}],
    },
    "fief_log": [(4, 1, 2, "c0")],
    "bazaar": {
        "active": 1,
        "variant": "auction",
        "stage": "auction",
        "tiles": ["K", "L"],
        "won": [None, "D"],
        "auctioneer": 0,
        "lot": "K",
        "bid": 3,
        "bidder": 1,
        "queue": [0],
        "turns": [1],
    },
    "bazaar_variant": "no-auction",
    "payments": [(0, 1, 3)],
    "first_player": 1,
}
"""A value unlike the default for every field of :class:`CarcassonneState` that is part of
the state. A new field fails :func:`test_every_field_is_copied` until it is given one here
(and copied)."""


def sampled(
    options: dict[str, Any], players: int, seed: int, every: int = 3
) -> Iterator[tuple[CarcassonneState, list[Event]]]:
    """Every ``every``-th state of one seeded random game with the events of the move made
    on it, and the last state (with none). Deciding each move leaves the state as it was:
    the turn decides on a copy that shares the features and ``feat``."""
    state = CARCASSONNE.setup(players, options)
    secret = f"copy-{seed}"
    for event in CARCASSONNE.begin(state, RandomStream(secret)):
        state = CARCASSONNE.evolve(state, event)
    bot = random.Random(seed)
    moves = 0
    while acting := CARCASSONNE.current_players(state):
        player = bot.choice(acting)
        move = bot.choice(CARCASSONNE.legal_moves(state, player))
        stream = RandomStream(secret, state.random_position)
        before = state_to_json(state)
        events = CARCASSONNE.apply(state, player, move, stream)
        assert state_to_json(state) == before, "deciding a move changed the state"
        if moves % every == 0:
            yield state, events
        for event in events:
            state = CARCASSONNE.evolve(state, event)
        moves += 1
    yield state, []


def containers(value: object) -> Iterator[list[Any] | dict[Any, Any] | set[Any]]:
    """Every list, dict and set inside ``value``, ``value`` included (a feature or castle
    by its fields)."""
    if isinstance(value, Feature | Castle):
        for f in fields(value):
            yield from containers(getattr(value, f.name))
    elif isinstance(value, list | tuple):
        if isinstance(value, list):
            yield value
        for item in value:
            yield from containers(item)
    elif isinstance(value, dict):
        yield value
        for item in value.values():
            yield from containers(item)
    elif isinstance(value, set):
        yield value


def mutate(value: object) -> None:
    """Change every list, dict and set inside ``value`` (the deepest first)."""
    for part in reversed(list(containers(value))):
        if isinstance(part, list):
            part.append(-1)
        elif isinstance(part, set):
            part.add(-1)
        else:
            part[-1] = -1


def change_features(state: CarcassonneState) -> None:
    """Change every part of every feature of ``state``, and ``feat``, the way handlers do:
    through :func:`writable` and :func:`writable_feat`."""
    feat = writable_feat(state)
    feat += [-1]
    for node in range(len(feat)):
        feat[node] = -2
    for fid in list(state.features):
        feature = writable(state, fid)
        mutate(feature)
        feature.open += 1
        feature.pennants += 1
        feature.complete = not feature.complete
        feature.stamp += 1
        feature.kind += 1


def whole(state: CarcassonneState) -> dict[str, Any]:
    """Everything the state holds (its JSON form, every feature field included)."""
    return state_to_json(state)


def check_copy(state: CarcassonneState) -> None:
    """The copy equals ``state``; the two share no list, dict or set but the features, none
    of which either owns, and ``feat``, which both know is shared; changing every part of
    the copy (features and ``feat`` through :func:`writable` and :func:`writable_feat`) leaves
    ``state`` as it was, and the other way round."""
    before = whole(state)
    copy = state.clone()
    assert copy == state
    assert whole(copy) == before
    for f in fields(CarcassonneState):
        if f.name in CACHES:
            continue
        if f.name == "features":
            assert copy.features is not state.features
            for fid, feature in copy.features.items():
                if feature is state.features[fid]:
                    assert feature.owner is not copy.key and feature.owner is not state.key
            continue
        if f.name == "feat" and copy.feat is state.feat:
            assert copy.feat_shared and state.feat_shared
            continue
        original = {id(part) for part in containers(getattr(state, f.name))}
        copied = {id(part) for part in containers(getattr(copy, f.name))}
        assert not original & copied, f"clone shares a part of {f.name}"
    for f in fields(CarcassonneState):
        if f.name not in CACHES and f.name not in {"features", "feat"}:
            mutate(getattr(copy, f.name))
    change_features(copy)
    copy.features[-1] = Feature(0, [], set(), 0, 0, [], [], False)
    assert whole(state) == before
    mine = state.clone()
    again = mine.clone()
    change_features(mine)
    assert whole(again) == before


@pytest.mark.parametrize(
    ("options", "players"),
    [({}, 2), ({}, 5), (BCB, 3), (BCB, 6), ({**BCB, "bazaar": "no-auction"}, 4)],
)
def test_copies_are_independent(options: dict[str, Any], players: int) -> None:
    checked = 0
    for seed in range(2):
        for state, _events in sampled(options, players, seed):
            check_copy(state)
            checked += 1
    assert checked > 20


@pytest.mark.parametrize(("options", "players"), [({}, 4), (BCB, 4), (BCB, 6)])
def test_handlers_change_only_their_own_state(options: dict[str, Any], players: int) -> None:
    """The events of a move evolved on a copy leave the state as it was, and evolved on the
    state leave the copy as it was (the turn's scratch state and the caller's state share
    their features until a handler changes one)."""
    for seed in range(3):
        for live, events in sampled(options, players, seed, every=1):
            state = live.clone()
            before = whole(state)
            scratch = state.clone()
            for event in events:
                scratch = CARCASSONNE.evolve(scratch, event)
            assert whole(state) == before
            kept = state.clone()
            for event in events:
                state = CARCASSONNE.evolve(state, event)
            assert whole(kept) == before
            assert state == scratch


def test_the_samples_reach_castles_bazaars_and_bridges() -> None:
    """The sampled states hold the parts the copy must go into."""
    seen: set[str] = set()
    for seed in range(2):
        for state, _events in sampled(BCB, 4, seed, every=1):
            seen.update(
                name
                for name, present in (
                    ("sites", state.sites),
                    ("pending", state.pending),
                    ("bazaar", state.bazaar),
                    ("bridge_log", state.bridge_log),
                    ("payments", state.payments),
                    ("result", state.result),
                )
                if present
            )
    assert seen >= {"sites", "bazaar", "bridge_log", "payments", "result"}, seen


def test_every_field_is_copied() -> None:
    """Every field of :class:`CarcassonneState` that is part of the state has a marker, and
    the copy keeps it: a field ``clone`` left out would come back as its default."""
    assert set(MARKERS) == {f.name for f in fields(CarcassonneState)} - CACHES
    base = CARCASSONNE.setup(3, BCB)
    for name, marker in MARKERS.items():
        state = replace(base, **{name: marker})
        copy = state.clone()
        assert getattr(copy, name) == marker, f"clone drops {name}"
        assert copy == state
