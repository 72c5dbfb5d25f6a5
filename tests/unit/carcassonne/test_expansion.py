"""Bridges, Castles & Bazaars behind the option ``expansions``
(docs/carcassonne.md, "The
expansion"): the option, its 12 tiles in the stack, 2-6 players, the tokens — and the base
game unchanged when it is off."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from domain.carcassonne import CARCASSONNE, CarcassonneState
from domain.carcassonne import turn as carcassonne_turn
from domain.carcassonne.expansion.bridges.moves import Bridged
from domain.carcassonne.tiles import CATALOGUE_TYPES, TYPE_INDEX
from domain.protocol import Event, InvalidOptions, Viewer
from domain.randomness import RandomStream
from domain.turn import Turn

from .helpers import random_game

BCB = {"expansions": ["bridges-castles-bazaars"]}
EXPANSION_LETTERS = [t.letter for t in CATALOGUE_TYPES if t.set == "bridges-castles-bazaars"]


def test_the_option_is_accepted_and_absent_when_off() -> None:
    assert CARCASSONNE.normalise_options(BCB) == {
        "farmers": "per-field",
        "small-city-points": 4,
        "expansions": ["bridges-castles-bazaars"],
    }
    assert "expansions" not in CARCASSONNE.normalise_options({})
    assert "expansions" not in CARCASSONNE.normalise_options({"expansions": []})


@pytest.mark.parametrize(
    "options",
    [
        {"expansions": "bridges-castles-bazaars"},
        {"expansions": ["inns-and-cathedrals"]},
        {"expansions": ["bridges-castles-bazaars"] * 2},
        {"expansions": [None]},
        {"stack": ["BB1"]},  # an expansion tile without the expansion
        {**BCB, "stack": ["BB1", "BB1", "BB1"]},  # BB1 has 2 copies
    ],
)
def test_invalid_expansion_options(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptions) as refused:
        CARCASSONNE.setup(2, options)
    assert refused.value.code == "invalid-options"


def test_the_12_expansion_tiles_join_the_stack() -> None:
    assert len(EXPANSION_LETTERS) == 11
    base = CARCASSONNE.setup(2, {})
    assert base.tiles_left == 71 and base.total == 72
    assert all(base.stack[TYPE_INDEX[letter]] == 0 for letter in EXPANSION_LETTERS)
    state = CARCASSONNE.setup(2, BCB)
    assert state.tiles_left == 83 and state.total == 84
    assert {letter: state.stack[TYPE_INDEX[letter]] for letter in EXPANSION_LETTERS} == {
        letter: 2 if letter == "BB1" else 1 for letter in EXPANSION_LETTERS
    }
    assert state.stack[: TYPE_INDEX["X"] + 1] == base.stack[: TYPE_INDEX["X"] + 1]
    assert CARCASSONNE.view(state, Viewer())["stack"]["BB1"] == 2
    listed = CARCASSONNE.setup(2, {**BCB, "stack": ["BB7", "BB1", "BB1"]})
    assert listed.script == [TYPE_INDEX["BB7"], TYPE_INDEX["BB1"], TYPE_INDEX["BB1"]]


@pytest.mark.parametrize(("players", "allowed"), [(5, True), (6, True), (7, False), (1, False)])
def test_two_to_six_players_with_the_expansion(players: int, allowed: bool) -> None:
    if allowed:
        assert CARCASSONNE.setup(players, BCB).players == players
    else:
        with pytest.raises(InvalidOptions) as refused:
            CARCASSONNE.setup(players, BCB)
        assert refused.value.code == "invalid-player-count"


def test_the_base_game_stays_at_five_players() -> None:
    with pytest.raises(InvalidOptions) as refused:
        CARCASSONNE.setup(6, {})
    assert refused.value.code == "invalid-player-count"
    assert CARCASSONNE.max_players == 5


@pytest.mark.parametrize(("players", "each"), [(2, 3), (3, 3), (4, 3), (5, 2), (6, 2)])
def test_bridge_and_castle_tokens(players: int, each: int) -> None:
    state = CARCASSONNE.setup(players, BCB)
    assert state.bridges == [each] * players and state.castles == [each] * players
    shown = CARCASSONNE.view(state, Viewer())
    assert shown["options"]["expansions"] == ["bridges-castles-bazaars"]
    assert [(p["bridges"], p["castles"]) for p in shown["players"]] == [(each, each)] * players
    assert CARCASSONNE.state_from_json(CARCASSONNE.state_to_json(state)) == state


def test_the_base_view_has_no_tokens() -> None:
    shown = CARCASSONNE.view(CARCASSONNE.setup(2, {}), Viewer())
    assert shown["options"] == {"farmers": "per-field", "small-city-points": 4}
    assert set(shown["players"][0]) == {"seat", "score", "followers"}


@pytest.mark.parametrize("seed", range(12))
def test_random_games_with_the_expansion_keep_every_law(seed: int) -> None:
    # the random moves include bridges: the invariants and the independent recount hold
    # after every event, and replaying the events alone gives the same table
    players = 2 + seed % 5
    farmers = ("per-field", "per-city", "per-field-once")[seed % 3]
    options = {**BCB, "farmers": farmers}
    placed: set[str] = set()
    log: list[Event] = []
    for state, step in random_game(players, seed, options):
        assert CARCASSONNE.check_invariants(state) == [], (seed, step.events)
        placed |= {e.data["tile"] for e in step.events if e.type == "TilePlaced"}
        log += step.events
    assert CARCASSONNE.outcome(state) is not None
    assert len(state.tiles) + len(state.discarded) == 84
    assert placed & set(EXPANSION_LETTERS)
    laid = [e for e in log if e.type == "BridgePlaced" or "bridge" in e.data]
    assert len(laid) == len(state.bridge_log) and laid
    assert sum(state.bridges) == players * (3 if players <= 4 else 2) - len(laid)
    replayed = CARCASSONNE.setup(players, options)
    for event in log:
        CARCASSONNE.evolve(replayed, event)
    assert replayed == state
    assert CARCASSONNE.state_from_json(CARCASSONNE.state_to_json(state)) == state


@pytest.mark.parametrize("seed", range(3))
def test_every_listed_bridge_move_is_accepted(seed: int) -> None:
    for turn, (state, _step) in enumerate(random_game(3, seed, BCB)):
        if turn % 10 or not CARCASSONNE.current_players(state):
            continue
        player = CARCASSONNE.current_players(state)[0]
        for move in CARCASSONNE.legal_moves(state, player):
            if isinstance(move, Bridged):
                CARCASSONNE.apply(state, player, move, RandomStream("x", state.random_position))
                assert CARCASSONNE.parse_notation(CARCASSONNE.notation(move)) == move


def test_random_games_build_trigger_and_vacate_castles() -> None:
    # castles in random play (rules, "Castles"): every decision is offered to one seat,
    # answered through legal_moves, survives a snapshot, and the laws hold throughout
    seen: Counter[str] = Counter()
    for seed in range(30):
        options = {**BCB, "farmers": ("per-field", "per-city", "per-field-once")[seed % 3]}
        for state, step in random_game(2 + seed % 5, seed, options):
            seen.update(event.type for event in step.events)
            if state.pending is not None:
                seat = state.pending["player"]
                assert CARCASSONNE.current_players(state) == [seat]
                assert CARCASSONNE.legal_moves(state, seat)
                assert CARCASSONNE.state_from_json(CARCASSONNE.state_to_json(state)) == state
                assert CARCASSONNE.check_invariants(state) == []
        built = sum(1 for site in state.sites)
        assert sum(state.castles) + built == state.players * (3 if state.players <= 4 else 2)
    for kind in ("CastleOffered", "CastleBuilt", "CastleDeclined", "CastleScored", "CastleVacated"):
        assert seen[kind], kind


@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("variant", ["auction", "no-auction"])
def test_random_games_with_bazaars_keep_every_law(players: int, variant: str) -> None:
    # bazaars in random play (rules, "Bazaars"): one seat acts at a time, the laws hold
    # after every event (the 84 tiles counting revealed ones), and the independent recount,
    # which applies the recorded auction payments, agrees at the end
    options = {**BCB, "bazaar": variant}
    seen: Counter[str] = Counter()
    for seed in range(3):
        for state, step in random_game(players, 100 + seed, options):
            seen.update(event.type for event in step.events)
            assert CARCASSONNE.check_invariants(state) == [], (seed, step.events)
            if state.bazaar is not None and state.bazaar["stage"] == "auction":
                assert len(CARCASSONNE.current_players(state)) == 1
        assert CARCASSONNE.outcome(state) is not None
        assert len(state.tiles) + len(state.discarded) == 84
    assert seen["AuctionOpened"] and seen["BazaarClosed"]
    assert seen["TilePicked" if variant == "no-auction" else "BidMade"]


@pytest.mark.parametrize("variant", ["auction", "no-auction"])
def test_a_foreseen_placement_decides_what_the_look_ahead_decides(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # docs/carcassonne.md, "Foreseeing completions": an expansion placement of no bazaar
    # tile and with no bridge laid beside it first that completes nothing skips the castle
    # steps and goes on from the table before it (the next draw or bazaar turn); every move
    # of seeded games, decided once that way and once with the look-ahead on turn.state for
    # every placement, gives the same events
    foresee = carcassonne_turn._foreseen  # the decision under test

    def look_ahead(within: Turn[CarcassonneState], state: CarcassonneState, kind: int) -> bool:
        del within, kind
        return not state.expansion

    quiet = 0
    for seed in range(4):
        for _state, step in random_game(2 + seed, 200 + seed, {**BCB, "bazaar": variant}):
            if step.move is None:
                continue
            stream = RandomStream(f"game-{200 + seed}", step.before.random_position)
            monkeypatch.setattr(carcassonne_turn, "_foreseen", look_ahead)
            expected = CARCASSONNE.apply(step.before, step.player, step.move, stream)
            monkeypatch.setattr(carcassonne_turn, "_foreseen", foresee)
            stream = RandomStream(f"game-{200 + seed}", step.before.random_position)
            assert CARCASSONNE.apply(step.before, step.player, step.move, stream) == expected
            assert expected == step.events
            placed = [e for e in expected if e.type == "TilePlaced"]
            quiet += bool(placed) and not any(e.type == "FeatureScored" for e in expected)
    assert quiet > 100, quiet
